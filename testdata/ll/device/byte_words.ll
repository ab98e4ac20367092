; Byte vectors on 32-bit words (pass/src/tuning/byte_words.rs), a late
; device rewrite: `'a' <= c <= 'z' ? c - 32 : c` on four bytes at once (an
; add, a range check and a select of `<4 x i8>`) is computed on the i32
; word that holds them; a vector of three bytes stays.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @lower(
; TUNED: %v = load <4 x i8>, ptr %in, align 4
; TUNED-NOT: <4 x i1>
; TUNED: %sl1.bytes = bitcast <4 x i8> %v to i32
; TUNED-NOT: <4 x i1>
; TUNED: [[WORD:%[a-z0-9.]+]] = xor i32 %sl1.bytes{{[0-9]*}}, {{%[0-9]+}}
; TUNED-NEXT: [[OUT:%[a-z0-9.]+]] = bitcast i32 [[WORD]] to <4 x i8>
; TUNED-NEXT: store <4 x i8> [[OUT]], ptr %out, align 4
; TUNED-LABEL: define ptx_kernel void @odd(
; TUNED: %r = add <3 x i8> %v,
;
; EARLY-LABEL: define ptx_kernel void @lower(
; EARLY: %c = icmp ult <4 x i8> %a,
; EARLY: %r = select <4 x i1> %c, <4 x i8> %u, <4 x i8> %v
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @lower(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %v = load <4 x i8>, ptr %in, align 4
  %a = add <4 x i8> %v, splat (i8 -97)
  %c = icmp ult <4 x i8> %a, splat (i8 26)
  %u = add <4 x i8> %v, splat (i8 -32)
  %r = select <4 x i1> %c, <4 x i8> %u, <4 x i8> %v
  store <4 x i8> %r, ptr %out, align 4
  ret void
}

define ptx_kernel void @odd(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %v = load <3 x i8>, ptr %in, align 4
  %r = add <3 x i8> %v, splat (i8 -32)
  store <3 x i8> %r, ptr %out, align 4
  ret void
}

; Narrow sums (pass/src/tuning/narrow_sums.rs), a late device rewrite: a
; 64-bit sum of zero-extended narrow values (two booleans, an i16, an i8)
; adds them in 32 bits first, into two running sums, and the result once to
; the wide values. In @two_uses the partial sum `%pair` has a second user:
; left as it is.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @counts(
; TUNED-NOT: zext i1 %ca to i64
; TUNED: zext i1 %ca to i32
; TUNED: zext i1 %cb to i32
; TUNED: zext i16 %h to i32
; TUNED: zext i8 %q to i32
; TUNED: add i32
; TUNED: [[WIDE:%[a-z0-9.]+]] = zext i32 {{%[a-z0-9.]+}} to i64
; TUNED-NEXT: {{%[0-9]+}} = add i64 %words, [[WIDE]]
; TUNED-LABEL: define ptx_kernel void @two_uses(
; TUNED: %za = zext i8 %a to i64
; TUNED-NEXT: %pair = add i64 %words, %za
; TUNED-NOT: i32
; TUNED: ret void
;
; EARLY-LABEL: define ptx_kernel void @counts(
; EARLY-NOT: i32
; EARLY: %s5 = add i64 %zq, %s4
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @counts(ptr noalias %out, i64 %words, i8 %a, i8 %b, i64 %w, i16 %h, i8 %q) {
entry:
  %ca = icmp ne i8 %a, 0
  %za = zext i1 %ca to i64
  %s1 = add i64 %words, %za
  %cb = icmp ne i8 %b, 0
  %zb = zext i1 %cb to i64
  %s2 = add i64 %s1, %zb
  %s3 = add i64 %s2, %w
  %zh = zext i16 %h to i64
  %s4 = add i64 %s3, %zh
  %zq = zext i8 %q to i64
  %s5 = add i64 %zq, %s4
  store i64 %s5, ptr %out, align 8
  ret void
}

define ptx_kernel void @two_uses(ptr noalias %out, i64 %words, i8 %a, i8 %b) {
entry:
  %za = zext i8 %a to i64
  %pair = add i64 %words, %za
  %zb = zext i8 %b to i64
  %s = add i64 %pair, %zb
  %t = mul i64 %pair, %s
  store i64 %t, ptr %out, align 8
  ret void
}

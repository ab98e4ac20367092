; A cycle with two entries (irreducible control flow): the chunk loop is
; entered at `a` or at `b` depending on the first byte. No natural loop, so
; S-L1 leaves the kernel as it is and says so.
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
;
; Left exactly as it was, by default and with the paper's options (the
; report: no main loop, and a note on the irreducible cycle): both entries
; of the cycle stay, no S-L1 block is put in front of either.
; CHECK-NOT: sl1
; CHECK-LABEL: define ptx_kernel void @irreducible(
; CHECK: br i1 %odd, label %a, label %b
; CHECK: a:
; CHECK: store i8 %c.a, ptr %dst.a, align 1
; CHECK: br i1 %more.a, label %b, label %exit
; CHECK: b:
; CHECK: store i8 %d.b, ptr %dst.b, align 1
; CHECK: br i1 %more.b, label %a, label %exit
; CHECK-NOT: sl1
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @irreducible(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %first = load i8, ptr %in, align 1
  %odd = icmp ugt i8 %first, 64
  br i1 %odd, label %a, label %b

a:
  %i.a = phi i64 [ %begin, %entry ], [ %next.b, %b ]
  %src.a = getelementptr inbounds i8, ptr %in, i64 %i.a
  %c.a = load i8, ptr %src.a, align 1
  %dst.a = getelementptr inbounds i8, ptr %out, i64 %i.a
  store i8 %c.a, ptr %dst.a, align 1
  %next.a = add nuw i64 %i.a, 1
  %more.a = icmp ult i64 %next.a, %end
  br i1 %more.a, label %b, label %exit

b:
  %i.b = phi i64 [ %begin, %entry ], [ %next.a, %a ]
  %src.b = getelementptr inbounds i8, ptr %in, i64 %i.b
  %c.b = load i8, ptr %src.b, align 1
  %d.b = xor i8 %c.b, 32
  %dst.b = getelementptr inbounds i8, ptr %out, i64 %i.b
  store i8 %d.b, ptr %dst.b, align 1
  %next.b = add nuw i64 %i.b, 1
  %more.b = icmp ult i64 %next.b, %end
  br i1 %more.b, label %a, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

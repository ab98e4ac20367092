; No restrict: `in` and `out` may be the same buffer (an in-place caller).
;
; SL1-RUN: CHECK
;
; Aliased mode: a load through `in` looks up `in`'s line, then `out`'s
; (either may hold the address); only a miss in both fills, so no two lines
; ever hold one memory line.
; CHECK-LABEL: define ptx_kernel void @aliased_inplace(
; CHECK: loop.sl1.cached16:
; CHECK: %line.i[[N:[0-9]+]] = and i64 %a.i{{[0-9]+}}, -16
; CHECK: %holds.i{{[0-9]+}} = icmp eq i64 %sl1.in.tag.2, %line.i[[N]]
; CHECK-NEXT: br i1 %holds.i{{[0-9]+}}, label %hit.i{{[0-9]+}}, label %[[OTHER:lookup.i[0-9]+]]
; CHECK: [[OTHER]]:
; CHECK-NEXT: %holds2.i{{[0-9]+}} = icmp eq i64 %sl1.out.tag.2, %line.i[[N]]
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @aliased_inplace(ptr %in, ptr %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %x = xor i32 %v, 32
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %x, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A histogram: bytes read from `in`, counts bumped atomically in `hist`.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @histogram(ptr noalias readonly %in, ptr noalias %hist, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %bin = zext i8 %c to i64
  %slot = getelementptr inbounds i32, ptr %hist, i64 %bin
  %old = atomicrmw add ptr %slot, i32 1 syncscope("device") monotonic, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

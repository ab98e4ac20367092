; A kernel marked the older way, through !nvvm.annotations, beside a device
; function that is not a kernel.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @helper(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}

define void @annotated(ptr noalias %data, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds i64, ptr %data, i64 %i64
  %v = load i64, ptr %p, align 8
  %w = shl i64 %v, 1
  store i64 %w, ptr %p, align 8
  %next = add nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @annotated, !"kernel", i32 1}

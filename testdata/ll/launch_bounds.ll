; __launch_bounds__(256): the line buffer is sized for 256 threads, not 1024.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @bounded(ptr noalias readonly %in, ptr noalias %out, i64 %n) #0 {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %src, align 2
  %dst = getelementptr inbounds i16, ptr %out, i64 %i
  store i16 %v, ptr %dst, align 2
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

attributes #0 = { "nvvm.maxntid"="256" }

; Two main loops one after the other: a copy, then a sum over the copy.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @two_loops(ptr noalias readonly %in, ptr noalias %tmp, ptr noalias %sum, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %copy, label %exit

copy:
  %i = phi i64 [ 0, %entry ], [ %i.next, %copy ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %tmp, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %i.done = icmp eq i64 %i.next, %n
  br i1 %i.done, label %add, label %copy

add:
  %j = phi i64 [ %j.next, %add ], [ 0, %copy ]
  %acc = phi i32 [ %acc.next, %add ], [ 0, %copy ]
  %p = getelementptr inbounds i32, ptr %tmp, i64 %j
  %w = load i32, ptr %p, align 4
  %acc.next = add i32 %acc, %w
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %n
  br i1 %j.done, label %done, label %add

done:
  store i32 %acc.next, ptr %sum, align 4
  br label %exit

exit:
  ret void
}

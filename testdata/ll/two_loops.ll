; Two main loops one after the other: a copy of each thread's chunk, then a
; sum over the copy that also bumps each copied element (so that both loops
; write, and both are sliced).
;
; SL1-RUN: CHECK
;
; Two sliced loops: the decision sizes lines for the kernel's two cached
; structures (a 32 B line and its 4 B of padding: 72 B a thread), so both
; loops of a block pick one size, from one test.
; CHECK-LABEL: define ptx_kernel void @two_loops(
; CHECK: sl1.preheader:
; The lane test: the neighbouring lane's address, by shuffle.
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; CHECK-NEXT: [[ROOM:%[0-9]+]] = icmp ult i32 [[NEED]], 40961
; CHECK-NEXT: %sl1.line.size = select i1 [[ROOM]], i32 32, i32 16
; CHECK: {{^}}sl1.pick.line:
; CHECK-NEXT: br i1 [[ROOM]], label %copy.sl1.cached32, label %copy.sl1.cached16
; CHECK: br i1 [[ROOM]], label %add.sl1.cached32, label %add.sl1.cached16
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @two_loops(ptr noalias readonly %in, ptr noalias %tmp, ptr noalias %sum, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %copy, label %exit

copy:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %copy ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %tmp, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %i.done = icmp eq i64 %i.next, %end
  br i1 %i.done, label %add, label %copy

add:
  %j = phi i64 [ %j.next, %add ], [ %begin, %copy ]
  %acc = phi i32 [ %acc.next, %add ], [ 0, %copy ]
  %p = getelementptr inbounds i32, ptr %tmp, i64 %j
  %w = load i32, ptr %p, align 4
  %acc.next = add i32 %acc, %w
  %w.next = add i32 %w, 1
  store i32 %w.next, ptr %p, align 4
  %j.next = add nuw i64 %j, 1
  %j.done = icmp eq i64 %j.next, %end
  br i1 %j.done, label %done, label %add

done:
  %out = getelementptr inbounds i32, ptr %sum, i64 %tid64
  store i32 %acc.next, ptr %out, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Loops that at most one lane of a warp runs (analysis/lone_lane.rs) are
; left as they are; loops that whole rows or all but one lane run are not.
; - @first_thread: `if (threadIdx.x == 0)` around a byte loop: left alone.
; - @last_in_grid: `if (blockIdx.x * blockDim.x + threadIdx.x == n - 1)`:
;   left alone.
; - @first_row: `if (threadIdx.y == 0)`: a whole row of lanes, transformed.
; - @all_but_first: the loop on the other side of `threadIdx.x == 0`:
;   transformed.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @first_thread(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %cond = icmp eq i32 %tid, 0
  br i1 %cond, label %pre, label %exit

pre:
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %pre ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  %x = load i8, ptr %src, align 1
  %y = xor i8 %x, 32
  store i8 %y, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @last_in_grid(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %gid = add i32 %base, %tid
  %last = add i32 %n, -1
  %cond = icmp eq i32 %gid, %last
  br i1 %cond, label %pre, label %exit

pre:
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %pre ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  %x = load i8, ptr %src, align 1
  %y = xor i8 %x, 32
  store i8 %y, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @first_row(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %cond = icmp eq i32 %tidy, 0
  br i1 %cond, label %pre, label %exit

pre:
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %pre ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  %x = load i8, ptr %src, align 1
  %y = xor i8 %x, 32
  store i8 %y, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @all_but_first(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %cond = icmp eq i32 %tid, 0
  br i1 %cond, label %exit, label %pre

pre:
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %pre ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  %x = load i8, ptr %src, align 1
  %y = xor i8 %x, 32
  store i8 %y, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

; Loops that at most one lane of a warp runs (analysis/lone_lane.rs) are
; left as they are; loops that whole rows or all but one lane run are not.
; - @first_thread: `if (threadIdx.x == 0)` around a byte loop: left alone.
; - @last_in_grid: `if (blockIdx.x * blockDim.x + threadIdx.x == n - 1)`:
;   left alone.
; - @first_row: `if (threadIdx.y == 0)`: a whole row of lanes, transformed.
; - @all_but_first: the loop on the other side of `threadIdx.x == 0`:
;   transformed.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; Line buffers for the two kernels that are transformed only; the loops
; one lane of a warp runs stay exactly as they were (the report:
; lone_lane, guard at `entry`).
; ALL-NOT: @sl1.lines.first_thread
; ALL-NOT: @sl1.lines.last_in_grid
; ALL: @sl1.lines.first_row = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL: @sl1.lines.all_but_first = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL-LABEL: define ptx_kernel void @first_thread(
; ALL-NOT: sl1
; ALL: br i1 %cond, label %pre, label %exit
; ALL: br i1 %empty, label %exit, label %loop
; ALL: store i8 %y, ptr %dst, align 1
; ALL: br i1 %more, label %loop, label %exit
; ALL-NOT: sl1
; ALL-LABEL: define ptx_kernel void @last_in_grid(
; ALL-NOT: sl1
; ALL: br i1 %cond, label %pre, label %exit
; ALL: br i1 %more, label %loop, label %exit
; ALL-NOT: sl1
; A row of lanes, and all lanes but one: sliced behind their guards.
; ALL-LABEL: define ptx_kernel void @first_row(
; ALL: br i1 %cond, label %pre, label %exit
; CHECK: br i1 %empty, label %exit, label %sl1.warp.preheader
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}loop.sl1.cached128:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.line.size = select i1
; PAPER: br i1 %empty, label %exit, label %sl1.warp.preheader
; PAPER: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.decide:
; ALL: {{^}}sl1.flush.exit{{[0-9]+}}:
; ALL-LABEL: define ptx_kernel void @all_but_first(
; ALL: br i1 %cond, label %exit, label %pre
; CHECK: br i1 %empty, label %exit, label %sl1.warp.preheader
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}sl1.decide:
; PAPER: br i1 %empty, label %exit, label %sl1.warp.preheader
; PAPER: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.decide:
; ALL: {{^}}sl1.flush.exit{{[0-9]+}}:
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

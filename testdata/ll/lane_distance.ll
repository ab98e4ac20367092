; Per-thread chunk loops for the lane test (transform/lanes.rs):
; `copy_words` reads and writes 4-byte words of two restrict arrays (each
; structure only read or only written: under the test), `add_in_place`
; reads and writes the same words (read-modify-write: not tested),
; `accumulate` reads words beside such a structure (so its loop is not
; tested either), and `copy_bytes` moves single bytes (narrow: not tested).
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; All four kernels are cached; only @copy_words gets the lane test (the
; neighbouring lane's address by shuffle, for each of its structures:
; lanes under 128 B apart share the hardware's lines).
; ALL: @sl1.lines.copy_words = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL: @sl1.lines.add_in_place = internal addrspace(3) global [20480 x i8] poison, align 16
; ALL: @sl1.lines.accumulate = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL: @sl1.lines.copy_bytes = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL-LABEL: define ptx_kernel void @copy_words(
; ALL: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; ALL: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; ALL: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; ALL-DAG: %sl1.lanes.distance = call i32 @llvm.abs.i32(
; ALL-DAG: icmp ugt i32 %sl1.lanes.distance, 127
; ALL-DAG: %sl1.lanes.apart = or i1
; ALL-DAG: [[APART2:%sl1.lanes.apart[0-9]+]] = or i1
; By default the test feeds the decision directly (the strides are
; predicted); with the paper's options lanes far enough apart are monitored
; first.
; CHECK: select i1 [[APART2]], i32 %sl1.threads, i32 0
; CHECK: {{^}}loop.sl1.cached16:
; PAPER-NEXT: [[APART:%[0-9]+]] = or i1 %sl1.lanes.apart, [[APART2]]
; PAPER-NEXT: br i1 [[APART]], label %loop.sl1.monitor, label %sl1.decide
; PAPER: {{^}}sl1.decide:
; PAPER: and i1 {{%[0-9]+}}, %sl1.lanes.apart
; ALL-LABEL: define ptx_kernel void @add_in_place(
; ALL-NOT: sl1.lanes.
; CHECK: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}sl1.store.i32.a4.fetch.exit{{[0-9]+}}:
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}sl1.store.i32.a4.fetch.exit:
; ALL-NOT: sl1.lanes.
; ALL-LABEL: define ptx_kernel void @accumulate(
; ALL-NOT: sl1.lanes.
; CHECK: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; PAPER: {{^}}loop.sl1.monitor:
; ALL: {{^}}sl1.decide:
; ALL-NOT: sl1.lanes.
; ALL-LABEL: define ptx_kernel void @copy_bytes(
; ALL-NOT: sl1.lanes.
; CHECK: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}loop.sl1.cached128:
; PAPER: {{^}}loop.sl1.monitor:
; ALL: {{^}}sl1.decide:
; ALL-NOT: sl1.lanes.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @copy_words(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %c = load i32, ptr %src, align 4
  %d = add i32 %c, 1
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %d, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @add_in_place(ptr noalias %data, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %p = getelementptr inbounds i32, ptr %data, i64 %i
  %c = load i32, ptr %p, align 4
  %d = add i32 %c, 1
  store i32 %d, ptr %p, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @accumulate(ptr noalias readonly %in, ptr noalias %acc, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %x = load i32, ptr %src, align 4
  %p = getelementptr inbounds i32, ptr %acc, i64 %i
  %y = load i32, ptr %p, align 4
  %sum = add i32 %x, %y
  store i32 %sum, ptr %p, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @copy_bytes(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %d = add i8 %c, 1
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %d, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

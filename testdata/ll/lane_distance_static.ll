; Loops whose lanes' distance the IR settles (analysis/lane_step.rs):
; `broadcast` reads `xx[j]`, the same element in every lane (0 B apart),
; `keys16` reads 16-word keys at `keys + 16 * i` (64 B apart), `rows256`
; copies rows of 64 words (256 B apart: cached without a run-time test),
; `aliased_close` and `aliased_chunks` copy between arguments without
; restrict, lanes 8 B apart and a run-time chunk apart;
; `window_max` takes the maximum of a window per thread (rows of `%w`
; floats, read in an inner loop whose counter starts at 0 in every lane);
; `aliased_broadcast` is a row-per-thread product without restrict, the sum
; kept in `y[i]` (it may alias), every lane reading the same `x[j]`;
; `rebased` sums `xx[i - begin]` over each thread's chunk from `begin`.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; Lanes whose distance the IR settles need no run-time lane test: no
; kernel here has one. Buffers for the three kernels cached by default and
; with the paper's options: @rows256, @aliased_chunks, @aliased_broadcast.
; ALL-NOT: sl1.lanes
; ALL: @sl1.lines.rows256 = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL: @sl1.lines.aliased_chunks = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL: @sl1.lines.aliased_broadcast = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL-NOT: @sl1.lines
; Lanes 0 B and 64 B apart (the report: nothing predicted to pay; no main
; loop for the paper's options): left as they were.
; ALL-LABEL: define ptx_kernel void @broadcast(
; ALL-NOT: sl1
; ALL-LABEL: define ptx_kernel void @keys16(
; ALL-NOT: sl1
; Rows 256 B apart: cached, decided without monitoring.
; ALL-LABEL: define ptx_kernel void @rows256(
; ALL-NOT: sl1.lanes
; CHECK: {{^}}loop.sl1.cached128:
; CHECK: {{^}}sl1.pick.line{{[0-9]*}}: {{.*}}; preds = %sl1.decide
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}sl1.decide:
; ALL-LABEL: define ptx_kernel void @aliased_close(
; ALL-NOT: sl1
; Arguments without restrict, a run-time chunk apart: an aliased group.
; ALL-LABEL: define ptx_kernel void @aliased_chunks(
; ALL: %holds2.i{{[0-9]*}} = icmp eq i64 %sl1.out.tag.{{[0-9]+}}, %line.i{{[0-9]*}}
; ALL: {{^}}sl1.astore.i32.a4.g2.o1.exit{{[0-9]*}}:
; ALL-LABEL: define ptx_kernel void @window_max(
; ALL-NOT: sl1
; A row-per-thread product without restrict: `y` and `a` an aliased
; group, `x` (the same element in every lane) read directly; before that
; direct load the line of `y`, then of `a`, that holds its address is
; evicted (written back where dirty), not every line.
; ALL-LABEL: define ptx_kernel void @aliased_broadcast(
; ALL: {{^}}sl1.aload.float.a4.g2.o1.exit{{[0-9]*}}:
; ALL: [[HOLDS_Y:%[0-9]+]] = icmp eq i64 %sl1.y.tag.{{[0-9]+}}, [[LINE:%line.i[0-9]*]]
; ALL-NEXT: br i1 [[HOLDS_Y]], label %evict.i{{[0-9]*}}, label %sl1.evict.exit{{[0-9]*}}
; ALL: switch i32 %sl1.y.dirty.{{[0-9]+}}, label %pieces
; ALL: {{^}}sl1.evict.exit{{[0-9]*}}:
; ALL: [[HOLDS_A:%[0-9]+]] = icmp eq i64 %sl1.a.tag.{{[0-9]+}}, [[LINE]]
; ALL-NEXT: br i1 [[HOLDS_A]], label %evict.i{{[0-9]*}}, label %sl1.evict.exit{{[0-9]*}}
; ALL: {{^}}sl1.evict.exit{{[0-9]*}}:
; ALL: load float, ptr {{%[0-9]+}}, align 4
; ALL-LABEL: define ptx_kernel void @rebased(
; ALL-NOT: sl1
; ALL: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @broadcast(ptr noalias readonly %xx, ptr noalias %out, i32 %n) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %j = phi i32 [ 0, %entry ], [ %next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %j64 = zext i32 %j to i64
  %src = getelementptr inbounds float, ptr %xx, i64 %j64
  %x = load float, ptr %src, align 4
  %sum = fadd float %acc, %x
  %next = add nuw i32 %j, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %store, label %loop

store:
  %i64 = sext i32 %i to i64
  %dst = getelementptr inbounds float, ptr %out, i64 %i64
  store float %sum, ptr %dst, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @keys16(ptr noalias readonly %keys, ptr noalias %out, i32 %words) {
entry:
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %base = mul i32 %ctaid, %ntid
  %i = add i32 %base, %tid
  %first = shl i32 %i, 4
  %first64 = sext i32 %first to i64
  %key = getelementptr inbounds i32, ptr %keys, i64 %first64
  %empty = icmp sle i32 %words, 0
  br i1 %empty, label %exit, label %loop

loop:
  %p = phi ptr [ %key, %entry ], [ %pnext, %loop ]
  %left = phi i32 [ %words, %entry ], [ %lnext, %loop ]
  %h = phi i32 [ 0, %entry ], [ %mix, %loop ]
  %w = load i32, ptr %p, align 4
  %mix = xor i32 %h, %w
  %pnext = getelementptr inbounds i32, ptr %p, i64 1
  %lnext = add nsw i32 %left, -1
  %done = icmp eq i32 %lnext, 0
  br i1 %done, label %store, label %loop

store:
  %i64 = sext i32 %i to i64
  %dst = getelementptr inbounds i32, ptr %out, i64 %i64
  store i32 %mix, ptr %dst, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @rows256(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, 64
  %end = add i64 %begin, 64
  br label %loop

loop:
  %k = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %k
  %c = load i32, ptr %src, align 4
  %d = add i32 %c, 1
  %dst = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %d, ptr %dst, align 4
  %next = add nuw i64 %k, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @aliased_close(ptr readonly %in, ptr %out, i64 %pairs) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, 2
  %end = add i64 %begin, 2
  br label %loop

loop:
  %k = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %k
  %c = load i32, ptr %src, align 4
  %d = add i32 %c, 1
  %dst = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %d, ptr %dst, align 4
  %next = add nuw i64 %k, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @aliased_chunks(ptr readonly %in, ptr %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %k = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %k
  %c = load i32, ptr %src, align 4
  %d = add i32 %c, 1
  %dst = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %d, ptr %dst, align 4
  %next = add nuw i64 %k, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @window_max(ptr readonly %in, ptr %out, i64 %w, i64 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %x = mul i64 %tid64, 2
  %some = icmp ne i64 %rows, 0
  br i1 %some, label %row, label %exit

row:
  %r = phi i64 [ 0, %entry ], [ %rnext, %rowdone ]
  %m = phi float [ 0.0, %entry ], [ %mc, %rowdone ]
  %rw = mul i64 %r, %w
  %start = add i64 %rw, %x
  br label %col

col:
  %c = phi i64 [ 0, %row ], [ %cnext, %col ]
  %mi = phi float [ %m, %row ], [ %mx, %col ]
  %k = add i64 %start, %c
  %p = getelementptr inbounds float, ptr %in, i64 %k
  %v = load float, ptr %p, align 4
  %mx = call float @llvm.maxnum.f32(float %mi, float %v)
  %cnext = add nuw i64 %c, 1
  %cdone = icmp eq i64 %cnext, 2
  br i1 %cdone, label %rowdone, label %col

rowdone:
  %mc = phi float [ %mx, %col ]
  %rnext = add nuw i64 %r, 1
  %rdone = icmp eq i64 %rnext, %rows
  br i1 %rdone, label %store, label %row

store:
  %q = getelementptr inbounds float, ptr %out, i64 %tid64
  store float %mc, ptr %q, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @aliased_broadcast(ptr %y, ptr readonly %a, ptr readonly %x, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %row = mul i64 %i, %n
  %out = getelementptr inbounds float, ptr %y, i64 %i
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %next, %loop ]
  %at = add i64 %row, %j
  %pa = getelementptr inbounds float, ptr %a, i64 %at
  %va = load float, ptr %pa, align 4
  %px = getelementptr inbounds float, ptr %x, i64 %j
  %vx = load float, ptr %px, align 4
  %old = load float, ptr %out, align 4
  %prod = fmul float %va, %vx
  %sum = fadd float %old, %prod
  store float %sum, ptr %out, align 4
  %next = add nuw i64 %j, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @rebased(ptr noalias readonly %xx, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %sum, %loop ]
  %k = sub i64 %i, %begin
  %src = getelementptr inbounds float, ptr %xx, i64 %k
  %x = load float, ptr %src, align 4
  %sum = fadd float %acc, %x
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %store, label %loop

store:
  %dst = getelementptr inbounds float, ptr %out, i64 %t
  store float %sum, ptr %dst, align 4
  br label %exit

exit:
  ret void
}

declare float @llvm.maxnum.f32(float, float)

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

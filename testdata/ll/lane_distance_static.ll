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

; Tiles staged through __shared__ memory with __syncthreads() in the loop.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default each thread's `in` moves 1 KiB an iteration (a tile of 256
; floats): no line pays (the report: nothing_predicted_to_pay), the loop
; and its barriers stay as they were.
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @staged(
; CHECK-NOT: sl1
; CHECK: %v = load float, ptr %src, align 4
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK: br i1 %done, label %exit, label %loop
; CHECK-NOT: sl1
;
; With the paper's options: with a barrier in the loop every thread of the
; block runs it equally often: the monitoring slice is left block-wide
; (__syncthreads_or of "reached the threshold") and the cached copy chosen
; block-wide (__syncthreads_and), so all threads meet each barrier at one
; instruction; every copy of the loop keeps both barriers. The votes are
; LLVM 22's llvm.nvvm.barrier.cta.red.* and LLVM 19's llvm.nvvm.barrier0.*;
; LLVM 19 declares LLVM 22's barrier calls of this case without
; `convergent`, and the pass knows them by name.
; PAPER-LABEL: define ptx_kernel void @staged(
; PAPER: {{^}}sl1.latch.sl1.monitor:
; LLVM22-PAPER: %sl1.block = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 %sl1.monitored)
; LLVM22-PAPER-NEXT: br i1 %sl1.block, label %sl1.decide, label %loop.sl1.monitor
; LLVM19-PAPER: %sl1.block = call i32 @llvm.nvvm.barrier0.or(i32
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: {{^}}loop.sl1.cached:
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.staged, i64
; LLVM22-PAPER: %sl1.block{{[0-9]+}} = call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 %sl1.cached)
; LLVM22-PAPER-NEXT: %sl1.block{{[0-9]+}} = call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 %sl1.none.cached)
; LLVM22-PAPER-NEXT: br i1 %sl1.block{{[0-9]+}}, label %loop.sl1.cached, label %sl1.some.cached
; LLVM19-PAPER: %sl1.block{{[0-9]+}} = call i32 @llvm.nvvm.barrier0.and(i32
; LLVM19-PAPER: %sl1.block{{[0-9]+}} = call i32 @llvm.nvvm.barrier0.and(i32
; PAPER: {{^}}loop.sl1.plain:
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: {{^}}sl1.some.cached:
; LLVM22-PAPER-NEXT: br i1 %sl1.block{{[0-9]+}}, label %loop.sl1.plain, label %loop
; PAPER: {{^}}loop:
; PAPER: br i1 %sl1.cached, label %cached.i, label %direct.i
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; PAPER: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @staged(ptr noalias readonly %in, ptr noalias %out, i32 %tiles) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %sh = getelementptr inbounds [256 x float], ptr addrspace(3) @tile, i64 0, i64 %t64
  %has = icmp sgt i32 %tiles, 0
  br i1 %has, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %base = mul i32 %k, 256
  %idx = add i32 %base, %tid
  %idx64 = zext i32 %idx to i64
  %src = getelementptr inbounds float, ptr %in, i64 %idx64
  %v = load float, ptr %src, align 4
  store float %v, ptr addrspace(3) %sh, align 4
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %w = load float, ptr addrspace(3) %sh, align 4
  %acc.next = fadd float %acc, %w
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k.next = add nsw i32 %k, 1
  %done = icmp eq i32 %k.next, %tiles
  br i1 %done, label %exit, label %loop

exit:
  %r = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %dst = getelementptr inbounds float, ptr %out, i64 %t64
  store float %r, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

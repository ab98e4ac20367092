; Two main loops one after the other: a copy of each thread's chunk, then a
; sum over the copy that also bumps each copied element (so that both loops
; write, and both are sliced).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; Two sliced loops: the decision sizes lines for the kernel's two cached
; structures (a 32 B line and its 4 B of padding: 72 B a thread), so both
; loops of a block pick one size, from one test.
; CHECK: @sl1.lines.two_loops = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @two_loops(
; CHECK: {{^}}sl1.preheader:
; The lane test: the neighbouring lane's address, by shuffle.
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; LLVM22-CHECK-NEXT: [[ROOM:%[0-9]+]] = icmp ult i32 [[NEED]], 40961
; LLVM22-CHECK-NEXT: %sl1.line.size = select i1 [[ROOM]], i32 32, i32 16
; LLVM19-CHECK-NEXT: [[ROOM:%[0-9]+]] = icmp ugt i32 [[NEED]], 40960
; LLVM19-CHECK-NEXT: %sl1.line.size = select i1 [[ROOM]], i32 16, i32 32
; CHECK: %sl1.capacity = udiv i32 40960,
; The copy loop: `in` read through a line staged a run ahead, `tmp` written.
; CHECK: {{^}}copy.sl1.cached16.run:
; CHECK: {{^}}copy.sl1.cached16:
; CHECK: %sl1.stage.tag.0 = phi i64 [ -1, %sl1.pick.line ]
; CHECK: store <4 x i32> %storemerge, ptr addrspace(3) %sl1.line.cached, align 4
; CHECK: {{^}}copy.sl1.cached32:
; CHECK: {{^}}copy.sl1.plain:
; CHECK: {{^}}sl1.pick.line:
; LLVM22-CHECK-NEXT: br i1 [[ROOM]], label %copy.sl1.cached32, label %copy.sl1.cached16
; LLVM19-CHECK-NEXT: br i1 [[ROOM]], label %copy.sl1.cached16, label %copy.sl1.cached32
; Between the loops `tmp`'s dirty line goes back, and the second loop
; decides again: warps that ran the first loop's warp-range copy reach it
; without the first decision.
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK: icmp eq i32 %sl1.tmp.dirty.{{[0-9]+}}, 0
; CHECK: br i1 {{%.*}}, label %[[DECIDE2:sl1.decide[0-9]+]], label %wb.i{{[0-9]+}}
; The add loop reads and writes `tmp`: a miss writes the line back (dirty)
; and fills it; a store's line is fetched first.
; CHECK: {{^}}add.sl1.cached16:
; CHECK: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.tmp.tag.{{[0-9]+}}, %line.i{{[0-9]+}}
; CHECK: switch i32 %sl1.tmp.dirty.{{[0-9]+}}, label %pieces10.i.i{{[0-9]+}} [
; CHECK: {{^}}sl1.store.i32.a4.fetch.exit{{[0-9]+}}:
; CHECK: {{^}}add.sl1.cached32:
; CHECK: {{^}}[[DECIDE2]]: {{.*}}%sl1.warp.done
; CHECK: %sl1.threads{{[0-9]+}} = mul
; CHECK: br i1 %sl1.fits{{[0-9]+(.not)?}}, label %sl1.pick.line{{[0-9]+}}, label %add.sl1.plain
; CHECK: {{^}}sl1.pick.line{{[0-9]+}}:
; LLVM22-CHECK-NEXT: br i1 {{%[0-9]+}}, label %add.sl1.cached32, label %add.sl1.cached16
; LLVM19-CHECK-NEXT: br i1 {{%[0-9]+}}, label %add.sl1.cached16, label %add.sl1.cached32
; CHECK: {{^}}sl1.exit{{[0-9]+}}:
; CHECK: icmp eq i32 %sl1.tmp.dirty.{{[0-9]+}}, 0
;
; The paper's options: each loop monitored and decided on its own.
; PAPER: @sl1.lines.two_loops = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @two_loops(
; PAPER: {{^}}copy.sl1.monitor:
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER: {{^}}sl1.preheader:
; PAPER: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32
; PAPER: {{^}}copy.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER: br i1 %sl1.all.cached{{[0-9]*}}, label %copy.sl1.cached, label %sl1.some.cached
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; PAPER: {{^}}sl1.latch{{[0-9]+}}.sl1.monitor:
; PAPER: br i1 %sl1.monitored{{[0-9]+}}, label %[[DECIDE2:sl1.decide[0-9]+]], label %add.sl1.monitor
; PAPER: {{^}}add.sl1.monitor:
; PAPER: %sl1.tmp.sim.tag.{{[0-9]+}} = phi i64
; PAPER: {{^}}add.sl1.cached:
; PAPER: {{^}}sl1.store.i32.a4.fetch.exit:
; PAPER: {{^}}[[DECIDE2]]:
; PAPER: %sl1.threads{{[0-9]+}} = mul
; PAPER: {{^}}add.sl1.plain:
; PAPER: {{^}}sl1.exit{{[0-9]+}}:
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

; Naive matrix multiply: two loops nested inside the row loop.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default the main loop only reads `a` and `b` (each `c` store is its
; own, cold): left to the hardware L1 as it was (the report: only_reads).
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @matmul(
; CHECK-NOT: sl1
; CHECK: {{^}}dot:
; CHECK: %va = load float, ptr %pa, align 4
; CHECK: %vb = load float, ptr %pb, align 4
; CHECK: store float %acc.next, ptr %pc, align 4
; CHECK-NOT: sl1
;
; With the paper's options the row loop `cols` is sliced with the inner
; loop in each copy: `a` (a row per thread) goes through a 16 B line, `b`
; stays direct (every lane reads one element: lanes close), and the store
; to `c` stays direct (cold).
; PAPER: @sl1.lines.matmul = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @matmul(
; PAPER: br i1 %pos, label %cols.sl1.monitor, label %exit
; PAPER: {{^}}sl1.latch.sl1.monitor:
; PAPER: br i1 %sl1.monitored, label %sl1.decide, label %cols.sl1.monitor
; PAPER: {{^}}cols.sl1.monitor:
; PAPER: {{^}}dot.sl1.monitor:
; PAPER: %sl1.a.sim.tag.{{[0-9]+}} = phi i64
; PAPER-NOT: %sl1.b.sim
; PAPER: {{^}}cols.sl1.cached:
; PAPER: %sl1.a.tag.{{[0-9]+}} = phi i64 [ -1, %sl1.decide ]
; PAPER: {{^}}dot.sl1.cached:
; PAPER: br i1 %hit.i{{[0-9]+}}, label %sl1.load.float.a4.exit, label %fill.i
; PAPER: {{^}}fill.i:
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: {{^}}sl1.load.float.a4.exit:
; PAPER: %v2.i = load float, ptr addrspace(3) %s1.i, align 4
; PAPER: [[B:%[0-9]+]] = getelementptr inbounds float, ptr %b,
; PAPER-NEXT: load float, ptr [[B]], align 4
; PAPER: br i1 {{%[0-9]+}}, label %cols.latch.sl1.cached, label %dot.sl1.cached
; PAPER: {{^}}cols.latch.sl1.cached:
; PAPER: [[C:%[0-9]+]] = getelementptr inbounds float, ptr %c,
; PAPER-NEXT: store float {{%[0-9]+}}, ptr [[C]], align 4
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.matmul, i64
; PAPER: br i1 %sl1.cached.not, label %cols.sl1.plain, label %cols.sl1.cached
; PAPER: {{^}}dot.sl1.plain:
; PAPER: {{^}}cols.latch.sl1.plain:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @matmul(ptr noalias readonly %a, ptr noalias readonly %b, ptr noalias %c, i32 %n) {
entry:
  %row = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %cols, label %exit

cols:
  %j = phi i32 [ 0, %entry ], [ %j.next, %cols.latch ]
  br label %dot

dot:
  %k = phi i32 [ 0, %cols ], [ %k.next, %dot ]
  %acc = phi float [ 0.0, %cols ], [ %acc.next, %dot ]
  %rn = mul i32 %row, %n
  %ai = add i32 %rn, %k
  %ai64 = sext i32 %ai to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %ai64
  %va = load float, ptr %pa, align 4
  %kn = mul i32 %k, %n
  %bi = add i32 %kn, %j
  %bi64 = sext i32 %bi to i64
  %pb = getelementptr inbounds float, ptr %b, i64 %bi64
  %vb = load float, ptr %pb, align 4
  %m = fmul float %va, %vb
  %acc.next = fadd float %acc, %m
  %k.next = add nsw i32 %k, 1
  %k.done = icmp eq i32 %k.next, %n
  br i1 %k.done, label %cols.latch, label %dot

cols.latch:
  %ci = add i32 %rn, %j
  %ci64 = sext i32 %ci to i64
  %pc = getelementptr inbounds float, ptr %c, i64 %ci64
  store float %acc.next, ptr %pc, align 4
  %j.next = add nsw i32 %j, 1
  %j.done = icmp eq i32 %j.next, %n
  br i1 %j.done, label %exit, label %cols

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

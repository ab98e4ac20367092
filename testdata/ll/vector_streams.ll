; Read-only restrict streams and the late vector loads (transform/plan.rs):
; - @row_dot: each thread reads its own row of `m` 4 B a step in a loop of
;   one block that writes nothing (HeCBench tensorAccessor's row-per-thread
;   product): the vector loads read it 16 B at a time, so the loop is left
;   to them; without the vector loads `m` is cached in line runs.
; - @scatter: the same kind of stream, but the loop stores through an index
;   it reads: the rewrite leaves loads with a store between them apart, so
;   the streams are cached either way.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: TUNED --device-tuning
;
; Without the device tuning (so without the vector loads), by default:
; @row_dot's `m` is cached after the lane test (lanes under 128 B apart
; run the plain copy), in line runs with lines up to 128 B; `v`, the same
; element in every lane, stays direct (lanes close).
; CHECK: @sl1.lines.row_dot = internal addrspace(3) global [20480 x i8] poison, align 16
; CHECK: @sl1.lines.scatter = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @row_dot(
; CHECK: br i1 %empty, label %done, label %sl1.preheader
; CHECK: {{^}}sl1.preheader:
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; CHECK: %sl1.capacity = udiv i32 20480,
; CHECK: br i1 %sl1.cached.not, label %loop.sl1.plain, label %sl1.pick.line{{[0-9]*}}
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.m.tag.{{[0-9]+}}, %line.i{{[0-9]+}}
; CHECK: load float, ptr addrspace(3) %s{{[0-9]+}}.i{{[0-9]+}}, align 4
; CHECK-NEXT: [[V:%[0-9]+]] = getelementptr inbounds float, ptr %v,
; CHECK-NEXT: load float, ptr [[V]], align 4
; CHECK-NOT: %sl1.v.
; CHECK: {{^}}loop.sl1.cached128:
; CHECK: {{^}}loop.sl1.plain:
; @scatter: `in` and `idx` cached, the store through the index direct.
; CHECK-LABEL: define ptx_kernel void @scatter(
; CHECK: {{^}}sl1.preheader:
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: %sl1.in.tag.{{[0-9]+}} = phi i64 [ -1, %sl1.pick.line{{[0-9]*}} ]
; CHECK: {{^}}sl1.load.i32.a4.staged.exit{{[0-9]+}}:
; CHECK: store i32 %v{{[0-9]+}}.i{{[0-9]+}}, ptr {{%[0-9]+}}, align 4
;
; With the device tuning the vector loads take @row_dot's stream: the
; kernel is left as it was, no buffer; @scatter is cached as before.
; TUNED-NOT: @sl1.lines.row_dot
; TUNED: @sl1.lines.scatter = internal addrspace(3) global [40960 x i8] poison, align 16
; TUNED-LABEL: define ptx_kernel void @row_dot(
; TUNED-NOT: sl1
; TUNED: %x = load float, ptr %pm, align 4
; TUNED: br i1 %more, label %loop, label %done
; TUNED-LABEL: define ptx_kernel void @scatter(
; TUNED: {{^}}sl1.preheader:
; TUNED: {{^}}loop.sl1.cached16:
;
; The paper's options: both monitored, 16 B lines; @scatter's `out` gets a
; line too.
; PAPER: @sl1.lines.row_dot = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER: @sl1.lines.scatter = internal addrspace(3) global [49152 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @row_dot(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.m.sim.tag.{{[0-9]+}} = phi i64
; PAPER-NOT: %sl1.v.sim
; PAPER: {{^}}sl1.preheader:
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER-LABEL: define ptx_kernel void @scatter(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.out.sim.tag.{{[0-9]+}} = phi i64
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @row_dot(ptr noalias %r, ptr noalias readonly %m, ptr noalias readonly %v, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %block = mul i32 %ctaid, %ntid
  %t = add i32 %block, %tid
  %i = zext i32 %t to i64
  %row = mul i64 %i, %n
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %at = add nuw nsw i64 %row, %j
  %pm = getelementptr inbounds float, ptr %m, i64 %at
  %x = load float, ptr %pm, align 4
  %pv = getelementptr inbounds float, ptr %v, i64 %j
  %y = load float, ptr %pv, align 4
  %p = fmul float %x, %y
  %acc.next = fadd float %acc, %p
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp ult i64 %j.next, %n
  br i1 %more, label %loop, label %done

done:
  %sum = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %pr = getelementptr inbounds float, ptr %r, i64 %i
  store float %sum, ptr %pr, align 4
  ret void
}

define ptx_kernel void @scatter(ptr noalias readonly %in, ptr noalias readonly %idx, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %block = mul i32 %ctaid, %ntid
  %t = add i32 %block, %tid
  %t64 = zext i32 %t to i64
  %begin = mul i64 %t64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %done, label %loop

loop:
  %k = phi i64 [ %begin, %entry ], [ %k.next, %loop ]
  %pi = getelementptr inbounds i32, ptr %in, i64 %k
  %x = load i32, ptr %pi, align 4
  %px = getelementptr inbounds i32, ptr %idx, i64 %k
  %to = load i32, ptr %px, align 4
  %to64 = zext i32 %to to i64
  %po = getelementptr inbounds i32, ptr %out, i64 %to64
  store i32 %x, ptr %po, align 4
  %k.next = add nuw i64 %k, 1
  %more = icmp ult i64 %k.next, %end
  br i1 %more, label %loop, label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

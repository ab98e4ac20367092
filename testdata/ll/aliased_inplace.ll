; No restrict: `in` and `out` may be the same buffer (an in-place caller).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; The lane test first: the neighbouring lane's address by shuffle, for
; each structure; lines pay only where lanes are at least 128 B apart.
; CHECK: @sl1.lines.aliased_inplace = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @aliased_inplace(
; CHECK: br i1 %has.not, label %exit, label %sl1.preheader
; CHECK: {{^}}sl1.preheader:
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; CHECK: %sl1.lanes.distance = call i32 @llvm.abs.i32(
; CHECK: icmp ugt i32 %sl1.lanes.distance, 127
; CHECK: %sl1.cached = and i1 {{%[0-9]+}}, %sl1.fits
; Aliased mode: a load through `in` looks up `in`'s line, then `out`'s
; (either may hold the address); only a miss in both fills, so no two lines
; ever hold one memory line.
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: %sl1.group.mru.{{[0-9]+}} = phi i32 [ -1, %sl1.pick.line ]
; CHECK: %line.i[[N:[0-9]+]] = and i64 %a.i{{[0-9]+}}, -16
; CHECK: %holds.i{{[0-9]+}} = icmp eq i64 %sl1.in.tag.{{[0-9]+}}, %line.i[[N]]
; CHECK-NEXT: br i1 %holds.i{{[0-9]+}}, label %hit.i{{[0-9]+}}, label %[[OTHER:lookup.i[0-9]+]]
; CHECK: [[OTHER]]:
; CHECK-NEXT: %holds2.i{{[0-9]+}} = icmp eq i64 %sl1.out.tag.{{[0-9]+}}, %line.i[[N]]
; CHECK: {{^}}sl1.aload.i32.a4.g2.o0.exit{{[0-9]*}}:
; CHECK: {{^}}sl1.astore.i32.a4.g2.o1.exit{{[0-9]*}}:
; The 32 B version fills a warp at a time.
; CHECK: {{^}}loop.sl1.cached32:
; CHECK: {{^}}warp.copy.i{{[0-9]+}}:
; CHECK: {{^}}loop.sl1.some32:
; CHECK: {{^}}loop.sl1.plain:
; CHECK: {{^}}sl1.pick.line:
; LLVM22-CHECK-NEXT: br i1 {{%[0-9]+}}, label %loop.sl1.cached32, label %loop.sl1.cached16
; LLVM19-CHECK-NEXT: br i1 {{%[0-9]+}}, label %loop.sl1.cached16, label %loop.sl1.cached32
; At the exit both lines go back where dirty, `in`'s first.
; CHECK: {{^}}sl1.exit:
; CHECK: icmp eq i32 %sl1.in.dirty.{{[0-9]+}}, 0
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK-NEXT: icmp eq i32 %sl1.out.dirty.{{[0-9]+}}, 0
;
; The paper's options: the lane test decides at once for close lanes,
; others are monitored; one 16 B line per structure in the group.
; PAPER: @sl1.lines.aliased_inplace = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @aliased_inplace(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER: {{^}}sl1.preheader:
; PAPER: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; PAPER: br i1 {{%[0-9]+}}, label %loop.sl1.monitor, label %sl1.decide
; PAPER: {{^}}loop.sl1.cached:
; PAPER: %sl1.group.mru.{{[0-9]+}} = phi i32 [ -1, %sl1.decide ]
; PAPER: %holds.i = icmp eq i64 %sl1.in.tag.{{[0-9]+}}, [[LINE:%line.i[0-9]*]]
; PAPER: %holds2.i = icmp eq i64 %sl1.out.tag.{{[0-9]+}}, [[LINE]]
; PAPER: {{^}}sl1.aload.i32.a4.g2.o0.exit:
; PAPER: {{^}}sl1.astore.i32.a4.g2.o1.exit:
; PAPER: {{^}}sl1.decide:
; PAPER: {{^}}loop.sl1.plain:
; PAPER: {{^}}sl1.exit:
; PAPER: switch i32 %sl1.in.dirty.{{[0-9]+}}, label %pieces.i.i{{[0-9]+}} [
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; PAPER-NEXT: switch i32 %sl1.out.dirty.{{[0-9]+}}, label %pieces.i.i [
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @aliased_inplace(ptr %in, ptr %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %x = xor i32 %v, 32
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %x, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

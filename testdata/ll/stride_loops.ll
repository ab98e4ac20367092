; Three loops over restrict arguments: a block-stride loop (i += blockDim.x),
; a grid-stride loop (i += blockDim.x * gridDim.x, through a zext), both left
; as they are, and a per-thread chunk loop, which S-L1 slices.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; The block- and grid-stride loops stay as they were, direct (the report:
; cooperative_stride, for each); only the chunk loop `walk` is sliced.
; ALL-LABEL: define ptx_kernel void @stride_loops(
; ALL-NOT: sl1
; ALL: {{^}}block:
; ALL: store i8 %c, ptr %dst, align 1
; ALL: br i1 %more, label %block, label %grid.entry
; ALL: {{^}}grid:
; ALL: store i8 %gc, ptr %gdst, align 1
; ALL: br i1 %gmore, label %grid, label %chunk.entry
; ALL-NOT: sl1
; ALL: {{^}}chunk.entry:
; By default `walk` streams: one version per line size, line runs.
; CHECK: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}walk.sl1.cached16.run:
; CHECK: {{^}}walk.sl1.cached16:
; CHECK: {{^}}walk.sl1.cached128:
; CHECK: {{^}}walk.sl1.some32:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.line.size = select i1
; CHECK: {{^}}walk.sl1.plain:
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; The paper's options: `walk` monitored, 16 B lines.
; PAPER: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; PAPER: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; PAPER: {{^}}walk.sl1.monitor:
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER: {{^}}walk.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER: {{^}}walk.sl1.plain:
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @stride_loops(ptr noalias readonly %in, ptr noalias %out, i32 %n, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nctaid = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %any = icmp ult i32 %tid, %n
  br i1 %any, label %block, label %grid.entry

block:
  %i = phi i32 [ %tid, %entry ], [ %i.next, %block ]
  %i64 = zext i32 %i to i64
  %src = getelementptr inbounds i8, ptr %in, i64 %i64
  %c = load i8, ptr %src, align 1
  %dst = getelementptr inbounds i8, ptr %out, i64 %i64
  store i8 %c, ptr %dst, align 1
  %i.next = add nuw i32 %i, %ntid
  %more = icmp ult i32 %i.next, %n
  br i1 %more, label %block, label %grid.entry

grid.entry:
  %all = mul i32 %ntid, %nctaid
  %all64 = zext i32 %all to i64
  %tid64 = zext i32 %tid to i64
  %n64 = zext i32 %n to i64
  %gany = icmp ult i64 %tid64, %n64
  br i1 %gany, label %grid, label %chunk.entry

grid:
  %g = phi i64 [ %tid64, %grid.entry ], [ %g.next, %grid ]
  %gsrc = getelementptr inbounds i8, ptr %in, i64 %g
  %gc = load i8, ptr %gsrc, align 1
  %gdst = getelementptr inbounds i8, ptr %out, i64 %g
  store i8 %gc, ptr %gdst, align 1
  %g.next = add nuw i64 %g, %all64
  %gmore = icmp ult i64 %g.next, %n64
  br i1 %gmore, label %grid, label %chunk.entry

chunk.entry:
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %walk

walk:
  %k = phi i64 [ %begin, %chunk.entry ], [ %k.next, %walk ]
  %ksrc = getelementptr inbounds i8, ptr %in, i64 %k
  %kc = load i8, ptr %ksrc, align 1
  %kd = add i8 %kc, 1
  %kdst = getelementptr inbounds i8, ptr %out, i64 %k
  store i8 %kd, ptr %kdst, align 1
  %k.next = add nuw i64 %k, 1
  %kdone = icmp eq i64 %k.next, %end
  br i1 %kdone, label %exit, label %walk

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

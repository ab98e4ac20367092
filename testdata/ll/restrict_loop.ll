; One kernel, one loop: `out[i] = in[i] + 1` over a per-thread chunk.
; Both pointer arguments are restrict (noalias); `in` is read-only, `out` read-write.
;
; SL1-RUN: CHECK --stream-max-line-size=32
; (A stream: by default its launches may pick lines up to 128 B; here up to
; 32 B, as in loops that do not only stream. stream_lines.rs checks those.)
; SL1-RUN: FIXED --line-size=16 --no-line-runs
; SL1-RUN: PIECES --stream-max-line-size=32
; SL1-RUN: DEFAULT
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; The buffer: a 16 B line and 4 B of padding per structure and thread of a
; 1024-thread block.
; CHECK: @sl1.lines.restrict_loop = internal addrspace(3) global [40960 x i8]
; CHECK-LABEL: define ptx_kernel void @restrict_loop(
; Predicted statically: warps the warp-range check turns away enter the
; loop through the decision.
; CHECK: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; Line runs in the 16 B version: after a checked iteration, the offset in
; each line, the run's length cut to the loop's count (unsigned minimum),
; a full run's unrolled copy when the lines start whole.
; CHECK: sl1.latch.sl1.cached16:
; CHECK: %sl1.run.off = sub i64
; CHECK: %sl1.run.left{{[0-9]*}} = call i64 @llvm.umin.i64
; CHECK: br i1 %sl1.run.full{{[0-9]*}}, label %loop.sl1.cached16.run.full0, label %sl1.run.pick
; A run's iteration: one fewer left, no tag check.
; CHECK: loop.sl1.cached16.run:
; CHECK: %sl1.run.left{{[0-9]*}} = add {{(nsw )?}}i64 %sl1.run{{[0-9]*}}.0, -1
; CHECK-NOT: call
; CHECK: br i1 {{%[0-9]+}}, label %loop.sl1.cached16.run, label %loop.sl1.cached16
; `in` is staged a run ahead: its stage starts empty.
; CHECK: loop.sl1.cached16:
; CHECK: %sl1.stage.tag.0 = phi i64 [ -1, %sl1.pick.line{{[0-9]*}} ]
; 32 B lines move a warp at a time when every lane is there.
; CHECK: loop.sl1.cached32:
; CHECK: call i32 @llvm.nvvm.activemask()
; The decision: the largest line size the block leaves room for, and the
; warp threshold (a line when the last lane of the warp has one).
; CHECK: sl1.decide:
; LLVM22-CHECK: %sl1.line.size = select i1 [[ROOM:%[0-9]+]], i32 32, i32 16
; LLVM19-CHECK: %sl1.line.size = select i1 [[ROOM:%[0-9]+]], i32 16, i32 32
; CHECK: %sl1.capacity = udiv i32 40960,
; CHECK: %sl1.warp.last = call i32 @llvm.umin.i32
; CHECK: %sl1.fits = icmp ult i32 {{%[0-9]+}}, %sl1.capacity
; CHECK: br i1 %sl1.all.cached{{[0-9]*}}, label %sl1.pick.line, label %sl1.some.cached
; Threads with no line run the loop as it was.
; CHECK: loop.sl1.plain:
; CHECK: load i8, ptr {{%[0-9]+}}, align 1
; CHECK: sl1.pick.line:
; LLVM22-CHECK-NEXT: br i1 [[ROOM]], label %loop.sl1.cached32, label %loop.sl1.cached16
; LLVM19-CHECK-NEXT: br i1 [[ROOM]], label %loop.sl1.cached16, label %loop.sl1.cached32
; Every exit writes `out`'s dirty line back.
; CHECK: sl1.flush.exit{{[0-9]*}}:
; CHECK: icmp eq i32 %sl1.out.dirty.{{[0-9]+}}, 0
; CHECK: ret void
;
; A partly written line of `out` goes back by 16-byte groups from the one
; holding its lowest dirty byte: a group all dirty in one 16-byte store
; (lines in memory are 16-byte aligned; shared lines, padded, only 4-byte,
; so the group is read as words), else each of its 4-byte words all dirty
; in one store, else byte by byte.
; PIECES-LABEL: define ptx_kernel void @restrict_loop(
; PIECES: unit.whole{{.*}}:
; PIECES-NEXT: getelementptr i8, ptr addrspace(3)
; PIECES-NEXT: add i64
; PIECES-NEXT: inttoptr
; PIECES-NEXT: load <4 x i32>, ptr addrspace(3) {{%.*}}, align 4
; PIECES-NEXT: store <4 x i32> {{%.*}}, ptr addrspace(1) {{%.*}}, align 16
; PIECES: unit.whole{{.*}}:
; PIECES-NEXT: getelementptr i8, ptr addrspace(3)
; PIECES-NEXT: add i64
; PIECES-NEXT: inttoptr
; PIECES-NEXT: load i32, ptr addrspace(3) {{%.*}}, align 4
; PIECES-NEXT: store i32 {{%.*}}, ptr addrspace(1) {{%.*}}, align 4
; PIECES: load i8, ptr addrspace(3) {{%.*}}, align 1
; PIECES-NEXT: store i8 {{%.*}}, ptr addrspace(1) {{%.*}}, align 1
;
; One line size, no runs: no size to pick, no run.
; FIXED-LABEL: define ptx_kernel void @restrict_loop(
; FIXED-NOT: sl1.run
; FIXED: sl1.decide:
; FIXED-NOT: sl1.line.size
; FIXED-NOT: sl1.run
; FIXED: ret void
;
; By default the loop streams (each structure only read or only written,
; each byte once, one stride): lines up to 128 B, one cached copy per size.
; The decision takes the largest size that gives both structures a line
; for every thread (`line.all`); where that is 16 B, the largest that gives
; the written one a line (`line.fitted`), or both where more threads are
; resident on an SM than its L1 serves (`sl1.crowded`).
; DEFAULT: @sl1.lines.restrict_loop = internal addrspace(3) global [40960 x i8] poison, align 16
; DEFAULT-LABEL: define ptx_kernel void @restrict_loop(
; DEFAULT: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; DEFAULT: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; DEFAULT: {{^}}loop.sl1.cached16:
; DEFAULT: {{^}}loop.sl1.cached32:
; DEFAULT: {{^}}loop.sl1.cached64:
; 128 B lines: the next line of `in` staged by the warp together (each
; lane loads 16 B of a line and the owner takes it by shuffle), else by
; each thread alone.
; DEFAULT: {{^}}sl1.latch.sl1.cached128:
; DEFAULT: {{^}}warp.stage.i:
; DEFAULT: call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1,
; DEFAULT: {{^}}thread.stage.i:
; DEFAULT: {{^}}sl1.stage.exit:
; DEFAULT: {{^}}loop.sl1.cached128:
; DEFAULT: %sl1.all.warp.staged.i = icmp eq i32 {{%[0-9]+}}, -1
; DEFAULT: {{^}}loop.sl1.some128:
; DEFAULT: {{^}}sl1.decide:
; DEFAULT: %sl1.crowded = icmp ugt i32 %sl1.resident, 1024
; DEFAULT: [[ALL:%sl1.line.all[0-9]+]] = select i1 {{%[0-9]+}}, i32 128, i32 %sl1.line.all{{[0-9]+}}
; DEFAULT: [[FITTED:%sl1.line.fitted[0-9]+]] = select i1 {{%[0-9]+}}, i32 128, i32 %sl1.line.fitted{{[0-9]+}}
; DEFAULT: %sl1.line.size = select i1 {{%[0-9]+}}, i32 [[FITTED]], i32 [[ALL]]
; DEFAULT: %sl1.capacity = udiv i32 40960,
; DEFAULT: {{^}}sl1.pick.line{{[0-9]*}}:
; DEFAULT-NEXT: switch i32 %sl1.line.size, label %loop.sl1.cached128 [
; DEFAULT: {{^}}sl1.flush.exit{{[0-9]*}}:
;
; The paper's options: monitored, 16 B lines; both structures cached, each
; decided on its own (a thread with a line for one structure only runs the
; checked copy, each access testing its structure's decision).
; PAPER: @sl1.lines.restrict_loop = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @restrict_loop(
; PAPER-NOT: sl1.run
; PAPER: br i1 %empty.not, label %sl1.warp.preheader, label %exit
; PAPER: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; PAPER: {{^}}sl1.latch.sl1.monitor:
; PAPER: %sl1.monitored = icmp ugt i32 {{%[0-9]+}}, 299
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.out.sim.tag.0 = phi i64
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER: {{^}}loop.sl1.cached:
; PAPER: br i1 %hit.i{{[0-9]+}}, label %sl1.load.i8.a1.exit, label %fill.i
; PAPER: br i1 %hit.i{{[0-9]+}}, label %sl1.store.i8.a1.exit, label %miss.i{{[0-9]+}}
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.fits = icmp ult i32 {{%[0-9]+}}, 2048
; PAPER: %sl1.cached = and i1 {{%[0-9]+}}, %sl1.fits
; PAPER: [[CACHED2:%sl1.cached[0-9]+]] = and i1 {{%[0-9]+}}, %sl1.fits{{[0-9]+}}
; PAPER: %sl1.all.cached{{[0-9]*}} = and i1 %sl1.cached, [[CACHED2]]
; PAPER: {{^}}loop.sl1.plain:
; PAPER: {{^}}sl1.some.cached:
; PAPER: {{^}}loop:
; PAPER: br i1 %sl1.cached, label %cached.i, label %direct.i
; PAPER: br i1 [[CACHED2]], label %cached.i{{[0-9]+}}, label %direct.i{{[0-9]+}}
; PAPER: {{^}}sl1.flush.exit{{[0-9]*}}:
; PAPER: switch i32 %sl1.out.dirty.{{[0-9]+}}, label %pieces.i.i [
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @restrict_loop(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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

; One kernel, one loop: `out[i] = in[i] + 1` over a per-thread chunk.
; Both pointer arguments are restrict (noalias); `in` is read-only, `out` read-write.
;
; SL1-RUN: CHECK --stream-max-line-size=32
; (A stream: by default its launches may pick lines up to 128 B; here up to
; 32 B, as in loops that do not only stream. stream_lines.rs checks those.)
; SL1-RUN: FIXED --line-size=16 --no-line-runs
; SL1-RUN: PIECES --stream-max-line-size=32
;
; The buffer: a 16 B line and 4 B of padding per structure and thread of a
; 1024-thread block.
; CHECK: @sl1.lines.restrict_loop = internal addrspace(3) global [40960 x i8]
; CHECK-LABEL: define ptx_kernel void @restrict_loop(
; Predicted statically: the loop is entered through the decision.
; CHECK: br i1 %empty.not, label %sl1.decide, label %exit
; Line runs in the 16 B version: after a checked iteration, the offset in
; each line, the run's length cut to the loop's count (unsigned minimum),
; a full run's unrolled copy when the lines start whole.
; CHECK: sl1.latch.sl1.cached16:
; CHECK: %sl1.run.off = sub i64
; CHECK: %sl1.run.left{{[0-9]*}} = call i64 @llvm.umin.i64
; CHECK: br i1 %sl1.run.full{{[0-9]*}}, label %loop.sl1.cached16.run.full0, label %sl1.run.pick
; A run's iteration: one fewer left, no tag check.
; CHECK: loop.sl1.cached16.run:
; CHECK: %sl1.run.left{{[0-9]*}} = add nsw i64 %sl1.run{{[0-9]*}}.0, -1
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
; CHECK: %sl1.line.size = select i1 {{%[0-9]+}}, i32 32, i32 16
; CHECK: %sl1.capacity = udiv i32 40960,
; CHECK: %sl1.warp.last = call i32 @llvm.umin.i32
; CHECK: %sl1.fits = icmp ult i32 {{%[0-9]+}}, %sl1.capacity
; CHECK: br i1 %sl1.all.cached{{[0-9]*}}, label %sl1.pick.line, label %sl1.some.cached
; Threads with no line run the loop as it was.
; CHECK: loop.sl1.plain:
; CHECK: load i8, ptr {{%[0-9]+}}, align 1
; CHECK: sl1.pick.line:
; CHECK-NEXT: br i1 {{%[0-9]+}}, label %loop.sl1.cached32, label %loop.sl1.cached16
; Every exit writes `out`'s dirty line back.
; CHECK: sl1.flush.exit{{[0-9]*}}:
; CHECK: icmp eq i32 %sl1.out.dirty.1, 0
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

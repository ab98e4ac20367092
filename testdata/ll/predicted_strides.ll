; Loops whose hit rates the static analysis predicts, and loops it cannot:
; - @pointer_walk: a pointer induction variable stepping 2 bytes (i16), and
;   two loads a constant 4 bytes apart (i32 at i and i + 1): decided statically.
; - @column: a written column of a row-major matrix (stride 256 B): no line
;   pays, so the loop is left as it is.
; - @mixed: `in` moves by 1 B per iteration, `out` is indexed by a loaded
;   value: `out` is left direct (an indirect access), `in` and `idx` are
;   decided statically.
; - @sometimes: a store on some iterations only: monitored.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default the decisions are static: no monitoring slice anywhere.
; @column gets no buffer (the report: nothing_predicted_to_pay, 0% hits);
; @pointer_walk's three structures take all 48 KiB.
; CHECK: @sl1.lines.pointer_walk = internal addrspace(3) global [49152 x i8] poison, align 16
; CHECK-NOT: @sl1.lines.column
; CHECK: @sl1.lines.mixed = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK: @sl1.lines.sometimes = internal addrspace(3) global [20480 x i8] poison, align 16
; CHECK-NOT: sl1.monitor
; @pointer_walk: runs stop where `w`'s second word (4 B after the first)
; would leave the line: 12 B of a 16 B line.
; CHECK-LABEL: define ptx_kernel void @pointer_walk(
; CHECK: br i1 %empty, label %exit, label %sl1.decide
; CHECK: {{^}}sl1.latch.sl1.cached16:
; CHECK: %sl1.run.off{{[0-9]*}} = sub i64 %a.i{{[0-9]+}}, %sl1.in.tag.{{[0-9]+}}
; CHECK: %sl1.run.off[[W:[0-9]+]] = sub i64 %a.i{{[0-9]+}}, %sl1.w.tag.{{[0-9]+}}
; CHECK-NEXT: sub i64 12, %sl1.run.off[[W]]
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.capacity = udiv i32 49152,
; CHECK-LABEL: define ptx_kernel void @column(
; CHECK-NOT: sl1
; CHECK: store i32 {{.*}}, ptr %dst, align 4
; CHECK-NOT: sl1
; @mixed: `out` is indexed by a loaded value: its stores stay direct, in
; the runs too.
; CHECK-LABEL: define ptx_kernel void @mixed(
; CHECK: {{^}}loop.sl1.cached16.run:
; CHECK: store i8 %v.i{{[0-9]+}}, ptr {{%[0-9]+}}, align 1
; CHECK: {{^}}loop.sl1.cached16:
; CHECK-NOT: %sl1.out
; CHECK: store i8 %v{{[0-9]+}}.i{{[0-9]+}}, ptr {{%[0-9]+}}, align 1
; @sometimes: the store on some iterations only stays direct; `in` is
; cached.
; CHECK-LABEL: define ptx_kernel void @sometimes(
; CHECK: {{^}}write.sl1.cached16:
; CHECK-NEXT: [[OUT:%[0-9]+]] = getelementptr inbounds i8, ptr %out,
; CHECK-NEXT: store i8 %v{{[0-9]+}}.i{{[0-9]+}}, ptr [[OUT]], align 1
;
; The paper's options: every loop monitored, every structure a 16 B line
; (`out` of @mixed and @sometimes cached too); @column has no main loop
; for them.
; PAPER: @sl1.lines.pointer_walk = internal addrspace(3) global [49152 x i8] poison, align 16
; PAPER: @sl1.lines.mixed = internal addrspace(3) global [49152 x i8] poison, align 16
; PAPER: @sl1.lines.sometimes = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @pointer_walk(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.w.sim.tag.{{[0-9]+}} = phi i64
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER-LABEL: define ptx_kernel void @column(
; PAPER-NOT: sl1
; PAPER-LABEL: define ptx_kernel void @mixed(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.out.sim.tag.{{[0-9]+}} = phi i64
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @sometimes(
; PAPER: {{^}}write.sl1.monitor:
; PAPER: {{^}}write.sl1.cached:
; PAPER: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.out.tag.{{[0-9]+}}, %line.i{{[0-9]+}}
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @pointer_walk(ptr noalias readonly %in, ptr noalias readonly %w, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %start = getelementptr inbounds i16, ptr %in, i64 %begin
  %dst0 = getelementptr inbounds i16, ptr %out, i64 %begin
  %wbase = getelementptr inbounds i32, ptr %w, i64 %begin
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %p = phi ptr [ %start, %entry ], [ %p.next, %loop ]
  %q = phi ptr [ %dst0, %entry ], [ %q.next, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i.next, %loop ]
  %v = load i16, ptr %p, align 2
  %i64 = sext i32 %i to i64
  %wa = getelementptr inbounds i32, ptr %wbase, i64 %i64
  %wx = load i32, ptr %wa, align 4
  %i1 = add nsw i32 %i, 1
  %i164 = sext i32 %i1 to i64
  %wb = getelementptr inbounds i32, ptr %wbase, i64 %i164
  %wy = load i32, ptr %wb, align 4
  %sum = add i32 %wx, %wy
  %t = trunc i32 %sum to i16
  %r = add i16 %v, %t
  store i16 %r, ptr %q, align 2
  %p.next = getelementptr inbounds i8, ptr %p, i64 2
  %q.next = getelementptr inbounds i16, ptr %q, i64 1
  %i.next = add nuw nsw i32 %i, 1
  %i.wide = zext i32 %i.next to i64
  %more = icmp ult i64 %i.wide, %chunk
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @column(ptr noalias readonly %in, ptr noalias %m, i64 %rows) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %col = zext i32 %tid to i64
  %empty = icmp eq i64 %rows, 0
  br i1 %empty, label %exit, label %loop

loop:
  %r = phi i64 [ 0, %entry ], [ %r.next, %loop ]
  %row = mul i64 %r, 64
  %idx = add i64 %row, %col
  %src = getelementptr inbounds i32, ptr %in, i64 %idx
  %x = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %m, i64 %idx
  store i32 %x, ptr %dst, align 4
  %r.next = add nuw i64 %r, 1
  %more = icmp ult i64 %r.next, %rows
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @mixed(ptr noalias readonly %in, ptr noalias readonly %idx, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %ia = getelementptr inbounds i32, ptr %idx, i64 %i
  %k = load i32, ptr %ia, align 4
  %k64 = zext i32 %k to i64
  %dst = getelementptr inbounds i8, ptr %out, i64 %k64
  store i8 %c, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @sometimes(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %space = icmp eq i8 %c, 32
  br i1 %space, label %write, label %latch

write:
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %c, ptr %dst, align 1
  br label %latch

latch:
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Loops whose cached structures stream (each only read or only written,
; each byte once, all by one stride) take lines up to 128 B; the others keep
; the default's. Each kernel walks a per-thread chunk.
;
; copy:       out[i] = in[i] + 1 (bytes)                  streams, 1 read
; rmw:        y[i] = y[i] + x[i] (ints)                    y read and written
; widen:      out[i] = in[i] (1 B read, 4 B written)       strides differ
; four_reads: out[i] = a[i] + b[i] + c[i] + d[i] (ints)    streams, 4 reads
; pairs:      out[2i] = p[2i + 1], out[2i + 1] = p[2i]      streams, 1 read
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default: streams (copy, pairs) get a cached version for each line size
; up to 128 B and pick one per launch; the others stop at 32 B.
; CHECK: @sl1.lines.copy = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK: @sl1.lines.four_reads = internal addrspace(3) global [49152 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @copy(
; CHECK: {{^}}sl1.latch.sl1.cached64:
; CHECK: {{^}}sl1.latch.sl1.cached128:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.line.all{{[0-9]+}} = select i1 {{%[0-9]+}}, i32 128, i32 %sl1.line.all{{[0-9]+}}
; CHECK: %sl1.capacity = udiv i32 40960,
; CHECK: switch i32 %sl1.line.size, label %loop.sl1.cached128 [
; y read and written: 16 or 32 B.
; CHECK-LABEL: define ptx_kernel void @rmw(
; CHECK-NOT: sl1.cached64
; CHECK: {{^}}sl1.latch.sl1.cached32:
; CHECK-NOT: sl1.cached64
; CHECK: {{^}}sl1.decide:
; CHECK-NOT: sl1.cached64
; CHECK-LABEL: define ptx_kernel void @widen(
; CHECK-NOT: sl1.cached64
; CHECK: {{^}}sl1.decide:
; CHECK-NOT: sl1.cached64
; Five structures, with the lane test: 16 or 32 B, sized in the preheader.
; CHECK-LABEL: define ptx_kernel void @four_reads(
; CHECK-NOT: sl1.cached64
; CHECK: {{^}}sl1.preheader:
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(
; CHECK: %sl1.capacity = udiv i32 49152,
; CHECK-NOT: sl1.cached64
; CHECK-LABEL: define ptx_kernel void @pairs(
; CHECK: {{^}}sl1.preheader:
; CHECK: %sl1.line.all{{[0-9]*}} = select i1 {{%[0-9]+}}, i32 128,
; CHECK: {{^}}sl1.latch.sl1.cached128:
; CHECK: switch i32 %sl1.line.size, label %loop.sl1.cached128 [
;
; The paper's options: 16 B lines only, monitored, in every kernel.
; PAPER: @sl1.lines.copy = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-NOT: sl1.cached32
; PAPER-LABEL: define ptx_kernel void @copy(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NOT: sl1.line.size
; PAPER-LABEL: define ptx_kernel void @rmw(
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @widen(
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @four_reads(
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @pairs(
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NOT: sl1.cached32
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @copy(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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

define ptx_kernel void @rmw(ptr noalias readonly %x, ptr noalias %y, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %xp = getelementptr inbounds i32, ptr %x, i64 %i
  %xv = load i32, ptr %xp, align 4
  %yp = getelementptr inbounds i32, ptr %y, i64 %i
  %yv = load i32, ptr %yp, align 4
  %s = add i32 %xv, %yv
  store i32 %s, ptr %yp, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @widen(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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
  %w = zext i8 %c to i32
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %w, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @four_reads(ptr noalias readonly %a, ptr noalias readonly %b, ptr noalias readonly %c, ptr noalias readonly %d, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %ap = getelementptr inbounds i32, ptr %a, i64 %i
  %av = load i32, ptr %ap, align 4
  %bp = getelementptr inbounds i32, ptr %b, i64 %i
  %bv = load i32, ptr %bp, align 4
  %cp = getelementptr inbounds i32, ptr %c, i64 %i
  %cv = load i32, ptr %cp, align 4
  %dp = getelementptr inbounds i32, ptr %d, i64 %i
  %dv = load i32, ptr %dp, align 4
  %s1 = add i32 %av, %bv
  %s2 = add i32 %cv, %dv
  %s = add i32 %s1, %s2
  %op = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s, ptr %op, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @pairs(ptr noalias readonly %p, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %two = shl i64 %i, 1
  %p0 = getelementptr inbounds i32, ptr %p, i64 %two
  %v0 = load i32, ptr %p0, align 8
  %p1 = getelementptr inbounds i8, ptr %p0, i64 4
  %v1 = load i32, ptr %p1, align 4
  %o0 = getelementptr inbounds i32, ptr %out, i64 %two
  store i32 %v1, ptr %o0, align 8
  %o1 = getelementptr inbounds i8, ptr %o0, i64 4
  store i32 %v0, ptr %o1, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

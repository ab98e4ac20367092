; Streams whose lines can or cannot gain (transform/cost.rs): a thrashing L1
; moves a sector from L2 for what an iteration touches, device memory the
; stream's own bytes.
; - @int4_words: an int4 per iteration split into four i32 loads and four
;   i32 stores (as clang splits `int4`): a sector for 16 B, at most 1.0x on
;   the H100's bandwidths: both left direct, the loop left as it is.
; - @int4_vectors: the same with <4 x i32> accesses: left direct.
; - @words: i32 in, i32 out, read and written: cached (up to 3.1x).
; - @doubles: double read and written: cached (up to 1.6x).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default the two int4 kernels are left as they were (the report:
; nothing_predicted_to_pay: a line moves no fewer sectors than their 16 B
; accesses); @words and @doubles are cached, @doubles with 8 B of padding
; a line for its 8-byte elements.
; CHECK-NOT: @sl1.lines.int4
; CHECK: @sl1.lines.words = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK: @sl1.lines.doubles = internal addrspace(3) global [24576 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @int4_words(
; CHECK-NOT: sl1
; CHECK: %a = load i32, ptr %src, align 16
; CHECK: store i32 %da, ptr %dst3, align 4
; CHECK-LABEL: define ptx_kernel void @int4_vectors(
; CHECK-NOT: sl1
; CHECK: %v = load <4 x i32>, ptr %src, align 16
; CHECK: store <4 x i32> %w, ptr %dst, align 16
; CHECK-NOT: sl1
; @words: `out` read and written (its stores fetch the line), `in` staged.
; CHECK-LABEL: define ptx_kernel void @words(
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}sl1.load.i32.a4.staged.exit{{[0-9]+}}:
; CHECK: {{^}}sl1.store.i32.a4.fetch.exit{{[0-9]+}}:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.crowded = icmp ugt i32 %sl1.resident, 1024
; CHECK: %sl1.capacity = udiv i32 40960,
; CHECK-LABEL: define ptx_kernel void @doubles(
; CHECK: {{^}}sl1.store.double.a8.fetch.exit{{[0-9]+}}:
; CHECK: {{^}}sl1.decide:
; CHECK: mul i32 %sl1.threads, 40
; CHECK: %sl1.capacity = udiv i32 24576,
; CHECK: {{^}}sl1.exit:
;
; The paper's options cache every kernel: the int4 words through 16 B
; lines (each access its own alignment), the <4 x i32> vectors whole, with
; 16 B of padding a line.
; PAPER: @sl1.lines.int4_words = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER: @sl1.lines.int4_vectors = internal addrspace(3) global [49152 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @int4_words(
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.load.i32.a16.exit:
; PAPER: {{^}}sl1.load.i32.a8.exit:
; PAPER-LABEL: define ptx_kernel void @int4_vectors(
; PAPER: {{^}}loop.sl1.cached:
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 16
; PAPER: %v2.i = load <4 x i32>, ptr addrspace(3) %s1.i, align 16
; PAPER: {{^}}sl1.decide:
; PAPER-LABEL: define ptx_kernel void @words(
; PAPER: {{^}}sl1.store.i32.a4.fetch.exit:
; PAPER-LABEL: define ptx_kernel void @doubles(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}sl1.store.double.a8.fetch.exit:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @int4_words(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds [4 x i32], ptr %in, i64 %i
  %dst = getelementptr inbounds [4 x i32], ptr %out, i64 %i
  %a = load i32, ptr %src, align 16
  %src1 = getelementptr inbounds i8, ptr %src, i64 4
  %b = load i32, ptr %src1, align 4
  %src2 = getelementptr inbounds i8, ptr %src, i64 8
  %c = load i32, ptr %src2, align 8
  %src3 = getelementptr inbounds i8, ptr %src, i64 12
  %d = load i32, ptr %src3, align 4
  %ab = add i32 %a, %b
  %bc = sub i32 %b, %c
  %c3 = mul i32 %c, 3
  %da = xor i32 %d, %a
  store i32 %ab, ptr %dst, align 16
  %dst1 = getelementptr inbounds i8, ptr %dst, i64 4
  store i32 %bc, ptr %dst1, align 4
  %dst2 = getelementptr inbounds i8, ptr %dst, i64 8
  store i32 %c3, ptr %dst2, align 8
  %dst3 = getelementptr inbounds i8, ptr %dst, i64 12
  store i32 %da, ptr %dst3, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @int4_vectors(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds <4 x i32>, ptr %in, i64 %i
  %dst = getelementptr inbounds <4 x i32>, ptr %out, i64 %i
  %v = load <4 x i32>, ptr %src, align 16
  %w = add <4 x i32> %v, <i32 1, i32 2, i32 3, i32 4>
  store <4 x i32> %w, ptr %dst, align 16
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @words(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  %x = load i32, ptr %src, align 4
  %y = load i32, ptr %dst, align 4
  %s = add i32 %x, %y
  store i32 %s, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @doubles(ptr noalias %data, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds double, ptr %data, i64 %i
  %x = load double, ptr %p, align 8
  %y = fmul double %x, 3.0
  store double %y, ptr %p, align 8
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

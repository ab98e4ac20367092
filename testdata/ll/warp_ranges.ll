; Warp ranges (`transform::warp_ranges`): loops whose iterations are
; independent over a thread's contiguous chunk get a copy a whole warp runs
; over the union of its lanes' chunks, 16 bytes a lane, behind a run-time
; check; loops whose iterations depend on each other, on the lane, or on
; pointers that may alias keep only the lines.
;
; SL1-RUN: CHECK
; SL1-RUN: OFF --no-warp-ranges
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; `bytes`: out[i] = in[i] + 1 over the thread's chunk. The check: the whole
; warp there, each lane's chunk after the one before in both structures
; (shuffles down), the two equally aligned, a vote of all lanes.
; CHECK-LABEL: define ptx_kernel void @bytes(
; CHECK: sl1.warp.preheader:
; CHECK: call i32 @llvm.nvvm.activemask()
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: sl1.warp.check:
; CHECK: %sl1.warp.first = ptrtoint ptr
; CHECK: call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1,
; CHECK: call i1 @llvm.nvvm.vote.all.sync(i32 -1,
; CHECK: sl1.warp.range:
; First what each lane wrote or saw before the loop is made visible to the
; lanes that now touch its chunk.
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; Lane 0's first element, from this lane's own pointer; the elements
; before the first 16-byte boundary, at most all of them.
; CHECK: %sl1.warp.base = getelementptr i8, ptr
; CHECK: %sl1.warp.head = call i64 @llvm.umin.i64
; Elements before the first 16-byte boundary, one a lane.
; CHECK: sl1.warp.heads.body:
; CHECK: load i8, ptr %sl1.warp.at{{[0-9]*}}, align 1
; Whole pieces: 16 bytes a lane, the body on a byte vector.
; CHECK: sl1.warp.pieces.body:
; CHECK: load <16 x i8>, ptr %sl1.warp.at{{[0-9]*}}, align 16
; CHECK: %sl1.lanes = add <16 x i8>
; CHECK: store <16 x i8> %sl1.lanes, ptr %sl1.warp.at{{[0-9]*}}, align 16
; CHECK: sl1.warp.tails.body:
; Then each lane's chunk, written by others, is made visible to it.
; CHECK: sl1.warp.done:
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; The loop itself keeps its lines for warps the check turns away.
; CHECK: sl1.decide:
; OFF-LABEL: define ptx_kernel void @bytes(
; OFF-NOT: sl1.warp.range
; OFF: sl1.decide:
; The paper's monitored build gets the copy too, in front of the monitor.
; PAPER-LABEL: define ptx_kernel void @bytes(
; PAPER: sl1.warp.range:
; PAPER: loop.sl1.monitor:
define ptx_kernel void @bytes(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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

; `scaled`: out[i] = in[i] * 3 + 7 on bytes: a piece's sixteen multiplies
; are one on a byte vector (which `byte_words` does on words, two 32-bit
; multiplies a word).
; CHECK-LABEL: define ptx_kernel void @scaled(
; CHECK: sl1.warp.pieces.body:
; CHECK: load <16 x i8>, ptr %sl1.warp.at{{[0-9]*}}, align 16
; CHECK: [[M:%sl1.lanes[0-9]*]] = mul <16 x i8> {{%[0-9]+}}, {{splat \(i8 3\)|<i8 3, }}
; CHECK: add <16 x i8> [[M]], {{splat \(i8 7\)|<i8 7, }}
define ptx_kernel void @scaled(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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
  %m = mul i8 %c, 3
  %d = add i8 %m, 7
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %d, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; `saxpy`: floats, a scale the same in every lane, the index of a 32-bit
; `int` counter: pieces of four elements, the index itself passed to
; lane 0's (its chunks checked adjacent too, as the body uses it). `y`,
; read and written at one address, is checked once.
; CHECK-LABEL: define ptx_kernel void @saxpy(
; CHECK: sl1.warp.check:
; CHECK-COUNT-6: call i32 @llvm.nvvm.shfl.sync.down.i32(
; CHECK-NOT: call i32 @llvm.nvvm.shfl.sync.down.i32(
; CHECK: call i1 @llvm.nvvm.vote.all.sync
; CHECK: sl1.warp.pieces.body:
; CHECK: load <4 x float>, ptr %sl1.warp.at{{[0-9]*}}, align 16
; CHECK: load <4 x float>, ptr %sl1.warp.at{{[0-9]*}}, align 16
; CHECK: sitofp i32
; CHECK: store <4 x float>
define ptx_kernel void @saxpy(ptr noalias readonly %x, ptr noalias %y, float %a, i32 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %begin = mul nsw i32 %tid, %chunk
  %end = add nsw i32 %begin, %chunk
  %some = icmp slt i32 %begin, %end
  br i1 %some, label %loop, label %exit

loop:
  %i = phi i32 [ %begin, %entry ], [ %next, %loop ]
  %i64 = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr %x, i64 %i64
  %vx = load float, ptr %px, align 4
  %py = getelementptr inbounds float, ptr %y, i64 %i64
  %vy = load float, ptr %py, align 4
  %fi = sitofp i32 %i to float
  %ax = fmul float %a, %vx
  %s = fadd float %ax, %vy
  %t = fadd float %s, %fi
  store float %t, ptr %py, align 4
  %next = add nsw i32 %i, 1
  %more = icmp slt i32 %next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; Left to the lines: a value carried from one iteration to the next (a
; running sum), a value that differs between lanes (the thread's id), and
; pointers that may alias (no `noalias`: `out` may be `in` one byte on), a
; fence after the loop, and an element loaded again after its store (a
; piece loads before it stores).
; CHECK-LABEL: define ptx_kernel void @carried(
; CHECK-NOT: sl1.warp.range
; CHECK-LABEL: define ptx_kernel void @by_lane(
; CHECK-NOT: sl1.warp.range
; CHECK-LABEL: define ptx_kernel void @aliased(
; CHECK-NOT: sl1.warp.range
; A fence after the loop orders the copy's stores as it ordered each
; thread's (cumulative, behind the warp barrier): the loop gets its copy.
; CHECK-LABEL: define ptx_kernel void @fenced(
; CHECK: sl1.warp.range:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK: sl1.warp.done:
; CHECK-NEXT: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK: fence seq_cst
; A fence in the loop orders each thread's own iterations: no copy.
; CHECK-LABEL: define ptx_kernel void @fence_in_loop(
; CHECK-NOT: sl1.warp.range
; CHECK-LABEL: define ptx_kernel void @reread(
; CHECK-NOT: sl1.warp.range
; CHECK: declare
define ptx_kernel void @carried(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %sum = phi i8 [ 0, %entry ], [ %d, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %d = add i8 %c, %sum
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %d, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @by_lane(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid8 = trunc i32 %tid to i8
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %d = add i8 %c, %tid8
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %d, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @aliased(ptr %in, ptr %out, i64 %chunk) {
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

define ptx_kernel void @fenced(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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
  fence seq_cst
  ret void
}

define ptx_kernel void @fence_in_loop(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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
  fence release
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @reread(ptr noalias %a, ptr noalias %b, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %pa = getelementptr inbounds i32, ptr %a, i64 %i
  %va = load i32, ptr %pa, align 4
  %inc = add i32 %va, 1
  store i32 %inc, ptr %pa, align 4
  %again = load i32, ptr %pa, align 4
  %twice = mul i32 %again, 2
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  store i32 %twice, ptr %pb, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

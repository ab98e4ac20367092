; Loops that write no global memory: a structure the kernel only reads is a
; read stream there, with or without restrict (transform/mod.rs).
; - @window_max: a non-restrict input read in a window per thread, the
;   result stored after the loop: left to the hardware L1.
; - @row_accumulate: a non-restrict input read along each thread's row,
;   the sums kept in a non-restrict accumulator pair loaded and stored
;   every iteration, alternately (left direct: nothing predicts it): the loop writes, but not through
;   the input, so the input's lines would serve reads alone: left to the
;   hardware L1 (HeCBench `chemv`'s pattern).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default both loops only read what they would cache: left to the
; hardware L1, as they were (the report: only_reads, for `in`).
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @window_max(
; CHECK-NOT: sl1
; CHECK: %x = load float, ptr %src, align 4
; CHECK: br i1 %more, label %loop, label %done
; CHECK-LABEL: define ptx_kernel void @row_accumulate(
; CHECK-NOT: sl1
; CHECK: %re = load float, ptr %re.at, align 4
; CHECK: %sum = load float, ptr %slot, align 4
; CHECK: store float %sum.next, ptr %slot, align 4
; CHECK: br i1 %more, label %loop, label %done
; CHECK-NOT: sl1
;
; With the paper's options both are cached. window_max: the lane test
; first (the neighbouring lane's address by shuffle: lanes under 128 B
; apart share the hardware's lines), which skips the monitor and caches
; nothing when they are close.
; PAPER: @sl1.lines.window_max = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER: @sl1.lines.row_accumulate = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @window_max(
; PAPER: br i1 %empty, label %done, label %sl1.preheader
; PAPER: {{^}}sl1.preheader:
; PAPER: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 {{%[0-9]+}}, i32 {{%[0-9]+}}, i32 1, i32 31)
; PAPER: %sl1.lanes.distance = call i32 @llvm.abs.i32(
; PAPER: icmp ult i32 %sl1.lanes.distance, 128
; PAPER: br i1 %sl1.lanes.apart.not{{[0-9]*}}, label %sl1.decide, label %loop.sl1.monitor
; PAPER: {{^}}loop.sl1.cached:
; PAPER: br i1 %hit.i{{[0-9]+}}, label %sl1.load.float.a4.exit, label %fill.i
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.cached.not = or i1 {{%.*}}, %sl1.lanes.apart.not{{[0-9]*}}
; PAPER: br i1 %sl1.cached.not, label %loop.sl1.plain, label %loop.sl1.cached
;
; row_accumulate: `in` and `acc` may alias, so they form one group: a
; load looks up the line of `in`, then that of `acc` (either may hold the
; address), a miss in both fills the least recently used one, writing it
; back first if dirty; at the exit both lines go back.
; PAPER-LABEL: define ptx_kernel void @row_accumulate(
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NEXT: %sl1.group.mru.{{[0-9]+}} = phi i32 [ -1, %sl1.decide ]
; PAPER: %holds.i{{[0-9]+}} = icmp eq i64 %sl1.in.tag.{{[0-9]+}}, [[LINE:%line.i[0-9]+]]
; PAPER: %holds2.i{{[0-9]+}} = icmp eq i64 %sl1.acc.tag.{{[0-9]+}}, [[LINE]]
; PAPER: icmp ne i32 %sl1.group.mru.{{[0-9]+}}, 1
; PAPER: {{^}}sl1.aload.float.a4.g2.o0.exit{{[0-9]*}}:
; PAPER: {{^}}sl1.astore.float.a4.g2.o1.exit{{[0-9]*}}:
; PAPER: {{^}}sl1.exit:
; PAPER: switch i32 %sl1.in.dirty.{{[0-9]+}}, label %pieces.i.i{{[0-9]+}} [
; PAPER: {{^}}sl1.flush.exit{{[0-9]*}}:
; PAPER-NEXT: switch i32 %sl1.acc.dirty.{{[0-9]+}}, label %pieces.i.i [
; PAPER-NEXT: i32 0, label %done
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @window_max(ptr readonly %in, ptr %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %m = phi float [ 0.0, %entry ], [ %m.next, %loop ]
  %src = getelementptr inbounds float, ptr %in, i64 %i
  %x = load float, ptr %src, align 4
  %m.next = call float @llvm.maxnum.f32(float %m, float %x)
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %done

done:
  %r = phi float [ 0.0, %entry ], [ %m.next, %loop ]
  %dst = getelementptr inbounds float, ptr %out, i64 %tid64
  store float %r, ptr %dst, align 4
  ret void
}

define ptx_kernel void @row_accumulate(ptr %in, ptr %acc, i64 %row, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %row
  %acc.base = shl i64 %tid64, 1
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %loop ]
  %at = add i64 %begin, %i
  %pair = shl i64 %at, 1
  %re.at = getelementptr inbounds float, ptr %in, i64 %pair
  %im.at = getelementptr inbounds i8, ptr %re.at, i64 4
  %re = load float, ptr %re.at, align 4
  %im = load float, ptr %im.at, align 4
  %half = and i64 %i, 1
  %acc.at = add i64 %acc.base, %half
  %slot = getelementptr inbounds float, ptr %acc, i64 %acc.at
  %sum = load float, ptr %slot, align 4
  %prod = fmul float %re, %im
  %sum.next = fadd float %sum, %prod
  store float %sum.next, ptr %slot, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %loop, label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare float @llvm.maxnum.f32(float, float)

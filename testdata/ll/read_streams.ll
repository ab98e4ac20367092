; Loops that write no global memory: a structure the kernel only reads is a
; read stream there, with or without restrict (transform/mod.rs).
; - @window_max: a non-restrict input read in a window per thread, the
;   result stored after the loop: left to the hardware L1.
; - @row_accumulate: a non-restrict input read along each thread's row,
;   the sums kept in a non-restrict accumulator pair loaded and stored
;   every iteration, alternately (left direct: nothing predicts it): the loop writes, but not through
;   the input, so the input's lines would serve reads alone: left to the
;   hardware L1 (HeCBench `chemv`'s pattern).
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

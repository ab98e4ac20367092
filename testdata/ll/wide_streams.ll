; Streams whose lines can or cannot gain (transform/cost.rs): a thrashing L1
; moves a sector from L2 for what an iteration touches, device memory the
; stream's own bytes.
; - @int4_words: an int4 per iteration split into four i32 loads and four
;   i32 stores (as clang splits `int4`): a sector for 16 B, at most 1.0x on
;   the H100's bandwidths: both left direct, the loop left as it is.
; - @int4_vectors: the same with <4 x i32> accesses: left direct.
; - @words: i32 in, i32 out, read and written: cached (up to 3.1x).
; - @doubles: double read and written: cached (up to 1.6x).
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

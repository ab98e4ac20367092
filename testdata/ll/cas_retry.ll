; A byte stream read beside an atomicCAS retry loop (the do-no-harm kernel
; cas_add): each thread walks its chunk of `data` and adds into a bin of
; `bins` picked by the byte and a hash of its index, through a CAS loop whose
; trip count depends on what the CAS returns. With device tuning the loop is
; left to the merge of that retry loop (a warp's threads then advance
; together, which per-thread lines would split again); without it, `data`
; gets lines. @then_cas runs a byte copy before the same loop: the copy is
; cached, so the kernel is transformed and the merge, which runs only in
; kernels the transform leaves alone, would not take the CAS loop: it is
; planned as any other (and cached here).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: TUNED --device-tuning
;
; CHECK-LABEL: define ptx_kernel void @cas_add(
; CHECK: sl1
; PAPER-LABEL: define ptx_kernel void @cas_add(
; PAPER: sl1
; TUNED-LABEL: define ptx_kernel void @cas_add(
; TUNED-NOT: addrspace(3)
; TUNED: ret void
; TUNED-LABEL: define ptx_kernel void @then_cas(
; TUNED: addrspace(3)
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @cas_add(ptr noalias readonly %data, ptr %bins, i64 %n, i64 %chunk) {
entry:
  %0 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %conv = zext nneg i32 %0 to i64
  %1 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %conv2 = zext nneg i32 %1 to i64
  %mul = mul nuw nsw i64 %conv, %conv2
  %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %conv4 = zext nneg i32 %2 to i64
  %add = add nuw nsw i64 %mul, %conv4
  %begin = mul i64 %chunk, %add
  %add6 = add i64 %begin, %chunk
  %end = tail call i64 @llvm.umin.i64(i64 %add6, i64 %n)
  %go = icmp ult i64 %begin, %end
  br i1 %go, label %for.body, label %for.cond.cleanup

for.cond.cleanup:
  ret void

for.body:
  %i = phi i64 [ %inc, %cas.done ], [ %begin, %entry ]
  %hash = mul i64 %i, 2654435761
  %shr = lshr i64 %hash, 16
  %at = getelementptr inbounds nuw i8, ptr %data, i64 %i
  %byte = load i8, ptr %at, align 1
  %wide = zext i8 %byte to i64
  %masked = and i64 %shr, 65535
  %bin = xor i64 %masked, %wide
  %slot = getelementptr inbounds nuw i32, ptr %bins, i64 %bin
  %low = trunc i64 %i to i32
  %weight0 = and i32 %low, 7
  %weight = add nuw nsw i32 %weight0, 1
  %first = load i32, ptr %slot, align 4
  br label %retry

retry:
  %old = phi i32 [ %first, %for.body ], [ %seen, %retry ]
  %new = add i32 %weight, %old
  %pair = cmpxchg ptr %slot, i32 %old, i32 %new seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %same = icmp eq i32 %old, %seen
  br i1 %same, label %cas.done, label %retry

cas.done:
  %inc = add nuw i64 %i, 1
  %more = icmp ult i64 %inc, %end
  br i1 %more, label %for.body, label %for.cond.cleanup
}

define ptx_kernel void @then_cas(ptr noalias readonly %data, ptr noalias %copy, ptr %bins, i64 %n, i64 %chunk) {
entry:
  %0 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %conv = zext nneg i32 %0 to i64
  %1 = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %conv2 = zext nneg i32 %1 to i64
  %mul = mul nuw nsw i64 %conv, %conv2
  %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %conv4 = zext nneg i32 %2 to i64
  %add = add nuw nsw i64 %mul, %conv4
  %begin = mul i64 %chunk, %add
  %add6 = add i64 %begin, %chunk
  %end = tail call i64 @llvm.umin.i64(i64 %add6, i64 %n)
  %go = icmp ult i64 %begin, %end
  br i1 %go, label %copy.body, label %for.cond.cleanup

copy.body:
  %c = phi i64 [ %c.next, %copy.body ], [ %begin, %entry ]
  %from = getelementptr inbounds nuw i8, ptr %data, i64 %c
  %v = load i8, ptr %from, align 1
  %flipped = xor i8 %v, 1
  %to = getelementptr inbounds nuw i8, ptr %copy, i64 %c
  store i8 %flipped, ptr %to, align 1
  %c.next = add nuw i64 %c, 1
  %c.more = icmp ult i64 %c.next, %end
  br i1 %c.more, label %copy.body, label %for.body

for.cond.cleanup:
  ret void

for.body:
  %i = phi i64 [ %inc, %cas.done ], [ %begin, %copy.body ]
  %hash = mul i64 %i, 2654435761
  %shr = lshr i64 %hash, 16
  %at = getelementptr inbounds nuw i8, ptr %data, i64 %i
  %byte = load i8, ptr %at, align 1
  %wide = zext i8 %byte to i64
  %masked = and i64 %shr, 65535
  %bin = xor i64 %masked, %wide
  %slot = getelementptr inbounds nuw i32, ptr %bins, i64 %bin
  %first = load i32, ptr %slot, align 4
  br label %retry

retry:
  %old = phi i32 [ %first, %for.body ], [ %seen, %retry ]
  %new = add i32 1, %old
  %pair = cmpxchg ptr %slot, i32 %old, i32 %new seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %same = icmp eq i32 %old, %seen
  br i1 %same, label %cas.done, label %retry

cas.done:
  %inc = add nuw i64 %i, 1
  %more = icmp ult i64 %inc, %end
  br i1 %more, label %for.body, label %for.cond.cleanup
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i64 @llvm.umin.i64(i64, i64)

; A loop that publishes each element with a fence (__threadfence) after the store.
;
; SL1-RUN: CHECK
;
; Before the fence, `out`'s dirty bytes go back to global memory (the
; line's bits, lowest first): the fence then orders them.
; CHECK-LABEL: define ptx_kernel void @publish(
; CHECK: loop.sl1.cached16:
; CHECK: store i16 %{{.*}}, ptr addrspace(3)
; CHECK: call {{.*}}i32 @llvm.cttz.i32
; CHECK: store i8 %{{[0-9]+}}, ptr addrspace(1)
; CHECK: br i1 %{{.*}}, label %[[FLUSHED:sl1.flush.exit[0-9]*]], label
; CHECK: [[FLUSHED]]:
; CHECK-NEXT: fence syncscope("device") seq_cst
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @publish(ptr noalias readonly %in, ptr noalias %out, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %src, align 2
  %dst = getelementptr inbounds i16, ptr %out, i64 %i
  store i16 %v, ptr %dst, align 2
  fence syncscope("device") seq_cst
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; Read-only restrict streams and the late vector loads (transform/plan.rs):
; - @row_dot: each thread reads its own row of `m` 4 B a step in a loop of
;   one block that writes nothing (HeCBench tensorAccessor's row-per-thread
;   product): the vector loads read it 16 B at a time, so the loop is left
;   to them; without the vector loads `m` is cached in line runs.
; - @scatter: the same kind of stream, but the loop stores through an index
;   it reads: the rewrite leaves loads with a store between them apart, so
;   the streams are cached either way.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @row_dot(ptr noalias %r, ptr noalias readonly %m, ptr noalias readonly %v, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %block = mul i32 %ctaid, %ntid
  %t = add i32 %block, %tid
  %i = zext i32 %t to i64
  %row = mul i64 %i, %n
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %done, label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %at = add nuw nsw i64 %row, %j
  %pm = getelementptr inbounds float, ptr %m, i64 %at
  %x = load float, ptr %pm, align 4
  %pv = getelementptr inbounds float, ptr %v, i64 %j
  %y = load float, ptr %pv, align 4
  %p = fmul float %x, %y
  %acc.next = fadd float %acc, %p
  %j.next = add nuw nsw i64 %j, 1
  %more = icmp ult i64 %j.next, %n
  br i1 %more, label %loop, label %done

done:
  %sum = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %pr = getelementptr inbounds float, ptr %r, i64 %i
  store float %sum, ptr %pr, align 4
  ret void
}

define ptx_kernel void @scatter(ptr noalias readonly %in, ptr noalias readonly %idx, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %block = mul i32 %ctaid, %ntid
  %t = add i32 %block, %tid
  %t64 = zext i32 %t to i64
  %begin = mul i64 %t64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %done, label %loop

loop:
  %k = phi i64 [ %begin, %entry ], [ %k.next, %loop ]
  %pi = getelementptr inbounds i32, ptr %in, i64 %k
  %x = load i32, ptr %pi, align 4
  %px = getelementptr inbounds i32, ptr %idx, i64 %k
  %to = load i32, ptr %px, align 4
  %to64 = zext i32 %to to i64
  %po = getelementptr inbounds i32, ptr %out, i64 %to64
  store i32 %x, ptr %po, align 4
  %k.next = add nuw i64 %k, 1
  %more = icmp ult i64 %k.next, %end
  br i1 %more, label %loop, label %done

done:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

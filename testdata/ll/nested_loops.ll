; Naive matrix multiply: two loops nested inside the row loop.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @matmul(ptr noalias readonly %a, ptr noalias readonly %b, ptr noalias %c, i32 %n) {
entry:
  %row = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %cols, label %exit

cols:
  %j = phi i32 [ 0, %entry ], [ %j.next, %cols.latch ]
  br label %dot

dot:
  %k = phi i32 [ 0, %cols ], [ %k.next, %dot ]
  %acc = phi float [ 0.0, %cols ], [ %acc.next, %dot ]
  %rn = mul i32 %row, %n
  %ai = add i32 %rn, %k
  %ai64 = sext i32 %ai to i64
  %pa = getelementptr inbounds float, ptr %a, i64 %ai64
  %va = load float, ptr %pa, align 4
  %kn = mul i32 %k, %n
  %bi = add i32 %kn, %j
  %bi64 = sext i32 %bi to i64
  %pb = getelementptr inbounds float, ptr %b, i64 %bi64
  %vb = load float, ptr %pb, align 4
  %m = fmul float %va, %vb
  %acc.next = fadd float %acc, %m
  %k.next = add nsw i32 %k, 1
  %k.done = icmp eq i32 %k.next, %n
  br i1 %k.done, label %cols.latch, label %dot

cols.latch:
  %ci = add i32 %rn, %j
  %ci64 = sext i32 %ci to i64
  %pc = getelementptr inbounds float, ptr %c, i64 %ci64
  store float %acc.next, ptr %pc, align 4
  %j.next = add nsw i32 %j, 1
  %j.done = icmp eq i32 %j.next, %n
  br i1 %j.done, label %exit, label %cols

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Aliased groups (arguments without restrict) and the threads an SM holds.
; A group of streams alone (every member moves each iteration) is cached
; only where more threads share an SM than the hardware L1 holds the
; streams of (`LoopSlice::streaming_group`): the decision ands the group's
; flags with `%sl1.crowded`, the estimate of resident threads from the
; grid, the block and `%nsmid`. A group with a member whose address stays
; put (`acc`, read and written every iteration) is cached however few
; threads share an SM: its line keeps that member where the plain loop
; loads it again after every store through another one.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; CHECK-LABEL: define ptx_kernel void @streams(
; CHECK: call i32 @llvm.nvvm.read.ptx.sreg.nsmid()
; CHECK: %sl1.crowded = icmp ugt i32 %sl1.resident, 1024
; CHECK: and i1 {{%[0-9]+}}, %sl1.crowded
; CHECK-LABEL: define ptx_kernel void @kept_sum(
; CHECK-NOT: sl1.crowded
; CHECK: sl1.aload.i32.a4.g2
; CHECK-NOT: sl1.crowded
; CHECK: ret void
;
; The paper's build monitors the loop (no predicted strides): the
; monitoring decides, as the paper does.
; PAPER-LABEL: define ptx_kernel void @streams(
; PAPER-NOT: sl1.crowded
; PAPER: sl1.aload.i32.a4.g2
; PAPER-NOT: sl1.crowded
; PAPER-LABEL: define ptx_kernel void @kept_sum(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[i] = in[i] ^ 32 over each thread's chunk of n.
define ptx_kernel void @streams(ptr %in, ptr %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %x = xor i32 %v, 32
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %x, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; acc[t] += a[t * n + j] over j: `acc[t]` may alias `a`, so it is loaded
; and stored every iteration.
define ptx_kernel void @kept_sum(ptr %a, ptr %acc, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %row = mul i64 %t, %n
  %ap = getelementptr inbounds i32, ptr %acc, i64 %t
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %row, %j
  %p = getelementptr inbounds i32, ptr %a, i64 %k
  %v = load i32, ptr %p, align 4
  %s = load i32, ptr %ap, align 4
  %sum = add i32 %s, %v
  store i32 %sum, ptr %ap, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

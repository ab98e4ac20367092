; The size of an aliased group (arguments without restrict, looked up
; together: every access looks up every member's line, so a loop's code
; grows with the square of the group). Groups of up to eight members are
; cached; larger ones stay direct (`MOST_ALIASED_MEMBERS`): sixteen made
; 212,000 PTX lines and two minutes of ptxas (2026-11-30).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; CHECK-LABEL: define ptx_kernel void @eight(
; CHECK: sl1.aload.i32.a4.g8
; CHECK-LABEL: define ptx_kernel void @nine(
; CHECK-NOT: sl1.aload
; CHECK-NOT: sl1.astore
; CHECK: ret void
; PAPER-LABEL: define ptx_kernel void @eight(
; PAPER: sl1.aload.i32.a4.g8
; PAPER-LABEL: define ptx_kernel void @nine(
; PAPER-NOT: sl1.aload
; PAPER-NOT: sl1.astore
; PAPER: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[i] = 1 + in0[i] + ... + in6[i] over each thread's chunk of n: eight members.
define ptx_kernel void @eight(ptr %in0, ptr %in1, ptr %in2, ptr %in3, ptr %in4, ptr %in5, ptr %in6, ptr %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %p0 = getelementptr inbounds i32, ptr %in0, i64 %i
  %v0 = load i32, ptr %p0, align 4
  %p1 = getelementptr inbounds i32, ptr %in1, i64 %i
  %v1 = load i32, ptr %p1, align 4
  %p2 = getelementptr inbounds i32, ptr %in2, i64 %i
  %v2 = load i32, ptr %p2, align 4
  %p3 = getelementptr inbounds i32, ptr %in3, i64 %i
  %v3 = load i32, ptr %p3, align 4
  %p4 = getelementptr inbounds i32, ptr %in4, i64 %i
  %v4 = load i32, ptr %p4, align 4
  %p5 = getelementptr inbounds i32, ptr %in5, i64 %i
  %v5 = load i32, ptr %p5, align 4
  %p6 = getelementptr inbounds i32, ptr %in6, i64 %i
  %v6 = load i32, ptr %p6, align 4
  %s0 = add i32 %v0, 1
  %s1 = add i32 %s0, %v1
  %s2 = add i32 %s1, %v2
  %s3 = add i32 %s2, %v3
  %s4 = add i32 %s3, %v4
  %s5 = add i32 %s4, %v5
  %s6 = add i32 %s5, %v6
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s6, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; The same over in0 to in7: nine members.
define ptx_kernel void @nine(ptr %in0, ptr %in1, ptr %in2, ptr %in3, ptr %in4, ptr %in5, ptr %in6, ptr %in7, ptr %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %n
  %end = add i64 %begin, %n
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %p0 = getelementptr inbounds i32, ptr %in0, i64 %i
  %v0 = load i32, ptr %p0, align 4
  %p1 = getelementptr inbounds i32, ptr %in1, i64 %i
  %v1 = load i32, ptr %p1, align 4
  %p2 = getelementptr inbounds i32, ptr %in2, i64 %i
  %v2 = load i32, ptr %p2, align 4
  %p3 = getelementptr inbounds i32, ptr %in3, i64 %i
  %v3 = load i32, ptr %p3, align 4
  %p4 = getelementptr inbounds i32, ptr %in4, i64 %i
  %v4 = load i32, ptr %p4, align 4
  %p5 = getelementptr inbounds i32, ptr %in5, i64 %i
  %v5 = load i32, ptr %p5, align 4
  %p6 = getelementptr inbounds i32, ptr %in6, i64 %i
  %v6 = load i32, ptr %p6, align 4
  %p7 = getelementptr inbounds i32, ptr %in7, i64 %i
  %v7 = load i32, ptr %p7, align 4
  %s0 = add i32 %v0, 1
  %s1 = add i32 %s0, %v1
  %s2 = add i32 %s1, %v2
  %s3 = add i32 %s2, %v3
  %s4 = add i32 %s3, %v4
  %s5 = add i32 %s4, %v5
  %s6 = add i32 %s5, %v6
  %s7 = add i32 %s6, %v7
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s7, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A kernel whose chunk loop calls a recursive device function (a call is a
; point where S-L1 writes its lines back; recursion needs a stack in PTX).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Sum of 0..n, recursively, n taken mod 8.
define internal i32 @triangle(i32 %n) noinline {
entry:
  %zero = icmp eq i32 %n, 0
  br i1 %zero, label %done, label %more

more:
  %m = sub i32 %n, 1
  %rest = call i32 @triangle(i32 %m)
  %sum = add i32 %rest, %n
  ret i32 %sum

done:
  ret i32 0
}

define ptx_kernel void @recursion(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %n = and i32 %v, 7
  %t = call i32 @triangle(i32 %n)
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %t, ptr %dst, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

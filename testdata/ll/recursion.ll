; A kernel whose chunk loop calls a recursive device function (a call is a
; point where S-L1 writes its lines back; recursion needs a stack in PTX).
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; The call is a coherence point: before it, each cached copy writes
; `out`'s dirty line back (the switch on its dirty bits), and `in`'s line
; is filled again every iteration (no line runs). The recursive function
; itself is left as it was.
; ALL-LABEL: define internal i32 @triangle(
; ALL-NOT: sl1
; ALL: %rest = call i32 @triangle(i32 %m)
; ALL-LABEL: define ptx_kernel void @recursion(
; CHECK-NOT: sl1.run
; CHECK: {{^}}sl1.preheader:
; CHECK: %sl1.lanes.neighbour = call i32 @llvm.nvvm.shfl.sync.bfly.i32
; CHECK: {{^}}loop.sl1.cached16:
; CHECK-NOT: %sl1.in.tag
; CHECK: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line.cached, align 4
; CHECK: switch i32 %sl1.out.dirty.{{[0-9]+}}, label %pieces10.i.i{{[0-9]+}} [
; CHECK-NEXT: i32 0, label %[[F16:sl1.flush.exit[0-9]+]]
; CHECK: {{^}}[[F16]]:
; CHECK-NEXT: call i32 @triangle(
; CHECK: {{^}}loop.sl1.cached32:
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK-NEXT: call i32 @triangle(
; CHECK: {{^}}loop.sl1.plain:
; CHECK: call i32 @triangle(
; CHECK: {{^}}loop:
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK-NEXT: %t = call i32 @triangle(i32 %n)
; CHECK-NOT: sl1.run
;
; The paper's options: the same write-back before the call in the cached
; copy and in the copy that checks each structure's decision.
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: call i32 @triangle(
; PAPER: {{^}}loop.sl1.cached:
; PAPER: switch i32 %sl1.out.dirty.{{[0-9]+}}, label %pieces.i.i [
; PAPER-NEXT: i32 0, label %sl1.flush.exit
; PAPER: {{^}}sl1.flush.exit:
; PAPER-NEXT: call i32 @triangle(
; PAPER: {{^}}loop.sl1.plain:
; PAPER: call i32 @triangle(
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; PAPER-NEXT: %t = call i32 @triangle(i32 %n)
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

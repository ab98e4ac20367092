; A search loop with a second exit (break) besides the loop condition, and
; mixed element sizes (i8 key, i32 positions, a <4 x i32> vector store).
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @find(ptr noalias readonly %text, ptr noalias %pos, i64 %n, i8 %key) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %notfound

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %p = getelementptr inbounds i8, ptr %text, i64 %i
  %c = load i8, ptr %p, align 1
  %hit = icmp eq i8 %c, %key
  br i1 %hit, label %found, label %latch

latch:
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %notfound, label %loop

found:
  %i32 = trunc i64 %i to i32
  store i32 %i32, ptr %pos, align 4
  ret void

notfound:
  %q = getelementptr inbounds i8, ptr %pos, i64 16
  store <4 x i32> <i32 -1, i32 -1, i32 -1, i32 -1>, ptr %q, align 16
  ret void
}

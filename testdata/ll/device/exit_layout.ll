; Exits after latches (pass/src/tuning/exit_layout.rs), a late device rewrite:
; the exit block of a loop of one block moves to right after the loop in the
; block order (instruction selection then falls through to it and branches
; back on the loop's own test, as nvcc's loops do: the shape ptxas unrolls).
; A loop of two blocks keeps its layout (its latch falls through into its
; header where block placement puts it). No instruction changes.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define void @one_block(
; TUNED: entry:
; TUNED: loop:
; TUNED: br i1 %done, label %exit, label %loop
; TUNED-EMPTY:
; TUNED-NEXT: exit:
; TUNED-LABEL: define void @two_blocks(
; TUNED: entry:
; TUNED-NEXT: br label %head
; TUNED-EMPTY:
; TUNED-NEXT: exit:
;
; The stage before the optimizer leaves the order as it was.
; EARLY-LABEL: define void @one_block(
; EARLY: entry:
; EARLY: exit:
; EARLY: loop:
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @one_block(ptr addrspace(1) %in, ptr %out, i32 %n) {
entry:
  br label %loop

exit:
  store i32 %sum.next, ptr %out, align 4
  ret void

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add nuw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop
}

define void @two_blocks(ptr addrspace(1) %in, ptr %out, i32 %n) {
entry:
  br label %head

exit:
  store i32 %sum.next, ptr %out, align 4
  ret void

head:
  %i = phi i32 [ 0, %entry ], [ %next, %latch ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %latch ]
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i32 %i
  %x = load i32, ptr addrspace(1) %at, align 4
  br label %latch

latch:
  %sum.next = add i32 %sum, %x
  %next = add nuw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %head
}

; Switch selects (pass/src/tuning/switch_selects.rs), made by the stage
; before LLVM's optimizer with device tuning: a switch that only chooses a
; value (`c == 'A' ? 0 : c == 'C' ? 7 : ...`) becomes compares and
; selects; a switch with a store in a case stays.
;
; SL1-RUN: TUNED --device-tuning
; SL1-RUN: PLAIN
;
; TUNED-LABEL: define i32 @decode(
; TUNED-NOT: switch
; TUNED: [[A:%[0-9]+]] = icmp eq i8 %c, 65
; TUNED: [[T:%[0-9]+]] = icmp eq i8 %c, 84
; TUNED: [[S:%[0-9]+]] = select i1 [[A]], i32 0, i32 -7
; TUNED: [[L:%[0-9]+]] = select i1 [[T]], i32 21, i32 {{%[0-9]+}}
; TUNED-NEXT: ret i32 [[L]]
; TUNED-LABEL: define i32 @stores(
; TUNED: switch i8 %c, label %other [
;
; Without device tuning the switches stay.
; PLAIN-LABEL: define i32 @decode(
; PLAIN: switch i8 %c, label %other [
; PLAIN-NOT: select
; PLAIN-LABEL: define i32 @stores(
; PLAIN: switch i8 %c, label %other [
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define i32 @decode(i8 %c) {
entry:
  switch i8 %c, label %other [
    i8 65, label %join
    i8 67, label %is_c
    i8 71, label %is_g
    i8 84, label %is_t
  ]

is_c:
  br label %join

is_g:
  br label %join

is_t:
  br label %join

other:
  br label %join

join:
  %code = phi i32 [ 0, %entry ], [ 7, %is_c ], [ 14, %is_g ], [ 21, %is_t ], [ -7, %other ]
  ret i32 %code
}

define i32 @stores(i8 %c, ptr %p) {
entry:
  switch i8 %c, label %other [
    i8 1, label %one
    i8 2, label %two
  ]

one:
  store i32 1, ptr %p
  br label %join

two:
  br label %join

other:
  br label %join

join:
  %v = phi i32 [ 10, %one ], [ 20, %two ], [ 30, %other ]
  ret i32 %v
}

define ptx_kernel void @bases(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %c = load i8, ptr %in, align 1
  %code = call i32 @decode(i8 %c)
  %kept = call i32 @stores(i8 %c, ptr %out)
  %sum = add i32 %code, %kept
  store i32 %sum, ptr %out, align 4
  ret void
}

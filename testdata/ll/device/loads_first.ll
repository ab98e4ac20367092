; Loads ahead of stores (pass/src/tuning/loads_first.rs), a late device
; rewrite: a load goes in front of a store before it in its block that it
; cannot touch, here through two `noalias` kernel arguments; where the
; pointers may alias the load stays behind the store.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @restrict_args(
; TUNED: %up = getelementptr i32, ptr %u, i64 %j
; TUNED-NEXT: %moved = load i32, ptr %up, align 4
; TUNED-NEXT: store i32 1, ptr %dp, align 4
; TUNED-NEXT: store i32 %moved, ptr %dp, align 4
; TUNED-LABEL: define ptx_kernel void @may_alias(
; TUNED: store i32 1, ptr %dp, align 4
; TUNED-NEXT: %up = getelementptr i32, ptr %u, i64 %j
; TUNED-NEXT: %kept = load i32, ptr %up, align 4
;
; EARLY-LABEL: define ptx_kernel void @restrict_args(
; EARLY: store i32 1, ptr %dp, align 4
; EARLY-NEXT: %up = getelementptr i32, ptr %u, i64 %j
; EARLY-NEXT: %moved = load i32, ptr %up, align 4
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @restrict_args(ptr noalias %d, ptr noalias %u, i64 %j) {
entry:
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4
  %up = getelementptr i32, ptr %u, i64 %j
  %moved = load i32, ptr %up, align 4
  store i32 %moved, ptr %dp, align 4
  ret void
}

define ptx_kernel void @may_alias(ptr %d, ptr %u, i64 %j) {
entry:
  %dp = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp, align 4
  %up = getelementptr i32, ptr %u, i64 %j
  %kept = load i32, ptr %up, align 4
  store i32 %kept, ptr %dp, align 4
  ret void
}

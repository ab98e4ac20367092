; Range checks in 32 bits (pass/src/tuning/widened_range_checks.rs), a late
; device rewrite: `(c - 9) <u 2` on an i8 and `(h - 48) <u 10` on an i16
; become the same test on the zero-extended value; `(c + 6) <u 10` accepts
; 250..=259, a range that wraps past 255, and stays in 8 bits.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @blanks(
; TUNED: [[C:%[a-z0-9.]+]] = zext i8 %c to i32
; TUNED-NEXT: [[CS:%[a-z0-9.]+]] = sub i32 [[C]], 9
; TUNED-NEXT: [[TAB:%[a-z0-9.]+]] = icmp ult i32 [[CS]], 2
; TUNED-NEXT: %t = zext i1 [[TAB]] to i32
; TUNED: [[H:%[a-z0-9.]+]] = zext i16 %h to i32
; TUNED-NEXT: [[HS:%[a-z0-9.]+]] = sub i32 [[H]], 48
; TUNED-NEXT: [[DIGIT:%[a-z0-9.]+]] = icmp ult i32 [[HS]], 10
; TUNED-NEXT: %d = zext i1 [[DIGIT]] to i32
; TUNED: %w = add i8 %c, 6
; TUNED-NEXT: %wraps = icmp ult i8 %w, 10
;
; EARLY-NOT: zext i8 %c to i32
; EARLY: %tab = icmp ult i8 %s, 2
; EARLY: %digit = icmp ult i16 %hs, 10
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @blanks(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %c = load i8, ptr %in, align 1
  %s = add i8 %c, -9
  %tab = icmp ult i8 %s, 2
  %t = zext i1 %tab to i32
  %h = load i16, ptr %in, align 2
  %hs = add i16 %h, -48
  %digit = icmp ult i16 %hs, 10
  %d = zext i1 %digit to i32
  %w = add i8 %c, 6
  %wraps = icmp ult i8 %w, 10
  %x = zext i1 %wraps to i32
  %td = add i32 %t, %d
  %r = add i32 %td, %x
  store i32 %r, ptr %out, align 4
  ret void
}

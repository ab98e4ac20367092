; Indexed addresses (pass/src/tuning/indexed_addresses.rs), a late device
; rewrite: an inner loop reading one array at three or more run-time
; distances (`in[c - w]`, `in[c + w]`, `in[c]`, the 5-point stencil) gets
; its induction variable's next value through a `mov` in inline PTX, which
; loop strength reduction cannot see through: no pointer induction variable
; per distance. A loop reading one array at constant distances from run-time
; values the loop does not change (LLVM's unrolled `row + 1`, `row + 2`) and
; one reading it at two run-time distances are left as they are, and so is
; every loop before the late stage.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define void @five_point(
; TUNED: %x = phi i64 [ %x0, %entry ], [ %sl1.indexed, %loop ]
; TUNED: %x.next = add i64 %x, %sx
; TUNED-NEXT: %sl1.indexed = call i64 asm "mov.b64 $0, $1;", "=l,l"(i64 %x.next)
; TUNED-NEXT: %more = icmp ult i64 %sl1.indexed, %n
; TUNED-LABEL: define void @five_point_i32(
; TUNED: %x.next = add i32 %x, %sx
; TUNED-NEXT: %sl1.indexed = call i32 asm "mov.b32 $0, $1;", "=r,r"(i32 %x.next)
; TUNED-LABEL: define void @unrolled_row(
; TUNED-NOT: sl1.indexed
; TUNED-LABEL: define void @two_rows(
; TUNED-NOT: sl1.indexed
; TUNED: ret void
;
; EARLY-LABEL: define void @five_point(
; EARLY-NOT: sl1.indexed
; EARLY: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[c] = in[c - w] + in[c + w] + in[c - 1] + in[c] + in[c + 1], c = row + x,
; x stepping by the grid's width %sx; `in + w` hoisted, as LLVM leaves it.
define void @five_point(ptr noalias %in, ptr noalias %out, i64 %row, i64 %w, i64 %x0, i64 %sx, i64 %n) {
entry:
  %down.base = getelementptr i32, ptr %in, i64 %w
  br label %loop

loop:
  %x = phi i64 [ %x0, %entry ], [ %x.next, %loop ]
  %c = add i64 %x, %row
  %up.index = sub i64 %c, %w
  %up.p = getelementptr inbounds i32, ptr %in, i64 %up.index
  %up = load i32, ptr %up.p, align 4
  %down.p = getelementptr i32, ptr %down.base, i64 %c
  %down = load i32, ptr %down.p, align 4
  %centre.p = getelementptr inbounds i32, ptr %in, i64 %c
  %left.p = getelementptr i8, ptr %centre.p, i64 -4
  %left = load i32, ptr %left.p, align 4
  %right.p = getelementptr i8, ptr %centre.p, i64 4
  %right = load i32, ptr %right.p, align 4
  %centre = load i32, ptr %centre.p, align 4
  %s0 = add i32 %up, %down
  %s1 = add i32 %s0, %left
  %s2 = add i32 %s1, %right
  %s3 = add i32 %s2, %centre
  %out.p = getelementptr inbounds i32, ptr %out, i64 %c
  store i32 %s3, ptr %out.p, align 4
  %x.next = add i64 %x, %sx
  %more = icmp ult i64 %x.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; The same with a 32-bit index, sign-extended for each address.
define void @five_point_i32(ptr noalias %in, ptr noalias %out, i32 %row, i32 %w, i32 %x0, i32 %sx, i32 %n) {
entry:
  br label %loop

loop:
  %x = phi i32 [ %x0, %entry ], [ %x.next, %loop ]
  %c = add nsw i32 %x, %row
  %up.index = sub nsw i32 %c, %w
  %down.index = add nsw i32 %c, %w
  %c.wide = sext i32 %c to i64
  %up.wide = sext i32 %up.index to i64
  %down.wide = sext i32 %down.index to i64
  %up.p = getelementptr inbounds i32, ptr %in, i64 %up.wide
  %down.p = getelementptr inbounds i32, ptr %in, i64 %down.wide
  %centre.p = getelementptr inbounds i32, ptr %in, i64 %c.wide
  %up = load i32, ptr %up.p, align 4
  %down = load i32, ptr %down.p, align 4
  %centre = load i32, ptr %centre.p, align 4
  %s0 = add i32 %up, %down
  %s1 = add i32 %s0, %centre
  %out.p = getelementptr inbounds i32, ptr %out, i64 %c.wide
  store i32 %s1, ptr %out.p, align 4
  %x.next = add i32 %x, %sx
  %more = icmp slt i32 %x.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; out[row + j] = in[row + j] + in[row + j + 1] + in[row + j + 2], the
; constant distances reassociated onto run-time values, as LLVM's unroller
; leaves them.
define void @unrolled_row(ptr noalias %in, ptr noalias %out, i64 %row, i64 %n) {
entry:
  %row1 = add i64 %row, 1
  %row2 = add i64 %row, 2
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %i0 = add i64 %j, %row
  %i1 = add i64 %j, %row1
  %i2 = add i64 %j, %row2
  %p0 = getelementptr inbounds i32, ptr %in, i64 %i0
  %p1 = getelementptr inbounds i32, ptr %in, i64 %i1
  %p2 = getelementptr inbounds i32, ptr %in, i64 %i2
  %v0 = load i32, ptr %p0, align 4
  %v1 = load i32, ptr %p1, align 4
  %v2 = load i32, ptr %p2, align 4
  %s0 = add i32 %v0, %v1
  %s1 = add i32 %s0, %v2
  %q = getelementptr inbounds i32, ptr %out, i64 %i0
  store i32 %s1, ptr %q, align 4
  %j.next = add i64 %j, 1
  %more = icmp ult i64 %j.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; out[c] = in[c] + in[c + w]: two rows, two pointers LSR can afford.
define void @two_rows(ptr noalias %in, ptr noalias %out, i64 %w, i64 %n) {
entry:
  br label %loop

loop:
  %c = phi i64 [ 0, %entry ], [ %c.next, %loop ]
  %p0 = getelementptr inbounds i32, ptr %in, i64 %c
  %below = add i64 %c, %w
  %p1 = getelementptr inbounds i32, ptr %in, i64 %below
  %v0 = load i32, ptr %p0, align 4
  %v1 = load i32, ptr %p1, align 4
  %s = add i32 %v0, %v1
  %q = getelementptr inbounds i32, ptr %out, i64 %c
  store i32 %s, ptr %q, align 4
  %c.next = add i64 %c, 1
  %more = icmp ult i64 %c.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

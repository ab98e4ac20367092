; Widened indices (pass/src/tuning/widened_indices.rs), a late device
; rewrite: an index an inner loop scales by a run-time stride in 32-bit
; `nsw` arithmetic (`a[r * ld + c]` with `int` operands, a column walk) is
; computed in 64 bits from the sign-extended operands, so that loop strength
; reduction can step a pointer through the column. Left as they are: a
; constant stride (scalar evolution sees through it), arithmetic that may
; wrap (no `nsw`), a product of a value the loop computes anew rather than
; of an induction variable (HeCBench `asta`'s cycle walk, which ran 12%
; slower widened: no pointer to step, only 64-bit products), a loop whose
; addresses stay index arithmetic (`indexed_addresses`), and every loop
; before the late stage.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define void @column(
; TUNED: %sl1.wide = sext i32 %r to i64
; TUNED-NEXT: %sl1.wide1 = sext i32 %ld to i64
; TUNED-NEXT: %sl1.wide.index = mul i64 %sl1.wide, %sl1.wide1
; TUNED-NEXT: %sl1.wide2 = sext i32 %c to i64
; TUNED-NEXT: %sl1.wide.index3 = add i64 %sl1.wide.index, %sl1.wide2
; TUNED-NEXT: %p = getelementptr inbounds i32, ptr %a, i64 %sl1.wide.index3
; TUNED-LABEL: define void @column_unrolled(
; TUNED: %sl1.wide.index{{[0-9]*}} = add i64 %sl1.wide{{[0-9]*}}, 1
; TUNED: %sl1.wide.index{{[0-9]*}} = mul i64
; TUNED: %p1 = getelementptr inbounds i32, ptr %a, i64 %sl1.wide.index
; TUNED-LABEL: define void @constant_stride(
; TUNED-NOT: sl1.wide
; TUNED-LABEL: define void @may_wrap(
; TUNED-NOT: sl1.wide
; TUNED-LABEL: define void @cycle(
; TUNED-NOT: sl1.wide
; TUNED-LABEL: define void @crowded(
; TUNED-NOT: sl1.wide
; TUNED: ret void
;
; EARLY-LABEL: define void @column(
; EARLY-NOT: sl1.wide
; EARLY: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sum += a[r * ld + c] * x[r], r = 0 .. n: a column per thread.
define void @column(ptr noalias %a, ptr noalias %x, ptr noalias %y, i32 %ld, i32 %c, i32 %n) {
entry:
  br label %loop

loop:
  %r = phi i32 [ 0, %entry ], [ %r.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %row = mul nsw i32 %r, %ld
  %i = add nsw i32 %row, %c
  %i.wide = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %i.wide
  %v = load i32, ptr %p, align 4
  %r.wide = zext nneg i32 %r to i64
  %q = getelementptr inbounds i32, ptr %x, i64 %r.wide
  %w = load i32, ptr %q, align 4
  %m = mul nsw i32 %v, %w
  %sum.next = add nsw i32 %m, %sum
  %r.next = add nuw nsw i32 %r, 1
  %more = icmp slt i32 %r.next, %n
  br i1 %more, label %loop, label %exit

exit:
  store i32 %sum.next, ptr %y, align 4
  ret void
}

; The same unrolled twice, as LLVM leaves it: the second row is `r | 1`.
define void @column_unrolled(ptr noalias %a, ptr noalias %y, i32 %ld, i32 %c, i32 %n) {
entry:
  br label %loop

loop:
  %r = phi i32 [ 0, %entry ], [ %r.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %row0 = mul nsw i32 %r, %ld
  %i0 = add nsw i32 %row0, %c
  %i0.wide = sext i32 %i0 to i64
  %p0 = getelementptr inbounds i32, ptr %a, i64 %i0.wide
  %v0 = load i32, ptr %p0, align 4
  %r1 = or disjoint i32 %r, 1
  %row1 = mul nsw i32 %r1, %ld
  %i1 = add nsw i32 %row1, %c
  %i1.wide = sext i32 %i1 to i64
  %p1 = getelementptr inbounds i32, ptr %a, i64 %i1.wide
  %v1 = load i32, ptr %p1, align 4
  %s = add i32 %v0, %v1
  %sum.next = add i32 %sum, %s
  %r.next = add nuw nsw i32 %r, 2
  %more = icmp slt i32 %r.next, %n
  br i1 %more, label %loop, label %exit

exit:
  store i32 %sum.next, ptr %y, align 4
  ret void
}

; a[r * 64 + c]: a constant stride.
define void @constant_stride(ptr noalias %a, ptr noalias %y, i32 %c, i32 %n) {
entry:
  br label %loop

loop:
  %r = phi i32 [ 0, %entry ], [ %r.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %row = mul nsw i32 %r, 64
  %i = add nsw i32 %row, %c
  %i.wide = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %i.wide
  %v = load i32, ptr %p, align 4
  %sum.next = add i32 %sum, %v
  %r.next = add nuw nsw i32 %r, 1
  %more = icmp slt i32 %r.next, %n
  br i1 %more, label %loop, label %exit

exit:
  store i32 %sum.next, ptr %y, align 4
  ret void
}

; a[r * ld + c] where the product may wrap (no `nsw`): its sign extension
; is not the product of the extensions.
define void @may_wrap(ptr noalias %a, ptr noalias %y, i32 %ld, i32 %c, i32 %n) {
entry:
  br label %loop

loop:
  %r = phi i32 [ 0, %entry ], [ %r.next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %row = mul i32 %r, %ld
  %i = add nsw i32 %row, %c
  %i.wide = sext i32 %i to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %i.wide
  %v = load i32, ptr %p, align 4
  %sum.next = add i32 %sum, %v
  %r.next = add nuw nsw i32 %r, 1
  %more = icmp slt i32 %r.next, %n
  br i1 %more, label %loop, label %exit

exit:
  store i32 %sum.next, ptr %y, align 4
  ret void
}

; sum += a[next * b + i], next = next * k - m: the row a recurrence that is
; no induction variable.
define void @cycle(ptr noalias %a, ptr noalias %y, i32 %b, i32 %i, i32 %k, i32 %m, i32 %start) {
entry:
  br label %loop

loop:
  %next = phi i32 [ %start, %entry ], [ %next.new, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %row = mul nsw i32 %next, %b
  %idx = add nsw i32 %row, %i
  %idx.wide = sext i32 %idx to i64
  %p = getelementptr inbounds i32, ptr %a, i64 %idx.wide
  %v = load i32, ptr %p, align 4
  %sum.next = add i32 %sum, %v
  %scaled = mul nsw i32 %next, %k
  %next.new = sub nsw i32 %scaled, %m
  %more = icmp sgt i32 %next.new, %start
  br i1 %more, label %loop, label %exit

exit:
  store i32 %sum.next, ptr %y, align 4
  ret void
}

; The 3-point column stencil of `indexed_addresses` (in[c - w], in[c + w],
; in[c]) beside a scaled index: the loop keeps index arithmetic.
define void @crowded(ptr noalias %in, ptr noalias %out, ptr noalias %col, i32 %row, i32 %w, i32 %x0, i32 %sx, i32 %n) {
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
  %scaled = mul nsw i32 %x, %w
  %scaled.wide = sext i32 %scaled to i64
  %col.p = getelementptr inbounds i32, ptr %col, i64 %scaled.wide
  %extra = load i32, ptr %col.p, align 4
  %s0 = add i32 %up, %down
  %s1 = add i32 %s0, %centre
  %s2 = add i32 %s1, %extra
  %out.p = getelementptr inbounds i32, ptr %out, i64 %c.wide
  store i32 %s2, ptr %out.p, align 4
  %x.next = add i32 %x, %sx
  %more = icmp slt i32 %x.next, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

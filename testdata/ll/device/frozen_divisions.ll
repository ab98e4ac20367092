; Frozen divisions (pass/src/tuning/frozen_divisions.rs), a late device
; rewrite: a remainder an inner loop's addresses build on is frozen, so that
; loop strength reduction may take it as an opaque invariant; a division
; used in the outer loop alone is left as it is.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; for (e < n*n) { col = e % n; row = e / 13; for (k < n) acc += b[k*n + col]; ... }
; TUNED-LABEL: define ptx_kernel void @columns(
; TUNED: %col = urem i64 %e, %n
; TUNED-NEXT: [[COL:%[0-9]+]] = freeze i64 %col
; TUNED-NEXT: %row = udiv i64 %e, 13
; TUNED-NEXT: %base = getelementptr i32, ptr %b, i64 [[COL]]
; TUNED-NOT: freeze
; TUNED: ret void
;
; The stage before LLVM's optimizer leaves the divisions alone.
; EARLY-NOT: freeze
; EARLY: %base = getelementptr i32, ptr %b, i64 %col
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @columns(ptr noalias readonly %b, ptr noalias %c, i64 %n) {
entry:
  %total = mul i64 %n, %n
  %any = icmp ne i64 %total, 0
  br i1 %any, label %outer, label %done

outer:
  %e = phi i64 [ 0, %entry ], [ %e.next, %outer.latch ]
  %col = urem i64 %e, %n
  %row = udiv i64 %e, 13
  %base = getelementptr i32, ptr %b, i64 %col
  br label %inner

inner:
  %k = phi i64 [ 0, %outer ], [ %k.next, %inner ]
  %acc = phi i32 [ 0, %outer ], [ %acc.next, %inner ]
  %off = mul i64 %k, %n
  %addr = getelementptr i32, ptr %base, i64 %off
  %v = load i32, ptr %addr, align 4
  %acc.next = add i32 %acc, %v
  %k.next = add nuw i64 %k, 1
  %more = icmp ult i64 %k.next, %n
  br i1 %more, label %inner, label %outer.latch

outer.latch:
  %row32 = trunc i64 %row to i32
  %out = add i32 %acc.next, %row32
  %dst = getelementptr i32, ptr %c, i64 %e
  store i32 %out, ptr %dst, align 4
  %e.next = add nuw i64 %e, 1
  %again = icmp ult i64 %e.next, %total
  br i1 %again, label %outer, label %done

done:
  ret void
}

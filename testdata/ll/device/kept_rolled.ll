; Loops kept rolled (pass/src/tuning/kept_rolled.rs), a late device rewrite:
; a loop of one block whose load of `%l` follows a store through `%d` that
; may alias it is marked `llvm.loop.unroll.disable` (`.pragma "nounroll"`,
; which ptxas honours); the same loop with `noalias` arguments, one whose
; loads and stores share their base pointer, and one with a pragma of its
; own are left as they are.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define void @may_alias(
; TUNED: br i1 %done, label %exit, label %loop, !llvm.loop [[KEPT:![0-9]+]]
; TUNED-LABEL: define void @restrict_args(
; TUNED: br i1 %done, label %exit, label %loop{{$}}
; TUNED-LABEL: define void @one_base(
; TUNED: br i1 %done, label %exit, label %loop{{$}}
; TUNED-LABEL: define void @own_pragma(
; TUNED: br i1 %done, label %exit, label %loop, !llvm.loop [[OWN:![0-9]+]]
; TUNED: [[KEPT]] = distinct !{[[KEPT]], [[DISABLE:![0-9]+]]}
; TUNED: [[DISABLE]] = !{!"llvm.loop.unroll.disable"}
; TUNED: [[OWN]] = distinct !{[[OWN]], [[COUNT:![0-9]+]]}
; TUNED: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 2}
;
; EARLY-LABEL: define void @may_alias(
; EARLY: br i1 %done, label %exit, label %loop{{$}}
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; d[j] -= l[j] * d[j - 1], two iterations unrolled: the second load of %l
; follows the first store to %d.
define void @may_alias(ptr %d, ptr %l, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 1, %entry ], [ %j.next, %loop ]
  %prev = phi i32 [ 0, %entry ], [ %v1, %loop ]
  %lp0 = getelementptr i32, ptr %l, i64 %j
  %l0 = load i32, ptr %lp0, align 4
  %dp0 = getelementptr i32, ptr %d, i64 %j
  %d0 = load i32, ptr %dp0, align 4
  %m0 = mul i32 %l0, %prev
  %v0 = sub i32 %d0, %m0
  store i32 %v0, ptr %dp0, align 4
  %j1 = add i64 %j, 1
  %lp1 = getelementptr i32, ptr %l, i64 %j1
  %l1 = load i32, ptr %lp1, align 4
  %dp1 = getelementptr i32, ptr %d, i64 %j1
  %d1 = load i32, ptr %dp1, align 4
  %m1 = mul i32 %l1, %v0
  %v1 = sub i32 %d1, %m1
  store i32 %v1, ptr %dp1, align 4
  %j.next = add i64 %j, 2
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @restrict_args(ptr noalias %d, ptr noalias %l, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 1, %entry ], [ %j.next, %loop ]
  %dp0 = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp0, align 4
  %j1 = add i64 %j, 1
  %lp1 = getelementptr i32, ptr %l, i64 %j1
  %l1 = load i32, ptr %lp1, align 4
  %dp1 = getelementptr i32, ptr %d, i64 %j1
  store i32 %l1, ptr %dp1, align 4
  %j.next = add i64 %j, 2
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; In place through one pointer: ptxas tells the accesses apart by offset.
define void @one_base(ptr %d, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 1, %entry ], [ %j.next, %loop ]
  %dp0 = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp0, align 4
  %j1 = add i64 %j, 1
  %dp1 = getelementptr i32, ptr %d, i64 %j1
  %d1 = load i32, ptr %dp1, align 4
  %twice = shl i32 %d1, 1
  store i32 %twice, ptr %dp1, align 4
  %j.next = add i64 %j, 2
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define void @own_pragma(ptr %d, ptr %l, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 1, %entry ], [ %j.next, %loop ]
  %dp0 = getelementptr i32, ptr %d, i64 %j
  store i32 1, ptr %dp0, align 4
  %j1 = add i64 %j, 1
  %lp1 = getelementptr i32, ptr %l, i64 %j1
  %l1 = load i32, ptr %lp1, align 4
  %dp1 = getelementptr i32, ptr %d, i64 %j1
  store i32 %l1, ptr %dp1, align 4
  %j.next = add i64 %j, 2
  %done = icmp uge i64 %j.next, %n
  br i1 %done, label %exit, label %loop, !llvm.loop !0

exit:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 2}

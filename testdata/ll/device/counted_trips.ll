; Counted trips (pass/src/tuning/counted_trips.rs), made by the stage before
; LLVM's optimizer with device tuning and `--counted-trips`: an inner loop
; whose start `%begin` moves with the enclosing loop and whose end
; `min(begin + chunk, n)` does not cancel it counts from zero to a frozen
; trip count computed in its preheader; an inner loop whose end is `begin +
; chunk` (a trip count LLVM prices cheap) and a loop with an unroll pragma
; stay as they are.
;
; SL1-RUN: TRIPS --device-tuning --counted-trips
; SL1-RUN: PLAIN
; SL1-RUN: TUNED --device-tuning
;
; TRIPS-LABEL: define void @clamped(
; TRIPS: inner.pre:
; TRIPS: %sl1.trip.span = sub i64 %end, %begin
; TRIPS: [[FIRST:%[0-9]+]] = add i64 %begin, 1
; TRIPS: [[MORE:%[0-9]+]] = icmp ult i64 [[FIRST]], %end
; TRIPS: [[TRIPS:%[0-9]+]] = select i1 [[MORE]], i64 %sl1.trip.span, i64 1
; TRIPS: %sl1.trips = freeze i64 [[TRIPS]]
; TRIPS: inner:
; TRIPS-NEXT: %sl1.trip = phi i64 [ 0, %inner.pre ], [ %sl1.trip.next, %inner ]
; TRIPS: %sl1.trip.next = add i64 %sl1.trip, 1
; TRIPS-NEXT: %sl1.trip.more = icmp ne i64 %sl1.trip.next, %sl1.trips
; TRIPS-NEXT: br i1 %sl1.trip.more, label %inner, label %outer.next
; TRIPS-LABEL: define void @cheap(
; TRIPS-NOT: sl1.trip
; TRIPS-LABEL: define void @pragma(
; TRIPS-NOT: sl1.trip
; TRIPS: ret void
;
; Without `--counted-trips`, or without device tuning, every loop stays.
; PLAIN-NOT: sl1.trip
; TUNED-NOT: sl1.trip
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @clamped(ptr noalias %in, ptr noalias %out, i64 %n, i64 %chunk, i64 %first, i64 %stride) {
entry:
  %go = icmp ult i64 %first, %n
  br i1 %go, label %outer, label %done

outer:
  %begin = phi i64 [ %first, %entry ], [ %begin.next, %outer.next ]
  %plus = add i64 %begin, %chunk
  %lt = icmp ult i64 %plus, %n
  %end = select i1 %lt, i64 %plus, i64 %n
  %some = icmp ult i64 %begin, %end
  br i1 %some, label %inner.pre, label %outer.next

inner.pre:
  br label %inner

inner:
  %i = phi i64 [ %begin, %inner.pre ], [ %i.next, %inner ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %inner, label %outer.next

outer.next:
  %begin.next = add i64 %begin, %stride
  %again = icmp ult i64 %begin.next, %n
  br i1 %again, label %outer, label %done

done:
  ret void
}

define void @cheap(ptr noalias %in, ptr noalias %out, i64 %n, i64 %chunk, i64 %first, i64 %stride) {
entry:
  %go = icmp ult i64 %first, %n
  br i1 %go, label %outer, label %done

outer:
  %begin = phi i64 [ %first, %entry ], [ %begin.next, %outer.next ]
  %end = add i64 %begin, %chunk
  %some = icmp ult i64 %begin, %end
  br i1 %some, label %inner.pre, label %outer.next

inner.pre:
  br label %inner

inner:
  %i = phi i64 [ %begin, %inner.pre ], [ %i.next, %inner ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %inner, label %outer.next

outer.next:
  %begin.next = add i64 %begin, %stride
  %again = icmp ult i64 %begin.next, %n
  br i1 %again, label %outer, label %done

done:
  ret void
}

define void @pragma(ptr noalias %in, ptr noalias %out, i64 %n, i64 %first, i64 %stride) {
entry:
  %go = icmp ult i64 %first, %n
  br i1 %go, label %outer, label %done

outer:
  %begin = phi i64 [ %first, %entry ], [ %begin.next, %outer.next ]
  %some = icmp ult i64 %begin, %n
  br i1 %some, label %inner.pre, label %outer.next

inner.pre:
  br label %inner

inner:
  %i = phi i64 [ %begin, %inner.pre ], [ %i.next, %inner ]
  %src = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %src, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %n
  br i1 %more, label %inner, label %outer.next, !llvm.loop !0

outer.next:
  %begin.next = add i64 %begin, %stride
  %again = icmp ult i64 %begin.next, %n
  br i1 %again, label %outer, label %done

done:
  ret void
}

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.count", i32 2}

; Grid-stride loops unrolled (pass/src/tuning/strided_unroll.rs), made by the
; stage before LLVM's optimizer with device tuning: a small innermost loop
; that reads global memory and steps by a value fixed in the loop but known
; only at run time (`blockDim.x * gridDim.x`) gets `llvm.loop.unroll.count 4`
; beside the properties it had, and the unrolled loop keeps them with
; `sl1.strided.unrolled` in place of LLVM's unroll disable (so that ptxas may
; unroll it further, as it does nvcc's); a constant step, a step that may wrap (no `nsw`:
; `int i += blockDim.x * gridDim.x`, an unsigned add, which scalar evolution
; finds no trip count for), a loop with an unroll pragma, a loop reading
; shared memory only and a loop with a barrier stay as they are.
;
; SL1-RUN: TUNED --device-tuning
; SL1-RUN: PLAIN
; SL1-RUN: OFF --device-tuning --no-strided-unroll
;
; TUNED-LABEL: define void @grid_stride(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[GRID:![0-9]+]]
; TUNED-LABEL: define void @constant_step(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[CONST:![0-9]+]]
; TUNED-LABEL: define void @may_wrap(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[WRAP:![0-9]+]]
; TUNED-LABEL: define void @pragma(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[PRAGMA:![0-9]+]]
; TUNED-LABEL: define void @shared_only(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[SHARED:![0-9]+]]
; TUNED-LABEL: define void @barrier(
; TUNED: br i1 %more, label %loop, label %done, !llvm.loop [[BARRIER:![0-9]+]]
; TUNED-DAG: [[GRID]] = distinct !{[[GRID]], [[PROGRESS:![0-9]+]], [[COUNT:![0-9]+]], [[FOLLOWUP:![0-9]+]]}
; TUNED-DAG: [[PROGRESS]] = !{!"llvm.loop.mustprogress"}
; TUNED-DAG: [[COUNT]] = !{!"llvm.loop.unroll.count", i32 4}
; TUNED-DAG: [[FOLLOWUP]] = !{!"llvm.loop.unroll.followup_unrolled", [[PROGRESS]], [[UNROLLED:![0-9]+]]}
; TUNED-DAG: [[UNROLLED]] = !{!"sl1.strided.unrolled"}
; TUNED-DAG: [[CONST]] = distinct !{[[CONST]], [[PROGRESS]]}
; TUNED-DAG: [[WRAP]] = distinct !{[[WRAP]], [[PROGRESS]]}
; TUNED-DAG: [[PRAGMA]] = distinct !{[[PRAGMA]], [[DISABLE:![0-9]+]]}
; TUNED-DAG: [[SHARED]] = distinct !{[[SHARED]], [[PROGRESS]]}
; TUNED-DAG: [[BARRIER]] = distinct !{[[BARRIER]], [[PROGRESS]]}
;
; Without device tuning, or with `--no-strided-unroll`, no loop is counted.
; PLAIN-NOT: llvm.loop.unroll.count
; OFF-NOT: llvm.loop.unroll.count
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; sum += in[i] for i = first, first + stride, ... < n.
define void @grid_stride(ptr addrspace(1) %in, ptr %out, i32 %first, i32 %stride, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %wide = sext i32 %i to i64
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %x = load i32, ptr addrspace(1) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !0

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

define void @constant_step(ptr addrspace(1) %in, ptr %out, i32 %first, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %wide = sext i32 %i to i64
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %x = load i32, ptr addrspace(1) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add nsw i32 %i, 256
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !2

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

define void @may_wrap(ptr addrspace(1) %in, ptr %out, i32 %first, i32 %stride, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %wide = sext i32 %i to i64
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %x = load i32, ptr addrspace(1) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !7

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

define void @pragma(ptr addrspace(1) %in, ptr %out, i32 %first, i32 %stride, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %wide = sext i32 %i to i64
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %x = load i32, ptr addrspace(1) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !3

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

define void @shared_only(ptr addrspace(3) %in, ptr %out, i32 %first, i32 %stride, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %at = getelementptr inbounds i32, ptr addrspace(3) %in, i32 %i
  %x = load i32, ptr addrspace(3) %at, align 4
  %sum.next = add i32 %sum, %x
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !5

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

define void @barrier(ptr addrspace(1) %in, ptr %out, i32 %first, i32 %stride, i32 %n) {
entry:
  %go = icmp slt i32 %first, %n
  br i1 %go, label %loop, label %done

loop:
  %i = phi i32 [ %first, %entry ], [ %next, %loop ]
  %sum = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  %wide = sext i32 %i to i64
  %at = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %wide
  %x = load i32, ptr addrspace(1) %at, align 4
  call void @llvm.nvvm.barrier0()
  %sum.next = add i32 %sum, %x
  %next = add nsw i32 %i, %stride
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %done, !llvm.loop !6

done:
  %total = phi i32 [ 0, %entry ], [ %sum.next, %loop ]
  store i32 %total, ptr %out, align 4
  ret void
}

declare void @llvm.nvvm.barrier0() #0

attributes #0 = { convergent nocallback nounwind }

!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.mustprogress"}
!2 = distinct !{!2, !1}
!3 = distinct !{!3, !4}
!4 = !{!"llvm.loop.unroll.disable"}
!5 = distinct !{!5, !1}
!6 = distinct !{!6, !1}
!7 = distinct !{!7, !1}

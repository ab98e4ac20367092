; A kernel marked the older way, through !nvvm.annotations, beside a device
; function that is not a kernel.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; The kernel found through the annotation is transformed; the device
; function beside it is not. `data` is read and written (8-byte elements:
; 8 B of padding a line, 24 B a thread), its line fetched before a store
; to a line it does not hold, and written back at the exit.
; ALL: @sl1.lines.annotated = internal addrspace(3) global [24576 x i8] poison, align 16
; ALL-LABEL: define void @helper(
; ALL-NOT: sl1
; ALL: ret void
; LLVM 22 reads the annotation as the kernel calling convention (and the
; bound as an attribute); LLVM 19 keeps it and the bound beside it.
; LLVM22-ALL-LABEL: define ptx_kernel void @annotated(
; LLVM19-ALL-LABEL: define void @annotated(
; Line runs: the run's iterations load and store the line alone, and the
; run's bytes are marked dirty at once.
; CHECK: {{^}}sl1.latch.sl1.cached16:
; CHECK: %sl1.run.dirty = select i1
; CHECK: {{^}}loop.sl1.cached16.run:
; CHECK: %v.i{{[0-9]+}} = load i64, ptr addrspace(3) %s.i[[S:[0-9]+]], align 8
; CHECK: store i64 {{%[0-9]+}}, ptr addrspace(3) %s.i[[S]], align 8
; CHECK-NOT: store
; CHECK: br i1 {{%[0-9]+}}, label %loop.sl1.cached16.run, label %loop.sl1.cached16
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: %sl1.data.dirty.{{[0-9]+}} = phi i32 [ 0, %sl1.pick.line ]
; CHECK: {{^}}sl1.store.i64.a8.fetch.exit{{[0-9]+}}:
; CHECK: {{^}}loop.sl1.cached32:
; CHECK: {{^}}sl1.decide:
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 40
; CHECK: %sl1.capacity = udiv i32 24576,
; CHECK: {{^}}loop.sl1.plain:
; CHECK: store i64 {{%[0-9]+}}, ptr {{%[0-9]+}}, align 8
; CHECK: {{^}}sl1.exit:
; CHECK: icmp eq i32 %sl1.data.dirty.{{[0-9]+}}, 0
;
; The paper's options: monitored, one 16 B line; its stores fetch too.
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.data.sim.tag.0 = phi i64
; PAPER: {{^}}loop.sl1.cached:
; PAPER: {{^}}sl1.store.i64.a8.fetch.exit:
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.annotated, i64
; PAPER: br i1 %sl1.cached.not, label %loop.sl1.plain, label %loop.sl1.cached
; PAPER: {{^}}sl1.exit:
;
; LLVM22-ALL: attributes #0 = { "nvvm.maxntid"="1024" }
; LLVM22-ALL: !nvvm.annotations = !{}
; LLVM19-ALL: !nvvm.annotations = !{!0, !1}
; LLVM19-ALL: !0 = !{ptr @annotated, !"kernel", i32 1}
; LLVM19-ALL: !1 = !{ptr @annotated, !"maxntidx", i32 1024}
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define void @helper(ptr %p) {
  store i32 0, ptr %p, align 4
  ret void
}

define void @annotated(ptr noalias %data, i32 %n) {
entry:
  %pos = icmp sgt i32 %n, 0
  br i1 %pos, label %loop, label %exit

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %i64 = sext i32 %i to i64
  %p = getelementptr inbounds i64, ptr %data, i64 %i64
  %v = load i64, ptr %p, align 8
  %w = shl i64 %v, 1
  store i64 %w, ptr %p, align 8
  %next = add nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @annotated, !"kernel", i32 1}

; A histogram: bytes read from `in`, counts bumped atomically in `hist`.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; `hist` stays direct (its accesses are atomics); `in` is cached, a read
; stream, its lines up to 128 B. Nothing cached is written, so no line is
; written back or evicted around the atomics: every copy of the loop keeps
; them as they were, line runs included (a full run of a 16 B line after
; its checked first byte: 15 bytes read from the line, 15 atomics).
; CHECK: @sl1.lines.histogram = internal addrspace(3) global [20480 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @histogram(
; CHECK-NOT: sl1.flush
; CHECK-NOT: sl1.evict
; CHECK: {{^}}sl1.latch.sl1.cached16:
; CHECK: %sl1.run.off = sub i64
; CHECK: br i1 %sl1.run.full{{[0-9]*}}, label %loop.sl1.cached16.run.full0, label %sl1.run.pick
; CHECK: {{^}}loop.sl1.cached16.run:
; CHECK: load i8, ptr addrspace(3) %s.i{{[0-9]+}}, align 1
; CHECK: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK-COUNT-15: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; CHECK-NEXT: add nuw i64 %sl1.phi.{{[0-9]+}}, 16
; CHECK-NEXT: br label %loop.sl1.cached16
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: %sl1.stage.tag.0 = phi i64 [ -1, %sl1.pick.line{{[0-9]*}} ]
; CHECK: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; CHECK: {{^}}loop.sl1.cached128:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.capacity = udiv i32 20480,
; CHECK: br i1 %sl1.fits.not, label %sl1.pick.line{{[0-9]*}}, label %loop.sl1.plain
; CHECK: {{^}}loop.sl1.plain:
; CHECK: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; CHECK-NOT: sl1.flush
; CHECK-NOT: sl1.evict
;
; The paper's options: 16 B lines, monitored; the atomics as they were in
; the monitor, the cached copy and the plain one.
; PAPER: @sl1.lines.histogram = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @histogram(
; PAPER-NOT: sl1.flush
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER-NOT: %sl1.hist.sim
; PAPER: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; PAPER: {{^}}loop.sl1.cached:
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: %v2.i = load i8, ptr addrspace(3) %s1.i, align 1
; PAPER: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; PAPER: {{^}}sl1.decide:
; PAPER: br i1 %sl1.cached.not, label %loop.sl1.plain, label %loop.sl1.cached
; PAPER: {{^}}loop.sl1.plain:
; PAPER: atomicrmw add ptr {{%[0-9]+}}, i32 1 syncscope("device") monotonic, align 4
; PAPER-NOT: sl1.flush
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @histogram(ptr noalias readonly %in, ptr noalias %hist, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %bin = zext i8 %c to i64
  %slot = getelementptr inbounds i32, ptr %hist, i64 %bin
  %old = atomicrmw add ptr %slot, i32 1 syncscope("device") monotonic, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

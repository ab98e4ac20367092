; A search loop with a second exit (break) besides the loop condition, and
; mixed element sizes (i8 key, i32 positions, a <4 x i32> vector store).
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default the loop only reads (`pos` is written after it): left to the
; hardware L1, as it was (the report: only_reads).
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @find(
; CHECK-NOT: sl1
; CHECK: %c = load i8, ptr %p, align 1
; CHECK: br i1 %hit, label %found, label %latch
; CHECK: br i1 %done, label %notfound, label %loop
; CHECK-NOT: sl1
;
; With the paper's options `text` is cached (one structure: 20 B a thread
; of 1024): each copy of the loop (monitor, cached, plain) keeps both
; exits, and `found` takes the counter from whichever copy left.
; PAPER: @sl1.lines.find = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @find(
; PAPER: br i1 %has.not, label %notfound, label %loop.sl1.monitor
; PAPER: {{^}}sl1.latch.sl1.monitor:
; PAPER-NEXT: %sl1.monitored = icmp {{.*}}i32 {{.*}}, {{298|299}}
; PAPER-NEXT: br i1 %sl1.monitored, label %sl1.decide, label %loop.sl1.monitor
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.text.sim.tag.0 = phi i64 {{.*}}[ -1, %entry ]
; PAPER: br i1 {{%[0-9]+}}, label %found, label %latch.sl1.monitor
; PAPER: {{^}}latch.sl1.monitor:
; PAPER: br i1 {{%[0-9]+}}, label %notfound, label %sl1.latch.sl1.monitor
; PAPER: {{^}}loop.sl1.cached:
; PAPER: br i1 %hit.i{{[0-9]+}}, label %sl1.load.i8.a1.exit, label %fill.i
; PAPER: {{^}}fill.i:
; PAPER: [[LINE:%[0-9]+]] = load <4 x i32>, ptr addrspace(1) %g.i, align 16
; PAPER-NEXT: store <4 x i32> [[LINE]], ptr addrspace(3) %sl1.line, align 4
; PAPER: {{^}}sl1.load.i8.a1.exit:
; PAPER: br i1 {{%[0-9]+}}, label %found, label %latch.sl1.cached
; PAPER: {{^}}latch.sl1.cached:
; PAPER: br i1 {{%[0-9]+}}, label %notfound, label %loop.sl1.cached
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.find, i64
; PAPER: br i1 %sl1.cached.not, label %loop.sl1.plain, label %loop.sl1.cached
; PAPER: {{^}}loop.sl1.plain:
; PAPER: br i1 {{%[0-9]+}}, label %found, label %latch.sl1.plain
; PAPER: {{^}}found:
; PAPER-NEXT: %sl1.out.0 = phi i64 [ %sl1.phi.{{[0-9]+}}, %loop.sl1.monitor ], [ %sl1.phi.{{[0-9]+}}, %sl1.load.i8.a1.exit ], [ %sl1.phi.{{[0-9]+}}, %loop.sl1.plain ]
; PAPER: store i32 %i32, ptr %pos, align 4
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @find(ptr noalias readonly %text, ptr noalias %pos, i64 %n, i8 %key) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %notfound

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %latch ]
  %p = getelementptr inbounds i8, ptr %text, i64 %i
  %c = load i8, ptr %p, align 1
  %hit = icmp eq i8 %c, %key
  br i1 %hit, label %found, label %latch

latch:
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %notfound, label %loop

found:
  %i32 = trunc i64 %i to i32
  store i32 %i32, ptr %pos, align 4
  ret void

notfound:
  %q = getelementptr inbounds i8, ptr %pos, i64 16
  store <4 x i32> <i32 -1, i32 -1, i32 -1, i32 -1>, ptr %q, align 16
  ret void
}

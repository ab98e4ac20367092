; A loop nest working on local memory beside the loop the cache would take
; (transform/local_nests.rs): each thread copies its chunk of `in` to `out`
; and keeps bytes of it in a private board indexed at run time (local
; memory), then works on the board.
; - @prologue_then_search: the board is searched by a nest two loops deep,
;   deeper than the copy loop: the line buffer would take L1 from it, so
;   the kernel is left alone.
; - @prologue_then_flat: the board is worked on by a single loop, as deep as
;   the copy loop: transformed.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; One line buffer, for @prologue_then_flat only. @prologue_then_search is
; left exactly as it was (the report: local_nest, the search two loops
; deep); @prologue_then_flat's copy loop is sliced, and the loop on its
; board after it stays as it was, its accesses to local memory direct.
; ALL-NOT: @sl1.lines.prologue_then_search
; ALL: @sl1.lines.prologue_then_flat = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL-NOT: @sl1.lines.prologue_then_search
; ALL-LABEL: define ptx_kernel void @prologue_then_search(
; ALL-NOT: sl1
; ALL: %board = alloca [20 x i8], align 1
; ALL: {{^}}copy:
; ALL: store i8 %v, ptr %cell, align 1
; ALL: store i8 %w, ptr %dst, align 1
; ALL: {{^}}scan:
; ALL: {{^}}done:
; ALL-NOT: sl1
; ALL-LABEL: define ptx_kernel void @prologue_then_flat(
; ALL: %board = alloca [20 x i8], align 1
; By default the copy streams: its versions per line size, line runs; the
; board's store stays direct in each.
; CHECK: {{^}}copy.sl1.cached16.run:
; CHECK: store i8 {{%.*}}, ptr {{%[0-9]+}}, align 1
; CHECK: {{^}}copy.sl1.cached16:
; CHECK: {{^}}copy.sl1.cached128:
; CHECK: {{^}}sl1.decide:
; CHECK: %sl1.line.size = select i1
; CHECK: {{^}}copy.sl1.plain:
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; The paper's options: monitored, 16 B lines.
; PAPER: {{^}}copy.sl1.monitor:
; PAPER: %sl1.in.sim.tag.0 = phi i64
; PAPER-NOT: %sl1.board
; PAPER: {{^}}copy.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER: {{^}}copy.sl1.plain:
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; ALL: {{^}}work:
; ALL-NOT: sl1
; ALL: %b = load i8, ptr %read, align 1
; ALL: store i8 %s8, ptr %put, align 1
; ALL: br i1 %working, label %work, label %done
; ALL-NOT: sl1
; ALL: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @prologue_then_search(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %steps) {
entry:
  %board = alloca [20 x i8], align 1
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %search.pre, label %copy

copy:
  %i = phi i64 [ 0, %entry ], [ %i.next, %copy ]
  %at = add i64 %begin, %i
  %src = getelementptr inbounds i8, ptr %in, i64 %at
  %dst = getelementptr inbounds i8, ptr %out, i64 %at
  %v = load i8, ptr %src, align 1
  %slot = urem i64 %i, 20
  %cell = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %slot
  store i8 %v, ptr %cell, align 1
  %w = xor i8 %v, 1
  store i8 %w, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %chunk
  br i1 %more, label %copy, label %search.pre

search.pre:
  %none = icmp sle i32 %steps, 0
  br i1 %none, label %done, label %search

search:
  %d = phi i32 [ 0, %search.pre ], [ %d.next, %search.latch ]
  %sum = phi i32 [ 0, %search.pre ], [ %sum.in, %search.latch ]
  %width = urem i32 %d, 20
  %flat = icmp eq i32 %width, 0
  br i1 %flat, label %search.latch, label %scan

scan:
  %j = phi i32 [ 0, %search ], [ %j.next, %scan ]
  %acc = phi i32 [ %sum, %search ], [ %acc.next, %scan ]
  %j64 = zext i32 %j to i64
  %read = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %j64
  %b = load i8, ptr %read, align 1
  %b32 = sext i8 %b to i32
  %acc.next = add i32 %acc, %b32
  %j.next = add nuw i32 %j, 1
  %scanning = icmp ult i32 %j.next, %width
  br i1 %scanning, label %scan, label %search.latch

search.latch:
  %sum.in = phi i32 [ %sum, %search ], [ %acc.next, %scan ]
  %w64 = zext i32 %width to i64
  %put = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %w64
  %s8 = trunc i32 %sum.in to i8
  store i8 %s8, ptr %put, align 1
  %d.next = add nuw i32 %d, 1
  %searching = icmp slt i32 %d.next, %steps
  br i1 %searching, label %search, label %done

done:
  %result = phi i32 [ 0, %search.pre ], [ %sum.in, %search.latch ]
  %r8 = trunc i32 %result to i8
  %last = getelementptr inbounds i8, ptr %out, i64 %tid64
  store i8 %r8, ptr %last, align 1
  ret void
}

define ptx_kernel void @prologue_then_flat(ptr noalias readonly %in, ptr noalias %out, i64 %chunk, i32 %steps) {
entry:
  %board = alloca [20 x i8], align 1
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %work.pre, label %copy

copy:
  %i = phi i64 [ 0, %entry ], [ %i.next, %copy ]
  %at = add i64 %begin, %i
  %src = getelementptr inbounds i8, ptr %in, i64 %at
  %dst = getelementptr inbounds i8, ptr %out, i64 %at
  %v = load i8, ptr %src, align 1
  %slot = urem i64 %i, 20
  %cell = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %slot
  store i8 %v, ptr %cell, align 1
  %w = xor i8 %v, 1
  store i8 %w, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %chunk
  br i1 %more, label %copy, label %work.pre

work.pre:
  %none = icmp sle i32 %steps, 0
  br i1 %none, label %done, label %work

work:
  %d = phi i32 [ 0, %work.pre ], [ %d.next, %work ]
  %sum = phi i32 [ 0, %work.pre ], [ %sum.next, %work ]
  %seven = mul i32 %d, 7
  %from = urem i32 %seven, 20
  %from64 = zext i32 %from to i64
  %read = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %from64
  %b = load i8, ptr %read, align 1
  %b32 = sext i8 %b to i32
  %sum.next = add i32 %sum, %b32
  %width = urem i32 %d, 20
  %w64 = zext i32 %width to i64
  %put = getelementptr inbounds [20 x i8], ptr %board, i64 0, i64 %w64
  %s8 = trunc i32 %sum.next to i8
  store i8 %s8, ptr %put, align 1
  %d.next = add nuw i32 %d, 1
  %working = icmp slt i32 %d.next, %steps
  br i1 %working, label %work, label %done

done:
  %result = phi i32 [ 0, %work.pre ], [ %sum.next, %work ]
  %r8 = trunc i32 %result to i8
  %last = getelementptr inbounds i8, ptr %out, i64 %tid64
  store i8 %r8, ptr %last, align 1
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A loop nest working on local memory beside the loop the cache would take
; (transform/local_nests.rs): each thread copies its chunk of `in` to `out`
; and keeps bytes of it in a private board indexed at run time (local
; memory), then works on the board.
; - @prologue_then_search: the board is searched by a nest two loops deep,
;   deeper than the copy loop: the line buffer would take L1 from it, so
;   the kernel is left alone.
; - @prologue_then_flat: the board is worked on by a single loop, as deep as
;   the copy loop: transformed.
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

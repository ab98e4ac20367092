; Inner loops whose trip counts depend on loaded data (tuning/merged_loops.rs).
; Each kernel takes its thread's index %t, so that a test can run it on the CPU.
;   lines:   per line start in the thread's chunk, counts the line's 'a's: the
;            line loop is merged into the main loop.
;            Its own iterations (the search for a line start) test loaded
;            data: they run in rounds.
;   guarded: as lines, entered only by threads with a non-empty chunk: the
;            threads that skip the loop must not be among those voting.
;   every:   from every position of the chunk, counts the 'a's up to the next
;            newline: the line loop is entered on every iteration, so there
;            is no search to run in rounds.
;   rows:    CSR rows: the entry loop runs to a bound loaded before it, a
;            count known on entry: stays nested (LLVM unrolls it).
;   ended:   CSR rows whose entries also stop at a zero: the exit depends on
;            a load in the loop, so it merges; the entry loop is skipped for
;            an empty row by its guard, which goes where the loop leaves
;            to: no search, so no rounds.
;   counted: the inner loop runs %k times (an argument): stays nested.
;   barrier: as lines, with a barrier in the main loop: stays nested.
;   rare:    the inner loop is entered only after five tests: stays nested.
;   four:    a short scan (digits) entered after four tests, as pvc's
;            parse_id is: stays nested.
;   pattern: per line start, counts the line's "ab"s: the line loop merges,
;            and the compare with the pattern inside it, which goes on while
;            bytes are equal, gets its first iteration taken out in front.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: TUNED --device-tuning
;
; By default S-L1 caches none of these (the report: nothing predicted to
; pay, or loops that only read), and without --device-tuning no loop is
; merged: every kernel keeps its nest as it was.
; CHECK-NOT: sl1
; CHECK-LABEL: define ptx_kernel void @lines(
; CHECK-NOT: sl1
; CHECK: br i1 %more, label %body, label %done
; CHECK-NOT: vote
; CHECK-LABEL: define ptx_kernel void @every(
; CHECK-NOT: sl1
; CHECK-LABEL: define ptx_kernel void @barrier(
; CHECK-NOT: sl1
; CHECK: call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
; CHECK-LABEL: define ptx_kernel void @pattern(
; CHECK-NOT: sl1
; CHECK: ret void
; CHECK-NOT: sl1
;
; With the paper's options the outer loops are sliced (but that of `rows`,
; no main loop) with their inner loops inside each copy: both reads of
; `text`, in the outer loop and in the inner one, go through the one line
; of `text`, its tag carried through the inner loop; each store to `out`
; stays direct (cold).
; PAPER: @sl1.lines.lines = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER: @sl1.lines.pattern = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @lines(
; PAPER: br label %outer.sl1.monitor
; PAPER: {{^}}outer.sl1.monitor:
; PAPER: %sl1.text.sim.tag.0 = phi i64 [ -1, %entry ]
; PAPER: {{^}}inner.sl1.monitor:
; PAPER: {{^}}outer.sl1.cached:
; PAPER: %sl1.text.tag.[[T:[0-9]+]] = phi i64 [ -1, %sl1.decide ]
; PAPER: {{^}}check.sl1.cached:
; PAPER: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.text.tag.[[T]], %line.i{{[0-9]+}}
; PAPER: {{^}}inner.sl1.cached:
; PAPER-NEXT: %sl1.text.tag.{{[0-9]+}} = phi i64
; PAPER: {{^}}inner.load.sl1.cached:
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: {{^}}store.sl1.cached:
; PAPER: store i64 {{%[0-9]+}}, ptr {{%[0-9]+}}, align 8
; PAPER: {{^}}sl1.decide:
; PAPER: br i1 %sl1.cached.not, label %outer.sl1.plain, label %outer.sl1.cached
; PAPER: {{^}}inner.sl1.plain:
; PAPER-LABEL: define ptx_kernel void @rows(
; PAPER-NOT: sl1
; PAPER: br i1 %more, label %body, label %done
; PAPER-NOT: sl1
; PAPER-LABEL: define ptx_kernel void @ended(
; PAPER-NOT: sl1
; PAPER-LABEL: define ptx_kernel void @counted(
; PAPER: {{^}}outer.sl1.cached:
; The barrier kernel: its copy chosen block-wide (LLVM 19's votes are
; llvm.nvvm.barrier0.*; it declares LLVM 22's barrier of this case without
; `convergent`, and the pass knows it by name).
; PAPER-LABEL: define ptx_kernel void @barrier(
; LLVM22-PAPER: %sl1.block = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 %sl1.monitored)
; LLVM19-PAPER: %sl1.block = call i32 @llvm.nvvm.barrier0.or(i32
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.barrier, i64
; LLVM22-PAPER: call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 0, i1 %sl1.cached)
; LLVM19-PAPER: call i32 @llvm.nvvm.barrier0.and(i32
; PAPER-LABEL: define ptx_kernel void @pattern(
; PAPER: {{^}}outer.sl1.cached:
;
; lines: one loop dispatches to the inner loop or the own iterations; the
; warp votes who goes where (the members: the lanes that entered), and a
; second vote over "bound for the inner loop", among the same members (the
; lanes leaving now take it too), makes a lane back from it wait while any
; other is still there (rounds).
; TUNED-LABEL: define ptx_kernel void @lines(
; TUNED: sl1.merged:
; TUNED: %sl1.merged.members.0 = phi i32 [ [[ENTERED:%[0-9]+]], %sl1.merged.enter ]
; TUNED: {{%[0-9]+}} = call i32 @llvm.nvvm.vote.ballot.sync(i32 %sl1.merged.members.0,
; TUNED: [[BOUND:%[0-9]+]] = call i32 @llvm.nvvm.vote.ballot.sync(i32 %sl1.merged.members.0,
; TUNED-NEXT: %sl1.merged.busy = icmp ne i32 [[BOUND]], 0
; TUNED-NEXT: br i1 %sl1.merged.to, label %inner, label %sl1.merged.test
; TUNED: sl1.merged.enter:
; TUNED-NEXT: [[ENTERED]] = call i32 @llvm.nvvm.activemask()
; TUNED: sl1.merged.own:
; TUNED-NEXT: br i1 %sl1.merged.busy, label %sl1.merged.wait, label %outer
;
; every: the inner loop is entered on every iteration, no search: one vote,
; no waiting.
; TUNED-LABEL: define ptx_kernel void @every(
; TUNED: call i32 @llvm.nvvm.vote.ballot.sync
; TUNED-NOT: call i32 @llvm.nvvm.vote.ballot.sync
; TUNED-NOT: sl1.merged.wait
;
; rows: the row's end is loaded before the loop, a count: nested as it was.
; TUNED-LABEL: define ptx_kernel void @rows(
; TUNED-NOT: sl1.merged
; TUNED-LABEL: define ptx_kernel void @ended(
; TUNED: call i32 @llvm.nvvm.vote.ballot.sync
; TUNED-NOT: sl1.merged.wait
;
; counted: the inner loop runs a count of times: the nest stays as it is.
; TUNED-LABEL: define ptx_kernel void @counted(
; TUNED-NOT: sl1.merged
; TUNED-LABEL: define ptx_kernel void @barrier(
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)

define ptx_kernel void @lines(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %e0 = add i64 %begin, %chunk
  %lt = icmp ult i64 %e0, %n
  %end = select i1 %lt, i64 %e0, i64 %n
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %body, label %done

body:
  %first = icmp eq i64 %i, 0
  br i1 %first, label %start, label %check

check:
  %im1 = sub i64 %i, 1
  %pp = getelementptr i8, ptr %text, i64 %im1
  %pc = load i8, ptr %pp
  %nl = icmp eq i8 %pc, 10
  br i1 %nl, label %start, label %latch

start:
  br label %inner

inner:
  %j = phi i64 [ %i, %start ], [ %j.next, %inner.body ]
  %count = phi i64 [ 0, %start ], [ %count.next, %inner.body ]
  %jin = icmp ult i64 %j, %n
  br i1 %jin, label %inner.load, label %store

inner.load:
  %jp = getelementptr i8, ptr %text, i64 %j
  %c = load i8, ptr %jp
  %eol = icmp eq i8 %c, 10
  br i1 %eol, label %store, label %inner.body

inner.body:
  %isa = icmp eq i8 %c, 97
  %add = zext i1 %isa to i64
  %count.next = add i64 %count, %add
  %j.next = add i64 %j, 1
  br label %inner

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %count, ptr %op
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @guarded(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %e0 = add i64 %begin, %chunk
  %lt = icmp ult i64 %e0, %n
  %end = select i1 %lt, i64 %e0, i64 %n
  %has = icmp ult i64 %begin, %end
  br i1 %has, label %outer, label %done

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %body, label %done

body:
  %first = icmp eq i64 %i, 0
  br i1 %first, label %start, label %check

check:
  %im1 = sub i64 %i, 1
  %pp = getelementptr i8, ptr %text, i64 %im1
  %pc = load i8, ptr %pp
  %nl = icmp eq i8 %pc, 10
  br i1 %nl, label %start, label %latch

start:
  br label %inner

inner:
  %j = phi i64 [ %i, %start ], [ %j.next, %inner.body ]
  %count = phi i64 [ 0, %start ], [ %count.next, %inner.body ]
  %jin = icmp ult i64 %j, %n
  br i1 %jin, label %inner.load, label %store

inner.load:
  %jp = getelementptr i8, ptr %text, i64 %j
  %c = load i8, ptr %jp
  %eol = icmp eq i8 %c, 10
  br i1 %eol, label %store, label %inner.body

inner.body:
  %isa = icmp eq i8 %c, 97
  %add = zext i1 %isa to i64
  %count.next = add i64 %count, %add
  %j.next = add i64 %j, 1
  br label %inner

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %count, ptr %op
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @every(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %e0 = add i64 %begin, %chunk
  %lt = icmp ult i64 %e0, %n
  %end = select i1 %lt, i64 %e0, i64 %n
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %store ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %inner, label %done

inner:
  %j = phi i64 [ %i, %outer ], [ %j.next, %inner.body ]
  %count = phi i64 [ 0, %outer ], [ %count.next, %inner.body ]
  %jin = icmp ult i64 %j, %n
  br i1 %jin, label %inner.load, label %store

inner.load:
  %jp = getelementptr i8, ptr %text, i64 %j
  %c = load i8, ptr %jp
  %eol = icmp eq i8 %c, 10
  br i1 %eol, label %store, label %inner.body

inner.body:
  %isa = icmp eq i8 %c, 97
  %add = zext i1 %isa to i64
  %count.next = add i64 %count, %add
  %j.next = add i64 %j, 1
  br label %inner

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %count, ptr %op
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @rows(ptr noalias readonly %ptr, ptr noalias readonly %vals, ptr noalias %out, i64 %rows, i64 %t) {
entry:
  br label %outer

outer:
  %r = phi i64 [ %t, %entry ], [ %r.next, %store ]
  %more = icmp ult i64 %r, %rows
  br i1 %more, label %body, label %done

body:
  %sp = getelementptr i32, ptr %ptr, i64 %r
  %start = load i32, ptr %sp
  %r1 = add i64 %r, 1
  %ep = getelementptr i32, ptr %ptr, i64 %r1
  %end = load i32, ptr %ep
  %any = icmp ult i32 %start, %end
  br i1 %any, label %inner, label %store

inner:
  %j = phi i32 [ %start, %body ], [ %j.next, %inner ]
  %acc = phi i32 [ 0, %body ], [ %acc.next, %inner ]
  %vp = getelementptr i32, ptr %vals, i32 %j
  %v = load i32, ptr %vp
  %acc.next = add i32 %acc, %v
  %j.next = add i32 %j, 1
  %again = icmp ult i32 %j.next, %end
  br i1 %again, label %inner, label %store

store:
  %sum = phi i32 [ 0, %body ], [ %acc.next, %inner ]
  %op = getelementptr i32, ptr %out, i64 %r
  store i32 %sum, ptr %op
  %r.next = add i64 %r, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @ended(ptr noalias readonly %ptr, ptr noalias readonly %vals, ptr noalias %out, i64 %rows, i64 %t) {
entry:
  br label %outer

outer:
  %r = phi i64 [ %t, %entry ], [ %r.next, %store ]
  %more = icmp ult i64 %r, %rows
  br i1 %more, label %body, label %done

body:
  %sp = getelementptr i32, ptr %ptr, i64 %r
  %start = load i32, ptr %sp
  %r1 = add i64 %r, 1
  %ep = getelementptr i32, ptr %ptr, i64 %r1
  %end = load i32, ptr %ep
  %any = icmp ult i32 %start, %end
  br i1 %any, label %inner, label %store

inner:
  %j = phi i32 [ %start, %body ], [ %j.next, %inner ]
  %acc = phi i32 [ 0, %body ], [ %acc.next, %inner ]
  %vp = getelementptr i32, ptr %vals, i32 %j
  %v = load i32, ptr %vp
  %acc.next = add i32 %acc, %v
  %j.next = add i32 %j, 1
  %nonzero = icmp ne i32 %v, 0
  %within = icmp ult i32 %j.next, %end
  %again = and i1 %nonzero, %within
  br i1 %again, label %inner, label %store

store:
  %sum = phi i32 [ 0, %body ], [ %acc.next, %inner ]
  %op = getelementptr i32, ptr %out, i64 %r
  store i32 %sum, ptr %op
  %r.next = add i64 %r, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @counted(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t, i64 %k) {
entry:
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %inner, label %done

inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %sum = phi i64 [ 0, %outer ], [ %sum.next, %inner ]
  %at = add i64 %i, %j
  %p = getelementptr i8, ptr %text, i64 %at
  %c = load i8, ptr %p
  %cz = zext i8 %c to i64
  %sum.next = add i64 %sum, %cz
  %j.next = add i64 %j, 1
  %again = icmp ult i64 %j.next, %k
  br i1 %again, label %inner, label %latch

latch:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %sum.next, ptr %op
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @barrier(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %body, label %done

body:
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %pp = getelementptr i8, ptr %text, i64 %i
  %pc = load i8, ptr %pp
  %nl = icmp eq i8 %pc, 10
  br i1 %nl, label %inner, label %latch

inner:
  %j = phi i64 [ %i, %body ], [ %j.next, %inner ]
  %jp = getelementptr i8, ptr %text, i64 %j
  %c = load i8, ptr %jp
  %j.next = add i64 %j, 1
  %go = icmp ne i8 %c, 0
  br i1 %go, label %inner, label %store

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %j, ptr %op
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @rare(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %t0, label %done

t0:
  %p0 = getelementptr i8, ptr %text, i64 %i
  %c0 = load i8, ptr %p0
  %k0 = icmp eq i8 %c0, 104
  br i1 %k0, label %t1, label %latch

t1:
  %p1 = getelementptr i8, ptr %p0, i64 1
  %c1 = load i8, ptr %p1
  %k1 = icmp eq i8 %c1, 114
  br i1 %k1, label %t2, label %latch

t2:
  %p2 = getelementptr i8, ptr %p0, i64 2
  %c2 = load i8, ptr %p2
  %k2 = icmp eq i8 %c2, 101
  br i1 %k2, label %t3, label %latch

t3:
  %p3 = getelementptr i8, ptr %p0, i64 3
  %c3 = load i8, ptr %p3
  %k3 = icmp eq i8 %c3, 102
  br i1 %k3, label %t4, label %latch

t4:
  %p4 = getelementptr i8, ptr %p0, i64 4
  %c4 = load i8, ptr %p4
  %k4 = icmp eq i8 %c4, 61
  br i1 %k4, label %inner, label %latch

inner:
  %j = phi i64 [ 5, %t4 ], [ %j.next, %inner ]
  %at = add i64 %i, %j
  %jp = getelementptr i8, ptr %text, i64 %at
  %c = load i8, ptr %jp
  %j.next = add i64 %j, 1
  %digit = icmp ult i8 %c, 58
  br i1 %digit, label %inner, label %store

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %j, ptr %op
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

define ptx_kernel void @four(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %t0, label %done

t0:
  %p0 = getelementptr i8, ptr %text, i64 %i
  %c0 = load i8, ptr %p0
  %k0 = icmp eq i8 %c0, 104
  br i1 %k0, label %t1, label %latch

t1:
  %p1 = getelementptr i8, ptr %p0, i64 1
  %c1 = load i8, ptr %p1
  %k1 = icmp eq i8 %c1, 114
  br i1 %k1, label %t2, label %latch

t2:
  %p2 = getelementptr i8, ptr %p0, i64 2
  %c2 = load i8, ptr %p2
  %k2 = icmp eq i8 %c2, 61
  br i1 %k2, label %inner, label %latch

inner:
  %j = phi i64 [ 3, %t2 ], [ %j.next, %inner ]
  %at = add i64 %i, %j
  %jp = getelementptr i8, ptr %text, i64 %at
  %c = load i8, ptr %jp
  %j.next = add i64 %j, 1
  %digit = icmp ult i8 %c, 58
  br i1 %digit, label %inner, label %store

store:
  %op = getelementptr i64, ptr %out, i64 %i
  store i64 %j, ptr %op
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

@pat = private constant [2 x i8] c"ab"

define ptx_kernel void @pattern(ptr noalias readonly %text, ptr noalias %out, i64 %n, i64 %chunk, i64 %t) {
entry:
  %begin = mul i64 %t, %chunk
  %e0 = add i64 %begin, %chunk
  %lt = icmp ult i64 %e0, %n
  %end = select i1 %lt, i64 %e0, i64 %n
  br label %outer

outer:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %more = icmp ult i64 %i, %end
  br i1 %more, label %body, label %done

body:
  %first = icmp eq i64 %i, 0
  br i1 %first, label %start, label %check

check:
  %im1 = sub i64 %i, 1
  %pp = getelementptr i8, ptr %text, i64 %im1
  %pc = load i8, ptr %pp
  %nl = icmp eq i8 %pc, 10
  br i1 %nl, label %start, label %latch

start:
  br label %inner

inner:
  %j = phi i64 [ %i, %start ], [ %j.next, %inner.next ]
  %count = phi i64 [ 0, %start ], [ %count.next, %inner.next ]
  %jin = icmp ult i64 %j, %n
  br i1 %jin, label %inner.load, label %inner.done

inner.load:
  %p = getelementptr i8, ptr %text, i64 %j
  %c = load i8, ptr %p
  %isnl = icmp eq i8 %c, 10
  br i1 %isnl, label %inner.done, label %match

match:
  %k = phi i64 [ 0, %inner.load ], [ %k.next, %match.next ]
  %kin = icmp ult i64 %k, 2
  br i1 %kin, label %match.bound, label %match.done

match.bound:
  %jk = add i64 %j, %k
  %jkin = icmp ult i64 %jk, %n
  br i1 %jkin, label %match.test, label %match.done

match.test:
  %q = getelementptr i8, ptr %text, i64 %jk
  %x = load i8, ptr %q
  %r = getelementptr i8, ptr @pat, i64 %k
  %y = load i8, ptr %r
  %same = icmp eq i8 %x, %y
  br i1 %same, label %match.next, label %match.done

match.next:
  %k.next = add i64 %k, 1
  br label %match

match.done:
  %kend = phi i64 [ %k, %match ], [ %k, %match.bound ], [ %k, %match.test ]
  %hit = icmp eq i64 %kend, 2
  %hit64 = zext i1 %hit to i64
  %count.next = add i64 %count, %hit64
  br label %inner.next

inner.next:
  %j.next = add i64 %j, 1
  br label %inner

inner.done:
  %q0 = getelementptr i64, ptr %out, i64 %i
  store i64 %count, ptr %q0
  br label %latch

latch:
  %i.next = add i64 %i, 1
  br label %outer

done:
  ret void
}

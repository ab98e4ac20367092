; The driver's device tuning (pass/src/tuning): switches that only choose
; values become selects, divisions that nested loops build on are frozen.
; Also a report case: no restrict structure is cached here.
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: TUNED --device-tuning
;
; S-L1 caches nothing here, by default or with the paper's options (the
; report: `columns` predicted to gain nothing, the other kernels without a
; main loop), and without --device-tuning nothing else changes either:
; the switches stay switches.
; CHECK-NOT: sl1
; CHECK-LABEL: define i32 @decode(
; CHECK: switch i8 %c, label %other [
; CHECK-LABEL: define i32 @spaces(
; CHECK: switch i8 %a, label %a_other [
; CHECK: switch i8 %b, label %b_other [
; CHECK-LABEL: define ptx_kernel void @columns(
; CHECK-NOT: sl1
; CHECK: %v = load i32, ptr %addr, align 4
; CHECK: store i32 %out, ptr %dst, align 4
; CHECK-LABEL: define ptx_kernel void @totals(
; CHECK: %a0 = atomicrmw add ptr %totals, i64 %n seq_cst, align 8
; CHECK-NOT: sl1
;
; The pass's part of the device tuning (the rest runs in the driver's
; pipeline after it, pass/tests/device_tuning.rs): switches that only
; choose values become compares and selects; a switch with a store in a
; case, or with more cases than the rewrite takes, stays.
; TUNED-NOT: sl1
; TUNED-LABEL: define i32 @decode(
; TUNED-NOT: switch
; TUNED: [[A:%[0-9]+]] = icmp eq i8 %c, 65
; TUNED: select i1 [[A]], i32 0, i32 -7
; TUNED: %sum = add i32 {{%[0-9]+}}, %flag
; TUNED-LABEL: define i32 @spaces(
; TUNED-NOT: switch
; TUNED: icmp eq i8 %a, 32
; TUNED: icmp eq i8 %b, 10
; TUNED: %n = add i32 {{%[0-9]+}}, {{%[0-9]+}}
; TUNED-LABEL: define i32 @stores(
; TUNED: switch i8 %c, label %other [
; TUNED-LABEL: define i32 @many(
; TUNED: switch i32 %x, label %join [
; TUNED-LABEL: define ptx_kernel void @columns(
; TUNED-NOT: sl1
; TUNED: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; c == 'A' ? 0 : c == 'C' ? 7 : c == 'G' ? 14 : c == 'T' ? 21 : -7, and
; whether c was a base: two phis, 'A' straight to the join. Rewritten.
define i32 @decode(i8 %c) {
entry:
  switch i8 %c, label %other [
    i8 65, label %join
    i8 67, label %is_c
    i8 71, label %is_g
    i8 84, label %is_t
  ]

is_c:
  br label %join

is_g:
  br label %join

is_t:
  br label %join

other:
  br label %join

join:
  %code = phi i32 [ 0, %entry ], [ 7, %is_c ], [ 14, %is_g ], [ 21, %is_t ], [ -7, %other ]
  %base = phi i1 [ true, %entry ], [ true, %is_c ], [ true, %is_g ], [ true, %is_t ], [ false, %other ]
  %flag = zext i1 %base to i32
  %sum = add i32 %code, %flag
  ret i32 %sum
}

; Two copies of an unrolled loop's is_space (c == ' ' || c == '\n'), one
; after the other, as S-L1's full runs leave them: both rewritten, and the
; chain of joins made one straight line, the first copy's choice sunk below
; the second copy's load (its one user is in the last block).
define i32 @spaces(i8 %a, ptr %p) {
entry:
  switch i8 %a, label %a_other [
    i8 32, label %a_join
    i8 10, label %a_newline
  ]

a_newline:
  br label %a_join

a_other:
  br label %a_join

a_join:
  %a_space = phi i32 [ 1, %entry ], [ 1, %a_newline ], [ 0, %a_other ]
  %b = load i8, ptr %p, align 1
  switch i8 %b, label %b_other [
    i8 32, label %b_join
    i8 10, label %b_newline
  ]

b_newline:
  br label %b_join

b_other:
  br label %b_join

b_join:
  %b_space = phi i32 [ 1, %a_join ], [ 1, %b_newline ], [ 0, %b_other ]
  %n = add i32 %a_space, %b_space
  ret i32 %n
}

; A case block that stores: left as it is.
define i32 @stores(i8 %c, ptr %p) {
entry:
  switch i8 %c, label %other [
    i8 1, label %one
    i8 2, label %two
  ]

one:
  store i32 1, ptr %p
  br label %join

two:
  br label %join

other:
  br label %join

join:
  %v = phi i32 [ 10, %one ], [ 20, %two ], [ 30, %other ]
  ret i32 %v
}

; Nine cases, more than a rewrite takes: left as it is.
define i32 @many(i32 %x) {
entry:
  switch i32 %x, label %join [
    i32 1, label %c1
    i32 2, label %c2
    i32 3, label %c3
    i32 4, label %c4
    i32 5, label %c5
    i32 6, label %c6
    i32 7, label %c7
    i32 8, label %c8
    i32 9, label %c9
  ]

c1:
  br label %join
c2:
  br label %join
c3:
  br label %join
c4:
  br label %join
c5:
  br label %join
c6:
  br label %join
c7:
  br label %join
c8:
  br label %join
c9:
  br label %join

join:
  %v = phi i32 [ 0, %entry ], [ 11, %c1 ], [ 12, %c2 ], [ 13, %c3 ], [ 14, %c4 ], [ 15, %c5 ], [ 16, %c6 ], [ 17, %c7 ], [ 18, %c8 ], [ 19, %c9 ]
  ret i32 %v
}

; for (e < n*n) { col = e % n; row = e / 13; for (k < n) acc += b[k*n + col]; ... }
; `col` feeds the inner loop: frozen. `row` is used in the outer loop only:
; left as it is.
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

; words + (a != 0) + (b != 0) + w + zext(h) + zext(q): four narrow addends
; (two booleans, an i16 and an i8) summed in 32 bits, then added once to the
; wide ones. `%pair` is used twice, so `@two_uses` keeps it 64-bit and has
; one narrow addend on each side: left as it is.
define i64 @counts(i64 %words, i8 %a, i8 %b, i64 %w, i16 %h, i8 %q) {
entry:
  %ca = icmp ne i8 %a, 0
  %za = zext i1 %ca to i64
  %s1 = add i64 %words, %za
  %cb = icmp ne i8 %b, 0
  %zb = zext i1 %cb to i64
  %s2 = add i64 %s1, %zb
  %s3 = add i64 %s2, %w
  %zh = zext i16 %h to i64
  %s4 = add i64 %s3, %zh
  %zq = zext i8 %q to i64
  %s5 = add i64 %zq, %s4
  ret i64 %s5
}

; The same narrow value added twice (`acc += x; acc += x; acc += y`): its
; `zext` is erased once (it was erased twice: fuzzer seed 99013, `--stats`).
define i64 @twice(i64 %acc, i8 %a, i8 %b) {
entry:
  %za = zext i8 %a to i64
  %s1 = add i64 %acc, %za
  %s2 = add i64 %s1, %za
  %zb = zext i8 %b to i64
  %s3 = add i64 %s2, %zb
  ret i64 %s3
}

define i64 @two_uses(i64 %words, i8 %a, i8 %b) {
entry:
  %za = zext i8 %a to i64
  %pair = add i64 %words, %za
  %zb = zext i8 %b to i64
  %s = add i64 %pair, %zb
  %t = mul i64 %pair, %s
  ret i64 %t
}

; Atomic adds at the end of each thread (`if (n) atomicAdd(&totals[k], n)`):
; to `totals` and `totals + 1` (the same for every thread), results unused:
; made once per warp. The add whose old value is used, the one to the
; thread's own slot and the 16-bit one keep theirs.
define ptx_kernel void @totals(ptr %totals, ptr %slots, i64 %n, i32 %m, i16 %h) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %a0 = atomicrmw add ptr %totals, i64 %n seq_cst, align 8
  %block = zext i32 %ctaid to i64
  %second = getelementptr i64, ptr %totals, i64 1
  %ga = addrspacecast ptr %second to ptr addrspace(1)
  %a1 = atomicrmw add ptr addrspace(1) %ga, i32 %m syncscope("device") monotonic, align 4
  %old = atomicrmw add ptr %totals, i64 %n seq_cst, align 8
  %own = getelementptr i64, ptr %slots, i32 %tid
  %a2 = atomicrmw add ptr %own, i64 %old monotonic, align 8
  %per = getelementptr i64, ptr %slots, i64 %block
  %a3 = atomicrmw add ptr %per, i64 %n monotonic, align 8
  %a4 = atomicrmw add ptr %slots, i16 %h monotonic, align 2
  ret void
}

; The same add after a fence: left as it is.
define ptx_kernel void @fenced(ptr %totals, i64 %n) #0 {
entry:
  fence syncscope("device") seq_cst
  %a0 = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  ret void
}

; Built for sm_70 (no redux.sync): left as it is.
define ptx_kernel void @volta(ptr %totals, i64 %n) #1 {
entry:
  %a0 = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_70" }

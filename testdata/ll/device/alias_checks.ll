; Run-time alias checks (pass/src/tuning/alias_checks.rs), made by the
; stage before LLVM's optimizer with device tuning: the loop of a kernel
; whose pointer arguments may alias gets a copy entered when a check finds
; the ranges it touches apart (LLVM's loop versioning, whose copy's accesses
; get scopes of the `LVerDomain`); the S-L1 transform then runs on both
; copies. A kernel whose arguments are `noalias` gets no check. The
; statistics build counts the path each check sends a thread down
; (pass/src/tuning/alias_paths.rs): element 2n of the kernel's counters for
; check n when the ranges are apart, 2n + 1 when they overlap.
;
; SL1-RUN: TUNED --device-tuning
; SL1-RUN: OFF --device-tuning --no-alias-checks
; SL1-RUN: STATS --device-tuning --stats
;
; TUNED-LABEL: define ptx_kernel void @copy_rows(
; The check runs only for loops long enough to repay it
; (alias_check_trips.rs): shorter ones take the original without it.
; TUNED: loop.lver.check:
; TUNED: %sl1.check.short = icmp
; TUNED-NEXT: br i1 %sl1.check.short, label %sl1.preheader, label %sl1.check.ranges
; TUNED: loop.lver.orig:
; TUNED: sl1.check.ranges:
; TUNED: %bound0 = icmp ult ptr
; TUNED: %bound1 = icmp ult ptr
; TUNED-NEXT: %found.conflict = and i1 %bound0, %bound1
; TUNED-NEXT: br i1 %found.conflict,
; The checked copy's ranges are apart, as with restrict: its chunks get a
; warp range (transform::warp_ranges), which the original's may not.
; TUNED: loop.ph:
; TUNED: sl1.warp.check:
; TUNED: sl1.warp.range:
; TUNED-LABEL: define ptx_kernel void @restrict_rows(
; TUNED-NOT: lver
; TUNED: !"LVerDomain"
;
; OFF-NOT: lver
; OFF-NOT: LVerDomain
;
; STATS-NOT: @sl1_alias_paths_restrict_rows
; STATS: @sl1_alias_paths_copy_rows = addrspace(1) global [2 x i64] zeroinitializer, align 8
; STATS-NOT: @sl1_alias_paths_restrict_rows
; STATS-LABEL: define ptx_kernel void @copy_rows(
; STATS: %found.conflict = and i1 %bound0, %bound1
; STATS-NEXT: %sl1.alias.path = zext i1 %found.conflict to i64
; STATS-NEXT: [[INDEX:%[0-9]+]] = add i64 %sl1.alias.path, 0
; STATS-NEXT: %sl1.alias.counter = getelementptr i64, ptr addrspace(1) @sl1_alias_paths_copy_rows, i64 [[INDEX]]
; STATS-NEXT: atomicrmw add ptr addrspace(1) %sl1.alias.counter, i64 1 monotonic
; STATS-NEXT: br i1 %found.conflict,
; STATS-LABEL: define ptx_kernel void @restrict_rows(
; STATS-NOT: sl1.alias
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @copy_rows(ptr %in, ptr %out, i64 %cols) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %row = mul i64 %i, %cols
  %has = icmp ne i64 %cols, 0
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %row, %j
  %ip = getelementptr inbounds i32, ptr %in, i64 %k
  %v = load i32, ptr %ip, align 4
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %v, ptr %op, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @restrict_rows(ptr noalias %in, ptr noalias %out, i64 %cols) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %row = mul i64 %i, %cols
  %has = icmp ne i64 %cols, 0
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %row, %j
  %ip = getelementptr inbounds i32, ptr %in, i64 %k
  %v = load i32, ptr %ip, align 4
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %v, ptr %op, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

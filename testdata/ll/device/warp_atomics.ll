; Atomic adds once per warp (pass/src/tuning/warp_atomics.rs), a late
; device rewrite: an atomic add whose address is the same for the whole warp
; (a kernel argument) and whose result is unused becomes a `redux.sync` sum
; of the warp's values (an i64 in three pieces) and one atomic add by its
; lowest active thread. The add to the thread's own slot, the add after a
; fence and the one of a kernel built for sm_70 (no `redux.sync`) stay.
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @totals(
; TUNED: [[MASK:%[0-9]+]] = call i32 @llvm.nvvm.activemask()
; TUNED: call i32 @llvm.nvvm.redux.sync.add(i32 {{%[0-9]+}}, i32 [[MASK]])
; TUNED: %sl1.warp.sum{{[.a-z0-9]*}} = add i64
; TUNED: call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
; TUNED: br i1 %sl1.warp.lowest{{[.a-z0-9]*}}, label %[[LEADER:[a-z0-9.]+]],
; TUNED: [[LEADER]]:
; TUNED-NEXT: atomicrmw add ptr %totals, i64 %sl1.warp.sum{{[.a-z0-9]*}} monotonic, align 8
; TUNED: %mine = atomicrmw add ptr %own, i64 %n monotonic, align 8
; TUNED-LABEL: define ptx_kernel void @fenced(
; TUNED-NOT: redux
; TUNED: %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
; TUNED-LABEL: define ptx_kernel void @volta(
; TUNED-NOT: redux
; TUNED: %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
;
; EARLY-NOT: redux
; EARLY: %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @totals(ptr %totals, ptr %slots, i64 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  %own = getelementptr i64, ptr %slots, i32 %tid
  %mine = atomicrmw add ptr %own, i64 %n monotonic, align 8
  ret void
}

define ptx_kernel void @fenced(ptr %totals, i64 %n) #0 {
entry:
  fence syncscope("device") seq_cst
  %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  ret void
}

define ptx_kernel void @volta(ptr %totals, i64 %n) #1 {
entry:
  %sum = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_70" }

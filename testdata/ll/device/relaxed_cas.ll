; atomicCAS relaxed (pass/src/tuning/relaxed_cas.rs), a late device
; rewrite: clang gives CUDA's atomicCAS a sequentially consistent cmpxchg of
; system scope, which NVPTX lowers to `fence.sc.sys` and an acquire CAS;
; nvcc's is relaxed (`atom.global.cas`). The strong seq_cst cmpxchg of
; system scope becomes monotonic of device scope; a weak one, one of block
; scope and one with other orderings stay as they are. LLVM 19's C API
; names no scope: there the orderings alone are relaxed, of any scope (its
; NVPTX lowers every cmpxchg as `atom.cas` of its scope, relaxed, anyway).
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @cas_loop(
; LLVM22-TUNED: %pair = cmpxchg ptr %p, i32 %old, i32 %new syncscope("device") monotonic monotonic, align 4
; LLVM19-TUNED: %pair = cmpxchg ptr %p, i32 %old, i32 %new monotonic monotonic, align 4
; TUNED: %weak = cmpxchg weak ptr %p, i32 0, i32 1 seq_cst seq_cst, align 4
; LLVM22-TUNED: %block = cmpxchg ptr %p, i32 0, i32 1 syncscope("block") seq_cst seq_cst, align 4
; LLVM19-TUNED: %block = cmpxchg ptr %p, i32 0, i32 1 syncscope("block") monotonic monotonic, align 4
; TUNED: %acquire = cmpxchg ptr %p, i32 0, i32 1 acquire monotonic, align 4
; TUNED-LABEL: define void @helper(
; LLVM22-TUNED: %wide = cmpxchg ptr %q, i64 1, i64 2 syncscope("device") monotonic monotonic, align 8
; LLVM19-TUNED: %wide = cmpxchg ptr %q, i64 1, i64 2 monotonic monotonic, align 8
;
; EARLY: %pair = cmpxchg ptr %p, i32 %old, i32 %new seq_cst seq_cst, align 4
; EARLY: %wide = cmpxchg ptr %q, i64 1, i64 2 seq_cst seq_cst, align 8
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @cas_loop(ptr %p) {
entry:
  %first = load i32, ptr %p, align 4
  br label %loop

loop:
  %old = phi i32 [ %first, %entry ], [ %seen, %loop ]
  %new = add i32 %old, 1
  %pair = cmpxchg ptr %p, i32 %old, i32 %new seq_cst seq_cst, align 4
  %seen = extractvalue { i32, i1 } %pair, 0
  %done = extractvalue { i32, i1 } %pair, 1
  br i1 %done, label %exit, label %loop

exit:
  %weak = cmpxchg weak ptr %p, i32 0, i32 1 seq_cst seq_cst, align 4
  %block = cmpxchg ptr %p, i32 0, i32 1 syncscope("block") seq_cst seq_cst, align 4
  %acquire = cmpxchg ptr %p, i32 0, i32 1 acquire monotonic, align 4
  ret void
}

define void @helper(ptr %q) {
  %wide = cmpxchg ptr %q, i64 1, i64 2 seq_cst seq_cst, align 8
  ret void
}

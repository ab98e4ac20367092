; A kernel without loops: nothing to slice.
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
;
; Nothing to slice, by default or with the paper's options (the report: no
; main loop): the kernel keeps its one block, no line buffer, no S-L1 name.
; CHECK-NOT: sl1
; CHECK-LABEL: define ptx_kernel void @scale(
; CHECK-NEXT: entry:
; CHECK: %v = load float, ptr %src, align 4
; CHECK: store float %d, ptr %dst, align 4
; CHECK-NEXT: ret void
; CHECK-NEXT: }
; CHECK-NOT: sl1
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @scale(ptr noalias readonly %in, ptr noalias %out) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %src = getelementptr inbounds float, ptr %in, i64 %i
  %v = load float, ptr %src, align 4
  %d = fmul float %v, 2.0
  %dst = getelementptr inbounds float, ptr %out, i64 %i
  store float %d, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

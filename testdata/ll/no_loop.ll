; A kernel without loops: nothing to slice.
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

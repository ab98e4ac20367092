; Not valid IR: the instruction is unknown and the block never ends.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @broken(ptr %p) {
entry:
  %v = frobnicate i32, ptr %p

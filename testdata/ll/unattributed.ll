; Addresses the analysis cannot pin to one argument: a pointer loaded from
; memory, and a select between two arguments.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @indirect(ptr noalias readonly %table, ptr noalias %a, ptr noalias %b, i1 %which) {
entry:
  %p = load ptr, ptr %table, align 8
  %v = load i32, ptr %p, align 4
  %dst = select i1 %which, ptr %a, ptr %b
  store i32 %v, ptr %dst, align 4
  ret void
}

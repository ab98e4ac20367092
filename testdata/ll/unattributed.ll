; Addresses the analysis cannot pin to one argument: a pointer loaded from
; memory, and a select between two arguments.
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
;
; No loop, and addresses that trace to no one argument: the kernel is left
; exactly as it was by default and with the paper's options (the report: no
; main loop), with no line buffer and no S-L1 name anywhere.
; CHECK-NOT: sl1
; CHECK-LABEL: define ptx_kernel void @indirect(
; CHECK-NEXT: entry:
; CHECK-NEXT: %p = load ptr, ptr %table, align 8
; CHECK-NEXT: %v = load i32, ptr %p, align 4
; CHECK-NEXT: %dst = select i1 %which, ptr %a, ptr %b
; CHECK-NEXT: store i32 %v, ptr %dst, align 4
; CHECK-NEXT: ret void
; CHECK-NOT: sl1
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

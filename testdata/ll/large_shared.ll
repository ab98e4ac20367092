; The kernel already uses 47.7 KiB of static shared memory: too little is left for
; S-L1's lines, so it stays off (the paper's k-means case).
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
;
; 352 B of the 48 KiB left: no room for lines under either option set (the
; report: no_room_for_lines). The kernel's own buffer is all the shared
; memory there is; the loop stays direct.
; CHECK: @big = internal addrspace(3) global [48800 x i8] undef, align 16
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @large_shared(
; CHECK-NOT: sl1
; CHECK: loop:
; CHECK: %c = load i8, ptr %src, align 1
; CHECK: store i8 %c, ptr addrspace(3) %slot, align 1
; CHECK: store i8 %c, ptr %dst, align 1
; CHECK: br i1 %done, label %exit, label %loop
; CHECK-NOT: sl1
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@big = internal addrspace(3) global [48800 x i8] undef, align 16

define ptx_kernel void @large_shared(ptr noalias readonly %in, ptr noalias %out, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %slot = getelementptr inbounds [48800 x i8], ptr addrspace(3) @big, i64 0, i64 %i
  store i8 %c, ptr addrspace(3) %slot, align 1
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %c, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

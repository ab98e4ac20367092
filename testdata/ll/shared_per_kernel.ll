; Two kernels in one module: @crowded uses 40 KiB of static shared memory, so
; S-L1's 8 KiB buffer gives lines to the first warps of a 1024-thread block
; only (the warp threshold); @roomy uses none of it and keeps a full buffer.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; Each kernel's buffer takes what its own shared memory leaves: 8 KiB
; beside @crowded's 40 KiB, 40 KiB for @roomy; each decision counts lines
; against its own buffer.
; ALL: @scratch = internal addrspace(3) global [40960 x i8] undef, align 16
; ALL: @sl1.lines.crowded = internal addrspace(3) global [8192 x i8] poison, align 16
; ALL: @sl1.lines.roomy = internal addrspace(3) global [40960 x i8] poison, align 16
; ALL-LABEL: define ptx_kernel void @crowded(
; ALL: store i8 1, ptr addrspace(3) %mine, align 1
; CHECK: br i1 %empty.not, label %sl1.decide, label %exit
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}sl1.decide:
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; CHECK-NEXT: icmp ult i32 [[NEED]], 8193
; CHECK: %sl1.capacity = udiv i32 8192,
; CHECK: %sl1.fits = icmp ult i32 {{%[0-9]+}}, %sl1.capacity
; The paper's options: 409 lines of 20 B in 8 KiB, a line for each thread
; of the first 12 warps (the warp threshold: a warp's lanes all or none).
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.fits = icmp ult i32 {{%[0-9]+}}, 409
; ALL-LABEL: define ptx_kernel void @roomy(
; CHECK: {{^}}sl1.decide:
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; CHECK-NEXT: icmp ult i32 [[NEED]], 40961
; CHECK: %sl1.capacity = udiv i32 40960,
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.fits = icmp ult i32 {{%[0-9]+}}, 2048
; PAPER: %sl1.fits{{[0-9]+}} = icmp ult i32 {{%[0-9]+}}, 2048
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@scratch = internal addrspace(3) global [40960 x i8] undef, align 16

define ptx_kernel void @crowded(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %mine = getelementptr inbounds [40960 x i8], ptr addrspace(3) @scratch, i64 0, i64 %tid64
  store i8 1, ptr addrspace(3) %mine, align 1
  %bias = load i8, ptr addrspace(3) %mine, align 1
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %r = add i8 %c, %bias
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %r, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @roomy(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %src, align 1
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %c, ptr %dst, align 1
  %i.next = add nuw i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; __launch_bounds__(256): the line buffer is sized for 256 threads, not 1024.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: LAUNCH,ALL --launch-sized
;
; The static buffer holds a line of 16 B and 4 B of padding per structure
; for 256 threads, not 1024 (2 x 256 x 20 B), and the decision sizes lines
; against it. By default the copy streams: one cached version per line
; size up to 128 B, picked per launch.
; CHECK: @sl1.lines.bounded = internal addrspace(3) global [10240 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @bounded(
; CHECK: br i1 %has.not, label %exit, label %sl1.warp.preheader
; CHECK: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.decide
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}loop.sl1.cached32:
; CHECK: {{^}}loop.sl1.cached64:
; CHECK: {{^}}loop.sl1.cached128:
; CHECK: {{^}}sl1.decide:
; CHECK: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; CHECK-NEXT: icmp ult i32 [[NEED]], 10241
; CHECK: %sl1.capacity = udiv i32 10240,
; CHECK: {{^}}sl1.pick.line{{[0-9]*}}:
; CHECK-NEXT: switch i32 %sl1.line.size, label %loop.sl1.cached128 [
; CHECK-NEXT: i32 16, label %loop.sl1.cached16
; CHECK-NEXT: i32 32, label %loop.sl1.cached32
; CHECK-NEXT: i32 64, label %loop.sl1.cached64
;
; The paper's options: 16 B lines only, monitored; 512 lines of 20 B in the
; buffer.
; PAPER: @sl1.lines.bounded = internal addrspace(3) global [10240 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @bounded(
; PAPER: br i1 %has.not, label %exit, label %sl1.warp.preheader
; PAPER: br i1 {{%[0-9]+}}, label %sl1.warp.check, label %sl1.preheader
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NOT: loop.sl1.cached32
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.fits = icmp ult i32 {{%[0-9]+}}, 512
; PAPER: %sl1.fits{{[0-9]+}} = icmp ult i32 {{%[0-9]+}}, 512
; PAPER: br i1 %sl1.all.cached{{[0-9]*}}, label %loop.sl1.cached, label %sl1.some.cached
;
; Launch-sized (the driver's --line-buffer launch): the buffer is the
; launch's dynamic shared memory, an external array the host compile sizes,
; and the decision reads how much the launch gave, at most the 10240 B
; the bounds need (LLVM 22 through its intrinsic, LLVM 19 through inline
; PTX, which has no such intrinsic).
; LAUNCH-NOT: @sl1.lines.bounded
; LAUNCH: @sl1_lines_bounded = external addrspace(3) global [0 x i8], align 16
; LAUNCH-LABEL: define ptx_kernel void @bounded(
; LAUNCH: {{^}}sl1.decide:
; LLVM22-LAUNCH: [[GIVEN:%[0-9]+]] = call i32 @llvm.nvvm.read.ptx.sreg.dynamic_smem_size()
; LLVM19-LAUNCH: [[GIVEN:%[0-9]+]] = call i32 asm "mov.u32 $0, %dynamic_smem_size;", "=r"()
; LAUNCH-NEXT: %sl1.buffer.bytes = call i32 @llvm.umin.i32(i32 [[GIVEN]], i32 10240)
; LAUNCH: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; LAUNCH-NEXT: icmp ugt i32 [[NEED]], %sl1.buffer.bytes
; LAUNCH: %sl1.capacity = udiv i32 %sl1.buffer.bytes,
; LAUNCH: %sl1.line.cached = getelementptr i8, ptr addrspace(3) @sl1_lines_bounded, i64
;
; Either way the kernel keeps its bounds: no 1024-thread bound is added.
; ALL-NOT: nvvm.annotations
; ALL: attributes #0 = { "nvvm.maxntid"="256" }
; ALL-NOT: nvvm.annotations
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @bounded(ptr noalias readonly %in, ptr noalias %out, i64 %n) #0 {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %src, align 2
  %dst = getelementptr inbounds i16, ptr %out, i64 %i
  store i16 %v, ptr %dst, align 2
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

attributes #0 = { "nvvm.maxntid"="256" }

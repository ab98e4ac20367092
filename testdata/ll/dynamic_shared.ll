; The kernel keeps a table in dynamic shared memory (extern __shared__), whose
; size only the launch gives: S-L1 stays off unless the most a launch gives
; is declared (--dynamic-shared), and then takes lines from the rest.
;
; SL1-RUN: CHECK
; SL1-RUN: CHECK --cache-read-only --no-static-prediction --line-size=16
; SL1-RUN: DECLARED --dynamic-shared=8192
;
; Without --dynamic-shared, by default and with the paper's options, the
; kernel is left as it was (the report: dynamic_shared_unknown): its table
; stays the only shared memory, the loop reads it and `in` directly.
; CHECK: @table = external addrspace(3) global [0 x i8], align 16
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @dynamic_shared(
; CHECK-NOT: sl1
; CHECK: loop:
; CHECK: %c = load i8, ptr %pa, align 1
; CHECK: %m = load i8, ptr addrspace(3) %pt, align 1
; CHECK: store i8 %m, ptr %pb, align 1
; CHECK: br i1 %more, label %loop, label %exit
; CHECK-NOT: sl1
;
; With the most a launch gives declared (8 KiB), the kernel is cached: the
; static line buffer takes the 48 KiB budget less those 8 KiB, the decision
; sizes lines against that (a line of each of the two structures for every
; thread: 72 B with 32 B lines), and the table stays where the launch puts
; it, read in every copy of the loop. The buffer is static: no launch
; size is read.
; DECLARED: @table = external addrspace(3) global [0 x i8], align 16
; DECLARED: @sl1.lines.dynamic_shared = internal addrspace(3) global [40960 x i8] poison, align 16
; DECLARED-LABEL: define ptx_kernel void @dynamic_shared(
; DECLARED-NOT: dynamic_smem_size
; DECLARED: br i1 %empty, label %exit, label %sl1.decide
; DECLARED: {{^}}loop.sl1.cached16:
; DECLARED: store <4 x i32> %storemerge, ptr addrspace(3) %sl1.line.cached, align 4
; DECLARED: load i8, ptr addrspace(3) %s{{[0-9]+}}.i{{[0-9]+}}, align 1
; DECLARED: getelementptr inbounds {{.*}}ptr addrspace(3) @table,
; DECLARED: {{^}}sl1.decide:
; DECLARED: [[NEED:%[0-9]+]] = mul i32 %sl1.threads, 72
; DECLARED-NEXT: [[ROOM:%[0-9]+]] = icmp ult i32 [[NEED]], 40961
; DECLARED-NEXT: %sl1.line.all = select i1 [[ROOM]], i32 32, i32 16
; DECLARED: {{^}}loop.sl1.plain:
; DECLARED: getelementptr inbounds {{.*}}ptr addrspace(3) @table,
; DECLARED-NOT: dynamic_smem_size
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@table = external addrspace(3) global [0 x i8], align 16

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @dynamic_shared(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %pa, align 1
  %k = zext i8 %c to i64
  %pt = getelementptr inbounds [0 x i8], ptr addrspace(3) @table, i64 0, i64 %k
  %m = load i8, ptr addrspace(3) %pt, align 1
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %m, ptr %pb, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

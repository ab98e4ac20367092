; The kernel keeps a table in dynamic shared memory (extern __shared__), whose
; size only the launch gives: S-L1 stays off unless the most a launch gives
; is declared (--dynamic-shared), and then takes lines from the rest.
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

; S-L1 generated kernel `k6`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k6(ptr %a0, ptr noalias %a1, ptr %a2, i64 %n, i64 %chunk) {
entry:
  %tid1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ntid2 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ctaid3 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %base4 = mul i32 %ctaid3, %ntid2
  %gtid5 = add i32 %base4, %tid1
  %gtid64 = zext i32 %gtid5 to i64
  %begin = mul i64 %gtid64, %chunk
  %lim = add i64 %begin, %chunk
  %end = call i64 @llvm.umin.i64(i64 %lim, i64 %n)
  %has = icmp ult i64 %begin, %end
  call void @llvm.nvvm.barrier0()
  br i1 %has, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ %begin, %entry ], [ %inext20, %cont19 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc9, %cont19 ]
  %p10 = getelementptr inbounds i64, ptr %a0, i64 %i8
  %v11 = load i64, ptr %p10, align 8
  %mk12 = and i64 %v11, 1
  %hit13 = icmp eq i64 %mk12, 0
  br i1 %hit13, label %done7, label %cont14

cont14:
  %p15 = getelementptr inbounds i64, ptr %a2, i64 %i8
  %v16 = load i64, ptr %p15, align 8
  %mk17 = and i64 %v16, 1
  %hit18 = icmp eq i64 %mk17, 1
  br i1 %hit18, label %done7, label %cont19

cont19:
  %inext20 = add nuw i64 %i8, 1
  %more21 = icmp ult i64 %inext20, %end
  br i1 %more21, label %loop6, label %done7

done7:
  %accout22 = phi i64 [ 0, %entry ], [ %acc9, %cont19 ], [ %acc9, %loop6 ], [ %acc9, %cont14 ]
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.barrier0()

; S-L1 generated kernel `k7`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k7(ptr %a0, ptr %a1, i64 %n, i64 %chunk) {
entry:
  %tid1 = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tidy2 = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()
  %ntid3 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %ntidy4 = call i32 @llvm.nvvm.read.ptx.sreg.ntid.y()
  %ctaid5 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ctaidy6 = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %nctaid7 = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %row8 = mul i32 %ctaidy6, %nctaid7
  %bid9 = add i32 %row8, %ctaid5
  %bsz10 = mul i32 %ntid3, %ntidy4
  %ty11 = mul i32 %tidy2, %ntid3
  %lin12 = add i32 %ty11, %tid1
  %base13 = mul i32 %bid9, %bsz10
  %gtid14 = add i32 %base13, %lin12
  %gtid64 = zext i32 %gtid14 to i64
  %begin = mul i64 %gtid64, %chunk
  %lim = add i64 %begin, %chunk
  %end = call i64 @llvm.umin.i64(i64 %lim, i64 %n)
  %has = icmp ult i64 %begin, %end
  br i1 %has, label %loop15, label %done16

loop15:
  %i17 = phi i64 [ %begin, %entry ], [ %inext19, %loop15 ]
  %acc18 = phi i64 [ 0, %entry ], [ %acc18, %loop15 ]
  %inext19 = add nuw i64 %i17, 1
  %more20 = icmp ult i64 %inext19, %end
  br i1 %more20, label %loop15, label %done16

done16:
  %accout21 = phi i64 [ 0, %entry ], [ %acc18, %loop15 ]
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

declare i64 @llvm.umin.i64(i64, i64)

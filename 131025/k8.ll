; S-L1 generated kernel `k8`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k8(ptr %a0, ptr %a1, i64 %n, i64 %chunk) {
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
  %go10 = icmp ne i64 %chunk, 0
  br i1 %go10, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ 0, %entry ], [ %jnext37, %join14 ]
  %acc9 = phi i64 [ 0, %entry ], [ %accj36, %join14 ]
  %i11 = add i64 %begin, %i8
  %in12 = icmp ult i64 %i11, %n
  br i1 %in12, label %work13, label %join14

work13:
  %ik15 = mul i64 %i11, 3
  %ik16 = mul i64 %i11, 3
  %p17 = getelementptr inbounds i8, ptr %a0, i64 %ik16
  %v18 = load i8, ptr %p17, align 1
  %z19 = zext i8 %v18 to i64
  %nk20 = mul i64 %n, 3
  %ix21 = urem i64 %z19, %nk20
  %p22 = getelementptr inbounds i8, ptr %a0, i64 %ix21
  %v23 = load i8, ptr %p22, align 1
  %z24 = zext i8 %v23 to i64
  %r25 = mul i64 %z24, 5695893700669923320
  %p26 = getelementptr inbounds i64, ptr %a1, i64 %i11
  store i64 %r25, ptr %p26, align 8
  %acc27 = xor i64 %acc9, %r25
  %p28 = getelementptr inbounds i64, ptr %a1, i64 %i11
  %v29 = load i64, ptr %p28, align 8
  %p30 = getelementptr inbounds i64, ptr %a1, i64 %i11
  %v31 = load i64, ptr %p30, align 8
  %c32 = add i64 %v29, %v31
  %r33 = shl i64 %c32, 59
  %p34 = getelementptr inbounds i64, ptr %a1, i64 %i11
  store i64 %r33, ptr %p34, align 8
  %acc35 = xor i64 %acc27, %r33
  br label %join14

join14:
  %accj36 = phi i64 [ %acc9, %loop6 ], [ %acc35, %work13 ]
  %jnext37 = add nuw i64 %i8, 1
  %more38 = icmp ult i64 %jnext37, %chunk
  br i1 %more38, label %loop6, label %done7

done7:
  %accout39 = phi i64 [ 0, %entry ], [ %accj36, %join14 ]
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i64 @llvm.umin.i64(i64, i64)

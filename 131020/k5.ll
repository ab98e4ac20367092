; S-L1 generated kernel `k5`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k5(ptr %a0, ptr noalias %a1, i64 %n, i64 %chunk) {
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
  br i1 %has, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ %begin, %entry ], [ %inext68, %idone19 ]
  %acc9 = phi i64 [ 0, %entry ], [ %iout67, %idone19 ]
  %ik10 = mul i64 %i8, 3
  %ix11 = add i64 %ik10, 2
  %p12 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix11
  %v13 = load <4 x i32>, ptr %p12, align 16
  %b14 = bitcast <4 x i32> %v13 to i128
  %t15 = trunc i128 %b14 to i64
  %m16 = mul i64 %acc9, 31
  %acc17 = add i64 %m16, %t15
  call void @llvm.nvvm.membar.cta()
  fence syncscope("device") seq_cst
  br label %inner18

inner18:
  %j20 = phi i64 [ 0, %loop6 ], [ %jn65, %inner18 ]
  %iacc21 = phi i64 [ %acc17, %loop6 ], [ %acc64, %inner18 ]
  %ik22 = mul i64 %i8, 3
  %jr23 = urem i64 %j20, 3
  %ix24 = add i64 %ik22, %jr23
  %p25 = getelementptr inbounds i16, ptr %a0, i64 %ix24
  %v26 = load i16, ptr %p25, align 2
  %z27 = zext i16 %v26 to i128
  %vv28 = bitcast i128 %z27 to <4 x i32>
  %ik29 = mul i64 %i8, 3
  %ix30 = add i64 %ik29, 2
  %p31 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix30
  %v32 = load <4 x i32>, ptr %p31, align 16
  %b33 = bitcast <4 x i32> %v32 to i128
  %vv34 = bitcast i128 %b33 to <4 x i32>
  %c35 = add <4 x i32> %vv28, %vv34
  %r36 = add <4 x i32> %c35, <i32 3077380829, i32 3077380829, i32 3077380829, i32 3077380829>
  %ik37 = mul i64 %i8, 3
  %p38 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ik37
  store <4 x i32> %r36, ptr %p38, align 16
  %b39 = bitcast <4 x i32> %r36 to i128
  %t40 = trunc i128 %b39 to i64
  %acc41 = xor i64 %iacc21, %t40
  %ik42 = mul i64 %i8, 3
  %jr43 = urem i64 %j20, 3
  %ix44 = add i64 %ik42, %jr43
  %p45 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix44
  %v46 = load <4 x i32>, ptr %p45, align 16
  %b47 = bitcast <4 x i32> %v46 to i128
  %vv48 = bitcast i128 %b47 to <4 x i32>
  %ik49 = mul i64 %i8, 3
  %jr50 = urem i64 %j20, 3
  %ix51 = add i64 %ik49, %jr50
  %p52 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix51
  %v53 = load <4 x i32>, ptr %p52, align 16
  %b54 = bitcast <4 x i32> %v53 to i128
  %vv55 = bitcast i128 %b54 to <4 x i32>
  %c56 = add <4 x i32> %vv48, %vv55
  %r57 = lshr <4 x i32> %c56, <i32 31, i32 31, i32 31, i32 31>
  %ik58 = mul i64 %i8, 3
  %jr59 = urem i64 %j20, 3
  %ix60 = add i64 %ik58, %jr59
  %p61 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix60
  store <4 x i32> %r57, ptr %p61, align 16
  %b62 = bitcast <4 x i32> %r57 to i128
  %t63 = trunc i128 %b62 to i64
  %acc64 = xor i64 %acc41, %t63
  %jn65 = add nuw i64 %j20, 1
  %jmore66 = icmp ult i64 %jn65, 5
  br i1 %jmore66, label %inner18, label %idone19

idone19:
  %iout67 = phi i64 [ %acc64, %inner18 ]
  %inext68 = add nuw i64 %i8, 1
  %more69 = icmp ult i64 %inext68, %end
  br i1 %more69, label %loop6, label %done7

done7:
  %accout70 = phi i64 [ 0, %entry ], [ %iout67, %idone19 ]
  br i1 %has, label %sink71, label %after72

sink71:
  %z73 = zext i64 %accout70 to i128
  %vv74 = bitcast i128 %z73 to <4 x i32>
  %ik75 = mul i64 %begin, 3
  %p76 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ik75
  store <4 x i32> %vv74, ptr %p76, align 16
  br label %after72

after72:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.membar.cta()

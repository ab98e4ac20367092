; S-L1 generated kernel `k4`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k4(ptr %a0, ptr noalias %a1, ptr noalias %a2, ptr noalias %a3, ptr noalias %a4, ptr noalias %a5, i64 %n, i64 %chunk) {
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
  %last10 = add i64 %end, -1
  br i1 %has, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ %last10, %entry ], [ %inext31, %loop6 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc30, %loop6 ]
  %t11 = trunc i64 %acc9 to i32
  %p12 = getelementptr inbounds i32, ptr %a2, i64 %i8
  %old13 = atomicrmw add ptr %p12, i32 %t11 syncscope("device") monotonic, align 4
  %z14 = zext i32 %old13 to i64
  %acc15 = add i64 %acc9, %z14
  %t16 = trunc i64 %acc15 to i32
  %r17 = lshr i32 %t16, 13
  %p18 = getelementptr inbounds i32, ptr %a2, i64 %i8
  store i32 %r17, ptr %p18, align 4
  %z19 = zext i32 %r17 to i64
  %acc20 = xor i64 %acc15, %z19
  %fm21 = and i64 %acc20, 65535
  %fv22 = uitofp i64 %fm21 to double
  %fs23 = fmul double %fv22, 0.125
  %ik24 = mul i64 %i8, 4
  %ix25 = add i64 %ik24, 3
  %p26 = getelementptr inbounds double, ptr %a5, i64 %ix25
  %g27 = addrspacecast ptr %p26 to ptr addrspace(1)
  %old28 = atomicrmw fmin ptr addrspace(1) %g27, double %fs23 syncscope("device") monotonic, align 8
  %b29 = bitcast double %old28 to i64
  %acc30 = add i64 %acc20, %b29
  %inext31 = add i64 %i8, -1
  %more32 = icmp ugt i64 %i8, %begin
  br i1 %more32, label %loop6, label %done7

done7:
  %accout33 = phi i64 [ 0, %entry ], [ %acc30, %loop6 ]
  br i1 %has, label %sink34, label %after35

sink34:
  %t36 = trunc i64 %accout33 to i32
  %p37 = getelementptr inbounds i32, ptr %a2, i64 %begin
  store i32 %t36, ptr %p37, align 4
  br label %after35

after35:
  call void @llvm.nvvm.barrier0()
  %last42 = add i64 %end, -1
  br i1 %has, label %loop38, label %done39

loop38:
  %i40 = phi i64 [ %last42, %after35 ], [ %inext62, %idone50 ]
  %acc41 = phi i64 [ 0, %after35 ], [ %iout61, %idone50 ]
  %t43 = trunc i64 %acc41 to i32
  %p44 = getelementptr inbounds i32, ptr %a2, i64 %i40
  %g45 = addrspacecast ptr %p44 to ptr addrspace(1)
  %old46 = atomicrmw umax ptr addrspace(1) %g45, i32 %t43 syncscope("device") monotonic, align 4
  %z47 = zext i32 %old46 to i64
  %acc48 = add i64 %acc41, %z47
  br label %inner49

inner49:
  %j51 = phi i64 [ 0, %loop38 ], [ %jn59, %inner49 ]
  %iacc52 = phi i64 [ %acc48, %loop38 ], [ %acc58, %inner49 ]
  %p53 = getelementptr inbounds float, ptr %a0, i64 %i40
  %v54 = load float, ptr %p53, align 4
  %b55 = bitcast float %v54 to i32
  %z56 = zext i32 %b55 to i64
  %m57 = mul i64 %iacc52, 31
  %acc58 = add i64 %m57, %z56
  %jn59 = add nuw i64 %j51, 1
  %jmore60 = icmp ult i64 %jn59, 2
  br i1 %jmore60, label %inner49, label %idone50

idone50:
  %iout61 = phi i64 [ %acc58, %inner49 ]
  %inext62 = add i64 %i40, -1
  %more63 = icmp ugt i64 %i40, %begin
  br i1 %more63, label %loop38, label %done39

done39:
  %accout64 = phi i64 [ 0, %after35 ], [ %iout61, %idone50 ]
  ret void
}

define ptx_kernel void @k4_1(ptr %a0, ptr noalias %a1, ptr noalias %a2, ptr noalias %a3, ptr noalias %a4, ptr noalias %a5, i64 %n, i64 %chunk) {
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
  fence seq_cst
  %go10 = icmp ne i64 %chunk, 0
  br i1 %go10, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ 0, %entry ], [ %jnext53, %join14 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc52, %join14 ]
  %i11 = add i64 %begin, %i8
  %in12 = icmp ult i64 %i11, %n
  br i1 %in12, label %work13, label %join14

work13:
  %t15 = trunc i64 %acc9 to i32
  %p16 = getelementptr inbounds i32, ptr %a2, i64 %i11
  %g17 = addrspacecast ptr %p16 to ptr addrspace(1)
  %old18 = atomicrmw xor ptr addrspace(1) %g17, i32 %t15 syncscope("device") monotonic, align 4
  %z19 = zext i32 %old18 to i64
  %acc20 = add i64 %acc9, %z19
  %p21 = getelementptr inbounds i32, ptr %a2, i64 %i11
  %v22 = load i32, ptr %p21, align 4
  %z23 = zext i32 %v22 to i64
  %f24 = bitcast i64 %z23 to double
  %r25 = fadd double %f24, 0.25
  %nan26 = fcmp uno double %r25, 0.0
  %nb27 = bitcast double %r25 to i64
  %cb28 = select i1 %nan26, i64 9221120237041090560, i64 %nb27
  %cn29 = bitcast i64 %cb28 to double
  %ik30 = mul i64 %i11, 4
  %ix31 = add i64 %ik30, 2
  %p32 = getelementptr inbounds double, ptr %a5, i64 %ix31
  store double %cn29, ptr %p32, align 8
  %b33 = bitcast double %cn29 to i64
  %acc34 = xor i64 %acc20, %b33
  %t35 = trunc i64 %acc34 to i32
  %p36 = getelementptr inbounds i32, ptr %a2, i64 %i11
  %g37 = addrspacecast ptr %p36 to ptr addrspace(1)
  %old38 = atomicrmw or ptr addrspace(1) %g37, i32 %t35 syncscope("device") monotonic, align 4
  %z39 = zext i32 %old38 to i64
  %acc40 = add i64 %acc34, %z39
  br label %join14

join14:
  %accj41 = phi i64 [ %acc9, %loop6 ], [ %acc40, %work13 ]
  %t42 = trunc i64 %accj41 to i32
  %sh43 = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t42, i32 19, i32 31)
  %z44 = zext i32 %sh43 to i64
  %wm45 = mul i64 %accj41, 33
  %acc46 = add i64 %wm45, %z44
  %bs47 = lshr i64 %acc46, 39
  %bt48 = trunc i64 %bs47 to i1
  %vb49 = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %bt48)
  %z50 = zext i32 %vb49 to i64
  %wm51 = mul i64 %acc46, 33
  %acc52 = add i64 %wm51, %z50
  call void @llvm.nvvm.barrier0()
  %jnext53 = add nuw i64 %i8, 1
  %more54 = icmp ult i64 %jnext53, %chunk
  br i1 %more54, label %loop6, label %done7

done7:
  %accout55 = phi i64 [ 0, %entry ], [ %acc52, %join14 ]
  br i1 %has, label %sink56, label %after57

sink56:
  %t58 = trunc i64 %accout55 to i32
  %p59 = getelementptr inbounds i32, ptr %a2, i64 %begin
  store i32 %t58, ptr %p59, align 4
  br label %after57

after57:
  %f32_64 = trunc i64 %begin to i32
  br i1 %has, label %loop60, label %done61

loop60:
  %i62 = phi i32 [ %f32_64, %after57 ], [ %inext101, %loop60 ]
  %acc63 = phi i64 [ 0, %after57 ], [ %acc100, %loop60 ]
  %iw65 = zext i32 %i62 to i64
  %ik66 = mul i64 %iw65, 2
  %p67 = getelementptr inbounds double, ptr %a4, i64 %ik66
  %v68 = load double, ptr %p67, align 8
  %b69 = bitcast double %v68 to i64
  %t70 = trunc i64 %b69 to i32
  %f71 = bitcast i32 %t70 to float
  %r72 = fmul float %f71, 3.5
  %nan73 = fcmp uno float %r72, 0.0
  %nb74 = bitcast float %r72 to i32
  %cb75 = select i1 %nan73, i32 2143289344, i32 %nb74
  %cn76 = bitcast i32 %cb75 to float
  %p77 = getelementptr inbounds float, ptr %a0, i64 %iw65
  store float %cn76, ptr %p77, align 4
  %b78 = bitcast float %cn76 to i32
  %z79 = zext i32 %b78 to i64
  %acc80 = xor i64 %acc63, %z79
  %ik81 = mul i64 %iw65, 4
  %p82 = getelementptr inbounds double, ptr %a5, i64 %ik81
  %v83 = load double, ptr %p82, align 8
  %b84 = bitcast double %v83 to i64
  %t85 = trunc i64 %b84 to i32
  %p86 = getelementptr inbounds i32, ptr %a2, i64 %iw65
  %v87 = load i32, ptr %p86, align 4
  %c88 = add i32 %t85, %v87
  %r89 = shl i32 %c88, 30
  %p90 = getelementptr inbounds i32, ptr %a2, i64 %iw65
  store i32 %r89, ptr %p90, align 4
  %z91 = zext i32 %r89 to i64
  %acc92 = xor i64 %acc80, %z91
  %fm93 = and i64 %acc92, 65535
  %fv94 = uitofp i64 %fm93 to float
  %fs95 = fmul float %fv94, 0.125
  %p96 = getelementptr inbounds float, ptr %a3, i64 %iw65
  %old97 = atomicrmw fmin ptr %p96, float %fs95 syncscope("device") monotonic, align 4
  %b98 = bitcast float %old97 to i32
  %z99 = zext i32 %b98 to i64
  %acc100 = add i64 %acc92, %z99
  %inext101 = add nuw i32 %i62, 1
  %z102 = zext i32 %inext101 to i64
  %more103 = icmp ult i64 %z102, %end
  br i1 %more103, label %loop60, label %done61

done61:
  %accout104 = phi i64 [ 0, %after57 ], [ %acc100, %loop60 ]
  br i1 %has, label %loop105, label %done106

loop105:
  %i107 = phi i64 [ %begin, %done61 ], [ %inext137, %loop105 ]
  %acc108 = phi i64 [ 0, %done61 ], [ %acc136, %loop105 ]
  %fm109 = and i64 %acc108, 65535
  %fv110 = uitofp i64 %fm109 to float
  %fs111 = fmul float %fv110, 0.125
  %p112 = getelementptr inbounds float, ptr %a0, i64 %i107
  %g113 = addrspacecast ptr %p112 to ptr addrspace(1)
  %old114 = atomicrmw fmin ptr addrspace(1) %g113, float %fs111 syncscope("device") monotonic, align 4
  %b115 = bitcast float %old114 to i32
  %z116 = zext i32 %b115 to i64
  %acc117 = add i64 %acc108, %z116
  %fm118 = and i64 %acc117, 65535
  %fv119 = uitofp i64 %fm118 to double
  %fs120 = fmul double %fv119, 0.125
  %ik121 = mul i64 %i107, 4
  %p122 = getelementptr inbounds double, ptr %a5, i64 %ik121
  %g123 = addrspacecast ptr %p122 to ptr addrspace(1)
  %old124 = atomicrmw fmax ptr addrspace(1) %g123, double %fs120 syncscope("device") monotonic, align 8
  %b125 = bitcast double %old124 to i64
  %acc126 = add i64 %acc117, %b125
  %fm127 = and i64 %acc126, 65535
  %fv128 = uitofp i64 %fm127 to double
  %fs129 = fmul double %fv128, 0.0625
  %p130 = getelementptr inbounds double, ptr %a1, i64 %i107
  %old131 = atomicrmw fadd ptr %p130, double %fs129 syncscope("device") monotonic, align 8
  %p132 = getelementptr inbounds i32, ptr %a2, i64 %i107
  %v133 = load i32, ptr %p132, align 4
  %z134 = zext i32 %v133 to i64
  %m135 = mul i64 %acc126, 31
  %acc136 = add i64 %m135, %z134
  %inext137 = add nuw i64 %i107, 1
  %more138 = icmp ult i64 %inext137, %end
  br i1 %more138, label %loop105, label %done106

done106:
  %accout139 = phi i64 [ 0, %done61 ], [ %acc136, %loop105 ]
  br i1 %has, label %sink140, label %after141

sink140:
  %t142 = trunc i64 %accout139 to i32
  %f143 = bitcast i32 %t142 to float
  %p144 = getelementptr inbounds float, ptr %a0, i64 %begin
  store float %f143, ptr %p144, align 4
  br label %after141

after141:
  ret void
}

define ptx_kernel void @k4_2(ptr %a0, ptr noalias %a1, ptr noalias %a2, ptr noalias %a3, ptr noalias %a4, ptr noalias %a5, i64 %n, i64 %chunk) {
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
  %last10 = add i64 %end, -1
  br i1 %has, label %loop6, label %done7

loop6:
  %i8 = phi i64 [ %last10, %entry ], [ %inext33, %loop6 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc32, %loop6 ]
  %p11 = getelementptr inbounds float, ptr %a0, i64 %i8
  %v12 = load float, ptr %p11, align 4
  %b13 = bitcast float %v12 to i32
  %f14 = bitcast i32 %b13 to float
  %p15 = getelementptr inbounds float, ptr %a3, i64 %i8
  %v16 = load float, ptr %p15, align 4
  %b17 = bitcast float %v16 to i32
  %f18 = bitcast i32 %b17 to float
  %c19 = fadd float %f14, %f18
  %nan20 = fcmp uno float %c19, 0.0
  %nb21 = bitcast float %c19 to i32
  %cb22 = select i1 %nan20, i32 2143289344, i32 %nb21
  %cn23 = bitcast i32 %cb22 to float
  %r24 = fadd float %cn23, 0.25
  %nan25 = fcmp uno float %r24, 0.0
  %nb26 = bitcast float %r24 to i32
  %cb27 = select i1 %nan25, i32 2143289344, i32 %nb26
  %cn28 = bitcast i32 %cb27 to float
  %p29 = getelementptr inbounds float, ptr %a0, i64 %i8
  store float %cn28, ptr %p29, align 4
  %b30 = bitcast float %cn28 to i32
  %z31 = zext i32 %b30 to i64
  %acc32 = xor i64 %acc9, %z31
  %inext33 = add i64 %i8, -1
  %more34 = icmp ugt i64 %i8, %begin
  br i1 %more34, label %loop6, label %done7

done7:
  %accout35 = phi i64 [ 0, %entry ], [ %acc32, %loop6 ]
  %t36 = trunc i64 %accout35 to i32
  %sh37 = call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %t36, i32 23, i32 31)
  %z38 = zext i32 %sh37 to i64
  %wm39 = mul i64 %accout35, 33
  %acc40 = add i64 %wm39, %z38
  br i1 %has, label %sink41, label %after42

sink41:
  %t43 = trunc i64 %acc40 to i32
  %f44 = bitcast i32 %t43 to float
  %p45 = getelementptr inbounds float, ptr %a3, i64 %begin
  store float %f44, ptr %p45, align 4
  br label %after42

after42:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)

declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.barrier0()

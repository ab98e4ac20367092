; S-L1 generated kernel `k0`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k0(ptr %a0, ptr noalias %a1, ptr %a2, ptr noalias %a3, i64 %n, i64 %chunk) {
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
  %i17 = phi i64 [ %begin, %entry ], [ %inext60, %loop15 ]
  %acc18 = phi i64 [ 0, %entry ], [ %acc59, %loop15 ]
  %ik19 = mul i64 %i17, 3
  %ix20 = add i64 %ik19, 2
  %p21 = getelementptr inbounds i32, ptr %a2, i64 %ix20
  %v22 = load i32, ptr %p21, align 4
  %ik23 = mul i64 %i17, 4
  %ix24 = add i64 %ik23, 2
  %p25 = getelementptr inbounds double, ptr %a3, i64 %ix24
  %v26 = load double, ptr %p25, align 8
  %b27 = bitcast double %v26 to i64
  %t28 = trunc i64 %b27 to i32
  %c29 = add i32 %v22, %t28
  %r30 = shl i32 %c29, 20
  %ik31 = mul i64 %i17, 3
  %ix32 = add i64 %ik31, 1
  %p33 = getelementptr inbounds i32, ptr %a2, i64 %ix32
  store i32 %r30, ptr %p33, align 4
  %z34 = zext i32 %r30 to i64
  %acc35 = xor i64 %acc18, %z34
  %fm36 = and i64 %acc35, 65535
  %fv37 = uitofp i64 %fm36 to double
  %fs38 = fmul double %fv37, 0.125
  %ik39 = mul i64 %i17, 4
  %ix40 = add i64 %ik39, 3
  %p41 = getelementptr inbounds double, ptr %a3, i64 %ix40
  %old42 = atomicrmw fmax ptr %p41, double %fs38 syncscope("device") monotonic, align 8
  %b43 = bitcast double %old42 to i64
  %acc44 = add i64 %acc35, %b43
  %ik45 = mul i64 %i17, 4
  %ix46 = add i64 %ik45, 3
  %p47 = getelementptr inbounds double, ptr %a3, i64 %ix46
  %v48 = load double, ptr %p47, align 8
  %b49 = bitcast double %v48 to i64
  %m50 = mul i64 %acc44, 31
  %acc51 = add i64 %m50, %b49
  %t52 = trunc i64 %acc51 to i32
  %ik53 = mul i64 %i17, 3
  %ix54 = add i64 %ik53, 2
  %p55 = getelementptr inbounds i32, ptr %a2, i64 %ix54
  %g56 = addrspacecast ptr %p55 to ptr addrspace(1)
  %old57 = atomicrmw xor ptr addrspace(1) %g56, i32 %t52 syncscope("device") monotonic, align 4
  %z58 = zext i32 %old57 to i64
  %acc59 = add i64 %acc51, %z58
  %inext60 = add nuw i64 %i17, 1
  %more61 = icmp ult i64 %inext60, %end
  br i1 %more61, label %loop15, label %done16

done16:
  %accout62 = phi i64 [ 0, %entry ], [ %acc59, %loop15 ]
  %last67 = add i64 %end, -1
  %f32_68 = trunc i64 %last67 to i32
  br i1 %has, label %loop63, label %done64

loop63:
  %i65 = phi i32 [ %f32_68, %done16 ], [ %inext95, %loop63 ]
  %acc66 = phi i64 [ 0, %done16 ], [ %acc94, %loop63 ]
  %iw69 = zext i32 %i65 to i64
  %p70 = getelementptr inbounds i8, ptr %a1, i64 %iw69
  %v71 = load i8, ptr %p70, align 1
  %ik72 = mul i64 %iw69, 4
  %ix73 = add i64 %ik72, 2
  %p74 = getelementptr inbounds double, ptr %a3, i64 %ix73
  %v75 = load double, ptr %p74, align 8
  %b76 = bitcast double %v75 to i64
  %t77 = trunc i64 %b76 to i8
  %c78 = add i8 %v71, %t77
  %r79 = mul i8 %c78, 124
  %p80 = getelementptr inbounds i8, ptr %a1, i64 %iw69
  store i8 %r79, ptr %p80, align 1
  %z81 = zext i8 %r79 to i64
  %acc82 = xor i64 %acc66, %z81
  %ik83 = mul i64 %iw69, 4
  %ix84 = add i64 %ik83, 3
  %p85 = getelementptr inbounds double, ptr %a3, i64 %ix84
  %v86 = load double, ptr %p85, align 8
  %b87 = bitcast double %v86 to i64
  %m88 = mul i64 %acc82, 31
  %acc89 = add i64 %m88, %b87
  %t90 = trunc i64 %acc89 to i8
  %r91 = xor i8 %t90, 125
  %p92 = getelementptr inbounds i8, ptr %a1, i64 %iw69
  store i8 %r91, ptr %p92, align 1
  %z93 = zext i8 %r91 to i64
  %acc94 = xor i64 %acc89, %z93
  %inext95 = add i32 %i65, -1
  %more96 = icmp ugt i64 %iw69, %begin
  br i1 %more96, label %loop63, label %done64

done64:
  %accout97 = phi i64 [ 0, %done16 ], [ %acc94, %loop63 ]
  br i1 %has, label %sink98, label %after99

sink98:
  %t100 = trunc i64 %accout97 to i32
  %ik101 = mul i64 %begin, 3
  %ix102 = add i64 %ik101, 1
  %p103 = getelementptr inbounds i32, ptr %a2, i64 %ix102
  store i32 %t100, ptr %p103, align 4
  br label %after99

after99:
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

; S-L1 generated kernel `k2`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [42832 x i8] undef, align 16
@buf_1 = internal addrspace(3) global [46592 x i8] undef, align 16

define ptx_kernel void @k2(ptr %a0, ptr %a1, ptr %a2, i64 %n, i64 %chunk) {
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
  %tid64 = zext i32 %lin12 to i64
  %slotoff = mul i64 %tid64, 8
  %slot = getelementptr inbounds [42832 x i8], ptr addrspace(3) @buf, i64 0, i64 %slotoff
  %nx15 = add i32 %lin12, 1
  %pt16 = urem i32 %nx15, %bsz10
  %pt64 = zext i32 %pt16 to i64
  %ptoff = mul i64 %pt64, 8
  %pslot = getelementptr inbounds [42832 x i8], ptr addrspace(3) @buf, i64 0, i64 %ptoff
  %go21 = icmp ne i64 %chunk, 0
  br i1 %go21, label %loop17, label %done18

loop17:
  %i19 = phi i64 [ 0, %entry ], [ %jnext34, %join25 ]
  %acc20 = phi i64 [ 0, %entry ], [ %accx33, %join25 ]
  %i22 = add i64 %begin, %i19
  %in23 = icmp ult i64 %i22, %n
  br i1 %in23, label %work24, label %join25

work24:
  %p26 = getelementptr inbounds i64, ptr %a0, i64 %i22
  %v27 = load i64, ptr %p26, align 8
  %r28 = lshr i64 %v27, 60
  %p29 = getelementptr inbounds i64, ptr %a2, i64 %i22
  store i64 %r28, ptr %p29, align 8
  %acc30 = xor i64 %acc20, %r28
  br label %join25

join25:
  %accj31 = phi i64 [ %acc20, %loop17 ], [ %acc30, %work24 ]
  store i64 %accj31, ptr addrspace(3) %slot, align 8
  call void @llvm.nvvm.barrier0()
  %part32 = load i64, ptr addrspace(3) %pslot, align 8
  call void @llvm.nvvm.barrier0()
  %accx33 = add i64 %accj31, %part32
  %jnext34 = add nuw i64 %i19, 1
  %more35 = icmp ult i64 %jnext34, %chunk
  br i1 %more35, label %loop17, label %done18

done18:
  %accout36 = phi i64 [ 0, %entry ], [ %accx33, %join25 ]
  br i1 %has, label %sink37, label %after38

sink37:
  %p39 = getelementptr inbounds i64, ptr %a2, i64 %begin
  store i64 %accout36, ptr %p39, align 8
  br label %after38

after38:
  %last44 = add i64 %end, -1
  br i1 %has, label %loop40, label %done41

loop40:
  %i42 = phi i64 [ %last44, %after38 ], [ %inext79, %idone57 ]
  %acc43 = phi i64 [ 0, %after38 ], [ %iout78, %idone57 ]
  %p45 = getelementptr inbounds i64, ptr %a0, i64 %i42
  %v46 = load i64, ptr %p45, align 8
  %p47 = getelementptr inbounds i64, ptr %a0, i64 %i42
  %v48 = load i64, ptr %p47, align 8
  %c49 = add i64 %v46, %v48
  %r50 = add i64 %c49, 18386459339525707373
  %p51 = getelementptr inbounds i64, ptr %a2, i64 %i42
  store i64 %r50, ptr %p51, align 8
  %acc52 = xor i64 %acc43, %r50
  store i64 %acc52, ptr addrspace(3) %slot, align 8
  %st53 = load i64, ptr addrspace(3) %slot, align 8
  %sx54 = mul i64 %st53, 3
  %acc55 = add i64 %acc52, %sx54
  br label %inner56

inner56:
  %j58 = phi i64 [ 0, %loop40 ], [ %jn76, %inner56 ]
  %iacc59 = phi i64 [ %acc55, %loop40 ], [ %acc75, %inner56 ]
  %p60 = getelementptr inbounds i64, ptr %a2, i64 %i42
  %v61 = load i64, ptr %p60, align 8
  %p62 = getelementptr inbounds i64, ptr %a2, i64 %i42
  %v63 = load i64, ptr %p62, align 8
  %c64 = add i64 %v61, %v63
  %r65 = xor i64 %c64, 3962604092311239828
  %p66 = getelementptr inbounds i64, ptr %a0, i64 %i42
  store i64 %r65, ptr %p66, align 8
  %acc67 = xor i64 %iacc59, %r65
  %p68 = getelementptr inbounds i64, ptr %a0, i64 %i42
  %v69 = load i64, ptr %p68, align 8
  %p70 = getelementptr inbounds i64, ptr %a0, i64 %i42
  %v71 = load i64, ptr %p70, align 8
  %c72 = add i64 %v69, %v71
  %r73 = lshr i64 %c72, 0
  %p74 = getelementptr inbounds i64, ptr %a0, i64 %i42
  store i64 %r73, ptr %p74, align 8
  %acc75 = xor i64 %acc67, %r73
  %jn76 = add nuw i64 %j58, 1
  %jmore77 = icmp ult i64 %jn76, 4
  br i1 %jmore77, label %inner56, label %idone57

idone57:
  %iout78 = phi i64 [ %acc75, %inner56 ]
  %inext79 = add i64 %i42, -1
  %more80 = icmp ugt i64 %i42, %begin
  br i1 %more80, label %loop40, label %done41

done41:
  %accout81 = phi i64 [ 0, %after38 ], [ %iout78, %idone57 ]
  br i1 %has, label %sink82, label %after83

sink82:
  %p84 = getelementptr inbounds i64, ptr %a2, i64 %begin
  store i64 %accout81, ptr %p84, align 8
  br label %after83

after83:
  ret void
}

define ptx_kernel void @k2_1(ptr %a0, ptr %a1, ptr %a2, i64 %n, i64 %chunk) {
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
  %tid64 = zext i32 %tid1 to i64
  %slotoff = mul i64 %tid64, 8
  %slot = getelementptr inbounds [46592 x i8], ptr addrspace(3) @buf_1, i64 0, i64 %slotoff
  %nx6 = add i32 %tid1, 1
  %pt7 = urem i32 %nx6, %ntid2
  %pt64 = zext i32 %pt7 to i64
  %ptoff = mul i64 %pt64, 8
  %pslot = getelementptr inbounds [46592 x i8], ptr addrspace(3) @buf_1, i64 0, i64 %ptoff
  fence syncscope("device") seq_cst
  br i1 %has, label %loop8, label %done9

loop8:
  %i10 = phi i64 [ %begin, %entry ], [ %inext50, %sdone20 ]
  %acc11 = phi i64 [ 0, %entry ], [ %sout49, %sdone20 ]
  %p12 = getelementptr inbounds i64, ptr %a0, i64 %i10
  %v13 = load i64, ptr %p12, align 8
  %r14 = mul i64 %v13, 16837691958025681769
  %p15 = getelementptr inbounds i64, ptr %a0, i64 %i10
  store i64 %r14, ptr %p15, align 8
  %acc16 = xor i64 %acc11, %r14
  %sn17 = mul i64 %n, 1
  %sl18 = add i64 %sn17, -1
  %s0_21 = icmp eq i64 %i10, 0
  %s1_22 = call i64 @llvm.umax.i64(i64 %i10, i64 1)
  %sq23 = add i64 %s1_22, -1
  %sp24 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %sq23
  %sv25 = load <4 x i32>, ptr %sp24, align 16
  %b26 = bitcast <4 x i32> %sv25 to i128
  %t27 = trunc i128 %b26 to i64
  %sk28 = and i64 %t27, 31
  %sh29 = icmp eq i64 %sk28, 22
  %sg30 = or i1 %s0_21, %sh29
  br i1 %sg30, label %scan19, label %sdone20

scan19:
  %s31 = phi i64 [ 0, %loop8 ], [ %sn44, %slatch43 ]
  %sacc32 = phi i64 [ %acc16, %loop8 ], [ %sa42, %slatch43 ]
  %sx33 = add i64 %i10, %s31
  %sc34 = call i64 @llvm.umin.i64(i64 %sx33, i64 %sl18)
  %sp35 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %sc34
  %sv36 = load <4 x i32>, ptr %sp35, align 16
  %b37 = bitcast <4 x i32> %sv36 to i128
  %t38 = trunc i128 %b37 to i64
  %sk39 = and i64 %t38, 31
  %sh40 = icmp eq i64 %sk39, 22
  %sm41 = mul i64 %sacc32, 31
  %sa42 = add i64 %sm41, %t38
  br i1 %sh40, label %sdone20, label %slatch43

slatch43:
  %sn44 = add nuw i64 %s31, 1
  %sb45 = icmp ult i64 %sn44, 8
  %sx46 = add i64 %i10, %sn44
  %si47 = icmp ule i64 %sx46, %sl18
  %sg48 = and i1 %sb45, %si47
  br i1 %sg48, label %scan19, label %sdone20

sdone20:
  %sout49 = phi i64 [ %sa42, %scan19 ], [ %sa42, %slatch43 ], [ %acc16, %loop8 ]
  %inext50 = add nuw i64 %i10, 1
  %more51 = icmp ult i64 %inext50, %end
  br i1 %more51, label %loop8, label %done9

done9:
  %accout52 = phi i64 [ 0, %entry ], [ %sout49, %sdone20 ]
  ret void
}

define ptx_kernel void @k2_2(ptr %a0, ptr %a1, ptr %a2, i64 %n, i64 %chunk) {
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
  %f32_10 = trunc i64 %begin to i32
  br i1 %has, label %loop6, label %done7

loop6:
  %i8 = phi i32 [ %f32_10, %entry ], [ %inext39, %idone31 ]
  %acc9 = phi i64 [ 0, %entry ], [ %iout38, %idone31 ]
  %iw11 = zext i32 %i8 to i64
  %nk12 = mul i64 %n, 1
  %nl13 = add i64 %nk12, -1
  %sh14 = add i64 %iw11, -35
  %un15 = icmp ult i64 %iw11, 35
  %cl16 = select i1 %un15, i64 0, i64 %sh14
  %ix17 = call i64 @llvm.umin.i64(i64 %cl16, i64 %nl13)
  %p18 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %ix17
  %v19 = load <4 x i32>, ptr %p18, align 16
  %b20 = bitcast <4 x i32> %v19 to i128
  %t21 = trunc i128 %b20 to i64
  %m22 = mul i64 %acc9, 31
  %acc23 = add i64 %m22, %t21
  %p24 = getelementptr inbounds <4 x i32>, ptr %a1, i64 %iw11
  %v25 = load <4 x i32>, ptr %p24, align 16
  %b26 = bitcast <4 x i32> %v25 to i128
  %t27 = trunc i128 %b26 to i64
  %m28 = mul i64 %acc23, 31
  %acc29 = add i64 %m28, %t27
  br label %inner30

inner30:
  %j32 = phi i64 [ 0, %loop6 ], [ %jn36, %inner30 ]
  %iacc33 = phi i64 [ %acc29, %loop6 ], [ %acc35, %inner30 ]
  %p34 = getelementptr inbounds i64, ptr %a0, i64 %iw11
  %acc35 = call i64 @k2_mix(ptr %p34, i64 %iacc33)
  %jn36 = add nuw i64 %j32, 1
  %jmore37 = icmp ult i64 %jn36, 5
  br i1 %jmore37, label %inner30, label %idone31

idone31:
  %iout38 = phi i64 [ %acc35, %inner30 ]
  %inext39 = add nuw i32 %i8, 1
  %z40 = zext i32 %inext39 to i64
  %more41 = icmp ult i64 %z40, %end
  br i1 %more41, label %loop6, label %done7

done7:
  %accout42 = phi i64 [ 0, %entry ], [ %iout38, %idone31 ]
  br i1 %has, label %sink43, label %after44

sink43:
  %p45 = getelementptr inbounds i64, ptr %a2, i64 %begin
  store i64 %accout42, ptr %p45, align 8
  br label %after44

after44:
  ret void
}

define internal i64 @k2_mix(ptr %p, i64 %acc) noinline {
entry:
  %b = load i8, ptr %p, align 1
  %z = zext i8 %b to i64
  %m = mul i64 %acc, 131
  %r = xor i64 %m, %z
  ret i64 %r
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

declare i64 @llvm.umax.i64(i64, i64)

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.barrier0()

; S-L1 generated kernel `k9`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k9(ptr noalias readonly %a0, ptr noalias %a1, ptr %a2, ptr noalias %a3, i64 %n, i64 %chunk) {
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
  %i8 = phi i64 [ 0, %entry ], [ %jnext74, %join14 ]
  %acc9 = phi i64 [ 0, %entry ], [ %accj73, %join14 ]
  %i11 = add i64 %begin, %i8
  %in12 = icmp ult i64 %i11, %n
  br i1 %in12, label %work13, label %join14

work13:
  %ik15 = mul i64 %i11, 3
  %ix16 = add i64 %ik15, 1
  %p17 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %ix16
  %v18 = load <4 x i32>, ptr %p17, align 4
  %b19 = bitcast <4 x i32> %v18 to i128
  %t20 = trunc i128 %b19 to i64
  %m21 = mul i64 %acc9, 31
  %acc22 = add i64 %m21, %t20
  %p23 = getelementptr inbounds i64, ptr %a3, i64 %i11
  %g24 = addrspacecast ptr %p23 to ptr addrspace(1)
  %old25 = atomicrmw umax ptr addrspace(1) %g24, i64 %acc22 syncscope("device") monotonic, align 8
  %acc26 = add i64 %acc22, %old25
  %ss27 = mul i64 %i11, 3
  %sn28 = mul i64 %n, 3
  %sl29 = add i64 %sn28, -1
  %s0_32 = icmp eq i64 %ss27, 0
  %s1_33 = call i64 @llvm.umax.i64(i64 %ss27, i64 1)
  %sq34 = add i64 %s1_33, -1
  %sp35 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %sq34
  %sv36 = load <4 x i32>, ptr %sp35, align 4
  %b37 = bitcast <4 x i32> %sv36 to i128
  %t38 = trunc i128 %b37 to i64
  %sk39 = and i64 %t38, 63
  %sh40 = icmp eq i64 %sk39, 34
  %sg41 = or i1 %s0_32, %sh40
  br i1 %sg41, label %scan30, label %sdone31

scan30:
  %s42 = phi i64 [ 0, %work13 ], [ %sn67, %slatch66 ]
  %sacc43 = phi i64 [ %acc26, %work13 ], [ %acc65, %slatch66 ]
  %sx44 = add i64 %ss27, %s42
  %sc45 = call i64 @llvm.umin.i64(i64 %sx44, i64 %sl29)
  %sp46 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %sc45
  %sv47 = load <4 x i32>, ptr %sp46, align 4
  %b48 = bitcast <4 x i32> %sv47 to i128
  %t49 = trunc i128 %b48 to i64
  %sk50 = and i64 %t49, 63
  %sh51 = icmp eq i64 %sk50, 34
  %sm52 = mul i64 %sacc43, 31
  %sa53 = add i64 %sm52, %t49
  %p54 = getelementptr inbounds i64, ptr %a3, i64 %i11
  %v55 = load i64, ptr %p54, align 8
  %m56 = mul i64 %sa53, 31
  %acc57 = add i64 %m56, %v55
  %ik58 = mul i64 %i11, 2
  %ix59 = add i64 %ik58, 1
  %p60 = getelementptr inbounds float, ptr %a1, i64 %ix59
  %v61 = load float, ptr %p60, align 4
  %b62 = bitcast float %v61 to i32
  %z63 = zext i32 %b62 to i64
  %m64 = mul i64 %acc57, 31
  %acc65 = add i64 %m64, %z63
  br i1 %sh51, label %sdone31, label %slatch66

slatch66:
  %sn67 = add nuw i64 %s42, 1
  %sb68 = icmp ult i64 %sn67, 16
  %sx69 = add i64 %ss27, %sn67
  %si70 = icmp ule i64 %sx69, %sl29
  %sg71 = and i1 %sb68, %si70
  br i1 %sg71, label %scan30, label %sdone31

sdone31:
  %sout72 = phi i64 [ %acc65, %scan30 ], [ %acc65, %slatch66 ], [ %acc26, %work13 ]
  br label %join14

join14:
  %accj73 = phi i64 [ %acc9, %loop6 ], [ %sout72, %sdone31 ]
  call void @llvm.nvvm.barrier0()
  %jnext74 = add nuw i64 %i8, 1
  %more75 = icmp ult i64 %jnext74, %chunk
  br i1 %more75, label %loop6, label %done7

done7:
  %accout76 = phi i64 [ 0, %entry ], [ %accj73, %join14 ]
  br i1 %has, label %loop77, label %done78

loop77:
  %i79 = phi i64 [ %begin, %done7 ], [ %inext118, %sdone87 ]
  %acc80 = phi i64 [ 0, %done7 ], [ %sout117, %sdone87 ]
  fence syncscope("device") seq_cst
  %r81 = shl i64 %acc80, 54
  %p82 = getelementptr inbounds i64, ptr %a3, i64 %i79
  store i64 %r81, ptr %p82, align 8
  %acc83 = xor i64 %acc80, %r81
  %sn84 = mul i64 %end, 1
  %sl85 = add i64 %sn84, -1
  br label %scan86

scan86:
  %s88 = phi i64 [ 0, %loop77 ], [ %sn112, %slatch111 ]
  %sacc89 = phi i64 [ %acc83, %loop77 ], [ %acc110, %slatch111 ]
  %sx90 = add i64 %i79, %s88
  %sc91 = call i64 @llvm.umin.i64(i64 %sx90, i64 %sl85)
  %sp92 = getelementptr inbounds i64, ptr %a3, i64 %sc91
  %sv93 = load i64, ptr %sp92, align 8
  %sk94 = and i64 %sv93, 63
  %sh95 = icmp eq i64 %sk94, 63
  %sm96 = mul i64 %sacc89, 31
  %sa97 = add i64 %sm96, %sv93
  %ik98 = mul i64 %i79, 2
  %jr99 = urem i64 %s88, 2
  %ix100 = add i64 %ik98, %jr99
  %p101 = getelementptr inbounds float, ptr %a1, i64 %ix100
  %v102 = load float, ptr %p101, align 4
  %b103 = bitcast float %v102 to i32
  %z104 = zext i32 %b103 to i64
  %p105 = getelementptr inbounds i64, ptr %a3, i64 %i79
  %v106 = load i64, ptr %p105, align 8
  %c107 = add i64 %z104, %v106
  %r108 = mul i64 %c107, 4111121978039703745
  %p109 = getelementptr inbounds i64, ptr %a3, i64 %i79
  store i64 %r108, ptr %p109, align 8
  %acc110 = xor i64 %sa97, %r108
  call void @llvm.nvvm.membar.gl()
  br i1 %sh95, label %sdone87, label %slatch111

slatch111:
  %sn112 = add nuw i64 %s88, 1
  %sb113 = icmp ult i64 %sn112, 32
  %sx114 = add i64 %i79, %sn112
  %si115 = icmp ule i64 %sx114, %sl85
  %sg116 = and i1 %sb113, %si115
  br i1 %sg116, label %scan86, label %sdone87

sdone87:
  %sout117 = phi i64 [ %acc110, %scan86 ], [ %acc110, %slatch111 ]
  %inext118 = add nuw i64 %i79, 1
  %more119 = icmp ult i64 %inext118, %end
  br i1 %more119, label %loop77, label %done78

done78:
  %accout120 = phi i64 [ 0, %done7 ], [ %sout117, %sdone87 ]
  br i1 %has, label %sink121, label %after122

sink121:
  %t123 = trunc i64 %accout120 to i32
  %f124 = bitcast i32 %t123 to float
  %ik125 = mul i64 %begin, 2
  %ix126 = add i64 %ik125, 1
  %p127 = getelementptr inbounds float, ptr %a1, i64 %ix126
  store float %f124, ptr %p127, align 4
  br label %after122

after122:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i64 @llvm.umax.i64(i64, i64)

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.barrier0()

declare void @llvm.nvvm.membar.gl()

; S-L1 generated kernel `k1`
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@dyn = external addrspace(3) global [0 x i8], align 16

define ptx_kernel void @k1(ptr noalias %a0, ptr %a1, ptr noalias %a2, ptr noalias %a3, i64 %n, i64 %chunk) {
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
  %slotoff = mul i64 %tid64, 16
  %slot = getelementptr inbounds [0 x i8], ptr addrspace(3) @dyn, i64 0, i64 %slotoff
  %nx6 = add i32 %tid1, 1
  %pt7 = urem i32 %nx6, %ntid2
  %pt64 = zext i32 %pt7 to i64
  %ptoff = mul i64 %pt64, 16
  %pslot = getelementptr inbounds [0 x i8], ptr addrspace(3) @dyn, i64 0, i64 %ptoff
  br i1 %has, label %loop8, label %done9

loop8:
  %i10 = phi i64 [ %begin, %entry ], [ %inext50, %cont24 ]
  %acc11 = phi i64 [ 0, %entry ], [ %acc49, %cont24 ]
  %ik12 = mul i64 %i10, 3
  %nk13 = mul i64 %n, 3
  %nl14 = add i64 %nk13, -1
  %sh15 = add i64 %ik12, -13
  %un16 = icmp ult i64 %ik12, 13
  %cl17 = select i1 %un16, i64 0, i64 %sh15
  %ix18 = call i64 @llvm.umin.i64(i64 %cl17, i64 %nl14)
  %p19 = getelementptr inbounds i16, ptr %a1, i64 %ix18
  %v20 = load i16, ptr %p19, align 2
  %z21 = zext i16 %v20 to i64
  %mk22 = and i64 %z21, 1
  %hit23 = icmp eq i64 %mk22, 0
  br i1 %hit23, label %done9, label %cont24

cont24:
  %ik25 = mul i64 %i10, 3
  %ix26 = add i64 %ik25, 2
  %p27 = getelementptr inbounds i16, ptr %a1, i64 %ix26
  %acc28 = call i64 @k1_mix(ptr %p27, i64 %acc11)
  %ik29 = mul i64 %i10, 3
  %p30 = getelementptr inbounds i16, ptr %a1, i64 %ik29
  %v31 = load i16, ptr %p30, align 2
  %z32 = zext i16 %v31 to i64
  %nk33 = mul i64 %n, 1
  %ix34 = urem i64 %z32, %nk33
  %p35 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %ix34
  %v36 = load <4 x i32>, ptr %p35, align 4
  %b37 = bitcast <4 x i32> %v36 to i128
  %vv38 = bitcast i128 %b37 to <4 x i32>
  %r39 = add <4 x i32> %vv38, <i32 520847375, i32 520847375, i32 520847375, i32 520847375>
  %p40 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i10
  store <4 x i32> %r39, ptr %p40, align 16
  %b41 = bitcast <4 x i32> %r39 to i128
  %t42 = trunc i128 %b41 to i64
  %acc43 = xor i64 %acc28, %t42
  %r44 = add i64 %acc43, 10693061561901777819
  %p45 = getelementptr inbounds i64, ptr %a2, i64 %i10
  store i64 %r44, ptr %p45, align 4
  %acc46 = xor i64 %acc43, %r44
  store i64 %acc46, ptr addrspace(3) %slot, align 8
  %st47 = load i64, ptr addrspace(3) %slot, align 8
  %sx48 = mul i64 %st47, 3
  %acc49 = add i64 %acc46, %sx48
  %inext50 = add nuw i64 %i10, 1
  %more51 = icmp ult i64 %inext50, %end
  br i1 %more51, label %loop8, label %done9

done9:
  %accout52 = phi i64 [ 0, %entry ], [ %acc49, %cont24 ], [ %acc11, %loop8 ]
  ret void
}

define ptx_kernel void @k1_1(ptr noalias %a0, ptr %a1, ptr noalias %a2, ptr noalias %a3, i64 %n, i64 %chunk) {
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
  %i8 = phi i32 [ %f32_10, %entry ], [ %inext42, %cont41 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc34, %cont41 ]
  %iw11 = zext i32 %i8 to i64
  %ik12 = mul i64 %iw11, 3
  %ix13 = add i64 %ik12, 2
  %p14 = getelementptr inbounds i16, ptr %a1, i64 %ix13
  %v15 = load i16, ptr %p14, align 2
  %z16 = zext i16 %v15 to i64
  %m17 = mul i64 %acc9, 31
  %acc18 = add i64 %m17, %z16
  %p19 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %iw11
  %v20 = load <4 x i32>, ptr %p19, align 16
  %b21 = bitcast <4 x i32> %v20 to i128
  %t22 = trunc i128 %b21 to i64
  %mk23 = and i64 %t22, 7
  %hit24 = icmp eq i64 %mk23, 0
  br i1 %hit24, label %done7, label %cont25

cont25:
  %p26 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %iw11
  %v27 = load <4 x i32>, ptr %p26, align 4
  %b28 = bitcast <4 x i32> %v27 to i128
  %vv29 = bitcast i128 %b28 to <4 x i32>
  %r30 = lshr <4 x i32> %vv29, <i32 5, i32 5, i32 5, i32 5>
  %p31 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %iw11
  store <4 x i32> %r30, ptr %p31, align 16
  %b32 = bitcast <4 x i32> %r30 to i128
  %t33 = trunc i128 %b32 to i64
  %acc34 = xor i64 %acc18, %t33
  %p35 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %iw11
  %v36 = load <4 x i32>, ptr %p35, align 4
  %b37 = bitcast <4 x i32> %v36 to i128
  %t38 = trunc i128 %b37 to i64
  %mk39 = and i64 %t38, 3
  %hit40 = icmp eq i64 %mk39, 1
  br i1 %hit40, label %done7, label %cont41

cont41:
  %inext42 = add nuw i32 %i8, 1
  %z43 = zext i32 %inext42 to i64
  %more44 = icmp ult i64 %z43, %end
  br i1 %more44, label %loop6, label %done7

done7:
  %accout45 = phi i64 [ 0, %entry ], [ %acc34, %cont41 ], [ %acc18, %loop6 ], [ %acc34, %cont25 ]
  %go50 = icmp ne i64 %chunk, 0
  br i1 %go50, label %loop46, label %done47

loop46:
  %i48 = phi i64 [ 0, %done7 ], [ %jnext92, %join54 ]
  %acc49 = phi i64 [ 0, %done7 ], [ %accj91, %join54 ]
  %i51 = add i64 %begin, %i48
  %in52 = icmp ult i64 %i51, %n
  br i1 %in52, label %work53, label %join54

work53:
  %nk55 = mul i64 %n, 1
  %nl56 = add i64 %nk55, -1
  %sh57 = add i64 %i51, -21
  %un58 = icmp ult i64 %i51, 21
  %cl59 = select i1 %un58, i64 0, i64 %sh57
  %ix60 = call i64 @llvm.umin.i64(i64 %cl59, i64 %nl56)
  %p61 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %ix60
  %v62 = load <4 x i32>, ptr %p61, align 4
  %b63 = bitcast <4 x i32> %v62 to i128
  %t64 = trunc i128 %b63 to i64
  %m65 = mul i64 %acc49, 31
  %acc66 = add i64 %m65, %t64
  %sn67 = mul i64 %end, 1
  %sl68 = add i64 %sn67, -1
  br label %scan69

scan69:
  %s71 = phi i64 [ 0, %work53 ], [ %sn85, %slatch84 ]
  %sacc72 = phi i64 [ %acc66, %work53 ], [ %acc83, %slatch84 ]
  %sx73 = add i64 %i51, %s71
  %sc74 = call i64 @llvm.umin.i64(i64 %sx73, i64 %sl68)
  %sp75 = getelementptr inbounds i64, ptr %a2, i64 %sc74
  %sv76 = load i64, ptr %sp75, align 4
  %sk77 = and i64 %sv76, 127
  %sh78 = icmp eq i64 %sk77, 59
  %sm79 = mul i64 %sacc72, 31
  %sa80 = add i64 %sm79, %sv76
  %r81 = mul i64 %sa80, 1134524057675939216
  %p82 = getelementptr inbounds i64, ptr %a2, i64 %i51
  store i64 %r81, ptr %p82, align 4
  %acc83 = xor i64 %sa80, %r81
  br i1 %sh78, label %sdone70, label %slatch84

slatch84:
  %sn85 = add nuw i64 %s71, 1
  %sb86 = icmp ult i64 %sn85, 256
  %sx87 = add i64 %i51, %sn85
  %si88 = icmp ule i64 %sx87, %sl68
  %sg89 = and i1 %sb86, %si88
  br i1 %sg89, label %scan69, label %sdone70

sdone70:
  %sout90 = phi i64 [ %acc83, %scan69 ], [ %acc83, %slatch84 ]
  br label %join54

join54:
  %accj91 = phi i64 [ %acc49, %loop46 ], [ %sout90, %sdone70 ]
  %jnext92 = add nuw i64 %i48, 1
  %more93 = icmp ult i64 %jnext92, %chunk
  br i1 %more93, label %loop46, label %done47

done47:
  %accout94 = phi i64 [ 0, %done7 ], [ %accj91, %join54 ]
  %go99 = icmp ne i64 %chunk, 0
  br i1 %go99, label %loop95, label %done96

loop95:
  %i97 = phi i64 [ 0, %done47 ], [ %jnext153, %join103 ]
  %acc98 = phi i64 [ 0, %done47 ], [ %acc152, %join103 ]
  %i100 = add i64 %begin, %i97
  %in101 = icmp ult i64 %i100, %n
  br i1 %in101, label %work102, label %join103

work102:
  %p104 = getelementptr inbounds i64, ptr %a2, i64 %i100
  %v105 = load i64, ptr %p104, align 4
  %m106 = mul i64 %acc98, 31
  %acc107 = add i64 %m106, %v105
  %p108 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i100
  %v109 = load <4 x i32>, ptr %p108, align 16
  %b110 = bitcast <4 x i32> %v109 to i128
  %vv111 = bitcast i128 %b110 to <4 x i32>
  %r112 = xor <4 x i32> %vv111, <i32 3972904447, i32 3972904447, i32 3972904447, i32 3972904447>
  %p113 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i100
  store <4 x i32> %r112, ptr %p113, align 16
  %b114 = bitcast <4 x i32> %r112 to i128
  %t115 = trunc i128 %b114 to i64
  %acc116 = xor i64 %acc107, %t115
  br label %inner117

inner117:
  %j119 = phi i64 [ 0, %work102 ], [ %jn137, %cont136 ]
  %iacc120 = phi i64 [ %acc116, %work102 ], [ %iacc120, %cont136 ]
  %ik121 = mul i64 %i100, 3
  %jr122 = urem i64 %j119, 3
  %ix123 = add i64 %ik121, %jr122
  %p124 = getelementptr inbounds i16, ptr %a1, i64 %ix123
  %v125 = load i16, ptr %p124, align 2
  %z126 = zext i16 %v125 to i64
  %mk127 = and i64 %z126, 3
  %hit128 = icmp eq i64 %mk127, 0
  br i1 %hit128, label %idone118, label %cont129

cont129:
  %p130 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i100
  %v131 = load <4 x i32>, ptr %p130, align 16
  %b132 = bitcast <4 x i32> %v131 to i128
  %t133 = trunc i128 %b132 to i64
  %mk134 = and i64 %t133, 1
  %hit135 = icmp eq i64 %mk134, 1
  br i1 %hit135, label %idone118, label %cont136

cont136:
  %jn137 = add nuw i64 %j119, 1
  %jmore138 = icmp ult i64 %jn137, 3
  br i1 %jmore138, label %inner117, label %idone118

idone118:
  %iout139 = phi i64 [ %iacc120, %cont136 ], [ %iacc120, %inner117 ], [ %iacc120, %cont129 ]
  br label %join103

join103:
  %accj140 = phi i64 [ %acc98, %loop95 ], [ %iout139, %idone118 ]
  %bs141 = lshr i64 %accj140, 39
  %bt142 = trunc i64 %bs141 to i1
  %vt143 = call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %bt142)
  %vz144 = select i1 %vt143, i64 40503, i64 1
  %wm145 = mul i64 %accj140, 33
  %acc146 = add i64 %wm145, %vz144
  %bs147 = lshr i64 %acc146, 21
  %bt148 = trunc i64 %bs147 to i1
  %vt149 = call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %bt148)
  %vz150 = select i1 %vt149, i64 40503, i64 1
  %wm151 = mul i64 %acc146, 33
  %acc152 = add i64 %wm151, %vz150
  %jnext153 = add nuw i64 %i97, 1
  %more154 = icmp ult i64 %jnext153, %chunk
  br i1 %more154, label %loop95, label %done96

done96:
  %accout155 = phi i64 [ 0, %done47 ], [ %acc152, %join103 ]
  ret void
}

define ptx_kernel void @k1_2(ptr noalias %a0, ptr %a1, ptr noalias %a2, ptr noalias %a3, i64 %n, i64 %chunk) {
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
  %last19 = add i64 %end, -1
  br i1 %has, label %loop15, label %done16

loop15:
  %i17 = phi i64 [ %last19, %entry ], [ %inext55, %loop15 ]
  %acc18 = phi i64 [ 0, %entry ], [ %acc54, %loop15 ]
  %p20 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i17
  %v21 = load <4 x i32>, ptr %p20, align 16
  %b22 = bitcast <4 x i32> %v21 to i128
  %vv23 = bitcast i128 %b22 to <4 x i32>
  %r24 = add <4 x i32> %vv23, <i32 2734617972, i32 2734617972, i32 2734617972, i32 2734617972>
  %p25 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i17
  store <4 x i32> %r24, ptr %p25, align 16
  %b26 = bitcast <4 x i32> %r24 to i128
  %t27 = trunc i128 %b26 to i64
  %acc28 = xor i64 %acc18, %t27
  %p29 = getelementptr inbounds i64, ptr %a2, i64 %i17
  %v30 = load i64, ptr %p29, align 4
  %m31 = mul i64 %acc28, 31
  %acc32 = add i64 %m31, %v30
  %ik33 = mul i64 %i17, 3
  %p34 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %i17
  %v35 = load <4 x i32>, ptr %p34, align 4
  %b36 = bitcast <4 x i32> %v35 to i128
  %t37 = trunc i128 %b36 to i64
  %nk38 = mul i64 %n, 3
  %ix39 = urem i64 %t37, %nk38
  %p40 = getelementptr inbounds i16, ptr %a1, i64 %ix39
  %v41 = load i16, ptr %p40, align 2
  %z42 = zext i16 %v41 to i64
  %m43 = mul i64 %acc32, 31
  %acc44 = add i64 %m43, %z42
  %p45 = getelementptr inbounds i64, ptr %a2, i64 %i17
  %v46 = load i64, ptr %p45, align 4
  %p47 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %i17
  %v48 = load <4 x i32>, ptr %p47, align 4
  %b49 = bitcast <4 x i32> %v48 to i128
  %t50 = trunc i128 %b49 to i64
  %c51 = add i64 %v46, %t50
  %r52 = lshr i64 %c51, 60
  %p53 = getelementptr inbounds i64, ptr %a2, i64 %i17
  store i64 %r52, ptr %p53, align 4
  %acc54 = xor i64 %acc44, %r52
  %inext55 = add i64 %i17, -1
  %more56 = icmp ugt i64 %i17, %begin
  br i1 %more56, label %loop15, label %done16

done16:
  %accout57 = phi i64 [ 0, %entry ], [ %acc54, %loop15 ]
  call void @llvm.nvvm.membar.cta()
  %go62 = icmp ne i64 %chunk, 0
  br i1 %go62, label %loop58, label %done59

loop58:
  %i60 = phi i64 [ 0, %done16 ], [ %jnext106, %join66 ]
  %acc61 = phi i64 [ 0, %done16 ], [ %acc105, %join66 ]
  %i63 = add i64 %begin, %i60
  %in64 = icmp ult i64 %i63, %n
  br i1 %in64, label %work65, label %join66

work65:
  %p67 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i63
  %v68 = load <4 x i32>, ptr %p67, align 16
  %b69 = bitcast <4 x i32> %v68 to i128
  %vv70 = bitcast i128 %b69 to <4 x i32>
  %ik71 = mul i64 %i63, 3
  %p72 = getelementptr inbounds <4 x i32>, ptr %a3, i64 %i63
  %v73 = load <4 x i32>, ptr %p72, align 4
  %b74 = bitcast <4 x i32> %v73 to i128
  %t75 = trunc i128 %b74 to i64
  %nk76 = mul i64 %n, 3
  %ix77 = urem i64 %t75, %nk76
  %p78 = getelementptr inbounds i16, ptr %a1, i64 %ix77
  %v79 = load i16, ptr %p78, align 2
  %z80 = zext i16 %v79 to i128
  %vv81 = bitcast i128 %z80 to <4 x i32>
  %c82 = add <4 x i32> %vv70, %vv81
  %r83 = xor <4 x i32> %c82, <i32 3241512031, i32 3241512031, i32 3241512031, i32 3241512031>
  %p84 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i63
  store <4 x i32> %r83, ptr %p84, align 16
  %b85 = bitcast <4 x i32> %r83 to i128
  %t86 = trunc i128 %b85 to i64
  %acc87 = xor i64 %acc61, %t86
  %p88 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i63
  %v89 = load <4 x i32>, ptr %p88, align 16
  %b90 = bitcast <4 x i32> %v89 to i128
  %t91 = trunc i128 %b90 to i64
  %m92 = mul i64 %acc87, 31
  %acc93 = add i64 %m92, %t91
  br label %join66

join66:
  %accj94 = phi i64 [ %acc61, %loop58 ], [ %acc93, %work65 ]
  %t95 = trunc i64 %accj94 to i32
  %sh96 = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %t95, i32 12, i32 31)
  %z97 = zext i32 %sh96 to i64
  %wm98 = mul i64 %accj94, 33
  %acc99 = add i64 %wm98, %z97
  %bs100 = lshr i64 %acc99, 53
  %bt101 = trunc i64 %bs100 to i1
  %vb102 = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %bt101)
  %z103 = zext i32 %vb102 to i64
  %wm104 = mul i64 %acc99, 33
  %acc105 = add i64 %wm104, %z103
  call void @llvm.nvvm.barrier0()
  %jnext106 = add nuw i64 %i60, 1
  %more107 = icmp ult i64 %jnext106, %chunk
  br i1 %more107, label %loop58, label %done59

done59:
  %accout108 = phi i64 [ 0, %done16 ], [ %acc105, %join66 ]
  ret void
}

define internal i64 @k1_mix(ptr %p, i64 %acc) noinline {
entry:
  %b = load i8, ptr %p, align 1
  %z = zext i8 %b to i64
  %m = mul i64 %acc, 131
  %r = xor i64 %m, %z
  ret i64 %r
}

declare i1 @llvm.nvvm.vote.all.sync(i32, i1)

declare i1 @llvm.nvvm.vote.any.sync(i32, i1)

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.y()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()

declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)

declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)

declare i64 @llvm.umin.i64(i64, i64)

declare void @llvm.nvvm.barrier0()

declare void @llvm.nvvm.membar.cta()

; Found by driver/tests/generated_kernels.rs (sl1-kernelgen seed 19, shrunk):
; not an S-L1 bug but a crash of `sl1-driver build`: the driver's clean-up
; pipeline (build_ir.rs PRE_CLEANUP) runs a textual `instcombine`, which in
; LLVM 22 verifies its fixpoint and aborts the process:
;   LLVM ERROR: Instruction Combining on k19 did not reach a fixpoint after 1
;   iterations. Use 'instcombine<no-verify-fixpoint>' ...
; `opt -passes='default<O3>'` accepts it (its instcombine does not verify).
; The fuzz test's clean-up uses `instcombine<no-verify-fixpoint>`, so this
; file passes saved_reproducers_pass; `sl1-driver build` on it must not crash.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @k19(ptr %a0, i64 %n, i64 %chunk) {
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
  %i8 = phi i64 [ %begin, %entry ], [ %inext32, %loop6 ]
  %acc9 = phi i64 [ 0, %entry ], [ %acc31, %loop6 ]
  %z10 = zext i64 %acc9 to i128
  %vv11 = bitcast i128 %z10 to <4 x i32>
  %r12 = mul <4 x i32> %vv11, <i32 3984753051, i32 3984753051, i32 3984753051, i32 3984753051>
  %p13 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i8
  store <4 x i32> %r12, ptr %p13, align 16
  %b14 = bitcast <4 x i32> %r12 to i128
  %t15 = trunc i128 %b14 to i64
  %acc16 = xor i64 %acc9, %t15
  %p17 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i8
  %v18 = load <4 x i32>, ptr %p17, align 16
  %b19 = bitcast <4 x i32> %v18 to i128
  %t20 = trunc i128 %b19 to i64
  %m21 = mul i64 %acc16, 31
  %acc22 = add i64 %m21, %t20
  %p23 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i8
  %v24 = load <4 x i32>, ptr %p23, align 16
  %b25 = bitcast <4 x i32> %v24 to i128
  %vv26 = bitcast i128 %b25 to <4 x i32>
  %r27 = mul <4 x i32> %vv26, <i32 2616521866, i32 2616521866, i32 2616521866, i32 2616521866>
  %p28 = getelementptr inbounds <4 x i32>, ptr %a0, i64 %i8
  store <4 x i32> %r27, ptr %p28, align 16
  %b29 = bitcast <4 x i32> %r27 to i128
  %t30 = trunc i128 %b29 to i64
  %acc31 = xor i64 %acc22, %t30
  %inext32 = add nuw i64 %i8, 1
  %more33 = icmp ult i64 %inext32, %end
  br i1 %more33, label %loop6, label %done7

done7:
  %accout34 = phi i64 [ 0, %entry ], [ %acc31, %loop6 ]
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

declare i64 @llvm.umin.i64(i64, i64)

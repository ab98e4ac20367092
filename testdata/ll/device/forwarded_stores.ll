; Stores forwarded to the next iteration's loads (pass/src/tuning/forwarded_stores.rs),
; made by the stage before LLVM's optimizer with device tuning: the load of
; `d[j - 1]`, which the iteration before stored, takes the stored value
; from a phi (LLVM's loop-load-elim) and is gone before the S-L1 transform
; would route it through a line; a kernel whose loop reloads nothing it
; stored is left exactly as it was (no preheader made on the way).
;
; SL1-RUN: TUNED --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @sweep(
; TUNED-NOT: %dprev
; TUNED: %load_initial = load i32, ptr
; TUNED-NOT: %dprev
; TUNED: = phi i32 [ %load_initial,
; TUNED-NOT: %dprev
; TUNED-LABEL: define ptx_kernel void @copy(
; TUNED-NOT: {{^[a-z]+}}.preheader:
; TUNED: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; d[t + j] -= l[t + j] * d[t + j - 1] for j in 1..n (which the S-L1
; transform then slices: the forwarded value's phi is renamed).
define ptx_kernel void @sweep(ptr noalias %d, ptr noalias %l, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %has = icmp ugt i64 %n, 1
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 1, %entry ], [ %jn, %loop ]
  %k = add i64 %t, %j
  %lp = getelementptr inbounds i32, ptr %l, i64 %k
  %lv = load i32, ptr %lp, align 4
  %km = sub i64 %k, 1
  %pp = getelementptr inbounds i32, ptr %d, i64 %km
  %dprev = load i32, ptr %pp, align 4
  %prod = mul i32 %lv, %dprev
  %dp = getelementptr inbounds i32, ptr %d, i64 %k
  %dv = load i32, ptr %dp, align 4
  %dnew = sub i32 %dv, %prod
  store i32 %dnew, ptr %dp, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; out[t + j] = in[t + j]: nothing to forward.
define ptx_kernel void @copy(ptr noalias %in, ptr noalias %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %t, %j
  %ip = getelementptr inbounds i32, ptr %in, i64 %k
  %v = load i32, ptr %ip, align 4
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %v, ptr %op, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %n
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

; Atomic loads and stores (`__atomic_load_n`, `__atomic_store_n`, nvcc's
; `__nv_atomic_load_n`) in a sliced loop.
;
; SL1-RUN: CHECK
; SL1-RUN: LATE --late
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; `relaxed`: a monotonic load of `flags` beside a stream of `in` read and
; `out` written. The atomic load stays an atomic load of memory in every
; copy of the loop (a line would keep the value it had when it was filled),
; and the monotonic store to `marks` stays one too; `in` and `out` are cached.
; CHECK-LABEL: define ptx_kernel void @relaxed(
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: load atomic i32, ptr %{{[0-9]+}} monotonic, align 4
; CHECK: store atomic i32 %{{[.a-z0-9]+}}, ptr %{{[0-9]+}} monotonic, align 4
; CHECK: {{^}}loop.sl1.plain:
; CHECK: load atomic i32, ptr %{{[0-9]+}} monotonic, align 4
;
; `acquire`: an acquire load orders the loads after it as a fence does:
; every cached line goes back to memory (and is dropped) before it, so
; that `in` is read after the flag is seen.
; CHECK-LABEL: define ptx_kernel void @acquire(
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK-NEXT: load atomic i32, ptr %{{[0-9]+}} acquire, align 4
;
; After LLVM's optimizer (`run_late`), `flags` is no longer `readonly`:
; NVPTX would read it with `ld.global.nc`, which has no atomic form (LLVM
; 19 and 22 stop in instruction selection: `nvptx_bugs`). `in`, read
; plainly, keeps it.
; The paper's options (monitored): the same in the monitor and in the cached copy.
; PAPER-LABEL: define ptx_kernel void @relaxed(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: load atomic i32, ptr %{{[0-9a-z.]+}} monotonic, align 4
; PAPER: {{^}}loop.sl1.cached:
; PAPER: load atomic i32, ptr %{{[0-9a-z.]+}} monotonic, align 4
;
; LATE: define ptx_kernel void @relaxed(ptr noalias %flags, ptr noalias readonly %in,
; LATE: define ptx_kernel void @acquire(ptr noalias %flags, ptr noalias readonly %in,
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @relaxed(ptr noalias readonly %flags, ptr noalias readonly %in, ptr noalias %out, ptr noalias %marks, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %pf = getelementptr inbounds i32, ptr %flags, i64 %i
  %f = load atomic i32, ptr %pf monotonic, align 4
  %pi = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %pi, align 4
  %s = add i32 %v, %f
  %po = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s, ptr %po, align 4
  %pm = getelementptr inbounds i32, ptr %marks, i64 %i
  store atomic i32 %v, ptr %pm monotonic, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

define ptx_kernel void @acquire(ptr noalias readonly %flags, ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %begin = mul i64 %tid64, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp uge i64 %begin, %end
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %pf = getelementptr inbounds i32, ptr %flags, i64 %i
  %f = load atomic i32, ptr %pf acquire, align 4
  %pi = getelementptr inbounds i32, ptr %in, i64 %i
  %v = load i32, ptr %pi, align 4
  %s = add i32 %v, %f
  %po = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %s, ptr %po, align 4
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %end
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; A loop that publishes each element with a fence (__threadfence) after the store.
;
; SL1-RUN: CHECK,ALL
; SL1-RUN: PAPER,ALL --cache-read-only --no-static-prediction --line-size=16
;
; Before the fence, `out`'s dirty bytes go back to global memory (the
; line's bits, lowest first): the fence then orders them. No line runs
; (the fence writes lines back every iteration).
; CHECK: @sl1.lines.publish = internal addrspace(3) global [40960 x i8] poison, align 16
; CHECK-LABEL: define ptx_kernel void @publish(
; CHECK-NOT: sl1.run
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: store i16 %{{.*}}, ptr addrspace(3)
; CHECK: store <4 x i32> {{%[0-9]+}}, ptr addrspace(1)
; CHECK: br i1 %{{.*}}, label %[[FLUSHED:sl1.flush.exit[0-9]*]], label %unit.i.i
; CHECK: store i8 %{{[0-9]+}}, ptr addrspace(1)
; CHECK: {{^}}[[FLUSHED]]:
; CHECK-NEXT: fence syncscope("device") seq_cst
; The 32 B version: `in` filled a warp at a time where every lane is
; there, `out` written back before its fence the same way.
; CHECK: {{^}}loop.sl1.cached32:
; CHECK: call void @llvm.nvvm.bar.warp.sync(i32 -1)
; CHECK: br i1 %{{.*}}, label %[[FLUSHED32:sl1.flush.exit[0-9]*]], label %unit.i.i
; CHECK: {{^}}[[FLUSHED32]]:
; CHECK-NEXT: fence syncscope("device") seq_cst
; Threads with lines for some structures only: a flush of whatever `out`
; holds before the fence.
; CHECK: {{^}}loop.sl1.some32:
; CHECK: {{^}}sl1.flush.exit{{[0-9]+}}:
; CHECK: %sl1.out.dirty.[[D:[0-9]+]] = phi i32
; CHECK: call {{.*}}i32 @llvm.cttz.i32(i32 %sl1.out.dirty.[[D]], i1 true)
; CHECK: {{^}}sl1.flush.exit:
; CHECK-NEXT: fence syncscope("device") seq_cst
; Threads without lines keep the fence alone.
; CHECK: {{^}}loop.sl1.plain:
; CHECK: fence syncscope("device") seq_cst
; CHECK-NOT: sl1.flush
; CHECK: br i1 {{%[0-9]+}}, label %exit, label %loop.sl1.plain
;
; With the paper's options (16 B lines, monitored): the monitor keeps the
; fence; the cached copy writes `out`'s line back before each one.
; PAPER: @sl1.lines.publish = internal addrspace(3) global [40960 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @publish(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: fence syncscope("device") seq_cst
; PAPER: {{^}}loop.sl1.cached:
; PAPER: store i16 %v2.i, ptr addrspace(3) %s.i, align 2
; PAPER: store i32 {{%[0-9]+}}, ptr addrspace(1) %g3.i.i, align 4
; PAPER: {{^}}sl1.flush.exit:
; PAPER-NEXT: fence syncscope("device") seq_cst
; PAPER: {{^}}loop.sl1.plain:
; PAPER: fence syncscope("device") seq_cst
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; PAPER: switch i32 %sl1.out.dirty.{{[0-9]+}}, label %pieces.i.i{{[0-9]+}} [
; PAPER: {{^}}sl1.flush.exit{{[0-9]+}}:
; PAPER-NEXT: fence syncscope("device") seq_cst
;
; A transformed kernel without bounds gets the 1024 threads its buffer is
; sized for as its bound (LLVM 22: an attribute; LLVM 19 reads bounds from
; !nvvm.annotations only).
; LLVM22-ALL: attributes #0 = { "nvvm.maxntid"="1024" }
; LLVM19-ALL: !nvvm.annotations = !{!0}
; LLVM19-ALL: !0 = !{ptr @publish, !"maxntidx", i32 1024}
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @publish(ptr noalias readonly %in, ptr noalias %out, i64 %n) {
entry:
  %has = icmp ne i64 %n, 0
  br i1 %has, label %loop, label %exit

loop:
  %i = phi i64 [ 0, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %src, align 2
  %dst = getelementptr inbounds i16, ptr %out, i64 %i
  store i16 %v, ptr %dst, align 2
  fence syncscope("device") seq_cst
  %next = add nuw i64 %i, 1
  %done = icmp eq i64 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

; `count += a[row_x + i] != a[row_y + i]` for i = 4 * tid, 4 * tid + 512, ...:
; a block-stride loop whose step is a constant (4 bytes times a block size the
; source fixes with a macro), not a read of the block size, over two rows the
; analysis cannot place relative to each other (blockIdx.x and blockIdx.y).
; Each access moves 512 B per iteration: a thread never meets its line again.
; The arguments may alias (no restrict), as in the program it comes from.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default the prediction (512 B a step: no access meets its line again)
; leaves the loop as it was (the report: nothing_predicted_to_pay).
; CHECK-NOT: @sl1.lines
; CHECK-LABEL: define ptx_kernel void @rows_by_block_stride(
; CHECK-NOT: sl1
; CHECK: %x = load i8, ptr %px, align 1
; CHECK: %y = load i8, ptr %py, align 1
; CHECK: br i1 %more, label %loop, label %done
; CHECK: store i32 %count.next, ptr %slot, align 4
; CHECK-NOT: sl1
;
; The paper monitors it (one structure, `data`, both rows through it) and
; caches by what the monitor saw: both loads of the cached copy look up
; the one line of `data` in turn, the second after the first's fill.
; PAPER: @sl1.lines.rows_by_block_stride = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-LABEL: define ptx_kernel void @rows_by_block_stride(
; PAPER: br i1 %empty.not, label %loop.sl1.monitor, label %exit
; PAPER: {{^}}sl1.latch.sl1.monitor:
; PAPER: br i1 %sl1.monitored, label %sl1.decide, label %loop.sl1.monitor
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: %sl1.data.sim.hits.0 = phi i32
; PAPER: %sl1.data.sim.tag.0 = phi i64 {{.*}}[ -1, %entry ]
; PAPER-NOT: sim.tag{{.*}} = phi
; PAPER: {{^}}loop.sl1.cached:
; PAPER: %sl1.data.tag.[[T0:[0-9]+]] = phi i64 [ -1, %sl1.decide ]
; PAPER: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.data.tag.[[T0]], %line.i{{[0-9]+}}
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: %sl1.data.tag.[[T1:[0-9]+]] = phi i64 [ %sl1.data.tag.[[T0]], %loop.sl1.cached ]
; PAPER: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.data.tag.[[T1]], %line.i{{[0-9]+}}
; PAPER: store <4 x i32> {{%[0-9]+}}, ptr addrspace(3) %sl1.line, align 4
; PAPER: br i1 {{%[0-9]+}}, label %loop.sl1.cached, label %done
; PAPER: {{^}}sl1.decide:
; PAPER: %sl1.line = getelementptr i8, ptr addrspace(3) @sl1.lines.rows_by_block_stride, i64
; PAPER: br i1 %sl1.cached.not, label %loop.sl1.plain, label %loop.sl1.cached
; PAPER: {{^}}loop.sl1.plain:
; PAPER: br i1 {{%[0-9]+}}, label %loop.sl1.plain, label %done
; PAPER: {{^}}done:
; PAPER: store i32 {{%.*}}, ptr %slot, align 4
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @rows_by_block_stride(ptr readonly %data, ptr %out, i32 %len) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %rowx32 = mul i32 %bx, %len
  %rowy32 = mul i32 %by, %len
  %rowx = sext i32 %rowx32 to i64
  %rowy = sext i32 %rowy32 to i64
  %start = shl i32 %tid, 2
  %empty = icmp sge i32 %start, %len
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i32 [ %start, %entry ], [ %next, %loop ]
  %count = phi i32 [ 0, %entry ], [ %count.next, %loop ]
  %i64 = sext i32 %i to i64
  %ox = add i64 %rowx, %i64
  %oy = add i64 %rowy, %i64
  %px = getelementptr inbounds i8, ptr %data, i64 %ox
  %py = getelementptr inbounds i8, ptr %data, i64 %oy
  %x = load i8, ptr %px, align 1
  %y = load i8, ptr %py, align 1
  %ne = icmp ne i8 %x, %y
  %inc = zext i1 %ne to i32
  %count.next = add i32 %count, %inc
  %next = add nsw i32 %i, 512
  %more = icmp slt i32 %next, %len
  br i1 %more, label %loop, label %done

done:
  %slot = getelementptr inbounds i32, ptr %out, i32 %tid
  store i32 %count.next, ptr %slot, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()

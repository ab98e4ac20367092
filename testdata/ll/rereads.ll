; Read-only structures an inner loop reads again (analysis/reuse.rs):
;   reread: each thread's points are read once per iteration of the counted
;           loop over j (k-means): cached.
;   search: the loop over j may stop at the first match (not counted): left
;           to the hardware L1.
;   table:  every thread reads the same table (it does not move with the
;           main loop): left to the hardware L1.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default only `reread` is cached: the point's line stays resident
; across the loop over centres (the tag carried through `mid` and
; `inner`), no line runs (`pts` is read in an inner loop), `best` stored
; directly (cold). `search` and `table` are left as they were (the report:
; only_reads; nothing_predicted_to_pay).
; CHECK: @sl1.lines.reread = internal addrspace(3) global [20480 x i8] poison, align 16
; CHECK-NOT: @sl1.lines.search
; CHECK-NOT: @sl1.lines.table
; CHECK-LABEL: define ptx_kernel void @reread(
; CHECK-NOT: sl1.run
; CHECK: {{^}}outer.sl1.cached16:
; CHECK: %sl1.pts.tag.[[T0:[0-9]+]] = phi i64 [ -1, %sl1.pick.line ]
; CHECK: {{^}}mid.sl1.cached16:
; CHECK-NEXT: %sl1.pts.tag.[[T1:[0-9]+]] = phi i64 [ %sl1.pts.tag.[[T0]], %outer.sl1.cached16 ]
; CHECK: {{^}}inner.sl1.cached16:
; CHECK-NEXT: %sl1.pts.tag.[[T2:[0-9]+]] = phi i64 [ %sl1.pts.tag.[[T1]], %mid.sl1.cached16 ]
; CHECK: %hit.i{{[0-9]+}} = icmp eq i64 %sl1.pts.tag.[[T2]], %line.i{{[0-9]+}}
; CHECK: {{^}}outer.latch.sl1.cached16:
; CHECK: [[B:%[0-9]+]] = getelementptr inbounds i32, ptr %best,
; CHECK-NEXT: store i32 {{%[0-9]+}}, ptr [[B]], align 4
; CHECK: {{^}}inner.sl1.cached32:
; CHECK: {{^}}sl1.decide:
; CHECK: {{^}}inner.sl1.plain:
; CHECK-NOT: sl1.run
; CHECK-LABEL: define ptx_kernel void @search(
; CHECK-NOT: sl1
; CHECK: %v = load i32, ptr %a, align 4
; CHECK-LABEL: define ptx_kernel void @table(
; CHECK-NOT: sl1
; CHECK: ret void
;
; The paper's options cache `search` too (monitored); `table` has no main
; loop for them.
; PAPER: @sl1.lines.reread = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER: @sl1.lines.search = internal addrspace(3) global [20480 x i8] poison, align 16
; PAPER-NOT: @sl1.lines.table
; PAPER-LABEL: define ptx_kernel void @reread(
; PAPER: {{^}}inner.sl1.monitor:
; PAPER: {{^}}inner.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER: {{^}}inner.sl1.plain:
; PAPER-LABEL: define ptx_kernel void @search(
; PAPER: {{^}}inner.sl1.monitor:
; PAPER: {{^}}inner.sl1.cached:
; PAPER: {{^}}sl1.decide:
; PAPER-LABEL: define ptx_kernel void @table(
; PAPER-NOT: sl1
; PAPER: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @reread(ptr noalias readonly %pts, ptr noalias %best, i64 %chunk, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  %none = icmp eq i32 %k, 0
  %skip = or i1 %empty, %none
  br i1 %skip, label %exit, label %outer

outer:
  %p = phi i64 [ %begin, %entry ], [ %p.next, %outer.latch ]
  %p4 = shl i64 %p, 2
  br label %mid

mid:
  %j = phi i32 [ 0, %outer ], [ %j.next, %mid.latch ]
  %acc = phi i32 [ 0, %outer ], [ %s.next, %mid.latch ]
  br label %inner

inner:
  %x = phi i64 [ 0, %mid ], [ %x.next, %inner ]
  %s = phi i32 [ %acc, %mid ], [ %s.next, %inner ]
  %idx = add i64 %p4, %x
  %a = getelementptr inbounds i32, ptr %pts, i64 %idx
  %v = load i32, ptr %a, align 4
  %d = sub i32 %v, %j
  %s.next = add i32 %s, %d
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, 4
  br i1 %x.done, label %mid.latch, label %inner

mid.latch:
  %j.next = add nuw i32 %j, 1
  %j.more = icmp ult i32 %j.next, %k
  br i1 %j.more, label %mid, label %outer.latch

outer.latch:
  %b = getelementptr inbounds i32, ptr %best, i64 %p
  store i32 %s.next, ptr %b, align 4
  %p.next = add i64 %p, 1
  %more = icmp ult i64 %p.next, %end
  br i1 %more, label %outer, label %exit

exit:
  ret void
}

define ptx_kernel void @search(ptr noalias readonly %pts, ptr noalias %best, i64 %chunk, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  %none = icmp eq i32 %k, 0
  %skip = or i1 %empty, %none
  br i1 %skip, label %exit, label %outer

outer:
  %p = phi i64 [ %begin, %entry ], [ %p.next, %outer.latch ]
  %p4 = shl i64 %p, 2
  br label %mid

mid:
  %j = phi i32 [ 0, %outer ], [ %j.next, %mid.next ]
  br label %inner

inner:
  %x = phi i64 [ 0, %mid ], [ %x.next, %inner ]
  %s = phi i32 [ 0, %mid ], [ %s.next, %inner ]
  %idx = add i64 %p4, %x
  %a = getelementptr inbounds i32, ptr %pts, i64 %idx
  %v = load i32, ptr %a, align 4
  %s.next = add i32 %s, %v
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, 4
  br i1 %x.done, label %mid.latch, label %inner

mid.latch:
  %found = icmp eq i32 %s.next, %j
  %j.next = add nuw i32 %j, 1
  %j.more = icmp ult i32 %j.next, %k
  %go = and i1 %j.more, %found
  br i1 %go, label %outer.latch, label %mid.next

mid.next:
  br i1 %j.more, label %mid, label %outer.latch

outer.latch:
  %r = phi i32 [ %j, %mid.latch ], [ -1, %mid.next ]
  %b = getelementptr inbounds i32, ptr %best, i64 %p
  store i32 %r, ptr %b, align 4
  %p.next = add i64 %p, 1
  %more = icmp ult i64 %p.next, %end
  br i1 %more, label %outer, label %exit

exit:
  ret void
}

define ptx_kernel void @table(ptr noalias readonly %tab, ptr noalias %best, i64 %chunk, i32 %k) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  %none = icmp eq i32 %k, 0
  %skip = or i1 %empty, %none
  br i1 %skip, label %exit, label %outer

outer:
  %p = phi i64 [ %begin, %entry ], [ %p.next, %outer.latch ]
  br label %mid

mid:
  %j = phi i32 [ 0, %outer ], [ %j.next, %mid.latch ]
  %acc = phi i32 [ 0, %outer ], [ %s.next, %mid.latch ]
  br label %inner

inner:
  %x = phi i64 [ 0, %mid ], [ %x.next, %inner ]
  %s = phi i32 [ %acc, %mid ], [ %s.next, %inner ]
  %a = getelementptr inbounds i32, ptr %tab, i64 %x
  %v = load i32, ptr %a, align 4
  %d = sub i32 %v, %j
  %s.next = add i32 %s, %d
  %x.next = add nuw nsw i64 %x, 1
  %x.done = icmp eq i64 %x.next, 4
  br i1 %x.done, label %mid.latch, label %inner

mid.latch:
  %j.next = add nuw i32 %j, 1
  %j.more = icmp ult i32 %j.next, %k
  br i1 %j.more, label %mid, label %outer.latch

outer.latch:
  %b = getelementptr inbounds i32, ptr %best, i64 %p
  store i32 %s.next, ptr %b, align 4
  %p.next = add i64 %p, 1
  %more = icmp ult i64 %p.next, %end
  br i1 %more, label %outer, label %exit

exit:
  ret void
}

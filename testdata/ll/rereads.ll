; Read-only structures an inner loop reads again (analysis/reuse.rs):
;   reread: each thread's points are read once per iteration of the counted
;           loop over j (k-means): cached.
;   search: the loop over j may stop at the first match (not counted): left
;           to the hardware L1.
;   table:  every thread reads the same table (it does not move with the
;           main loop): left to the hardware L1.
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

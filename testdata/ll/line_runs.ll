; Line runs: which predicted loops get them, in which form, and why not.
;   counted:  i64 counter up to a bound: runs leave the exit test out.
;   narrow:   i32 `add nuw` counter widened by zext: counted too.
;   stops:    leaves at the first zero byte as well: runs keep the exit tests.
;   backward: walks down: no runs (they need a forward stride).
;   spread:   stores 4 B apart of 2-byte elements: counted, each store sets
;             its own dirty bits.
;   in_place: reads and writes one structure: its full runs move each byte
;             on its own (a word read ahead would pass the stores before).
;   branches: a body that branches on the byte it reads: its full runs read
;             whole words at the top of each word's first iteration, and
;             store byte by byte.
;   multiplies: stores each byte times 3, which no byte-vector operation
;             computes: its full runs put each word together from bytes.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @counted(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %pa, align 1
  %r = xor i8 %c, 32
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %r, ptr %pb, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @narrow(ptr noalias readonly %in, ptr noalias %out, i64 %n) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %base = mul i64 %t, %n
  %a = getelementptr inbounds i8, ptr %in, i64 %base
  %b = getelementptr inbounds i8, ptr %out, i64 %base
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %k = phi i32 [ 0, %entry ], [ %k.next, %loop ]
  %k64 = zext i32 %k to i64
  %pa = getelementptr inbounds i8, ptr %a, i64 %k64
  %c = load i8, ptr %pa, align 1
  %r = add i8 %c, 1
  %pb = getelementptr inbounds i8, ptr %b, i64 %k64
  store i8 %r, ptr %pb, align 1
  %k.next = add nuw i32 %k, 1
  %wide = zext i32 %k.next to i64
  %more = icmp ult i64 %wide, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @stops(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %latch ]
  %pa = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %pa, align 1
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %c, ptr %pb, align 1
  %zero = icmp eq i8 %c, 0
  br i1 %zero, label %exit, label %latch

latch:
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @backward(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %last = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %last, %entry ], [ %i.next, %loop ]
  %i.next = add i64 %i, -1
  %pa = getelementptr inbounds i8, ptr %in, i64 %i.next
  %c = load i8, ptr %pa, align 1
  %pb = getelementptr inbounds i8, ptr %out, i64 %i.next
  store i8 %c, ptr %pb, align 1
  %more = icmp ugt i64 %i.next, %begin
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @spread(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %pa, align 2
  %j = shl i64 %i, 1
  %pb = getelementptr inbounds i16, ptr %out, i64 %j
  store i16 %v, ptr %pb, align 2
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @in_place(ptr noalias %data, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %p = getelementptr inbounds i8, ptr %data, i64 %i
  %c = load i8, ptr %p, align 1
  %r = xor i8 %c, 32
  store i8 %r, ptr %p, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @branches(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %join ]
  %pa = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %pa, align 1
  %space = icmp eq i8 %c, 32
  br i1 %space, label %blank, label %join

blank:
  br label %join

join:
  %r = phi i8 [ 95, %blank ], [ %c, %loop ]
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %r, ptr %pb, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @multiplies(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t = zext i32 %tid to i64
  %begin = mul i64 %t, %chunk
  %end = add i64 %begin, %chunk
  %empty = icmp eq i64 %chunk, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i64 [ %begin, %entry ], [ %i.next, %loop ]
  %pa = getelementptr inbounds i8, ptr %in, i64 %i
  %c = load i8, ptr %pa, align 1
  %r = mul i8 %c, 3
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %r, ptr %pb, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

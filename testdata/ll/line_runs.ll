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
;   multiplies: stores each byte times 3: its full runs multiply each
;             word's bytes as one byte vector.
;   squares:  stores each byte times itself, which no byte-vector operation
;             computes: its full runs put each word together from bytes.
;
; SL1-RUN: CHECK
; SL1-RUN: PAPER --cache-read-only --no-static-prediction --line-size=16
;
; By default (the 16 B versions checked here; each kernel also has 32 B
; and wider ones): a checked iteration's latch works out how many
; iterations stay in the resident lines, then runs them without tag
; checks; where the lines start whole, a full run unrolled over the line.
; counted: the run's length cut to the loop's count, no exit test in the
; run; the full run moves the line's words as <4 x i8> at once.
; CHECK-LABEL: define ptx_kernel void @counted(
; CHECK: {{^}}sl1.latch.sl1.cached16:
; CHECK: %sl1.run.off = sub i64
; CHECK: %sl1.run.left{{[0-9]+}} = call i64 @llvm.umin.i64(
; CHECK: br i1 %sl1.run.full{{[0-9]+}}, label %loop.sl1.cached16.run.full0, label %sl1.run.pick
; CHECK: {{^}}loop.sl1.cached16.run:
; CHECK-NOT: %hit
; CHECK: %sl1.run.left{{[0-9]+}} = add {{(nsw )?}}i64 %sl1.run.0, -1
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK: [[WORD:%sl1.lanes[0-9]*]] = xor <4 x i8> {{%[0-9]+}}, {{.*}}32
; CHECK: store <4 x i8> [[WORD]], ptr addrspace(3) %sl1.full.word{{[0-9]+}}, align 4
; CHECK: add i64 %sl1.phi.{{[0-9]+}}, 16
; CHECK-NEXT: br label %loop.sl1.cached16
; narrow: the i32 counter widened by zext, counted too.
; CHECK-LABEL: define ptx_kernel void @narrow(
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; stops: leaves at the first zero byte as well: its runs keep the exit
; tests (a latch of their own), and no full run.
; CHECK-LABEL: define ptx_kernel void @stops(
; CHECK-NOT: run.full
; CHECK: {{^}}sl1.latch.sl1.cached16.run:
; CHECK: {{^}}loop.sl1.cached16.run:
; CHECK: br i1 {{%[0-9]+}}, label %sl1.flush.exit{{[0-9]+}}, label %latch.sl1.cached16.run
; CHECK: {{^}}latch.sl1.cached16.run:
; CHECK-NOT: run.full
; backward: walks down: no runs.
; CHECK-LABEL: define ptx_kernel void @backward(
; CHECK-NOT: sl1.run
; CHECK: {{^}}loop.sl1.cached16:
; CHECK: {{^}}sl1.decide:
; CHECK-NOT: sl1.run
; spread: 2-byte stores 4 B apart: a full run of 3 iterations after the
; checked one, each store setting its own 2 dirty bits.
; CHECK-LABEL: define ptx_kernel void @spread(
; CHECK: %sl1.run.full = icmp eq i64 %sl1.run.left{{[0-9]+}}, 3
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK: load <2 x i16>, ptr addrspace(3) %sl1.full.word, align 4
; CHECK: shl i32 3,
; CHECK: add i64 %sl1.phi.{{[0-9]+}}, 4
; in_place: one structure read and written: its full run moves each byte
; on its own (no word read ahead of the stores).
; CHECK-LABEL: define ptx_kernel void @in_place(
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK-NOT: <4 x i8>
; CHECK: load i8, ptr addrspace(3) %sl1.full, align 4
; CHECK: store i8 {{%[0-9]+}}, ptr addrspace(3) %sl1.full, align 4
; CHECK: {{^}}sl1.run.pick:
; branches: whole words read at the top, the bytes stored one by one.
; CHECK-LABEL: define ptx_kernel void @branches(
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK: [[W:%[0-9]+]] = load <4 x i8>, ptr addrspace(3) %sl1.full.word, align 4
; CHECK: extractelement <4 x i8> [[W]], i64 0
; CHECK: store i8 {{%[0-9]+}}, ptr addrspace(3) %sl1.full, align 4
; multiplies: each word's bytes times 3 at once, one multiply of the byte
; vector (which `byte_words` does on the word).
; CHECK-LABEL: define ptx_kernel void @multiplies(
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK: [[IN:%[0-9]+]] = load <4 x i8>, ptr addrspace(3) %sl1.full.word, align 4
; CHECK-NEXT: [[WORD:%sl1.lanes[0-9]*]] = mul <4 x i8> [[IN]], {{splat \(i8 3\)|<i8 3, }}
; CHECK: store <4 x i8> [[WORD]], ptr addrspace(3) %sl1.full.word{{[0-9]+}}, align 4
; squares: each word put together from its bytes, each times itself.
; CHECK-LABEL: define ptx_kernel void @squares(
; CHECK: {{^}}loop.sl1.cached16.run.full0:
; CHECK: load <4 x i8>, ptr addrspace(3) %sl1.full.word, align 4
; CHECK: mul i8 [[B:%[0-9]+]], [[B]]
; CHECK: [[SQ:%[0-9]+]] = insertelement <4 x i8> {{.*}}, i64 3
; CHECK: store <4 x i8> [[SQ]], ptr addrspace(3) %sl1.full.word{{[0-9]+}}, align 4
;
; The paper's options: monitored, so no run (runs need predicted strides).
; PAPER-NOT: sl1.run
; PAPER-LABEL: define ptx_kernel void @counted(
; PAPER: {{^}}loop.sl1.monitor:
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NOT: sl1.run
; PAPER-LABEL: define ptx_kernel void @stops(
; PAPER-NOT: sl1.run
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @in_place(
; PAPER-NOT: sl1.run
; PAPER: {{^}}loop.sl1.cached:
; PAPER-LABEL: define ptx_kernel void @multiplies(
; PAPER-NOT: sl1.run
; PAPER: {{^}}loop.sl1.cached:
; PAPER-NOT: sl1.run
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

define ptx_kernel void @squares(ptr noalias readonly %in, ptr noalias %out, i64 %chunk) {
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
  %r = mul i8 %c, %c
  %pb = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %r, ptr %pb, align 1
  %i.next = add i64 %i, 1
  %more = icmp ult i64 %i.next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

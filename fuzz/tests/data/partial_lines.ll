; Threads whose chunks end inside lines: `chunk` elements each, the last
; thread's cut at `n`, so most lines are written partly by one thread and
; partly by the next, and go back to memory as partly dirty lines.
;   bytes:       out[i] = in[i] + 1            (runs of bytes)
;   every_other: out[i] = in[i] ^ 0x5a, i += 2 (every other byte)
;   halves:      out[i] = in[i] * 3            (2-byte elements)
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @bytes(ptr noalias %in, ptr noalias %out, i64 %n, i64 %chunk) {
entry:
  %begin = call i64 @first(i64 %chunk)
  %end = call i64 @last(i64 %begin, i64 %chunk, i64 %n)
  %any = icmp ult i64 %begin, %end
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %v = load i8, ptr %src, align 1
  %w = add i8 %v, 1
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %w, ptr %dst, align 1
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @every_other(ptr noalias %in, ptr noalias %out, i64 %n, i64 %chunk) {
entry:
  %begin = call i64 @first(i64 %chunk)
  %end = call i64 @last(i64 %begin, i64 %chunk, i64 %n)
  %any = icmp ult i64 %begin, %end
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i8, ptr %in, i64 %i
  %v = load i8, ptr %src, align 1
  %w = xor i8 %v, 90
  %dst = getelementptr inbounds i8, ptr %out, i64 %i
  store i8 %w, ptr %dst, align 1
  %next = add nuw i64 %i, 2
  %more = icmp ult i64 %next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @halves(ptr noalias %in, ptr noalias %out, i64 %n, i64 %chunk) {
entry:
  %begin = call i64 @first(i64 %chunk)
  %end = call i64 @last(i64 %begin, i64 %chunk, i64 %n)
  %any = icmp ult i64 %begin, %end
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i64 [ %begin, %entry ], [ %next, %loop ]
  %src = getelementptr inbounds i16, ptr %in, i64 %i
  %v = load i16, ptr %src, align 2
  %w = mul i16 %v, 3
  %dst = getelementptr inbounds i16, ptr %out, i64 %i
  store i16 %w, ptr %dst, align 2
  %next = add nuw i64 %i, 1
  %more = icmp ult i64 %next, %end
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

; This thread's first element: (ctaid.x * ntid.x + tid.x) * chunk.
define internal i64 @first(i64 %chunk) alwaysinline {
  %block = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %threads = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b = mul i32 %block, %threads
  %t = add i32 %b, %tid
  %t64 = zext i32 %t to i64
  %begin = mul i64 %t64, %chunk
  ret i64 %begin
}

; The end of this thread's chunk: begin + chunk, at most n.
define internal i64 @last(i64 %begin, i64 %chunk, i64 %n) alwaysinline {
  %e = add i64 %begin, %chunk
  %small = icmp ult i64 %e, %n
  %end = select i1 %small, i64 %e, i64 %n
  ret i64 %end
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

; Counts of byte lanes (pass/src/tuning/byte_lane_counts.rs), a late device
; rewrite: a full line run's copies of `wc`'s body, one per byte of the words
; it reads, each add `zext i1` of their own test to the count
; (`lines += c == '\n'`, and `words += prev && !space` whose `prev` is the
; lane before's `space`). The four tests of one word become one test of the
; word (`byte_words` then does it on the i32: `sl1.carried` moves the answers
; up a lane, the lane before's answer in lane 0) and one `ctpop`. A word
; whose lanes test different constants keeps its terms, and so do lanes
; added into two different sums and answers something else takes too (they
; would stay computed lane by lane beside the word's test).
;
; SL1-RUN: TUNED --late
; SL1-RUN: EARLY --device-tuning
;
; TUNED-LABEL: define ptx_kernel void @wc_words(
; TUNED-NOT: zext i1 %st
; TUNED: %sl1.lane.count{{[0-9]*}} = call i32 @llvm.ctpop.i32(
; TUNED: %sl1.carried = or i32
; TUNED: call i32 @llvm.ctpop.i32(
; TUNED: %sl1.carried{{[0-9]+}} = or i32
; TUNED: call i32 @llvm.ctpop.i32(
; TUNED: call i32 @llvm.ctpop.i32(
; TUNED-NOT: zext i1 %st
; TUNED-LABEL: define ptx_kernel void @other_constant(
; TUNED: call i32 @llvm.ctpop.i32(
; TUNED-NOT: call i32 @llvm.ctpop.i32(
; TUNED: zext i1 %st0_0
; TUNED-LABEL: define ptx_kernel void @two_sums(
; TUNED-NOT: call i32 @llvm.ctpop.i32(
; TUNED-LABEL: define ptx_kernel void @answers_used_again(
; TUNED-NOT: call i32 @llvm.ctpop.i32(
; TUNED: ret void
;
; EARLY-LABEL: define ptx_kernel void @wc_words(
; EARLY-NOT: ctpop
; EARLY: %zs0_0 = zext i1 %st0_0 to i64
; EARLY-NOT: ctpop
; EARLY: ret void
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Two words of wc: per byte c, space = c == 32 | c - 9 <u 2, words += prev && !space, lines += c == 10.
define ptx_kernel void @wc_words(ptr noalias readonly %in, ptr noalias %out, i1 %prev, i64 %words, i64 %lines) {
entry:
  %a0 = getelementptr i8, ptr %in, i64 0
  %w0 = load <4 x i8>, ptr %a0, align 4
  %a1 = getelementptr i8, ptr %in, i64 4
  %w1 = load <4 x i8>, ptr %a1, align 4
  %c0_0 = extractelement <4 x i8> %w0, i64 0
  %eq0_0 = icmp eq i8 %c0_0, 32
  %o0_0 = add i8 %c0_0, -9
  %r0_0 = icmp ult i8 %o0_0, 2
  %sp0_0 = or i1 %eq0_0, %r0_0
  %ns0_0 = xor i1 %sp0_0, true
  %st0_0 = and i1 %prev, %ns0_0
  %zs0_0 = zext i1 %st0_0 to i64
  %nl0_0 = icmp eq i8 %c0_0, 10
  %zl0_0 = zext i1 %nl0_0 to i64
  %c0_1 = extractelement <4 x i8> %w0, i64 1
  %eq0_1 = icmp eq i8 %c0_1, 32
  %o0_1 = add i8 %c0_1, -9
  %r0_1 = icmp ult i8 %o0_1, 2
  %sp0_1 = or i1 %eq0_1, %r0_1
  %ns0_1 = xor i1 %sp0_1, true
  %st0_1 = and i1 %sp0_0, %ns0_1
  %zs0_1 = zext i1 %st0_1 to i64
  %nl0_1 = icmp eq i8 %c0_1, 10
  %zl0_1 = zext i1 %nl0_1 to i64
  %c0_2 = extractelement <4 x i8> %w0, i64 2
  %eq0_2 = icmp eq i8 %c0_2, 32
  %o0_2 = add i8 %c0_2, -9
  %r0_2 = icmp ult i8 %o0_2, 2
  %sp0_2 = or i1 %eq0_2, %r0_2
  %ns0_2 = xor i1 %sp0_2, true
  %st0_2 = and i1 %sp0_1, %ns0_2
  %zs0_2 = zext i1 %st0_2 to i64
  %nl0_2 = icmp eq i8 %c0_2, 10
  %zl0_2 = zext i1 %nl0_2 to i64
  %c0_3 = extractelement <4 x i8> %w0, i64 3
  %eq0_3 = icmp eq i8 %c0_3, 32
  %o0_3 = add i8 %c0_3, -9
  %r0_3 = icmp ult i8 %o0_3, 2
  %sp0_3 = or i1 %eq0_3, %r0_3
  %ns0_3 = xor i1 %sp0_3, true
  %st0_3 = and i1 %sp0_2, %ns0_3
  %zs0_3 = zext i1 %st0_3 to i64
  %nl0_3 = icmp eq i8 %c0_3, 10
  %zl0_3 = zext i1 %nl0_3 to i64
  %c1_0 = extractelement <4 x i8> %w1, i64 0
  %eq1_0 = icmp eq i8 %c1_0, 32
  %o1_0 = add i8 %c1_0, -9
  %r1_0 = icmp ult i8 %o1_0, 2
  %sp1_0 = or i1 %eq1_0, %r1_0
  %ns1_0 = xor i1 %sp1_0, true
  %st1_0 = and i1 %sp0_3, %ns1_0
  %zs1_0 = zext i1 %st1_0 to i64
  %nl1_0 = icmp eq i8 %c1_0, 10
  %zl1_0 = zext i1 %nl1_0 to i64
  %c1_1 = extractelement <4 x i8> %w1, i64 1
  %eq1_1 = icmp eq i8 %c1_1, 32
  %o1_1 = add i8 %c1_1, -9
  %r1_1 = icmp ult i8 %o1_1, 2
  %sp1_1 = or i1 %eq1_1, %r1_1
  %ns1_1 = xor i1 %sp1_1, true
  %st1_1 = and i1 %sp1_0, %ns1_1
  %zs1_1 = zext i1 %st1_1 to i64
  %nl1_1 = icmp eq i8 %c1_1, 10
  %zl1_1 = zext i1 %nl1_1 to i64
  %c1_2 = extractelement <4 x i8> %w1, i64 2
  %eq1_2 = icmp eq i8 %c1_2, 32
  %o1_2 = add i8 %c1_2, -9
  %r1_2 = icmp ult i8 %o1_2, 2
  %sp1_2 = or i1 %eq1_2, %r1_2
  %ns1_2 = xor i1 %sp1_2, true
  %st1_2 = and i1 %sp1_1, %ns1_2
  %zs1_2 = zext i1 %st1_2 to i64
  %nl1_2 = icmp eq i8 %c1_2, 10
  %zl1_2 = zext i1 %nl1_2 to i64
  %c1_3 = extractelement <4 x i8> %w1, i64 3
  %eq1_3 = icmp eq i8 %c1_3, 32
  %o1_3 = add i8 %c1_3, -9
  %r1_3 = icmp ult i8 %o1_3, 2
  %sp1_3 = or i1 %eq1_3, %r1_3
  %ns1_3 = xor i1 %sp1_3, true
  %st1_3 = and i1 %sp1_2, %ns1_3
  %zs1_3 = zext i1 %st1_3 to i64
  %nl1_3 = icmp eq i8 %c1_3, 10
  %zl1_3 = zext i1 %nl1_3 to i64
  %ws0 = add i64 %words, %zs0_0
  %ws1 = add i64 %ws0, %zs0_1
  %ws2 = add i64 %ws1, %zs0_2
  %ws3 = add i64 %ws2, %zs0_3
  %ws4 = add i64 %ws3, %zs1_0
  %ws5 = add i64 %ws4, %zs1_1
  %ws6 = add i64 %ws5, %zs1_2
  %ws7 = add i64 %ws6, %zs1_3
  %ls0 = add i64 %lines, %zl0_0
  %ls1 = add i64 %ls0, %zl0_1
  %ls2 = add i64 %ls1, %zl0_2
  %ls3 = add i64 %ls2, %zl0_3
  %ls4 = add i64 %ls3, %zl1_0
  %ls5 = add i64 %ls4, %zl1_1
  %ls6 = add i64 %ls5, %zl1_2
  %ls7 = add i64 %ls6, %zl1_3
  store i64 %ws7, ptr %out, align 8
  %o2 = getelementptr i8, ptr %out, i64 8
  store i64 %ls7, ptr %o2, align 8
  ret void
}

define ptx_kernel void @other_constant(ptr noalias readonly %in, ptr noalias %out, i1 %prev, i64 %words, i64 %lines) {
entry:
  %a0 = getelementptr i8, ptr %in, i64 0
  %w0 = load <4 x i8>, ptr %a0, align 4
  %c0_0 = extractelement <4 x i8> %w0, i64 0
  %eq0_0 = icmp eq i8 %c0_0, 32
  %o0_0 = add i8 %c0_0, -9
  %r0_0 = icmp ult i8 %o0_0, 2
  %sp0_0 = or i1 %eq0_0, %r0_0
  %ns0_0 = xor i1 %sp0_0, true
  %st0_0 = and i1 %prev, %ns0_0
  %zs0_0 = zext i1 %st0_0 to i64
  %nl0_0 = icmp eq i8 %c0_0, 10
  %zl0_0 = zext i1 %nl0_0 to i64
  %c0_1 = extractelement <4 x i8> %w0, i64 1
  %eq0_1 = icmp eq i8 %c0_1, 32
  %o0_1 = add i8 %c0_1, -9
  %r0_1 = icmp ult i8 %o0_1, 2
  %sp0_1 = or i1 %eq0_1, %r0_1
  %ns0_1 = xor i1 %sp0_1, true
  %st0_1 = and i1 %sp0_0, %ns0_1
  %zs0_1 = zext i1 %st0_1 to i64
  %nl0_1 = icmp eq i8 %c0_1, 10
  %zl0_1 = zext i1 %nl0_1 to i64
  %c0_2 = extractelement <4 x i8> %w0, i64 2
  %eq0_2 = icmp eq i8 %c0_2, 33
  %o0_2 = add i8 %c0_2, -9
  %r0_2 = icmp ult i8 %o0_2, 2
  %sp0_2 = or i1 %eq0_2, %r0_2
  %ns0_2 = xor i1 %sp0_2, true
  %st0_2 = and i1 %sp0_1, %ns0_2
  %zs0_2 = zext i1 %st0_2 to i64
  %nl0_2 = icmp eq i8 %c0_2, 10
  %zl0_2 = zext i1 %nl0_2 to i64
  %c0_3 = extractelement <4 x i8> %w0, i64 3
  %eq0_3 = icmp eq i8 %c0_3, 32
  %o0_3 = add i8 %c0_3, -9
  %r0_3 = icmp ult i8 %o0_3, 2
  %sp0_3 = or i1 %eq0_3, %r0_3
  %ns0_3 = xor i1 %sp0_3, true
  %st0_3 = and i1 %sp0_2, %ns0_3
  %zs0_3 = zext i1 %st0_3 to i64
  %nl0_3 = icmp eq i8 %c0_3, 10
  %zl0_3 = zext i1 %nl0_3 to i64
  %ws0 = add i64 %words, %zs0_0
  %ws1 = add i64 %ws0, %zs0_1
  %ws2 = add i64 %ws1, %zs0_2
  %ws3 = add i64 %ws2, %zs0_3
  %ls0 = add i64 %lines, %zl0_0
  %ls1 = add i64 %ls0, %zl0_1
  %ls2 = add i64 %ls1, %zl0_2
  %ls3 = add i64 %ls2, %zl0_3
  store i64 %ws3, ptr %out, align 8
  %o2 = getelementptr i8, ptr %out, i64 8
  store i64 %ls3, ptr %o2, align 8
  ret void
}

define ptx_kernel void @two_sums(ptr noalias readonly %in, ptr noalias %out, i1 %prev, i64 %words, i64 %lines) {
entry:
  %a0 = getelementptr i8, ptr %in, i64 0
  %w0 = load <4 x i8>, ptr %a0, align 4
  %c0_0 = extractelement <4 x i8> %w0, i64 0
  %eq0_0 = icmp eq i8 %c0_0, 32
  %o0_0 = add i8 %c0_0, -9
  %r0_0 = icmp ult i8 %o0_0, 2
  %sp0_0 = or i1 %eq0_0, %r0_0
  %ns0_0 = xor i1 %sp0_0, true
  %st0_0 = and i1 %prev, %ns0_0
  %zs0_0 = zext i1 %st0_0 to i64
  %nl0_0 = icmp eq i8 %c0_0, 10
  %zl0_0 = zext i1 %nl0_0 to i64
  %c0_1 = extractelement <4 x i8> %w0, i64 1
  %eq0_1 = icmp eq i8 %c0_1, 32
  %o0_1 = add i8 %c0_1, -9
  %r0_1 = icmp ult i8 %o0_1, 2
  %sp0_1 = or i1 %eq0_1, %r0_1
  %ns0_1 = xor i1 %sp0_1, true
  %st0_1 = and i1 %sp0_0, %ns0_1
  %zs0_1 = zext i1 %st0_1 to i64
  %nl0_1 = icmp eq i8 %c0_1, 10
  %zl0_1 = zext i1 %nl0_1 to i64
  %c0_2 = extractelement <4 x i8> %w0, i64 2
  %eq0_2 = icmp eq i8 %c0_2, 32
  %o0_2 = add i8 %c0_2, -9
  %r0_2 = icmp ult i8 %o0_2, 2
  %sp0_2 = or i1 %eq0_2, %r0_2
  %ns0_2 = xor i1 %sp0_2, true
  %st0_2 = and i1 %sp0_1, %ns0_2
  %zs0_2 = zext i1 %st0_2 to i64
  %nl0_2 = icmp eq i8 %c0_2, 10
  %zl0_2 = zext i1 %nl0_2 to i64
  %c0_3 = extractelement <4 x i8> %w0, i64 3
  %eq0_3 = icmp eq i8 %c0_3, 32
  %o0_3 = add i8 %c0_3, -9
  %r0_3 = icmp ult i8 %o0_3, 2
  %sp0_3 = or i1 %eq0_3, %r0_3
  %ns0_3 = xor i1 %sp0_3, true
  %st0_3 = and i1 %sp0_2, %ns0_3
  %zs0_3 = zext i1 %st0_3 to i64
  %nl0_3 = icmp eq i8 %c0_3, 10
  %zl0_3 = zext i1 %nl0_3 to i64
  %wa0 = add i64 %words, %zs0_0
  %wa1 = add i64 %wa0, %zs0_2
  %wb0 = add i64 0, %zs0_1
  %wb1 = add i64 %wb0, %zs0_3
  %wsum = add i64 %wa1, 1
  store i64 %wsum, ptr %out, align 8
  %o2 = getelementptr i8, ptr %out, i64 8
  store i64 %wb1, ptr %o2, align 8
  ret void
}

; The newline answers also make a flag: left as they are.
define ptx_kernel void @answers_used_again(ptr noalias readonly %in, ptr noalias %out, i64 %lines) {
entry:
  %w0 = load <4 x i8>, ptr %in, align 4
  %c0 = extractelement <4 x i8> %w0, i64 0
  %nl0 = icmp eq i8 %c0, 10
  %z0 = zext i1 %nl0 to i64
  %s0 = add i64 %lines, %z0
  %c1 = extractelement <4 x i8> %w0, i64 1
  %nl1 = icmp eq i8 %c1, 10
  %z1 = zext i1 %nl1 to i64
  %s1 = add i64 %s0, %z1
  %c2 = extractelement <4 x i8> %w0, i64 2
  %nl2 = icmp eq i8 %c2, 10
  %z2 = zext i1 %nl2 to i64
  %s2 = add i64 %s1, %z2
  %c3 = extractelement <4 x i8> %w0, i64 3
  %nl3 = icmp eq i8 %c3, 10
  %z3 = zext i1 %nl3 to i64
  %s3 = add i64 %s2, %z3
  %any01 = or i1 %nl0, %nl1
  %any23 = or i1 %nl2, %nl3
  %any = or i1 %any01, %any23
  %flag = zext i1 %any to i8
  store i64 %s3, ptr %out, align 8
  %o2 = getelementptr i8, ptr %out, i64 8
  store i8 %flag, ptr %o2, align 1
  ret void
}

; Vector loads (pass/src/tuning/vector_loads.rs), a late device rewrite
; (unless --no-vector-loads): a loop unrolled by 4 that reads a[k] .. a[k+3]
; gets a copy reading them as one 16-byte load, and a short-trip twin of it,
; entered when the first address is aligned; the loop stays for the other
; addresses. A loop with a store between its loads stays as it is.
;
; SL1-RUN: TUNED --late
; SL1-RUN: OFF --late --no-vector-loads
;
; TUNED-LABEL: define i32 @dot(
; TUNED: sl1.vec.check:
; TUNED: %sl1.vec.low = and i64 %sl1.vec.addr, 15
; TUNED-NEXT: [[ALIGNED:%[0-9]+]] = icmp eq i64 %sl1.vec.low, 0
; TUNED: loop:
; TUNED: %a0 = load i32, ptr %pa0, align 4
; TUNED: loop.vec:
; TUNED: [[V:%[0-9]+]] = load <4 x i32>, ptr {{%[0-9]+}}, align 16
; TUNED-NEXT: extractelement <4 x i32> [[V]], i32 0
; TUNED: loop.vec.short:
; TUNED: load <4 x i32>, ptr {{%[0-9]+}}, align 16
; TUNED-LABEL: define i32 @store_between(
; TUNED-NOT: <4 x
; TUNED: ret i32
;
; OFF-NOT: <4 x
; OFF-NOT: sl1.vec
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define i32 @dot(ptr noalias readonly %a, ptr noalias readonly %b, i64 %n, i64 %m) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.3, %loop ]
  %pa0 = getelementptr i32, ptr %a, i64 %k
  %a0 = load i32, ptr %pa0, align 4
  %kb0 = mul i64 %k, %n
  %pb0 = getelementptr i32, ptr %b, i64 %kb0
  %b0 = load i32, ptr %pb0, align 4
  %m0 = mul i32 %a0, %b0
  %acc.0 = add i32 %acc, %m0
  %k1 = or disjoint i64 %k, 1
  %pa1 = getelementptr i32, ptr %a, i64 %k1
  %a1 = load i32, ptr %pa1, align 4
  %kb1 = mul i64 %k1, %n
  %pb1 = getelementptr i32, ptr %b, i64 %kb1
  %b1 = load i32, ptr %pb1, align 4
  %m1 = mul i32 %a1, %b1
  %acc.1 = add i32 %acc.0, %m1
  %k2 = or disjoint i64 %k, 2
  %pa2 = getelementptr i32, ptr %a, i64 %k2
  %a2 = load i32, ptr %pa2, align 4
  %kb2 = mul i64 %k2, %n
  %pb2 = getelementptr i32, ptr %b, i64 %kb2
  %b2 = load i32, ptr %pb2, align 4
  %m2 = mul i32 %a2, %b2
  %acc.2 = add i32 %acc.1, %m2
  %k3 = add nuw i64 %k, 3
  %pa3 = getelementptr i32, ptr %a, i64 %k3
  %a3 = load i32, ptr %pa3, align 4
  %kb3 = mul i64 %k3, %n
  %pb3 = getelementptr i32, ptr %b, i64 %kb3
  %b3 = load i32, ptr %pb3, align 4
  %m3 = mul i32 %a3, %b3
  %acc.3 = add i32 %acc.2, %m3
  %k.next = add nuw i64 %k, 4
  %done = icmp uge i64 %k.next, %m
  br i1 %done, label %exit, label %loop

exit:
  %twice = shl i32 %acc.3, 1
  ret i32 %twice
}

define i32 @store_between(ptr %a, i64 %m) {
entry:
  br label %loop

loop:
  %k = phi i64 [ 0, %entry ], [ %k.next, %loop ]
  %acc = phi i32 [ 0, %entry ], [ %acc.3, %loop ]
  %pa0 = getelementptr i32, ptr %a, i64 %k
  %a0 = load i32, ptr %pa0, align 4
  %k1 = add i64 %k, 1
  %pa1 = getelementptr i32, ptr %a, i64 %k1
  %a1 = load i32, ptr %pa1, align 4
  %k2 = add i64 %k, 2
  %pa2 = getelementptr i32, ptr %a, i64 %k2
  store i32 %a0, ptr %pa2, align 4
  %a2 = load i32, ptr %pa2, align 4
  %k3 = add i64 %k, 3
  %pa3 = getelementptr i32, ptr %a, i64 %k3
  %a3 = load i32, ptr %pa3, align 4
  %acc.0 = add i32 %acc, %a0
  %acc.1 = add i32 %acc.0, %a1
  %acc.2 = add i32 %acc.1, %a2
  %acc.3 = add i32 %acc.2, %a3
  %k.next = add i64 %k, 4
  %done = icmp uge i64 %k.next, %m
  br i1 %done, label %exit, label %loop

exit:
  ret i32 %acc.3
}


define ptx_kernel void @dots(ptr noalias readonly %a, ptr noalias readonly %b, ptr %out, i64 %n, i64 %m) {
entry:
  %d = call i32 @dot(ptr %a, ptr %b, i64 %n, i64 %m)
  store i32 %d, ptr %out, align 4
  ret void
}

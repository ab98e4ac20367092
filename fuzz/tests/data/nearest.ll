; Built from this CUDA source by `sl1-driver build nearest.cu --emit ll --no-sl1
; --no-device-tuning` (clang's O3 without S-L1 and its rewrites), for
; fuzz/tests/vector_unswitch.rs:
;
;   // The nearest of k centres for each point (dims coordinates), kmeans's loop
;   // nest: the centres copied to dynamic shared memory, each thread a chunk of
;   // points.
;   extern "C" __global__ void nearest(const int *__restrict__ points, const int *__restrict__ centres,
;                                      int *__restrict__ out, unsigned long long n,
;                                      unsigned long long chunk, unsigned long long k64,
;                                      unsigned long long dims64) {
;     unsigned k = (unsigned)k64, dims = (unsigned)dims64;
;     extern __shared__ int c[];
;     unsigned tid = threadIdx.x, ntid = blockDim.x;
;     // Every thread copies all the centres: the CPU runner runs one thread at
;     // a time, and a barrier would not wait there.
;     for (unsigned i = 0; i < k * dims; ++i)
;       c[i] = centres[i];
;     unsigned long long t = (unsigned long long)blockIdx.x * ntid + tid;
;     unsigned long long begin = t * chunk;
;     unsigned long long end = begin + chunk < n ? begin + chunk : n;
;     for (unsigned long long p = begin; p < end; ++p) {
;       int best = 0;
;       long long best_d = -1;
;       for (unsigned j = 0; j < k; ++j) {
;         long long d = 0;
;         for (unsigned x = 0; x < dims; ++x) {
;           long long diff = points[p * dims + x] - c[j * dims + x];
;           d += diff * diff;
;         }
;         if (best_d < 0 || d < best_d) {
;           best_d = d;
;           best = (int)j;
;         }
;       }
;       out[p] = best;
;     }
;   }

; ModuleID = 'nearest.cu'
source_filename = "nearest.cu"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@c = external dso_local local_unnamed_addr addrspace(3) global [0 x i32], align 4

; Function Attrs: mustprogress nofree noinline norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define dso_local ptx_kernel void @nearest(ptr noalias noundef readonly captures(none) %points, ptr noalias noundef readonly captures(none) %centres, ptr noalias noundef writeonly captures(none) %out, i64 noundef %n, i64 noundef %chunk, i64 noundef %k64, i64 noundef %dims64) local_unnamed_addr #0 {
entry:
  %conv = trunc i64 %k64 to i32
  %conv1 = trunc i64 %dims64 to i32
  %0 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %1 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %mul = mul i32 %conv1, %conv
  %cmp75.not = icmp eq i32 %mul, 0
  br i1 %cmp75.not, label %for.cond.cleanup, label %for.body.preheader

for.body.preheader:                               ; preds = %entry
  %xtraiter = and i32 %mul, 7
  %2 = icmp ult i32 %mul, 8
  br i1 %2, label %for.body.epil.preheader, label %for.body.preheader.new

for.body.preheader.new:                           ; preds = %for.body.preheader
  %unroll_iter = and i32 %mul, -8
  br label %for.body

for.cond.cleanup.loopexit.unr-lcssa:              ; preds = %for.body
  %lcmp.mod.not = icmp eq i32 %xtraiter, 0
  br i1 %lcmp.mod.not, label %for.cond.cleanup, label %for.body.epil.preheader

for.body.epil.preheader:                          ; preds = %for.cond.cleanup.loopexit.unr-lcssa, %for.body.preheader
  %i.076.epil.init = phi i32 [ 0, %for.body.preheader ], [ %inc.7, %for.cond.cleanup.loopexit.unr-lcssa ]
  %lcmp.mod89 = icmp ne i32 %xtraiter, 0
  tail call void @llvm.assume(i1 %lcmp.mod89)
  br label %for.body.epil

for.body.epil:                                    ; preds = %for.body.epil, %for.body.epil.preheader
  %i.076.epil = phi i32 [ %inc.epil, %for.body.epil ], [ %i.076.epil.init, %for.body.epil.preheader ]
  %epil.iter = phi i32 [ %epil.iter.next, %for.body.epil ], [ 0, %for.body.epil.preheader ]
  %idxprom.epil = zext i32 %i.076.epil to i64
  %arrayidx.epil = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.epil
  %3 = load i32, ptr %arrayidx.epil, align 4, !tbaa !6
  %arrayidx4.epil = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.epil
  store i32 %3, ptr %arrayidx4.epil, align 4, !tbaa !6
  %inc.epil = add nuw i32 %i.076.epil, 1
  %epil.iter.next = add i32 %epil.iter, 1
  %epil.iter.cmp.not = icmp eq i32 %epil.iter.next, %xtraiter
  br i1 %epil.iter.cmp.not, label %for.cond.cleanup, label %for.body.epil, !llvm.loop !11

for.cond.cleanup:                                 ; preds = %for.cond.cleanup.loopexit.unr-lcssa, %for.body.epil, %entry
  %4 = tail call noundef i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %conv6 = zext nneg i32 %4 to i64
  %conv7 = zext nneg i32 %1 to i64
  %mul8 = mul nuw nsw i64 %conv6, %conv7
  %conv9 = zext nneg i32 %0 to i64
  %add = add nuw nsw i64 %mul8, %conv9
  %mul10 = mul i64 %chunk, %add
  %add11 = add i64 %mul10, %chunk
  %add11.n = tail call i64 @llvm.umin.i64(i64 %add11, i64 %n)
  %cmp1585 = icmp ult i64 %mul10, %add11.n
  br i1 %cmp1585, label %for.cond18.preheader.lr.ph, label %for.cond.cleanup16

for.cond18.preheader.lr.ph:                       ; preds = %for.cond.cleanup
  %cmp1980.not = icmp eq i32 %conv, 0
  %cmp2377.not = icmp eq i32 %conv1, 0
  %conv26 = and i64 %dims64, 4294967295
  %xtraiter90 = and i32 %conv1, 3
  %5 = icmp ult i32 %conv1, 4
  %unroll_iter95 = and i32 %conv1, -4
  %lcmp.mod92.not = icmp eq i32 %xtraiter90, 0
  %lcmp.mod94 = icmp ne i32 %xtraiter90, 0
  br label %for.cond18.preheader

for.body:                                         ; preds = %for.body, %for.body.preheader.new
  %i.076 = phi i32 [ 0, %for.body.preheader.new ], [ %inc.7, %for.body ]
  %niter = phi i32 [ 0, %for.body.preheader.new ], [ %niter.next.7, %for.body ]
  %idxprom = zext i32 %i.076 to i64
  %arrayidx = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom
  %6 = load i32, ptr %arrayidx, align 4, !tbaa !6
  %arrayidx4 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom
  store i32 %6, ptr %arrayidx4, align 4, !tbaa !6
  %inc = or disjoint i32 %i.076, 1
  %idxprom.1 = zext i32 %inc to i64
  %arrayidx.1 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.1
  %7 = load i32, ptr %arrayidx.1, align 4, !tbaa !6
  %arrayidx4.1 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.1
  store i32 %7, ptr %arrayidx4.1, align 4, !tbaa !6
  %inc.1 = or disjoint i32 %i.076, 2
  %idxprom.2 = zext i32 %inc.1 to i64
  %arrayidx.2 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.2
  %8 = load i32, ptr %arrayidx.2, align 4, !tbaa !6
  %arrayidx4.2 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.2
  store i32 %8, ptr %arrayidx4.2, align 4, !tbaa !6
  %inc.2 = or disjoint i32 %i.076, 3
  %idxprom.3 = zext i32 %inc.2 to i64
  %arrayidx.3 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.3
  %9 = load i32, ptr %arrayidx.3, align 4, !tbaa !6
  %arrayidx4.3 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.3
  store i32 %9, ptr %arrayidx4.3, align 4, !tbaa !6
  %inc.3 = or disjoint i32 %i.076, 4
  %idxprom.4 = zext i32 %inc.3 to i64
  %arrayidx.4 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.4
  %10 = load i32, ptr %arrayidx.4, align 4, !tbaa !6
  %arrayidx4.4 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.4
  store i32 %10, ptr %arrayidx4.4, align 4, !tbaa !6
  %inc.4 = or disjoint i32 %i.076, 5
  %idxprom.5 = zext i32 %inc.4 to i64
  %arrayidx.5 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.5
  %11 = load i32, ptr %arrayidx.5, align 4, !tbaa !6
  %arrayidx4.5 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.5
  store i32 %11, ptr %arrayidx4.5, align 4, !tbaa !6
  %inc.5 = or disjoint i32 %i.076, 6
  %idxprom.6 = zext i32 %inc.5 to i64
  %arrayidx.6 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.6
  %12 = load i32, ptr %arrayidx.6, align 4, !tbaa !6
  %arrayidx4.6 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.6
  store i32 %12, ptr %arrayidx4.6, align 4, !tbaa !6
  %inc.6 = or disjoint i32 %i.076, 7
  %idxprom.7 = zext i32 %inc.6 to i64
  %arrayidx.7 = getelementptr inbounds nuw i32, ptr %centres, i64 %idxprom.7
  %13 = load i32, ptr %arrayidx.7, align 4, !tbaa !6
  %arrayidx4.7 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom.7
  store i32 %13, ptr %arrayidx4.7, align 4, !tbaa !6
  %inc.7 = add nuw i32 %i.076, 8
  %niter.next.7 = add i32 %niter, 8
  %niter.ncmp.7 = icmp eq i32 %niter.next.7, %unroll_iter
  br i1 %niter.ncmp.7, label %for.cond.cleanup.loopexit.unr-lcssa, label %for.body, !llvm.loop !13

for.cond18.preheader:                             ; preds = %for.cond18.preheader.lr.ph, %for.cond.cleanup20
  %p.086 = phi i64 [ %mul10, %for.cond18.preheader.lr.ph ], [ %inc48, %for.cond.cleanup20 ]
  br i1 %cmp1980.not, label %for.cond.cleanup20, label %for.cond22.preheader.lr.ph

for.cond22.preheader.lr.ph:                       ; preds = %for.cond18.preheader
  %mul27 = mul i64 %p.086, %conv26
  %14 = getelementptr i32, ptr %points, i64 %mul27
  br label %for.cond22.preheader

for.cond.cleanup16:                               ; preds = %for.cond.cleanup20, %for.cond.cleanup
  ret void

for.cond22.preheader:                             ; preds = %for.cond22.preheader.lr.ph, %for.cond.cleanup24
  %j.083 = phi i32 [ 0, %for.cond22.preheader.lr.ph ], [ %inc44, %for.cond.cleanup24 ]
  %best_d.082 = phi i64 [ -1, %for.cond22.preheader.lr.ph ], [ %best_d.1, %for.cond.cleanup24 ]
  %best.081 = phi i32 [ 0, %for.cond22.preheader.lr.ph ], [ %best.1, %for.cond.cleanup24 ]
  br i1 %cmp2377.not, label %for.cond.cleanup24, label %for.body25.lr.ph

for.body25.lr.ph:                                 ; preds = %for.cond22.preheader
  %mul31 = mul i32 %j.083, %conv1
  br i1 %5, label %for.body25.epil.preheader, label %for.body25

for.cond.cleanup20:                               ; preds = %for.cond.cleanup24, %for.cond18.preheader
  %best.0.lcssa = phi i32 [ 0, %for.cond18.preheader ], [ %best.1, %for.cond.cleanup24 ]
  %arrayidx46 = getelementptr inbounds nuw i32, ptr %out, i64 %p.086
  store i32 %best.0.lcssa, ptr %arrayidx46, align 4, !tbaa !6
  %inc48 = add nuw i64 %p.086, 1
  %cmp15 = icmp ult i64 %inc48, %add11.n
  br i1 %cmp15, label %for.cond18.preheader, label %for.cond.cleanup16, !llvm.loop !15

for.cond.cleanup24.loopexit.unr-lcssa:            ; preds = %for.body25
  br i1 %lcmp.mod92.not, label %for.cond.cleanup24, label %for.body25.epil.preheader

for.body25.epil.preheader:                        ; preds = %for.cond.cleanup24.loopexit.unr-lcssa, %for.body25.lr.ph
  %x.079.epil.init = phi i32 [ 0, %for.body25.lr.ph ], [ %inc39.3, %for.cond.cleanup24.loopexit.unr-lcssa ]
  %d.078.epil.init = phi i64 [ 0, %for.body25.lr.ph ], [ %add37.3, %for.cond.cleanup24.loopexit.unr-lcssa ]
  tail call void @llvm.assume(i1 %lcmp.mod94)
  br label %for.body25.epil

for.body25.epil:                                  ; preds = %for.body25.epil, %for.body25.epil.preheader
  %x.079.epil = phi i32 [ %x.079.epil.init, %for.body25.epil.preheader ], [ %inc39.epil, %for.body25.epil ]
  %d.078.epil = phi i64 [ %d.078.epil.init, %for.body25.epil.preheader ], [ %add37.epil, %for.body25.epil ]
  %epil.iter91 = phi i32 [ 0, %for.body25.epil.preheader ], [ %epil.iter91.next, %for.body25.epil ]
  %conv28.epil = zext i32 %x.079.epil to i64
  %arrayidx30.epil = getelementptr i32, ptr %14, i64 %conv28.epil
  %15 = load i32, ptr %arrayidx30.epil, align 4, !tbaa !6
  %add32.epil = add i32 %x.079.epil, %mul31
  %idxprom33.epil = zext i32 %add32.epil to i64
  %arrayidx34.epil = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom33.epil
  %16 = load i32, ptr %arrayidx34.epil, align 4, !tbaa !6
  %sub.epil = sub nsw i32 %15, %16
  %conv35.epil = sext i32 %sub.epil to i64
  %mul36.epil = mul nsw i64 %conv35.epil, %conv35.epil
  %add37.epil = add nuw nsw i64 %mul36.epil, %d.078.epil
  %inc39.epil = add nuw i32 %x.079.epil, 1
  %epil.iter91.next = add i32 %epil.iter91, 1
  %epil.iter91.cmp.not = icmp eq i32 %epil.iter91.next, %xtraiter90
  br i1 %epil.iter91.cmp.not, label %for.cond.cleanup24, label %for.body25.epil, !llvm.loop !16

for.cond.cleanup24:                               ; preds = %for.cond.cleanup24.loopexit.unr-lcssa, %for.body25.epil, %for.cond22.preheader
  %d.0.lcssa = phi i64 [ 0, %for.cond22.preheader ], [ %add37.3, %for.cond.cleanup24.loopexit.unr-lcssa ], [ %add37.epil, %for.body25.epil ]
  %cmp41 = icmp slt i64 %best_d.082, 0
  %cmp42 = icmp slt i64 %d.0.lcssa, %best_d.082
  %or.cond = select i1 %cmp41, i1 true, i1 %cmp42
  %best.1 = select i1 %or.cond, i32 %j.083, i32 %best.081
  %best_d.1 = select i1 %or.cond, i64 %d.0.lcssa, i64 %best_d.082
  %inc44 = add nuw i32 %j.083, 1
  %exitcond88.not = icmp eq i32 %inc44, %conv
  br i1 %exitcond88.not, label %for.cond.cleanup20, label %for.cond22.preheader, !llvm.loop !17

for.body25:                                       ; preds = %for.body25.lr.ph, %for.body25
  %x.079 = phi i32 [ %inc39.3, %for.body25 ], [ 0, %for.body25.lr.ph ]
  %d.078 = phi i64 [ %add37.3, %for.body25 ], [ 0, %for.body25.lr.ph ]
  %niter96 = phi i32 [ %niter96.next.3, %for.body25 ], [ 0, %for.body25.lr.ph ]
  %conv28 = zext i32 %x.079 to i64
  %arrayidx30 = getelementptr i32, ptr %14, i64 %conv28
  %17 = load i32, ptr %arrayidx30, align 4, !tbaa !6
  %add32 = add i32 %x.079, %mul31
  %idxprom33 = zext i32 %add32 to i64
  %arrayidx34 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom33
  %18 = load i32, ptr %arrayidx34, align 4, !tbaa !6
  %sub = sub nsw i32 %17, %18
  %conv35 = sext i32 %sub to i64
  %mul36 = mul nsw i64 %conv35, %conv35
  %add37 = add nuw nsw i64 %mul36, %d.078
  %inc39 = or disjoint i32 %x.079, 1
  %conv28.1 = zext i32 %inc39 to i64
  %arrayidx30.1 = getelementptr i32, ptr %14, i64 %conv28.1
  %19 = load i32, ptr %arrayidx30.1, align 4, !tbaa !6
  %add32.1 = add i32 %inc39, %mul31
  %idxprom33.1 = zext i32 %add32.1 to i64
  %arrayidx34.1 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom33.1
  %20 = load i32, ptr %arrayidx34.1, align 4, !tbaa !6
  %sub.1 = sub nsw i32 %19, %20
  %conv35.1 = sext i32 %sub.1 to i64
  %mul36.1 = mul nsw i64 %conv35.1, %conv35.1
  %add37.1 = add nuw nsw i64 %mul36.1, %add37
  %inc39.1 = or disjoint i32 %x.079, 2
  %conv28.2 = zext i32 %inc39.1 to i64
  %arrayidx30.2 = getelementptr i32, ptr %14, i64 %conv28.2
  %21 = load i32, ptr %arrayidx30.2, align 4, !tbaa !6
  %add32.2 = add i32 %inc39.1, %mul31
  %idxprom33.2 = zext i32 %add32.2 to i64
  %arrayidx34.2 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom33.2
  %22 = load i32, ptr %arrayidx34.2, align 4, !tbaa !6
  %sub.2 = sub nsw i32 %21, %22
  %conv35.2 = sext i32 %sub.2 to i64
  %mul36.2 = mul nsw i64 %conv35.2, %conv35.2
  %add37.2 = add nuw nsw i64 %mul36.2, %add37.1
  %inc39.2 = or disjoint i32 %x.079, 3
  %conv28.3 = zext i32 %inc39.2 to i64
  %arrayidx30.3 = getelementptr i32, ptr %14, i64 %conv28.3
  %23 = load i32, ptr %arrayidx30.3, align 4, !tbaa !6
  %add32.3 = add i32 %inc39.2, %mul31
  %idxprom33.3 = zext i32 %add32.3 to i64
  %arrayidx34.3 = getelementptr inbounds nuw i32, ptr addrspacecast (ptr addrspace(3) @c to ptr), i64 %idxprom33.3
  %24 = load i32, ptr %arrayidx34.3, align 4, !tbaa !6
  %sub.3 = sub nsw i32 %23, %24
  %conv35.3 = sext i32 %sub.3 to i64
  %mul36.3 = mul nsw i64 %conv35.3, %conv35.3
  %add37.3 = add nuw nsw i64 %mul36.3, %add37.2
  %inc39.3 = add nuw i32 %x.079, 4
  %niter96.next.3 = add i32 %niter96, 4
  %niter96.ncmp.3 = icmp eq i32 %niter96.next.3, %unroll_iter95
  br i1 %niter96.ncmp.3, label %for.cond.cleanup24.loopexit.unr-lcssa, label %for.body25, !llvm.loop !18
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 1, 1025) i32 @llvm.nvvm.read.ptx.sreg.ntid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare i64 @llvm.umin.i64(i64, i64) #2

; Function Attrs: nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write)
declare void @llvm.assume(i1 noundef) #3

attributes #0 = { mustprogress nofree noinline norecurse nosync nounwind memory(readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) "frame-pointer"="all" "no-jump-tables"="true" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nocallback nofree nosync nounwind willreturn memory(inaccessiblemem: write) }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4, !5}
!llvm.errno.tbaa = !{!6}
!nvvmir.version = !{!10}

!0 = !{i32 2, !"SDK Version", [2 x i32] [i32 12, i32 9]}
!1 = !{i32 1, !"wchar_size", i32 4}
!2 = !{i32 4, !"nvvm-reflect-ftz", i32 0}
!3 = !{i32 7, !"frame-pointer", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!"clang version 3.8.0 (tags/RELEASE_380/final)"}
!6 = !{!7, !7, i64 0}
!7 = !{!"int", !8, i64 0}
!8 = !{!"omnipotent char", !9, i64 0}
!9 = !{!"Simple C++ TBAA"}
!10 = !{i32 2, i32 0}
!11 = distinct !{!11, !12}
!12 = !{!"llvm.loop.unroll.disable"}
!13 = distinct !{!13, !14}
!14 = !{!"llvm.loop.mustprogress"}
!15 = distinct !{!15, !14}
!16 = distinct !{!16, !12}
!17 = distinct !{!17, !14}
!18 = distinct !{!18, !14}

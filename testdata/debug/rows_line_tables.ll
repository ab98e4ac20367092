; A kernel with line tables (as clang -gline-tables-only leaves them): what
; the pass leaves must keep every location under the kernel's own
; subprogram, also where it puts back a body it failed to transform.
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; out[t * n + j] = in[t * n + j] + 1 over j.
define ptx_kernel void @rows(ptr noalias %in, ptr noalias %out, i64 %n) mustprogress !dbg !5 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !8
  %t = zext i32 %tid to i64, !dbg !8
  %row = mul i64 %t, %n, !dbg !8
  %has = icmp ne i64 %n, 0, !dbg !9
  br i1 %has, label %loop, label %exit, !dbg !9

loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %row, %j, !dbg !10
  %src = getelementptr inbounds i32, ptr %in, i64 %k, !dbg !10
  %v = load i32, ptr %src, align 4, !dbg !10
  %x = add i32 %v, 1, !dbg !10
  %dst = getelementptr inbounds i32, ptr %out, i64 %k, !dbg !10
  store i32 %x, ptr %dst, align 4, !dbg !10
  %jn = add nuw i64 %j, 1, !dbg !9
  %done = icmp eq i64 %jn, %n, !dbg !9
  br i1 %done, label %exit, label %loop, !dbg !9

exit:
  ret void, !dbg !11
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3}

!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "rows.cu", directory: "/tmp")
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{i32 7, !"Dwarf Version", i32 2}
!4 = !DISubroutineType(types: !{})
!5 = distinct !DISubprogram(name: "rows", scope: !1, file: !1, line: 1, type: !4, scopeLine: 1, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = distinct !DILexicalBlock(scope: !5, file: !1, line: 3, column: 3)
!8 = !DILocation(line: 2, column: 3, scope: !5)
!9 = !DILocation(line: 3, column: 3, scope: !6)
!10 = !DILocation(line: 4, column: 5, scope: !6)
!11 = !DILocation(line: 5, column: 1, scope: !5)

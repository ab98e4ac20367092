//! Row-per-thread sweeps whose addresses LLVM writes in two ways the
//! affine analysis must see through to predict them (`analysis::affine`):
//! a row's start computed once before the loop beside the same address
//! computed whole in it (`d[i*ld + j]` and `d[i*ld + j + 1]` of a backward
//! tridiagonal sweep), and an induction variable that takes another's
//! value of the iteration before (`j` beside `j + 1` of `for (j = 1;
//! j + 1 < cols; ++j)`). Both were "unpredicted" and left direct, the
//! kernels 2.7x-2.8x slower than with lines (H200, 2026-11-28).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::report::direct::Decision;
use sl1_pass::{run_on_module, Options, Report};

/// The two kernels as clang -O3 gives them to S-L1 (restrict arguments).
const SWEEPS: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()

define ptx_kernel void @tri_backward(ptr noalias %d, ptr noalias readonly %u, i64 %rows, i64 %cols, i64 %ld) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b64 = zext i32 %b to i64
  %n64 = zext i32 %n to i64
  %t64 = zext i32 %t to i64
  %bn = mul i64 %b64, %n64
  %i = add i64 %bn, %t64
  %out = icmp uge i64 %i, %rows
  %short = icmp ult i64 %cols, 2
  %skip = or i1 %out, %short
  br i1 %skip, label %exit, label %ph
ph:
  %last = add i64 %cols, -1
  %row = mul i64 %ld, %i
  %drow = getelementptr i32, ptr %d, i64 %row
  br label %loop
loop:
  %j = phi i64 [ %last, %ph ], [ %dec, %loop ]
  %dec = add i64 %j, -1
  %k = add i64 %dec, %row
  %up = getelementptr inbounds i32, ptr %u, i64 %k
  %uv = load i32, ptr %up, align 4
  %nextp = getelementptr i32, ptr %drow, i64 %j
  %next = load i32, ptr %nextp, align 4
  %m = mul i32 %next, %uv
  %dp = getelementptr inbounds i32, ptr %d, i64 %k
  %dv = load i32, ptr %dp, align 4
  %s = sub i32 %dv, %m
  store i32 %s, ptr %dp, align 4
  %done = icmp eq i64 %dec, 0
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

define ptx_kernel void @row_stencil(ptr noalias readonly %in, ptr noalias %out, i64 %rows, i64 %cols, i64 %ld) {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %b64 = zext i32 %b to i64
  %n64 = zext i32 %n to i64
  %t64 = zext i32 %t to i64
  %bn = mul i64 %b64, %n64
  %i = add i64 %bn, %t64
  %inside = icmp ult i64 %i, %rows
  %wide = icmp ugt i64 %cols, 2
  %go = and i1 %inside, %wide
  br i1 %go, label %ph, label %exit
ph:
  %row = mul i64 %ld, %i
  br label %loop
loop:
  %j1 = phi i64 [ 2, %ph ], [ %j2, %loop ]
  %j = phi i64 [ 1, %ph ], [ %j1, %loop ]
  %k = add i64 %j, %row
  %c = getelementptr i32, ptr %in, i64 %k
  %lp = getelementptr i8, ptr %c, i64 -4
  %l = load i32, ptr %lp, align 4
  %cv = load i32, ptr %c, align 4
  %c2 = shl i32 %cv, 1
  %lc = add i32 %c2, %l
  %rp = getelementptr i8, ptr %c, i64 4
  %r = load i32, ptr %rp, align 4
  %sum = add i32 %lc, %r
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %sum, ptr %op, align 4
  %j2 = add nuw i64 %j1, 1
  %done = icmp eq i64 %j2, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"#;

fn report() -> Report {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(SWEEPS.as_bytes(), "row_sweeps");
    let module = context.create_module_from_ir(buffer).unwrap();
    let report = run_on_module(&module, &Options::default()).unwrap();
    module.verify().unwrap();
    report
}

/// Each structure of `kernel`: (argument, stride, cached).
fn predictions(report: &Report, kernel: &str) -> Vec<(String, Option<i64>, bool)> {
    let k = report.kernels.iter().find(|k| k.name == kernel).unwrap();
    k.transform
        .predictions
        .iter()
        .map(|p| {
            let cached = matches!(p.decision, Decision::Cached { .. });
            (p.argument.clone(), p.stride, cached)
        })
        .collect()
}

#[test]
fn a_row_start_computed_before_the_loop_is_a_constant_distance_from_the_row_in_it() {
    let report = report();
    assert_eq!(
        predictions(&report, "tri_backward"),
        [("d".into(), Some(-4), true), ("u".into(), Some(-4), true)],
        "{report:#?}"
    );
}

#[test]
fn an_induction_variable_one_iteration_behind_another_moves_with_it() {
    let report = report();
    assert_eq!(
        predictions(&report, "row_stencil"),
        [("in".into(), Some(4), true), ("out".into(), Some(4), true)],
        "{report:#?}"
    );
}

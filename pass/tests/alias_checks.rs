//! Run-time alias checks (`tuning::check_aliases`): a loop over arguments
//! without restrict gets a copy, behind a test that the ranges it touches
//! are apart, in which the sum it keeps in memory stays in a register and
//! S-L1 takes the arguments as restrict (`analysis::scopes`: lines of their
//! own, line runs); the pass reports the module changed wherever the
//! versioning looked at a kernel (it adds preheaders: reported unchanged,
//! clang's later passes kept stale loop analyses and crashed, 2026-11-28).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::transform::Reason;
use sl1_pass::tuning::Rewrite;
use sl1_pass::{run_on_module, Options, Report};

/// `y[i] += a[i][j] * x[j]` (the sum forwarded, stored every iteration, as
/// clang leaves it without restrict), and the alias scopes of the row
/// copies (`kernels`): `copy_rows` has nothing that stays put;
/// `scoped_rows` and `unscoped_store` are marked as loop versioning marks
/// its checked copy, the second with a store declared apart from nothing;
/// `inlined_restrict` as the inliner marks a call of `copy(const int
/// *__restrict__ in, int *__restrict__ out)` in the loop (apart within one
/// call only). Each loop's header is entered from a conditional branch, so
/// it has no preheader of its own.
const MV_ROWS_AND_SCOPES: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @mv_rows(ptr %a, ptr %x, ptr %y, i64 %cols) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %yi = getelementptr inbounds i32, ptr %y, i64 %i
  store i32 0, ptr %yi, align 4
  %row = mul i64 %i, %cols
  %ar = getelementptr inbounds i32, ptr %a, i64 %row
  %has = icmp ne i64 %cols, 0
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %s = phi i32 [ 0, %entry ], [ %sn, %loop ]
  %ap = getelementptr inbounds i32, ptr %ar, i64 %j
  %av = load i32, ptr %ap, align 4
  %xp = getelementptr inbounds i32, ptr %x, i64 %j
  %xv = load i32, ptr %xp, align 4
  %m = mul i32 %av, %xv
  %sn = add i32 %s, %m
  store i32 %sn, ptr %yi, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}

!0 = distinct !{!0, !"LVerDomain"}
!1 = distinct !{!1, !0}
!2 = distinct !{!2, !0}
!3 = !{!1}
!5 = !{!2}
!10 = distinct !{!10, !"_Z4copyPKiPi"}
!11 = distinct !{!11, !10, !"_Z4copyPKiPi: %in"}
!12 = distinct !{!12, !10, !"_Z4copyPKiPi: %out"}
!13 = !{!11}
!15 = !{!12}
"#;

/// Kernel `name` copying a row per thread from `in` to `out`, its load and
/// store marked with `load_marks` and `store_marks` (metadata, or nothing).
fn row_copy(name: &str, load_marks: &str, store_marks: &str) -> String {
    format!(
        "define ptx_kernel void @{name}(ptr %in, ptr %out, i64 %cols) {{
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %row = mul i64 %i, %cols
  %has = icmp ne i64 %cols, 0
  br i1 %has, label %loop, label %exit
loop:
  %j = phi i64 [ 0, %entry ], [ %jn, %loop ]
  %k = add i64 %row, %j
  %ip = getelementptr inbounds i32, ptr %in, i64 %k
  %v = load i32, ptr %ip, align 4{load_marks}
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %v, ptr %op, align 4{store_marks}
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}}
"
    )
}

/// The module of the tests: [`MV_ROWS_AND_SCOPES`] and the row copies.
fn kernels() -> String {
    [
        MV_ROWS_AND_SCOPES.to_string(),
        row_copy("copy_rows", "", ""),
        row_copy(
            "scoped_rows",
            ", !alias.scope !3",
            ", !alias.scope !5, !noalias !3",
        ),
        row_copy("unscoped_store", ", !alias.scope !3", ", !alias.scope !5"),
        row_copy(
            "inlined_restrict",
            ", !alias.scope !13",
            ", !alias.scope !15, !noalias !13",
        ),
    ]
    .concat()
}

/// The pass's report on [`kernels`] under `options`, and whether the
/// module's text changed.
fn run(options: &Options) -> (Report, bool, String) {
    run_text(&kernels(), options)
}

/// The pass's report on the module `ir` under `options`, whether its text
/// changed, and the text after.
fn run_text(ir: &str, options: &Options) -> (Report, bool, String) {
    run_in(ir, options, false)
}

/// As [`run_text`], with the pass in a context that drops the names of the
/// values and blocks it makes, as clang's does unless given
/// `-fno-discard-value-names` (LLVM reads no text in such a context).
fn run_nameless(ir: &str, options: &Options) -> (Report, bool, String) {
    run_in(ir, options, true)
}

fn run_in(ir: &str, options: &Options, nameless: bool) -> (Report, bool, String) {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "alias_checks");
    let module = context.create_module_from_ir(buffer).unwrap();
    if nameless {
        sl1_pass::llvm::ir::discard_value_names(&context);
    }
    let before = module.print_to_string().to_string();
    let report = run_on_module(&module, options).unwrap();
    module.verify().unwrap();
    let after = module.print_to_string().to_string();
    (report, before != after, after)
}

fn tuned(alias_checks: bool, transform: bool) -> Options {
    Options {
        device_tuning: true,
        alias_checks,
        transform,
        ..Options::default()
    }
}

#[test]
fn a_sum_kept_in_memory_gets_a_checked_copy_where_it_stays_in_a_register() {
    let (report, _, text) = run(&tuned(true, true));
    // Every loop but `scoped_rows`'s, whose metadata already says its
    // accesses are apart.
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        3
    );
    let mv = report.kernels.iter().find(|k| k.name == "mv_rows").unwrap();
    // Two main loops: the checked copy only reads (its sum left the loop),
    // the original, taken when the ranges overlap, stores every iteration.
    assert_eq!(mv.loops.iter().filter(|l| l.main_loop).count(), 2, "{mv:?}");
    assert!(
        mv.transform.reasons.iter().any(|r| matches!(
            r,
            Reason::OnlyReads { .. } | Reason::LeftToVectorLoads { .. }
        )),
        "{:?}",
        mv.transform.reasons
    );
    assert!(text.contains("lver.check"), "{text}");
}

#[test]
fn without_the_checks_the_loop_stays_one() {
    let (report, _, text) = run(&tuned(false, true));
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        0
    );
    let mv = report.kernels.iter().find(|k| k.name == "mv_rows").unwrap();
    assert_eq!(mv.loops.iter().filter(|l| l.main_loop).count(), 1);
    assert!(!text.contains("lver.check"));
}

#[test]
fn a_module_the_checks_changed_is_reported_changed() {
    // S-L1 off: only the device rewrites change the module.
    let (report, changed, _) = run(&tuned(true, false));
    assert!(changed);
    assert!(
        report.transformed,
        "the module changed, the report says not"
    );
    let (report, changed, _) = run(&tuned(false, false));
    assert_eq!(report.transformed, changed);
}

/// The loops S-L1 takes arguments without restrict as restrict in, by
/// kernel.
fn apart(report: &Report, kernel: &str) -> Vec<(String, Vec<String>)> {
    let k = report.kernels.iter().find(|k| k.name == kernel).unwrap();
    k.transform
        .apart_by_checks
        .iter()
        .map(|a| (a.loop_header.clone(), a.arguments.clone()))
        .collect()
}

#[test]
fn the_checked_copy_takes_its_arguments_as_restrict() {
    let (report, _, _) = run(&tuned(true, true));
    let copy = report
        .kernels
        .iter()
        .find(|k| k.name == "copy_rows")
        .unwrap();
    let [(checked, arguments)] = &apart(&report, "copy_rows")[..] else {
        panic!("{:?}", copy.transform);
    };
    assert_eq!(arguments, &["in", "out"]);
    // Line runs are for restrict arguments: the checked copy gets them, the
    // original (the ranges overlap) looks its lines up together.
    assert!(
        copy.transform
            .line_runs
            .iter()
            .any(|r| &r.loop_header == checked && r.applied),
        "{:?}",
        copy.transform.line_runs
    );
}

#[test]
fn arguments_are_restrict_in_a_loop_only_where_every_write_is_declared_apart() {
    let options = tuned(false, true);
    let (report, _, _) = run(&options);
    assert_eq!(
        apart(&report, "scoped_rows"),
        [(
            "loop".to_string(),
            vec!["in".to_string(), "out".to_string()]
        )]
    );
    assert!(apart(&report, "unscoped_store").is_empty());
    // One call's restrict says nothing of the next iteration's.
    assert!(apart(&report, "inlined_restrict").is_empty());
    assert!(apart(&report, "copy_rows").is_empty());
}

/// `y[c] += a[r][c] * x[r]`, a column per thread: `a` moves by the row
/// length `ld`, a kernel argument, every iteration.
const MV_COLS: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

define ptx_kernel void @mv_cols(ptr %a, ptr %x, ptr %y, i64 %rows, i64 %ld) {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %c = zext i32 %tid to i64
  %yc = getelementptr inbounds i32, ptr %y, i64 %c
  store i32 0, ptr %yc, align 4
  %has = icmp ne i64 %rows, 0
  br i1 %has, label %loop, label %exit
loop:
  %r = phi i64 [ 0, %entry ], [ %rn, %loop ]
  %s = phi i32 [ 0, %entry ], [ %sn, %loop ]
  %row = mul i64 %r, %ld
  %k = add i64 %row, %c
  %ap = getelementptr inbounds i32, ptr %a, i64 %k
  %av = load i32, ptr %ap, align 4
  %xp = getelementptr inbounds i32, ptr %x, i64 %r
  %xv = load i32, ptr %xp, align 4
  %m = mul i32 %av, %xv
  %sn = add i32 %s, %m
  store i32 %sn, ptr %yc, align 4
  %rn = add nuw i64 %r, 1
  %done = icmp eq i64 %rn, %rows
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"#;

/// Loop access analysis would test `ld == 1` beside the ranges, and the
/// checked copy of a column-per-thread product would never run on a matrix
/// (H200, 2026-11-28: 0.45x of its restrict version).
#[test]
fn a_stride_from_an_argument_is_bounded_not_assumed_one() {
    let (report, _, text) = run_text(MV_COLS, &tuned(true, false));
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        1,
        "{text}"
    );
    assert!(
        !text.contains("ident.check") && !text.contains("icmp ne i64 %ld, 1"),
        "{text}"
    );
}

/// A loop walking two arguments backwards that also leaves on a loaded
/// value: LLVM 22's loop versioning bounded its ranges as if it never left
/// (`inttoptr (i64 -9 to ptr)`), and the copy ran on one buffer passed
/// twice (fuzz seed 701689).
const EARLY_EXIT: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @early_exit(ptr %a0, ptr %a1, i64 %begin, i64 %end) {
entry:
  %last = add i64 %end, -1
  %has = icmp ult i64 %begin, %end
  br i1 %has, label %loop, label %exit
loop:
  %i = phi i64 [ %last, %entry ], [ %in, %loop ]
  %p0 = getelementptr inbounds i64, ptr %a0, i64 %i
  %v0 = load i64, ptr %p0, align 8
  %s = shl i64 %v0, 1
  store i64 %s, ptr %p0, align 8
  %p1 = getelementptr inbounds i64, ptr %a1, i64 %i
  %v1 = load i64, ptr %p1, align 8
  %hit = icmp ne i64 %v1, 1
  %in = add i64 %i, -1
  %more = icmp ugt i64 %i, %begin
  %go = and i1 %more, %hit
  br i1 %go, label %loop, label %exit
exit:
  ret void
}
"#;

#[test]
fn a_loop_that_may_leave_on_a_loaded_value_keeps_no_checked_copy() {
    let (report, _, text) = run_text(EARLY_EXIT, &tuned(true, false));
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        0,
        "{text}"
    );
    // The original stays, the copy is gone.
    assert!(text.contains("loop.lver.orig:"), "{text}");
    assert!(!text.contains("\nloop:"), "{text}");
}

/// Clang drops the names of blocks (`.lver.check`, `.lver.orig`) unless
/// given `-fno-discard-value-names`: the checks are found by their shape
/// and the scopes of the copy, so the raw plugin keeps the copy of a
/// counted loop and drops that of a loop that may leave on a loaded value,
/// as the driver does (with names, the plugin dropped neither: it kept the
/// early-exit copy of fuzz seed 701689 and reported no checked loop).
#[test]
fn checks_are_found_without_value_names() {
    let (report, _, text) = run_nameless(MV_COLS, &tuned(true, false));
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        1,
        "{text}"
    );
    let (report, _, text) = run_nameless(EARLY_EXIT, &tuned(true, false));
    assert_eq!(
        report
            .device_rewrites
            .as_ref()
            .unwrap()
            .count(Rewrite::AliasChecks),
        0,
        "{text}"
    );
    // One loop left: the original's two loads.
    assert_eq!(text.matches("load i64").count(), 2, "{text}");
    assert!(!text.contains("!alias.scope"), "{text}");
}

/// The statistics build counts, per check, the thread entries that took
/// each path: `zext` of the check's overlap test picks the counter, after
/// the S-L1 transform (whose analyses do not see the atomic add).
#[test]
fn the_statistics_build_counts_the_path_each_check_takes() {
    let stats = Options {
        stats: true,
        ..tuned(true, true)
    };
    let (report, _, text) = run_text(MV_COLS, &stats);
    let counters = report.kernels[0].alias_paths.as_ref().expect("counters");
    assert_eq!(counters.symbol, "sl1_alias_paths_mv_cols");
    assert_eq!(counters.checks, 1);
    assert!(
        text.contains("@sl1_alias_paths_mv_cols = addrspace(1) global [2 x i64] zeroinitializer"),
        "{text}"
    );
    let check = text
        .lines()
        .find(|l| l.contains("!sl1.alias.check"))
        .expect("the numbered check");
    let overlap = check
        .trim()
        .strip_prefix("br i1 ")
        .unwrap()
        .split(',')
        .next()
        .unwrap();
    assert!(
        text.contains(&format!("%sl1.alias.path = zext i1 {overlap} to i64")),
        "{text}"
    );
    assert!(
        text.contains("atomicrmw add ptr addrspace(1) %sl1.alias.counter, i64 1 monotonic"),
        "{text}"
    );
    // Without statistics, nothing of it.
    let (report, _, text) = run_text(MV_COLS, &tuned(true, true));
    assert!(report.kernels[0].alias_paths.is_none());
    assert!(!text.contains("sl1.alias"), "{text}");
}

/// The number of iterations ahead from which `kernel`'s check runs (the
/// constant its guard compares with, `tuning::alias_check_trips`), and the
/// instructions of the check behind the guard.
fn guard_of(text: &str, kernel: &str) -> (u64, usize) {
    let body = text
        .split(&format!("@{kernel}("))
        .nth(1)
        .and_then(|t| t.split("\n}\n").next())
        .unwrap_or_else(|| panic!("no kernel {kernel} in {text}"));
    let guard = body
        .lines()
        .find(|l| l.contains("%sl1.check.short = icmp"))
        .unwrap_or_else(|| panic!("no guard in {kernel}: {body}"));
    let ranges = body
        .split("sl1.check.ranges:")
        .nth(1)
        .and_then(|b| b.split("\n\n").next())
        .expect("the ranges' block");
    assert!(ranges.contains("%found.conflict"), "{body}");
    let check = ranges
        .lines()
        .skip(1)
        .filter(|l| !l.contains(" br "))
        .count();
    let trips = guard.rsplit(", ").next().unwrap().trim().parse().unwrap();
    (trips, check)
}

/// Loads and stores in the block labelled `label` of `kernel`.
fn accesses_in(text: &str, kernel: &str, label: &str) -> usize {
    let body = text.split(&format!("@{kernel}(")).nth(1).unwrap();
    let block = body
        .split(&format!("\n{label}:"))
        .nth(1)
        .and_then(|b| b.split("\n\n").next())
        .unwrap_or_else(|| panic!("no block {label} in {kernel}"));
    block
        .lines()
        .filter(|l| l.contains(" = load ") || l.trim_start().starts_with("store "))
        .count()
}

/// The check's arithmetic (each range's ends from the trip count) runs
/// every time the loop is entered: behind a test of the iterations ahead,
/// it runs where the loop has an iteration per check instruction, divided
/// by the accesses per iteration the copy saves (at least one):
/// `mv_rows`'s copy keeps its sum in a register (a store fewer),
/// `copy_rows`'s saves nothing. Before the guard, a one-iteration loop ran
/// the whole check (HeCBench's unfold backward kernel, 1.83x slower than
/// without checks, H200, 2026-11-30).
#[test]
fn the_check_runs_only_for_loops_long_enough_to_repay_it() {
    let (_, _, text) = run(&tuned(true, false));
    for (kernel, saves) in [("mv_rows", 1), ("copy_rows", 0)] {
        let saved =
            accesses_in(&text, kernel, "loop.lver.orig") - accesses_in(&text, kernel, "loop");
        assert_eq!(saved, saves, "{kernel}");
        let (trips, check) = guard_of(&text, kernel);
        assert!(check > 1, "{kernel}");
        assert_eq!(
            trips as usize,
            check.div_ceil(saved.max(1)),
            "{kernel}: {text}"
        );
    }
}

/// A loop of three iterations never runs its check. Its start and end
/// are constants, and so is the guard: true, to the original (a
/// constant guard once failed the pass: it read a compare that the
/// builder had folded).
#[test]
fn a_loop_too_short_to_repay_its_check_takes_the_original() {
    let three = kernels().replace("icmp eq i64 %jn, %cols", "icmp eq i64 %j, 2");
    let (_, _, text) = run_text(&three, &tuned(true, false));
    let guards: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(", label %sl1.check.ranges"))
        .collect();
    assert_eq!(guards.len(), 3, "{text}");
    for g in guards {
        assert!(
            g.trim().starts_with("br i1 true, label %loop.ph.lver.orig"),
            "{g}"
        );
    }
}

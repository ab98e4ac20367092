//! Run-time alias checks (`tuning::check_aliases`): a loop over arguments
//! without restrict gets a copy, behind a test that the ranges it touches
//! are apart, in which the sum it keeps in memory stays in a register; and
//! the pass reports the module changed wherever the versioning looked at a
//! kernel (its loop adaptor adds preheaders: reported unchanged, clang's
//! later passes kept stale loop analyses and crashed, 2026-11-28).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use sl1_pass::transform::Reason;
use sl1_pass::{run_on_module, Options, Report};

/// `y[i] += a[i][j] * x[j]` (the sum forwarded, stored every iteration, as
/// clang leaves it without restrict), and a row copy with nothing that
/// stays put; each loop's header is entered from a conditional branch, so
/// it has no preheader of its own.
const KERNELS: &str = r#"
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

define ptx_kernel void @copy_rows(ptr %in, ptr %out, i64 %cols) {
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
  %v = load i32, ptr %ip, align 4
  %op = getelementptr inbounds i32, ptr %out, i64 %k
  store i32 %v, ptr %op, align 4
  %jn = add nuw i64 %j, 1
  %done = icmp eq i64 %jn, %cols
  br i1 %done, label %exit, label %loop
exit:
  ret void
}
"#;

/// The pass's report on [`KERNELS`] under `options`, and whether the
/// module's text changed.
fn run(options: &Options) -> (Report, bool, String) {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(KERNELS.as_bytes(), "alias_checks");
    let module = context.create_module_from_ir(buffer).unwrap();
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
    assert_eq!(
        report.device_tuning.as_ref().unwrap().alias_checked_loops,
        1
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
        report.device_tuning.as_ref().unwrap().alias_checked_loops,
        0
    );
    let mv = report.kernels.iter().find(|k| k.name == "mv_rows").unwrap();
    assert_eq!(mv.loops.iter().filter(|l| l.main_loop).count(), 1);
    assert!(!text.contains("lver.check"));
}

#[test]
fn a_module_the_checks_changed_is_reported_changed() {
    // S-L1 off: only the device rewrites change the module. `copy_rows`
    // has nothing to version, yet its loop gets a preheader.
    let (report, changed, _) = run(&tuned(true, false));
    assert!(changed);
    assert!(
        report.transformed,
        "the module changed, the report says not"
    );
    let (report, changed, _) = run(&tuned(false, false));
    assert_eq!(report.transformed, changed);
}

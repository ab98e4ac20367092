//! The pass's two stages, in the order a device compile meets them; both
//! front ends call these, the plugin from its LLVM passes at the
//! optimizer's extension points (`plugin/register.cpp`), the driver's
//! in-memory build around its `default<On>` (`driver/src/build_ir.rs`):
//!
//! 1. `run_on_module`, before LLVM's optimizer: every kernel analysed,
//!    transformed all or nothing, its loops merged where it is left as it
//!    was, switches made selects, the module verified, and the report;
//! 2. LLVM's optimizer;
//! 3. `run_late`, after it, before code generation: the late device
//!    rewrites (`tuning::LATE_REWRITES`) and the workarounds of ptxas's
//!    and NVPTX's bugs (`ptxas_bugs`, `nvptx_bugs`).

use inkwell::module::Module;

use crate::error::Error;
use crate::llvm::{build, ir};
use crate::options::Options;
use crate::report::{self, Report};
use crate::tuning::{Rewrite, RewriteCounts};
use crate::{analysis, nvptx_bugs, ptxas_bugs, transform, tuning};

/// Analyses every kernel of a device module and reports what it found.
pub fn run_on_module(module: &Module<'_>, options: &Options) -> Result<Report, Error> {
    options.validate()?;
    // Before LLVM optimises what the pass leaves (the optimizer runs after
    // it in the same pipeline).
    crate::llvm::miscompiles::avoid_llvm_miscompiles();
    if !analysis::is_device_module(module) {
        return Err(Error::NotDeviceModule {
            triple: ir::target_triple(module),
        });
    }
    // Before the analyses, which then see each checked copy as a loop of
    // its own.
    let alias_checks = if options.device_tuning && options.alias_checks {
        tuning::check_aliases(module, options.stats)
    } else {
        tuning::AliasChecks::default()
    };
    // Before the analyses too: the loads it forwards are no longer
    // accesses for the transform to route.
    let forwarded = if options.device_tuning && options.transform {
        tuning::forward_stores(module)
    } else {
        0
    };
    let mut kernels = Vec::new();
    let mut merging = tuning::Merging::default();
    let mut bodies_restored = false;
    for f in analysis::find_kernels(module) {
        let mut kernel = report::kernel_report(&analysis::analyse_kernel(module, f));
        let (transform, restored) = transform_all_or_nothing(module, f, options);
        kernel.transform = transform;
        bodies_restored |= restored;
        if options.device_tuning && options.loop_merging && !kernel.transform.applied {
            bodies_restored |= !merge_loops(module, f, options, &mut merging);
        }
        if options.stats && alias_checks.loops > 0 {
            kernel.alias_paths = tuning::count_alias_paths(module, f);
        }
        kernels.push(kernel);
    }
    let device_rewrites = options.device_tuning.then(|| {
        let mut counts = tuning::RewriteCounts::default();
        counts[Rewrite::AliasChecks] = alias_checks.loops;
        counts[Rewrite::ForwardedStores] = forwarded;
        counts[Rewrite::SwitchSelects] = tuning::select_switches(module);
        if options.counted_trips {
            counts[Rewrite::CountedTrips] = tuning::count_trips(module);
        }
        // After the S-L1 transform and the merge (whose loops it leaves to
        // LLVM), before LLVM's unroller reads the counts.
        if options.strided_unroll {
            counts[Rewrite::UnrolledStrides] = tuning::unroll_strided_loops(module);
        }
        tuning::RewriteReport {
            counts,
            merged_loops: merging.merged,
            kept_nested: merging.kept,
        }
    });
    if let Err(message) = module.verify() {
        return Err(Error::Broken {
            message: message.to_string(),
        });
    }
    Ok(Report {
        source: module_source_name(module),
        target: ir::target_triple(module),
        options: options.clone(),
        transformed: device_rewrites.as_ref().is_some_and(|t| {
            t.count(Rewrite::SwitchSelects) > 0
                || t.count(Rewrite::CountedTrips) > 0
                || t.count(Rewrite::UnrolledStrides) > 0
                || !t.merged_loops.is_empty()
        }) || alias_checks.kernels > 0
            || forwarded > 0
            || kernels
                .iter()
                .any(|k| k.transform.applied || !k.transform.warp_ranges.is_empty()),
        device_rewrites,
        kernels,
        bodies_restored,
    })
}

/// The step of `run_late` after which the module failed the verifier, with
/// the verifier's message.
#[derive(Debug)]
pub enum LateError {
    /// The late device rewrites (a bug in one of them).
    Rewrites(String),
    /// The workarounds of ptxas's and NVPTX's bugs (a bug in one of them).
    ToolchainWorkarounds(String),
}

impl LateError {
    /// The message a front end gives, with how its users build without
    /// the device rewrites (`rewrites_off`: the flag, in its spelling).
    pub fn message(&self, rewrites_off: &str) -> String {
        match self {
            LateError::Rewrites(message) => format!(
                "the tuned module fails the LLVM verifier (a bug in S-L1's device rewrites; \
                 {rewrites_off} builds without them): {}",
                message.trim()
            ),
            LateError::ToolchainWorkarounds(message) => format!(
                "the module fails the LLVM verifier after S-L1's workarounds of ptxas's and \
                 NVPTX's bugs (a bug in S-L1): {}",
                message.trim()
            ),
        }
    }
}

/// The stage after LLVM's optimizer, before code generation, on a device
/// module: with `options.device_tuning` the late device rewrites
/// (`tuning::LATE_REWRITES`, their counts added to `counts`), then in every
/// build the workarounds of ptxas's and NVPTX's bugs (`ptxas_bugs`,
/// `nvptx_bugs`); the module verified after each. Returns whether the module changed.
pub fn run_late(
    module: &Module<'_>,
    options: &Options,
    counts: &mut RewriteCounts,
) -> Result<bool, LateError> {
    let mut changed = false;
    if options.device_tuning {
        let mut late = RewriteCounts::default();
        changed |= tuning::run_late_rewrites(module, options, &mut late);
        counts.absorb(&late);
        if let Err(message) = module.verify() {
            return Err(LateError::Rewrites(message.to_string()));
        }
    }
    changed |= ptxas_bugs::keep_float_bits_out_of_narrow_stores(module) > 0;
    changed |= nvptx_bugs::keep_atomic_loads_coherent(module) > 0;
    if let Err(message) = module.verify() {
        return Err(LateError::ToolchainWorkarounds(message.to_string()));
    }
    Ok(changed)
}

/// Merges `kernel`'s divergent inner loops into their top-level loops
/// (`tuning::merge_divergent_loops`); a failed merge leaves the kernel as it
/// was (its body restored: returns false) and is reported among the loops
/// kept nested.
fn merge_loops(
    module: &Module<'_>,
    kernel: inkwell::values::FunctionValue<'_>,
    options: &Options,
    merging: &mut tuning::Merging,
) -> bool {
    match tuning::merge_divergent_loops(module, kernel, failure_requested(options, kernel)) {
        Ok(done) => {
            merging.merged.extend(done.merged);
            merging.kept.extend(done.kept);
            true
        }
        Err(reason) => {
            merging.kept.push(tuning::KeptLoop {
                kernel: report_name(kernel),
                outer: String::new(),
                reason,
                failed: true,
            });
            false
        }
    }
}

/// Whether a test asked the transform and the merge to fail in `kernel`
/// (`Options::fail_kernel_for_testing`).
fn failure_requested(options: &Options, kernel: inkwell::values::FunctionValue<'_>) -> bool {
    options.fail_kernel_for_testing.as_deref() == Some(report_name(kernel).as_str())
}

/// Transforms one kernel, or leaves it exactly as it was: a panic in the
/// transform or a body the verifier rejects puts back the copy taken before
/// (and drops the globals the attempt added), and the report says why.
/// Also returns whether the body was put back.
fn transform_all_or_nothing<'ctx>(
    module: &Module<'ctx>,
    kernel: inkwell::values::FunctionValue<'ctx>,
    options: &Options,
) -> (transform::TransformReport, bool) {
    use inkwell::values::BasicValue;
    if !options.transform {
        // Nothing to undo: the transform only reports.
        return (transform::transform_kernel(module, kernel, options), false);
    }
    let globals_before: Vec<_> = module.get_globals().collect();
    let attempt = ir::Function::of(module, kernel).all_or_nothing(|| {
        // Before the transform's analyses: the copies are loops of their
        // own that run no line, and the loops they copy keep theirs.
        let warp_ranges = if options.warp_ranges && !options.force_uncached {
            transform::add_warp_ranges(module, kernel)
        } else {
            Default::default()
        };
        let mut report = transform::transform_kernel(module, kernel, options);
        report.warp_ranges = warp_ranges.made;
        report.warp_ranges_refused = warp_ranges.refused;
        if failure_requested(options, kernel) {
            panic!("failure requested for kernel `{}`", report_name(kernel));
        }
        report
    });
    let why = match attempt {
        Ok(report) => {
            if report.applied {
                transform::declare_block_size(module, kernel, report.max_threads);
            }
            return (report, false);
        }
        Err(why) => why,
    };
    for global in module.get_globals() {
        let new = !globals_before.contains(&global);
        if new && global.as_pointer_value().get_first_use().is_none() {
            build::delete_global(global);
        }
    }
    let report = transform::TransformReport {
        max_threads: options.max_threads,
        reasons: vec![transform::Reason::InternalError { message: why }],
        ..transform::TransformReport::default()
    };
    (report, true)
}

fn report_name(kernel: inkwell::values::FunctionValue<'_>) -> String {
    kernel.get_name().to_string_lossy().into_owned()
}

/// The file name (without directories) LLVM records as the module's source.
fn module_source_name(module: &Module<'_>) -> String {
    let full = module.get_source_file_name().to_string_lossy().into_owned();
    std::path::Path::new(&full)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or(full)
}

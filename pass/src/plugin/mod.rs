//! The Rust side of the clang plugin `libsl1_pass.so`.
//!
//! clang finds `llvmGetPassPluginInfo`; `register.cpp` adds the pass to the
//! pipeline and calls `sl1_run_on_module` for each module (`llvm/abi.rs`
//! holds those C entry points). Here no panic gets past: every failure
//! becomes an LLVM diagnostic.

use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};

use inkwell::module::Module;

use crate::llvm::diagnostics::{Diagnostics, Severity};

use crate::options::Options;
use crate::panic::panic_message;
use crate::report::{Finding, Report};

/// `Sl1RawOptions` in `register.cpp`.
#[repr(C)]
pub(crate) struct RawOptions {
    pub threshold: u32,
    pub line_size: u32,
    pub max_line_size: u32,
    pub read_only_max_line_size: u32,
    pub max_threads: u32,
    pub disable: bool,
    pub force_uncached: bool,
    pub cache_read_only: bool,
    pub stats: bool,
    pub no_static_prediction: bool,
    pub prefetch: bool,
    pub no_line_runs: bool,
    pub no_line_padding: bool,
    pub no_line_staging: bool,
    pub no_warp_copies: bool,
    pub no_full_runs: bool,
    pub device_tuning: bool,
    pub no_loop_merging: bool,
    pub panic_for_testing: bool,
    pub(crate) report_path: *const c_char,
    pub shared_budget: u64,
    pub line_sizes_given: bool,
    pub shared_budget_given: bool,
    pub dynamic_shared: u64,
    pub dynamic_shared_given: bool,
    pub(crate) gpu_profile: *const c_char,
    pub launch_sized: bool,
    pub(crate) launch_report: *const c_char,
}

/// The paths among the raw options, copied out of C++'s strings.
pub(crate) struct OptionPaths {
    pub report: Option<String>,
    pub gpu_profile: Option<String>,
    pub launch_report: Option<String>,
}

/// Remarks: what was done for `-Rpass=sl1`, what was left and why for
/// `-Rpass-missed=sl1`, every finding for `-Rpass-analysis=sl1`.
fn emit_remarks(diagnostics: Diagnostics, report: &Report) {
    for k in &report.kernels {
        for entry in k.summary_entries() {
            let severity = match entry.finding {
                Finding::Done => Severity::Remark,
                Finding::Missed => Severity::Missed,
                Finding::Analysis => Severity::Analysis,
            };
            diagnostics.emit(
                severity,
                Some(&k.name),
                &entry.text,
                entry.loop_header.as_deref(),
            );
        }
    }
}

fn write_report(path: &str, report: &Report) -> Result<(), String> {
    let json = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    std::fs::write(path, json + "\n").map_err(|e| format!("cannot write report `{path}`: {e}"))
}

/// Runs the pass on one module. Returns 1 when the module changed, 0 when not,
/// -1 after reporting an error.
pub(crate) fn run_on_module(
    view: &Module<'_>,
    diagnostics: Diagnostics,
    raw: &RawOptions,
    paths: OptionPaths,
) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if !crate::analysis::is_device_module(view) {
            let Some(path) = &paths.launch_report else {
                return Ok(false);
            };
            return size_host_launches(diagnostics, view, path);
        }
        if raw.panic_for_testing {
            panic!("panic requested by -sl1-panic-for-testing");
        }
        let mut options = Options {
            threshold: raw.threshold,
            line_size: raw.line_size,
            max_line_size: raw.max_line_size,
            read_only_max_line_size: raw.read_only_max_line_size,
            transform: !raw.disable,
            max_threads: raw.max_threads,
            force_uncached: raw.force_uncached,
            cache_read_only: raw.cache_read_only,
            stats: raw.stats,
            static_prediction: !raw.no_static_prediction,
            prefetch: raw.prefetch,
            line_runs: !raw.no_line_runs,
            line_padding: !raw.no_line_padding,
            line_staging: !raw.no_line_staging,
            warp_copies: !raw.no_warp_copies,
            full_runs: !raw.no_full_runs,
            device_tuning: raw.device_tuning,
            loop_merging: !raw.no_loop_merging,
            shared_budget: raw.shared_budget,
            dynamic_shared: raw.dynamic_shared_given.then_some(raw.dynamic_shared),
            launch_sized: raw.launch_sized,
            gpu_profile: None,
            fail_kernel_for_testing: None,
        };
        if let Some(path) = &paths.gpu_profile {
            let path = std::path::Path::new(path);
            let profile = crate::profile::read_profile(path).map_err(|e| e.to_string())?;
            let given = crate::profile::Given {
                line_sizes: raw.line_sizes_given,
                shared_budget: raw.shared_budget_given,
            };
            options.apply_profile(path, &profile, given);
        }
        let report = crate::pipeline::run_on_module(view, &options).map_err(|e| e.to_string())?;
        if let Some(path) = &paths.report {
            write_report(path, &report)?;
        }
        emit_remarks(diagnostics, &report);
        // A restored body is the same code in new blocks: LLVM must drop
        // what it cached about the old ones.
        Ok(report.transformed || report.bodies_restored)
    }));
    finish(diagnostics, result)
}

/// The host compile's part of launch-sized line buffers: the launches of
/// the kernels the device compile's report (`path`) gave one get its bytes.
fn size_host_launches(
    diagnostics: Diagnostics,
    view: &Module<'_>,
    path: &str,
) -> Result<bool, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read the device report `{path}` (-sl1-launch-report): {e}"))?;
    let report: Report = serde_json::from_str(&text).map_err(|e| {
        format!("the device report `{path}` (-sl1-launch-report) is not valid: {e}")
    })?;
    let done = crate::launch::size_launches(view, &crate::launch::launch_bytes(&report));
    for why in &done.skipped {
        diagnostics.emit(
            Severity::Warning,
            None,
            &format!("a launch left without its line buffer's bytes (it caches nothing): {why}"),
            None,
        );
    }
    Ok(!done.sized.is_empty())
}

/// Turns what a guarded entry point returned into its result code, reporting
/// errors and caught panics as LLVM diagnostics.
fn finish(diagnostics: Diagnostics, result: std::thread::Result<Result<bool, String>>) -> c_int {
    match result {
        Ok(Ok(changed)) => c_int::from(changed),
        Ok(Err(message)) => {
            diagnostics.emit(Severity::Error, None, &message, None);
            -1
        }
        Err(payload) => {
            diagnostics.emit(
                Severity::Error,
                None,
                &format!(
                    "internal error, the module was left unchanged: {}; please report it \
                     (-mllvm -sl1-disable skips the transform)",
                    panic_message(payload.as_ref())
                ),
                None,
            );
            -1
        }
    }
}

/// The late device tuning (`tuning::freeze_divisions`), after LLVM's
/// optimizer. Adds what it did to the report the early pass wrote at
/// `report_path`. Returns as `run_on_module`.
pub(crate) fn tune_late(
    view: &Module<'_>,
    diagnostics: Diagnostics,
    report_path: Option<String>,
) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if !crate::analysis::is_device_module(view) {
            return Ok(false);
        }
        let frozen = crate::tuning::freeze_divisions(view);
        if let Err(message) = view.verify() {
            return Err(format!(
                "the tuned module fails the LLVM verifier (a bug in S-L1's device tuning; \
                 the driver's --no-device-tuning avoids it): {message}"
            ));
        }
        if let Some(path) = &report_path {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read report `{path}`: {e}"))?;
            let mut report: Report = serde_json::from_str(&text)
                .map_err(|e| format!("report `{path}` is not valid: {e}"))?;
            report
                .device_tuning
                .get_or_insert_default()
                .frozen_divisions = frozen;
            report.transformed |= frozen > 0;
            write_report(path, &report)?;
        }
        Ok(frozen > 0)
    }));
    finish(diagnostics, result)
}

//! The Rust side of the clang plugin `libsl1_pass.so`.
//!
//! clang finds `llvmGetPassPluginInfo`; `register.cpp` adds one LLVM pass
//! at each of the optimizer's two extension points, which call
//! `sl1_run_on_module` and `sl1_run_late` for each module (`llvm/abi.rs`
//! holds those C entry points); the stages and their order are
//! `pipeline`'s. Here no panic gets past: every failure
//! becomes an LLVM diagnostic.

use std::ffi::c_int;
use std::panic::{catch_unwind, AssertUnwindSafe};

use inkwell::module::Module;

use crate::llvm::diagnostics::{Diagnostics, Severity};

use crate::panic::panic_message;
use crate::report::{Finding, Report};
use sl1_core::option_list::{Hint, PluginSettings, DEVICE_LLVM_OPTIONS};

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
                &entry.with_hint(Hint::plugin_flag),
                entry.loop_header.as_deref(),
            );
        }
    }
}

fn write_report(path: &str, report: &Report) -> Result<(), String> {
    let json = serde_json::to_string_pretty(report).map_err(|e| e.to_string())?;
    std::fs::write(path, json + "\n").map_err(|e| format!("cannot write report `{path}`: {e}"))
}

/// Runs the pass on one module with the options `given` names (one
/// `NAME=VALUE` line each, `sl1_core::option_list`). Returns 1 when the
/// module changed, 0 when not, -1 after reporting an error.
pub(crate) fn run_on_module(view: &Module<'_>, diagnostics: Diagnostics, given: &str) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        let settings = PluginSettings::parse(given).map_err(|e| e.to_string())?;
        if !crate::analysis::is_device_module(view) {
            let Some(path) = &settings.launch_report else {
                return Ok(false);
            };
            return size_host_launches(diagnostics, view, path);
        }
        if settings.panic_for_testing {
            panic!("panic requested by -sl1-panic-for-testing");
        }
        // The driver's defaults, where the command line left them.
        if !settings.jump_tables {
            crate::llvm::ir::forbid_jump_tables(view);
        }
        if settings.options.device_tuning {
            crate::llvm::options::default_options(DEVICE_LLVM_OPTIONS);
        }
        let report =
            crate::pipeline::run_on_module(view, &settings.options).map_err(|e| e.to_string())?;
        if let Some(path) = &settings.report {
            write_report(path, &report)?;
        }
        emit_remarks(diagnostics, &report);
        // Never silently nothing: an unoptimised device compile is a
        // warning, once.
        if report.kernels.iter().any(|k| {
            k.transform
                .reasons
                .contains(&crate::transform::Reason::Unoptimized)
        }) {
            diagnostics.emit(
                Severity::Warning,
                None,
                &crate::transform::Reason::Unoptimized.to_string(),
                None,
            );
        }
        // A restored body is the same code in new blocks: LLVM must drop
        // what it cached about the old ones.
        Ok(report.transformed || report.bodies_restored)
    }));
    finish(diagnostics, result)
}

/// The host compile's part of S-L1 (`launch`): the launches of the kernels
/// the device compile's report (`path`) gave lines ask for their carveout,
/// and those of launch-sized buffers give them their bytes.
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
    let done = crate::launch::size_launches(view, &crate::launch::host_kernels(&report));
    for why in &done.skipped {
        diagnostics.emit(
            Severity::Warning,
            None,
            &format!("a launch of a kernel with lines left as it was: {why}"),
            None,
        );
    }
    Ok(!done.sized.is_empty() || !done.carveouts.is_empty())
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

/// The stage after LLVM's optimizer (`pipeline::run_late`: the late device
/// rewrites with `-sl1-device-tuning`, the ptxas workaround in every build)
/// on a device module, with the options `given` names. Adds what the
/// rewrites did to the report the early pass wrote (`-sl1-report`).
/// Returns as `run_on_module`.
pub(crate) fn run_late(view: &Module<'_>, diagnostics: Diagnostics, given: &str) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        if !crate::analysis::is_device_module(view) {
            return Ok(false);
        }
        let settings = PluginSettings::parse(given).map_err(|e| e.to_string())?;
        let mut counts = crate::tuning::RewriteCounts::default();
        let changed = crate::pipeline::run_late(view, &settings.options, &mut counts)
            .map_err(|e| e.message("-mllvm -sl1-device-tuning=false"))?;
        if let (true, Some(path)) = (settings.options.device_tuning, &settings.report) {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read report `{path}`: {e}"))?;
            let mut report: Report = serde_json::from_str(&text)
                .map_err(|e| format!("report `{path}` is not valid: {e}"))?;
            report
                .device_rewrites
                .get_or_insert_default()
                .counts
                .absorb(&counts);
            report.transformed |= counts.total() > 0;
            write_report(path, &report)?;
        }
        Ok(changed)
    }));
    finish(diagnostics, result)
}

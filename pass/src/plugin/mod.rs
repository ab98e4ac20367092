//! The Rust side of the clang plugin `libsl1_pass.so`.
//!
//! clang finds `llvmGetPassPluginInfo`; `register.cpp` adds the pass to the
//! pipeline and calls `sl1_run_on_module` for each module. This is the FFI
//! boundary: no panic crosses it, every failure becomes an LLVM diagnostic.

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::mem::ManuallyDrop;
use std::panic::{catch_unwind, AssertUnwindSafe};

use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::module::Module;

use crate::options::Options;
use crate::panic::panic_message;
use crate::report::{Finding, Report};

/// `llvm::PassPluginLibraryInfo`: plugin API version 2 (LLVM 22) has a
/// pre-codegen callback after the registration, version 1 (LLVM 19) ends
/// there. clang takes it by value, so its size must be the version's.
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_builder_callbacks: unsafe extern "C" fn(*mut c_void),
    #[cfg(feature = "llvm22")]
    pre_codegen_callback: *const c_void,
}

/// `Sl1RawOptions` in `register.cpp`.
#[repr(C)]
pub struct RawOptions {
    threshold: u32,
    line_size: u32,
    max_line_size: u32,
    read_only_max_line_size: u32,
    max_threads: u32,
    disable: bool,
    force_uncached: bool,
    cache_read_only: bool,
    stats: bool,
    no_static_prediction: bool,
    prefetch: bool,
    no_line_runs: bool,
    no_line_padding: bool,
    no_line_staging: bool,
    no_warp_copies: bool,
    no_full_runs: bool,
    device_tuning: bool,
    no_loop_merging: bool,
    panic_for_testing: bool,
    report_path: *const c_char,
    shared_budget: u64,
    line_sizes_given: bool,
    shared_budget_given: bool,
    dynamic_shared: u64,
    dynamic_shared_given: bool,
    gpu_profile: *const c_char,
    launch_sized: bool,
    launch_report: *const c_char,
}

/// Severity codes understood by `sl1_emit_diagnostic`.
#[derive(Clone, Copy)]
#[repr(C)]
enum Severity {
    Error = 0,
    Warning = 1,
    Remark = 2,
    Missed = 3,
    Analysis = 4,
}

extern "C" {
    fn sl1_register_pass_builder_callbacks(pass_builder: *mut c_void);
    fn sl1_emit_diagnostic(
        module: LLVMModuleRef,
        severity: c_int,
        kernel: *const c_char,
        message: *const c_char,
        loop_header: *const c_char,
    );
}

const PLUGIN_API_VERSION: u32 = if cfg!(feature = "llvm19") { 1 } else { 2 };

/// The symbol clang's `-fpass-plugin` and opt's `-load-pass-plugin` look up.
#[no_mangle]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    PassPluginLibraryInfo {
        api_version: PLUGIN_API_VERSION,
        plugin_name: c"sl1".as_ptr(),
        plugin_version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr() as *const c_char,
        register_pass_builder_callbacks: sl1_register_pass_builder_callbacks,
        #[cfg(feature = "llvm22")]
        pre_codegen_callback: std::ptr::null(),
    }
}

/// Emits `message` about `kernel`, at the source location of its loop
/// `loop_header` where the module has debug information.
fn emit(
    module: LLVMModuleRef,
    severity: Severity,
    kernel: Option<&str>,
    message: &str,
    loop_header: Option<&str>,
) {
    let message = CString::new(message.replace('\0', " ")).expect("no NUL left");
    let kernel = kernel.map(|k| CString::new(k).unwrap_or_default());
    let loop_header = loop_header.map(|h| CString::new(h).unwrap_or_default());
    // SAFETY: the module is the live module the pass was called with; strings
    // outlive the call.
    unsafe {
        sl1_emit_diagnostic(
            module,
            severity as c_int,
            kernel.as_ref().map_or(std::ptr::null(), |k| k.as_ptr()),
            message.as_ptr(),
            loop_header
                .as_ref()
                .map_or(std::ptr::null(), |h| h.as_ptr()),
        )
    }
}

/// Remarks: what was done for `-Rpass=sl1`, what was left and why for
/// `-Rpass-missed=sl1`, every finding for `-Rpass-analysis=sl1`.
fn emit_remarks(module: LLVMModuleRef, report: &Report) {
    for k in &report.kernels {
        for entry in k.summary_entries() {
            let severity = match entry.finding {
                Finding::Done => Severity::Remark,
                Finding::Missed => Severity::Missed,
                Finding::Analysis => Severity::Analysis,
            };
            emit(
                module,
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
///
/// # Safety
/// `module` must be a live module and `options` a valid pointer, as passed by
/// `register.cpp`.
#[no_mangle]
pub unsafe extern "C" fn sl1_run_on_module(
    module: LLVMModuleRef,
    options: *const RawOptions,
) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: caller guarantees both pointers; the module stays owned by
        // LLVM, hence ManuallyDrop.
        let raw = unsafe { &*options };
        let view = ManuallyDrop::new(unsafe { Module::new(module) });
        if !crate::analysis::is_device_module(&view) {
            if raw.launch_report.is_null() {
                return Ok(false);
            }
            // SAFETY: a NUL-terminated string owned by the caller.
            let path = unsafe { CStr::from_ptr(raw.launch_report) }.to_string_lossy();
            return size_host_launches(module, &view, &path);
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
        if !raw.gpu_profile.is_null() {
            // SAFETY: a NUL-terminated string owned by the caller.
            let path = unsafe { CStr::from_ptr(raw.gpu_profile) }.to_string_lossy();
            let path = std::path::Path::new(&*path);
            let profile = crate::profile::read_profile(path).map_err(|e| e.to_string())?;
            let given = crate::profile::Given {
                line_sizes: raw.line_sizes_given,
                shared_budget: raw.shared_budget_given,
            };
            options.apply_profile(path, &profile, given);
        }
        let report = crate::pipeline::run_on_module(&view, &options).map_err(|e| e.to_string())?;
        if !raw.report_path.is_null() {
            // SAFETY: a NUL-terminated string owned by the caller.
            let path = unsafe { CStr::from_ptr(raw.report_path) }.to_string_lossy();
            write_report(&path, &report)?;
        }
        emit_remarks(module, &report);
        // A restored body is the same code in new blocks: LLVM must drop
        // what it cached about the old ones.
        Ok(report.transformed || report.bodies_restored)
    }));
    finish(module, result)
}

/// The host compile's part of launch-sized line buffers: the launches of
/// the kernels the device compile's report (`path`) gave one get its bytes.
fn size_host_launches(
    module: LLVMModuleRef,
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
        emit(
            module,
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
fn finish(module: LLVMModuleRef, result: std::thread::Result<Result<bool, String>>) -> c_int {
    match result {
        Ok(Ok(changed)) => c_int::from(changed),
        Ok(Err(message)) => {
            emit(module, Severity::Error, None, &message, None);
            -1
        }
        Err(payload) => {
            emit(
                module,
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
/// `report_path` (may be null). Returns as `sl1_run_on_module`.
///
/// # Safety
/// `module` must be a live module and `report_path` null or a NUL-terminated
/// string, as passed by `register.cpp`.
#[no_mangle]
pub unsafe extern "C" fn sl1_tune_late(module: LLVMModuleRef, report_path: *const c_char) -> c_int {
    let result = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: as in `sl1_run_on_module`.
        let view = ManuallyDrop::new(unsafe { Module::new(module) });
        if !crate::analysis::is_device_module(&view) {
            return Ok(false);
        }
        let frozen = crate::tuning::freeze_divisions(&view);
        if let Err(message) = view.verify() {
            return Err(format!(
                "the tuned module fails the LLVM verifier (a bug in S-L1's device tuning; \
                 the driver's --no-device-tuning avoids it): {message}"
            ));
        }
        if !report_path.is_null() {
            // SAFETY: a NUL-terminated string owned by the caller.
            let path = unsafe { CStr::from_ptr(report_path) }.to_string_lossy();
            let text = std::fs::read_to_string(&*path)
                .map_err(|e| format!("cannot read report `{path}`: {e}"))?;
            let mut report: Report = serde_json::from_str(&text)
                .map_err(|e| format!("report `{path}` is not valid: {e}"))?;
            report
                .device_tuning
                .get_or_insert_default()
                .frozen_divisions = frozen;
            report.transformed |= frozen > 0;
            write_report(&path, &report)?;
        }
        Ok(frozen > 0)
    }));
    finish(module, result)
}

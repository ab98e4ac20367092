//! The C entry points of the clang plugin `libsl1_pass.so`, which its C++
//! half (`plugin/register.cpp`) calls. They turn the raw pointers C++
//! passes into safe values and hand over to `plugin`, which keeps panics
//! from crossing this boundary. (The one module of `llvm/` that calls up
//! into the crate: it is the crate's top, the plugin's door.)

use std::ffi::{c_char, c_int, c_void, CStr};
use std::mem::ManuallyDrop;

use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::module::Module;

use super::diagnostics::Diagnostics;
use crate::plugin::{OptionPaths, RawOptions};

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

extern "C" {
    fn sl1_register_pass_builder_callbacks(pass_builder: *mut c_void);
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

/// A copy of C string `s`, or `None` for a null pointer.
///
/// SAFETY (for callers): `s` is null or NUL-terminated and live.
unsafe fn copied(s: *const c_char) -> Option<String> {
    (!s.is_null()).then(|| CStr::from_ptr(s).to_string_lossy().into_owned())
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
    // SAFETY: the caller guarantees both pointers and the strings in the
    // options; the module stays owned by LLVM, hence ManuallyDrop.
    let (raw, paths, view) = unsafe {
        let raw = &*options;
        let paths = OptionPaths {
            report: copied(raw.report_path),
            gpu_profile: copied(raw.gpu_profile),
            launch_report: copied(raw.launch_report),
        };
        (raw, paths, ManuallyDrop::new(Module::new(module)))
    };
    crate::plugin::run_on_module(&view, Diagnostics::new(module), raw, paths)
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
    // SAFETY: as in `sl1_run_on_module`.
    let (report_path, view) =
        unsafe { (copied(report_path), ManuallyDrop::new(Module::new(module))) };
    crate::plugin::tune_late(&view, Diagnostics::new(module), report_path)
}

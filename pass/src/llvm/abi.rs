//! The C entry points of the clang plugin `libsl1_pass.so`, which its C++
//! half (`plugin/register.cpp`) calls. They turn the raw pointers C++
//! passes into safe values and hand over to `plugin`, which keeps panics
//! from crossing this boundary. (The one module of `llvm/` that calls up
//! into the crate: it is the crate's top, the plugin's door.)

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::mem::ManuallyDrop;
use std::sync::OnceLock;

use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::module::Module;

use super::diagnostics::Diagnostics;
use sl1_core::option_list::PASS_OPTIONS;

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

/// How many `-sl1-*` options the plugin has (`sl1_core::option_list`).
#[no_mangle]
pub extern "C" fn sl1_option_count() -> u32 {
    PASS_OPTIONS.len() as u32
}

/// The plugin's options as C strings, made once.
fn option_strings() -> &'static [(CString, CString)] {
    static STRINGS: OnceLock<Vec<(CString, CString)>> = OnceLock::new();
    STRINGS.get_or_init(|| {
        PASS_OPTIONS
            .iter()
            .map(|o| {
                let c = |s: &str| CString::new(s).expect("option names and help have no NUL");
                (c(&format!("sl1-{}", o.name)), c(&o.plugin_help()))
            })
            .collect()
    })
}

/// Option `index`'s name (`sl1-NAME`), help, kind, whether `-help` hides
/// it and whether a flag is on when not given; the strings live as long as
/// the plugin.
///
/// # Safety
/// `index` is below `sl1_option_count()` and the out-pointers are valid.
#[no_mangle]
pub unsafe extern "C" fn sl1_option_info(
    index: u32,
    name: *mut *const c_char,
    help: *mut *const c_char,
    kind: *mut u32,
    hidden: *mut bool,
    default_on: *mut bool,
) {
    let option = &PASS_OPTIONS[index as usize];
    let (n, h) = &option_strings()[index as usize];
    // SAFETY: the caller passes valid out-pointers.
    unsafe {
        *name = n.as_ptr();
        *help = h.as_ptr();
        *kind = option.kind as u32;
        *hidden = option.hidden;
        *default_on = option.default_on;
    }
}

/// Runs the pass on one module with the options `given` names (one
/// `NAME=VALUE` line each). Returns 1 when the module changed, 0 when not,
/// -1 after reporting an error.
///
/// # Safety
/// `module` must be a live module and `given` a NUL-terminated string, as
/// passed by `register.cpp`.
#[no_mangle]
pub unsafe extern "C" fn sl1_run_on_module(module: LLVMModuleRef, given: *const c_char) -> c_int {
    // SAFETY: the caller guarantees both pointers; the module stays owned
    // by LLVM, hence ManuallyDrop.
    let (given, view) = unsafe {
        (
            copied(given).unwrap_or_default(),
            ManuallyDrop::new(Module::new(module)),
        )
    };
    crate::plugin::run_on_module(&view, Diagnostics::new(module), &given)
}

/// The stage after LLVM's optimizer (`pipeline::run_late`), last before
/// code generation, in every build of a device module, with the options
/// `given` names (as `sl1_run_on_module`). Returns as `sl1_run_on_module`.
///
/// # Safety
/// As `sl1_run_on_module`.
#[no_mangle]
pub unsafe extern "C" fn sl1_run_late(module: LLVMModuleRef, given: *const c_char) -> c_int {
    // SAFETY: as in `sl1_run_on_module`.
    let (given, view) = unsafe {
        (
            copied(given).unwrap_or_default(),
            ManuallyDrop::new(Module::new(module)),
        )
    };
    crate::plugin::run_late(&view, Diagnostics::new(module), &given)
}

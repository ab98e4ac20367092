//! LLVM's own boolean options, set while a pipeline the pass runs itself
//! runs and put back after (`options.cpp`): they are process-wide, and
//! clang's passes after S-L1 must see what the user chose. One set at a
//! time in a process (the driver builds modules on several threads): a
//! lock is held while they are set. Another thread's LLVM passes running
//! meanwhile see them too; only what is slower, never what is wrong, may
//! hang on that.

use std::ffi::CStr;
use std::sync::{Mutex, MutexGuard};

extern "C" {
    fn sl1_set_bool_option(name: *const std::ffi::c_char, value: bool) -> i32;
    fn sl1_default_option(name: *const std::ffi::c_char, value: *const std::ffi::c_char) -> i32;
}

/// Gives each of LLVM's options `(name, value)` its value for the rest of
/// the process, as if the command line had, where the command line did not
/// name it (the plugin's defaults in a device compile, which is a process
/// of its own); an option this LLVM lacks is left out.
pub fn default_options(options: &[(&str, &str)]) {
    let _held = SETTING
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    for (name, value) in options {
        let (Ok(name), Ok(value)) = (
            std::ffi::CString::new(*name),
            std::ffi::CString::new(*value),
        ) else {
            continue;
        };
        // SAFETY: two NUL-terminated strings; the shim parses the value as
        // the option's own command-line value.
        unsafe { sl1_default_option(name.as_ptr(), value.as_ptr()) };
    }
}

/// Held while options are set.
static SETTING: Mutex<()> = Mutex::new(());

/// LLVM `cl::opt<bool>`s set to values until dropped.
pub struct BoolOptionsSet {
    /// Each option set, with the value it had.
    before: Vec<(&'static CStr, bool)>,
    _held: MutexGuard<'static, ()>,
}

impl BoolOptionsSet {
    /// Sets each `(name, value)`, whose option LLVM must declare as
    /// `cl::opt<bool>`; an option this LLVM lacks is left out.
    pub fn new(options: &[(&'static CStr, bool)]) -> BoolOptionsSet {
        let held = SETTING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let before = options
            .iter()
            .filter_map(|&(name, value)| {
                // SAFETY: `name` is a NUL-terminated string; the shim sets
                // only a registered option of that name, which callers know
                // to be a bool.
                let before = unsafe { sl1_set_bool_option(name.as_ptr(), value) };
                (before >= 0).then_some((name, before == 1))
            })
            .collect();
        BoolOptionsSet {
            before,
            _held: held,
        }
    }
}

impl Drop for BoolOptionsSet {
    fn drop(&mut self) {
        for &(name, before) in self.before.iter().rev() {
            // SAFETY: as in `new`: the same registered bool option.
            unsafe { sl1_set_bool_option(name.as_ptr(), before) };
        }
    }
}

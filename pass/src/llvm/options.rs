//! LLVM's own boolean and unsigned options, set while a pipeline the pass runs itself
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
    fn sl1_set_unsigned_option(name: *const std::ffi::c_char, value: u32) -> i64;
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

/// The value of one of LLVM's options, of the type LLVM declares it with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionValue {
    /// A `cl::opt<bool>`.
    Bool(bool),
    /// A `cl::opt<unsigned>`.
    Unsigned(u32),
}

/// Sets option `name` to `value`; returns its value before, or `None`
/// where this LLVM lacks it.
fn set_option(name: &CStr, value: OptionValue) -> Option<OptionValue> {
    match value {
        OptionValue::Bool(value) => {
            // SAFETY: `name` is a NUL-terminated string; the shim sets only
            // a registered option of that name, which callers know to be a
            // bool.
            let before = unsafe { sl1_set_bool_option(name.as_ptr(), value) };
            (before >= 0).then_some(OptionValue::Bool(before == 1))
        }
        OptionValue::Unsigned(value) => {
            // SAFETY: as above, for an option callers know to be unsigned.
            let before = unsafe { sl1_set_unsigned_option(name.as_ptr(), value) };
            u32::try_from(before).ok().map(OptionValue::Unsigned)
        }
    }
}

/// LLVM options set to values until dropped.
pub struct OptionsSet {
    /// Each option set, with the value it had.
    before: Vec<(&'static CStr, OptionValue)>,
    _held: MutexGuard<'static, ()>,
}

impl OptionsSet {
    /// Sets each `(name, value)`, whose option LLVM must declare with the
    /// value's type; an option this LLVM lacks is left out.
    pub fn new(options: &[(&'static CStr, OptionValue)]) -> OptionsSet {
        let held = SETTING
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        let before = options
            .iter()
            .filter_map(|&(name, value)| set_option(name, value).map(|before| (name, before)))
            .collect();
        OptionsSet {
            before,
            _held: held,
        }
    }
}

impl Drop for OptionsSet {
    fn drop(&mut self) {
        for &(name, before) in self.before.iter().rev() {
            set_option(name, before);
        }
    }
}

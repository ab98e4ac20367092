//! LLVM's own boolean options, set while a pipeline the pass runs itself
//! runs and put back after (`options.cpp`): they are process-wide, and
//! clang's passes after S-L1 must see what the user chose.

use std::ffi::CStr;

extern "C" {
    fn sl1_set_bool_option(name: *const std::ffi::c_char, value: bool) -> i32;
}

/// An LLVM `cl::opt<bool>` set to a value until dropped.
pub struct BoolOptionSet {
    name: &'static CStr,
    before: Option<bool>,
}

impl BoolOptionSet {
    /// Sets `name`, which LLVM must declare as `cl::opt<bool>`, to `value`;
    /// nothing when this LLVM has no such option.
    pub fn new(name: &'static CStr, value: bool) -> BoolOptionSet {
        // SAFETY: `name` is a NUL-terminated string; the shim sets only a
        // registered option of that name, which callers know to be a bool.
        let before = unsafe { sl1_set_bool_option(name.as_ptr(), value) };
        BoolOptionSet {
            name,
            before: (before >= 0).then_some(before == 1),
        }
    }
}

impl Drop for BoolOptionSet {
    fn drop(&mut self) {
        if let Some(before) = self.before {
            // SAFETY: as in `new`: the same registered bool option.
            unsafe { sl1_set_bool_option(self.name.as_ptr(), before) };
        }
    }
}

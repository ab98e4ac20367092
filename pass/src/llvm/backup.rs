//! A kernel's body saved before a transform (`kernel_backup.cpp`) and put
//! back when the transform panics or leaves IR the verifier rejects.

use inkwell::llvm_sys::prelude::*;

extern "C" {
    fn sl1_backup_function(function: LLVMValueRef) -> LLVMValueRef;
    fn sl1_discard_backup(copy: LLVMValueRef);
    fn sl1_restore_backup(function: LLVMValueRef, copy: LLVMValueRef);
    fn sl1_verify_function(function: LLVMValueRef, out: *mut std::ffi::c_char, size: u32) -> bool;
}

/// A copy of a function's body (`kernel_backup.cpp`), to put back when a
/// transform of it fails. Dropping it without `restore` discards it.
pub struct Backup {
    function: LLVMValueRef,
    copy: LLVMValueRef,
}

impl Backup {
    pub fn take(function: LLVMValueRef) -> Backup {
        // SAFETY: `function` is a live function with a body.
        let copy = unsafe { sl1_backup_function(function) };
        Backup { function, copy }
    }

    /// Puts the saved body back in place of the current one.
    pub fn restore(self) {
        let me = std::mem::ManuallyDrop::new(self);
        // SAFETY: both are live functions of one module with one type; the
        // copy is consumed.
        unsafe { sl1_restore_backup(me.function, me.copy) }
    }
}

impl Drop for Backup {
    fn drop(&mut self) {
        // SAFETY: the copy is live and unused (a private clone).
        unsafe { sl1_discard_backup(self.copy) }
    }
}

/// The verifier's first complaint about `function`, if any.
pub fn verify_function(function: LLVMValueRef) -> Result<(), String> {
    let mut buffer = vec![0 as std::ffi::c_char; 4096];
    // SAFETY: `function` is live; the buffer's size is passed.
    let ok = unsafe { sl1_verify_function(function, buffer.as_mut_ptr(), buffer.len() as u32) };
    if ok {
        return Ok(());
    }
    // SAFETY: the callee NUL-terminated the buffer.
    let message = unsafe { std::ffi::CStr::from_ptr(buffer.as_ptr()) };
    Err(message.to_string_lossy().trim().to_string())
}

/// Runs `change` on `function` and keeps it only when it neither panics nor
/// leaves a body the verifier rejects; otherwise puts the body back as it
/// was and returns why.
pub fn all_or_nothing<T>(function: LLVMValueRef, change: impl FnOnce() -> T) -> Result<T, String> {
    let backup = Backup::take(function);
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(change));
    let failure = match &attempt {
        Ok(_) => verify_function(function).err(),
        Err(payload) => Some(crate::panic::panic_message(payload.as_ref())),
    };
    match (attempt, failure) {
        (Ok(done), None) => Ok(done),
        (_, why) => {
            backup.restore();
            Err(why.unwrap_or_default())
        }
    }
}

impl<'m> super::ir::Function<'m> {
    /// `all_or_nothing` on this function: `change` kept only when it
    /// returns and the function verifies.
    pub fn all_or_nothing<T>(self, change: impl FnOnce() -> T) -> Result<T, String> {
        all_or_nothing(self.as_raw(), change)
    }

    /// Runs `probe` on a private copy of this function, deleted after: what
    /// a change would do, without touching the function (whose body a
    /// restore would move into new blocks, which LLVM's cached analyses of
    /// it then no longer describe).
    pub fn probe_copy<T>(self, probe: impl FnOnce(Self) -> T) -> T {
        let backup = Backup::take(self.as_raw());
        probe(self.sibling(backup.copy))
    }
}

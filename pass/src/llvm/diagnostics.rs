//! Diagnostics about the module being compiled, into clang's diagnostic
//! engine through the plugin's C++ half (`plugin/register.cpp`).

use std::ffi::{c_char, c_int, CString};

use inkwell::llvm_sys::prelude::LLVMModuleRef;

/// Severity codes understood by `sl1_emit_diagnostic`.
#[derive(Clone, Copy)]
#[repr(C)]
pub enum Severity {
    Error = 0,
    Warning = 1,
    Remark = 2,
    Missed = 3,
    Analysis = 4,
}

extern "C" {
    fn sl1_emit_diagnostic(
        module: LLVMModuleRef,
        severity: c_int,
        kernel: *const c_char,
        message: *const c_char,
        loop_header: *const c_char,
    );
}

/// Where diagnostics about the module being compiled go: clang's
/// diagnostic engine, through `register.cpp`.
#[derive(Clone, Copy)]
pub struct Diagnostics {
    module: LLVMModuleRef,
}

impl Diagnostics {
    /// Diagnostics about `module`, the live module the plugin was called with.
    pub fn new(module: LLVMModuleRef) -> Diagnostics {
        Diagnostics { module }
    }

    /// Emits `message` about `kernel`, at the source location of its loop
    /// `loop_header` where the module has debug information.
    pub fn emit(
        self,
        severity: Severity,
        kernel: Option<&str>,
        message: &str,
        loop_header: Option<&str>,
    ) {
        let message = CString::new(message.replace('\0', " ")).expect("no NUL left");
        let kernel = kernel.map(|k| CString::new(k).unwrap_or_default());
        let loop_header = loop_header.map(|h| CString::new(h).unwrap_or_default());
        // SAFETY: the module is the live module the pass was called with;
        // strings outlive the call.
        unsafe {
            sl1_emit_diagnostic(
                self.module,
                severity as c_int,
                kernel.as_ref().map_or(std::ptr::null(), |k| k.as_ptr()),
                message.as_ptr(),
                loop_header
                    .as_ref()
                    .map_or(std::ptr::null(), |h| h.as_ptr()),
            )
        }
    }
}

//! S-L1: a software L1 cache for CUDA kernels, inserted by an LLVM pass.
//!
//! `run_on_module` and `run_late` (`pipeline`: before and after LLVM's
//! optimizer) are the entry points: the clang plugin (`plugin`), the
//! driver's IR path and the tests all call them, in that order.

#![deny(unsafe_code)]

#[cfg(all(feature = "llvm19", feature = "llvm22"))]
compile_error!("sl1-pass builds against one LLVM: feature llvm19 or llvm22, not both");
#[cfg(not(any(feature = "llvm19", feature = "llvm22")))]
compile_error!("sl1-pass needs an LLVM: feature llvm22 (the default) or llvm19");

/// The LLVM major version the pass is built against: its plugin loads only
/// into a clang of that version.
pub const LLVM_MAJOR: u32 = if cfg!(feature = "llvm19") { 19 } else { 22 };

pub mod analysis;
pub mod error;
pub mod launch;
#[allow(unsafe_code)]
pub mod llvm;
pub mod nvptx_bugs;
pub mod options;
mod panic;
mod pipeline;
mod plugin;
pub mod profile;
pub mod ptxas_bugs;
pub mod report;
mod runtime;
pub mod transform;
pub mod tuning;

pub use error::Error;
pub use options::Options;
pub use pipeline::{run_late, run_on_module, LateError};
pub use report::Report;

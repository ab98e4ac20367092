//! S-L1: a software L1 cache for CUDA kernels, inserted by an LLVM pass.
//!
//! `run_on_module` (`pipeline`) is the one entry point: the clang plugin
//! (`plugin`), the driver's IR path and the tests all call it.

pub mod analysis;
mod edit;
pub mod error;
pub mod ir;
pub mod launch;
pub mod options;
mod panic;
mod pipeline;
mod plugin;
pub mod profile;
pub mod report;
mod runtime;
pub mod transform;
pub mod tuning;

pub use error::Error;
pub use options::Options;
pub use pipeline::run_on_module;
pub use report::Report;

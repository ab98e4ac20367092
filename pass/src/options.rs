//! The transformation's options: declared in `sl1-core` (LLVM-free, shared
//! with the driver and the GPU harness).

pub use sl1_core::options::*;

//! Errors of the pass library.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("module targets `{triple}`, not nvptx64: S-L1 transforms device code only")]
    NotDeviceModule { triple: String },
    #[error("the transformed module fails the LLVM verifier (a bug in S-L1; building without S-L1 avoids it): {message}")]
    Broken { message: String },
    #[error(transparent)]
    Options(#[from] sl1_core::Error),
}

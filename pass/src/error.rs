//! Errors of the pass library.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("module targets `{triple}`, not nvptx64: S-L1 transforms device code only")]
    NotDeviceModule { triple: String },
    #[error("the transformed module fails the LLVM verifier (a bug in S-L1; -sl1-disable avoids it): {message}")]
    Broken { message: String },
    #[error("invalid S-L1 option: {0}")]
    InvalidOption(String),
    #[error("GPU profile `{path}`: {message}")]
    Profile { path: String, message: String },
}

//! Errors of options and GPU profiles.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum Error {
    #[error("invalid S-L1 option: {0}")]
    InvalidOption(String),
    #[error("GPU profile `{path}`: {message}")]
    Profile { path: String, message: String },
}

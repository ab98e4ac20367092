//! The nvcc prelude (`driver/include/sl1_nvcc_prelude.h`): what nvcc gives
//! every CUDA source and clang's CUDA headers do not (nvcc's version
//! macros, min and max in host code, CUDA 12.8's `__nv_atomic_*`), included
//! before each CUDA source with `register` accepted under C++17 as nvcc
//! accepts it; `--no-nvcc-prelude` leaves both out.

use std::ffi::OsString;
use std::path::Path;

use crate::cli::BuildArgs;
use crate::error::DriverError;

/// The prelude, built into the driver.
pub const SOURCE: &str = include_str!("../include/sl1_nvcc_prelude.h");

/// Writes the prelude into `dir` (a build's temporary directory) unless
/// `args` leave it out; returns the arguments each clang CUDA compile of
/// the build then takes.
pub fn clang_args(args: &BuildArgs, dir: &Path) -> Result<Vec<OsString>, DriverError> {
    if args.no_nvcc_prelude {
        return Ok(Vec::new());
    }
    let path = dir.join("sl1_nvcc_prelude.h");
    std::fs::write(&path, SOURCE).map_err(|e| DriverError::CannotWrite {
        path: path.clone(),
        message: e.to_string(),
    })?;
    // `register` is an error under C++17 in clang, a warning in nvcc.
    Ok(vec![
        "-include".into(),
        path.into_os_string(),
        "-Wno-register".into(),
    ])
}

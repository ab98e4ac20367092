//! The S-L1 runtime every executable is linked with
//! (`driver/runtime/launches.c`): link-time wrappers of the CUDA runtime's
//! launch functions that ask the sizers the S-L1 host modules register
//! for the dynamic shared bytes of each launch, so that a launch from any
//! file, through a pointer, `cudaLaunchKernelEx` or a cooperative launch
//! gives a kernel with lines its buffer.

use std::ffi::OsString;
use std::path::Path;
use std::process::Command;

use crate::error::DriverError;
use crate::runner::Runner;
use crate::toolchain::Toolchain;

/// The runtime's source, built into the driver.
pub const SOURCE: &str = include_str!("../runtime/launches.c");

/// The CUDA runtime functions the runtime wraps.
pub const WRAPPED: [&str; 6] = [
    "cudaLaunchKernel",
    "cudaLaunchKernel_ptsz",
    "cudaLaunchCooperativeKernel",
    "cudaLaunchCooperativeKernel_ptsz",
    "cudaLaunchKernelExC",
    "cudaLaunchKernelExC_ptsz",
];

/// The linker flag that routes the program's calls of the wrapped
/// functions through the runtime.
pub fn wrap_flag() -> String {
    let wraps: Vec<String> = WRAPPED.iter().map(|f| format!("--wrap={f}")).collect();
    format!("-Wl,{}", wraps.join(","))
}

/// Compiles the runtime into `dir` and returns what the link adds: its
/// object and the wrap flag.
pub fn link_args(
    tools: &Toolchain,
    runner: &Runner,
    dir: &Path,
    input: &Path,
) -> Result<Vec<OsString>, DriverError> {
    let source = dir.join("sl1_launches.c");
    let object = dir.join("sl1_launches.o");
    std::fs::write(&source, SOURCE).map_err(|e| DriverError::CannotWrite {
        path: source.clone(),
        message: e.to_string(),
    })?;
    let mut cmd = Command::new(&tools.clang);
    cmd.args(["-x", "c", "-std=c11", "-O2", "-c", "-o"])
        .arg(&object)
        .arg(&source);
    runner.run(&mut cmd, input)?;
    Ok(vec![object.into_os_string(), wrap_flag().into()])
}

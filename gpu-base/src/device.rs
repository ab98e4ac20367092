//! What every GPU-side crate shares about the CUDA driver: its errors and
//! whether it is here.

use std::time::Duration;

use cudarc::driver::sys::CUresult;
use cudarc::driver::DriverError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum GpuError {
    #[error("no NVIDIA driver on this machine (libcuda.so.1 not found); run on a GPU machine")]
    NoDriver,
    #[error("CUDA driver: {0}")]
    Driver(#[from] DriverError),
    #[error("{path}: {message}")]
    Module { path: String, message: String },
    #[error("the kernel did not finish in {0:?} (still running)")]
    Timeout(Duration),
}

impl GpuError {
    /// The launch asked for more registers or shared memory per block than
    /// the GPU has: that configuration cannot run this build, the context is
    /// still usable.
    pub fn is_out_of_resources(&self) -> bool {
        matches!(
            self,
            GpuError::Driver(DriverError(
                cudarc::driver::sys::CUresult::CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES
            ))
        )
    }

    /// The context is poisoned: a kernel faulted (illegal address, trap,
    /// ...) and every later call in this context fails; only a new context
    /// goes on.
    pub fn is_sticky(&self) -> bool {
        use CUresult::*;
        matches!(
            self,
            GpuError::Driver(DriverError(
                CUDA_ERROR_ILLEGAL_ADDRESS
                    | CUDA_ERROR_LAUNCH_FAILED
                    | CUDA_ERROR_MISALIGNED_ADDRESS
                    | CUDA_ERROR_INVALID_ADDRESS_SPACE
                    | CUDA_ERROR_INVALID_PC
                    | CUDA_ERROR_ILLEGAL_INSTRUCTION
                    | CUDA_ERROR_HARDWARE_STACK_ERROR
                    | CUDA_ERROR_ASSERT
                    | CUDA_ERROR_LAUNCH_TIMEOUT
                    | CUDA_ERROR_CONTEXT_IS_DESTROYED
                    | CUDA_ERROR_ECC_UNCORRECTABLE
            ))
        )
    }
}

/// Whether the CUDA driver library can be loaded here.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library; cudarc keeps it loaded.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

//! Running a kernel of a PTX build on the GPU, through the CUDA driver API.

use std::path::Path;
use std::sync::Arc;

use cudarc::driver::sys::CUevent_flags;
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, DevicePtrMut, DriverError,
    LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;
use thiserror::Error;

use crate::apps::{App, Arg, Case};
use crate::sweep::{median, Config};

#[derive(Debug, Error)]
pub enum GpuError {
    #[error("no NVIDIA driver on this machine (libcuda.so.1 not found); run on a GPU machine")]
    NoDriver,
    #[error("CUDA driver: {0}")]
    Driver(#[from] DriverError),
    #[error("{path}: {message}")]
    Module { path: String, message: String },
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
}

/// Whether the CUDA driver library can be loaded here.
pub fn driver_present() -> bool {
    // SAFETY: only tries to open the library; cudarc keeps it loaded.
    unsafe { cudarc::driver::sys::is_culib_present() }
}

/// The first GPU, with one stream.
pub struct Gpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
}

/// A kernel and the module it came from (which holds its globals).
pub struct Kernel {
    module: Arc<CudaModule>,
    pub func: CudaFunction,
}

/// The timing and the outputs of one configuration.
pub struct Run {
    pub median_ms: f32,
    pub outputs: Vec<Vec<u8>>,
}

impl Gpu {
    pub fn open() -> Result<Gpu, GpuError> {
        if !driver_present() {
            return Err(GpuError::NoDriver);
        }
        let ctx = CudaContext::new(0)?;
        let stream = ctx.default_stream();
        Ok(Gpu { ctx, stream })
    }

    pub fn name(&self) -> String {
        self.ctx.name().unwrap_or_else(|_| "unknown GPU".into())
    }

    /// Loads `kernel` from the PTX file at `path`.
    pub fn load(&self, path: &Path, kernel: &str) -> Result<Kernel, GpuError> {
        let module_error = |message: String| GpuError::Module {
            path: path.display().to_string(),
            message,
        };
        let text = std::fs::read_to_string(path).map_err(|e| module_error(e.to_string()))?;
        let module = self
            .ctx
            .load_module(Ptx::from_src(text))
            .map_err(|e| module_error(format!("the driver rejected the PTX: {e}")))?;
        let func = module
            .load_function(kernel)
            .map_err(|e| module_error(format!("no kernel `{kernel}`: {e}")))?;
        Ok(Kernel { module, func })
    }

    /// Sets the module global `symbol` to zeros.
    pub fn zero_global(&self, kernel: &Kernel, symbol: &str) -> Result<(), GpuError> {
        let mut global = kernel.module.get_global(symbol, &self.stream)?;
        let zeros = vec![0u8; global.len()];
        self.stream.memcpy_htod(&zeros, &mut global)?;
        Ok(())
    }

    /// The bytes of the module global `symbol`.
    pub fn read_global(&self, kernel: &Kernel, symbol: &str) -> Result<Vec<u8>, GpuError> {
        let global = kernel.module.get_global(symbol, &self.stream)?;
        Ok(self.stream.clone_dtoh(&global)?)
    }

    /// Sets every byte of `buffer` to `byte` on the GPU (a host copy of
    /// hundreds of MB per launch would dominate the run).
    fn fill(&self, buffer: &mut CudaSlice<u8>, byte: u8) -> Result<(), GpuError> {
        let bytes = buffer.len();
        let (ptr, _record) = buffer.device_ptr_mut(&self.stream);
        // SAFETY: `ptr` is `bytes` bytes of live device memory of this stream.
        unsafe {
            cudarc::driver::result::memset_d8_async(ptr, byte, bytes, self.stream.cu_stream())
        }?;
        Ok(())
    }

    /// One launch of `func` on copies of `buffers`: pointer argument `k` is
    /// buffer `buffer_of_arg[k]`, then the `u64` scalars; returns every
    /// buffer afterwards.
    pub fn run_once(
        &self,
        func: &CudaFunction,
        buffers: &[Vec<u8>],
        buffer_of_arg: &[usize],
        scalars: &[u64],
        (blocks, threads): (u32, u32),
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        let device: Vec<CudaSlice<u8>> = buffers
            .iter()
            .map(|b| self.stream.clone_htod(b))
            .collect::<Result<_, _>>()?;
        let cfg = LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes: 0,
        };
        {
            let mut launch = self.stream.launch_builder(func);
            for &b in buffer_of_arg {
                launch.arg(&device[b]);
            }
            for s in scalars {
                launch.arg(s);
            }
            // SAFETY: the caller passes the kernel's pointer arguments and
            // scalars in its order; the buffers outlive the launch.
            unsafe { launch.launch(cfg) }?;
        }
        self.stream.synchronize()?;
        Ok(device
            .iter()
            .map(|d| self.stream.clone_dtoh(d))
            .collect::<Result<_, _>>()?)
    }

    /// Uploads the case's inputs once, for every configuration.
    pub fn upload(&self, case: &Case) -> Result<Vec<CudaSlice<u8>>, GpuError> {
        Ok(case
            .inputs
            .iter()
            .map(|i| self.stream.clone_htod(i))
            .collect::<Result<_, _>>()?)
    }

    /// Runs one configuration of `app`: outputs filled (poisoned or zeroed), one warm-up
    /// launch, then `reps` timed launches (none: the warm-up alone) (outputs refilled before each, so
    /// accumulating kernels start from the same state); returns the median and
    /// the outputs of the last launch.
    pub fn run(
        &self,
        func: &CudaFunction,
        app: &dyn App,
        case: &Case,
        inputs: &[CudaSlice<u8>],
        config: Config,
        reps: usize,
    ) -> Result<Run, GpuError> {
        let args = app.args(case, config.total_threads());
        let mut outputs: Vec<CudaSlice<u8>> = case
            .outputs
            .iter()
            // SAFETY: u8 buffers, filled below before any launch reads them.
            .map(|o| unsafe { self.stream.alloc::<u8>(o.bytes) })
            .collect::<Result<_, _>>()?;
        let cfg = LaunchConfig {
            grid_dim: (config.blocks, 1, 1),
            block_dim: (config.threads, 1, 1),
            shared_mem_bytes: app.shared_bytes(case),
        };
        let start = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let end = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let mut times = Vec::with_capacity(reps);
        for rep in 0..=reps {
            for (buffer, out) in outputs.iter_mut().zip(&case.outputs) {
                self.fill(buffer, out.fill)?;
            }
            start.record(&self.stream)?;
            {
                let mut launch = self.stream.launch_builder(func);
                for arg in &args {
                    match arg {
                        Arg::Input(i) => launch.arg(&inputs[*i]),
                        Arg::Output(i) => launch.arg(&outputs[*i]),
                        Arg::U64(v) => launch.arg(v),
                        Arg::U32(v) => launch.arg(v),
                    };
                }
                // SAFETY: the arguments follow the kernel's signature, as the
                // app declares it; buffers outlive the launch (cudarc records
                // their use and waits before freeing).
                unsafe { launch.launch(cfg) }?;
            }
            end.record(&self.stream)?;
            end.synchronize()?;
            if rep > 0 {
                times.push(start.elapsed_ms(&end)?);
            }
        }
        let outputs = outputs
            .iter()
            .map(|o| self.stream.clone_dtoh(o))
            .collect::<Result<_, _>>()?;
        Ok(Run {
            median_ms: median(&times).unwrap_or(f32::NAN),
            outputs,
        })
    }
}

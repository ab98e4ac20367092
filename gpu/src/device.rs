//! Running a kernel of a PTX build on the GPU, through the CUDA driver API.

use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use cudarc::driver::sys::{CUevent_flags, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaStream, DevicePtr, DevicePtrMut, LaunchConfig,
    PushKernelArg,
};
use cudarc::nvrtc::Ptx;

/// Device buffers, as callers of [`Gpu::upload_buffers`] hold them.
pub use cudarc::driver::CudaSlice;

use crate::apps::{App, Arg, Case, Fill};
use crate::line_buffer::LineBuffer;
use crate::sweep::Config;
pub use sl1_gpu_base::device::{driver_present, GpuError};
use sl1_gpu_base::median;

/// One launch of a kernel of a loaded module: 2-D grid and block, and the
/// dynamic shared memory it gives.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GridLaunch {
    pub kernel: String,
    pub grid: (u32, u32),
    pub block: (u32, u32),
    pub dynamic_shared: u32,
}

/// The arguments every launch of a [`Gpu::run_launches`] gets: pointer `k`
/// is buffer `buffer_of_arg[k]` plus `arg_offsets[k]` bytes, then the `u64`
/// scalars.
#[derive(Clone, Copy, Debug)]
pub struct LaunchArgs<'a> {
    pub buffer_of_arg: &'a [usize],
    pub arg_offsets: &'a [u64],
    pub scalars: &'a [u64],
}

/// A module loaded from a cubin.
pub struct Module {
    module: Arc<CudaModule>,
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

    /// After a kernel that never ends or one that faulted (every later call
    /// in the context fails): resets the device's primary context, which
    /// frees everything in it, and opens a new one. Every handle of the old context is invalid afterwards, so this
    /// consumes the `Gpu`, and the caller leaks (never drops) its modules
    /// and buffers. An error when the reset fails or does not return within
    /// `wait` (the GPU then stays busy until the process ends).
    pub fn reset(self, wait: Duration) -> Result<Gpu, GpuError> {
        let device = self.ctx.cu_device();
        std::mem::forget(self);
        let (done, result) = std::sync::mpsc::channel();
        // A thread of its own, since the reset may wait for the kernel.
        std::thread::spawn(move || {
            // SAFETY: no handle of the old context is used after this.
            let reset = unsafe { cudarc::driver::sys::cuDevicePrimaryCtxReset_v2(device) };
            let _ = done.send(reset.result());
        });
        match result.recv_timeout(wait) {
            Ok(Ok(())) => Gpu::open(),
            Ok(Err(e)) => Err(e.into()),
            Err(_) => Err(GpuError::Timeout(wait)),
        }
    }

    /// Whether the context still works: after a kernel faulted, every
    /// call in it fails (a sticky error) until a new context is opened.
    pub fn is_healthy(&self) -> bool {
        self.ctx.synchronize().is_ok()
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

    /// Loads a module from cubin bytes (ptxas output): no JIT, so loading
    /// takes little of the GPU thread's time.
    pub fn load_cubin(&self, cubin: &[u8]) -> Result<Module, GpuError> {
        let module = self.ctx.load_module(Ptx::from_binary(cubin.to_vec()))?;
        Ok(Module { module })
    }

    /// Copies `buffers` to the GPU, once: each run gets device copies.
    pub fn upload_buffers(&self, buffers: &[Vec<u8>]) -> Result<Vec<CudaSlice<u8>>, GpuError> {
        Ok(buffers
            .iter()
            .map(|b| self.stream.clone_htod(b))
            .collect::<Result<_, _>>()?)
    }

    /// Runs `launches` of `module`'s kernels in order on fresh device copies
    /// of `inputs`, every launch with `args`, and returns every buffer
    /// afterwards. A launch still running after `timeout` is an error (the
    /// GPU is then busy until the process ends: leave the context alone).
    pub fn run_launches(
        &self,
        module: &Module,
        launches: &[GridLaunch],
        inputs: &[CudaSlice<u8>],
        args: LaunchArgs<'_>,
        timeout: Duration,
    ) -> Result<Vec<Vec<u8>>, GpuError> {
        let copies: Vec<CudaSlice<u8>> = inputs
            .iter()
            .map(|i| self.stream.clone_dtod(i))
            .collect::<Result<_, _>>()?;
        // Raw addresses, since an argument may point into a buffer (offset)
        // and in-place pairs share one; the copies outlive the launches and
        // are read after the stream is synchronised.
        let mut pointers = Vec::with_capacity(args.buffer_of_arg.len());
        for (k, &b) in args.buffer_of_arg.iter().enumerate() {
            let (base, _record) = copies[b].device_ptr(&self.stream);
            pointers.push(base + args.arg_offsets.get(k).copied().unwrap_or(0));
        }
        let mut functions: Vec<(&str, CudaFunction)> = Vec::new();
        for l in launches {
            let func =
                match functions.iter().find(|(name, _)| *name == l.kernel) {
                    Some((_, func)) => func.clone(),
                    None => {
                        let func = module.module.load_function(&l.kernel).map_err(|e| {
                            GpuError::Module {
                                path: "cubin".into(),
                                message: format!("no kernel `{}`: {e}", l.kernel),
                            }
                        })?;
                        functions.push((&l.kernel, func.clone()));
                        func
                    }
                };
            opt_in_dynamic_shared(&func, l.dynamic_shared)?;
            let cfg = LaunchConfig {
                grid_dim: (l.grid.0, l.grid.1, 1),
                block_dim: (l.block.0, l.block.1, 1),
                shared_mem_bytes: l.dynamic_shared,
            };
            let mut launch = self.stream.launch_builder(&func);
            for p in &pointers {
                launch.arg(p);
            }
            for s in args.scalars {
                launch.arg(s);
            }
            // SAFETY: the pointers and scalars follow the kernels' signature
            // (the caller's launch convention); the copies outlive the
            // launches.
            unsafe { launch.launch(cfg) }?;
        }
        let done = self.ctx.new_event(None)?;
        done.record(&self.stream)?;
        let start = Instant::now();
        while !done.try_is_complete()? {
            if start.elapsed() > timeout {
                // Freeing would queue behind the running kernel, or wait.
                std::mem::forget(copies);
                std::mem::forget(done);
                return Err(GpuError::Timeout(timeout));
            }
            // Most kernels here take microseconds: spin first, then sleep.
            if start.elapsed() < Duration::from_millis(2) {
                std::hint::spin_loop();
            } else {
                std::thread::sleep(Duration::from_micros(100));
            }
        }
        Ok(copies
            .iter()
            .map(|d| self.stream.clone_dtoh(d))
            .collect::<Result<_, _>>()?)
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

    /// Median time of a device-to-device copy of `bytes` bytes, over `reps`
    /// copies after one warm-up: what the memory floor is measured with.
    pub fn copy_ms(&self, bytes: usize, reps: usize) -> Result<f32, GpuError> {
        // SAFETY: u8 buffers; the copy reads bytes of undefined value, which
        // only their time depends on.
        let from = unsafe { self.stream.alloc::<u8>(bytes) }?;
        let mut to = unsafe { self.stream.alloc::<u8>(bytes) }?;
        let start = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let end = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let mut times = Vec::with_capacity(reps);
        for rep in 0..=reps {
            start.record(&self.stream)?;
            self.stream.memcpy_dtod(&from, &mut to)?;
            end.record(&self.stream)?;
            end.synchronize()?;
            if rep > 0 {
                times.push(start.elapsed_ms(&end)?);
            }
        }
        Ok(median(&times).unwrap_or(f32::NAN))
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

    /// Asks for the carveout that holds the blocks `cfg` puts on an SM at
    /// once (`sl1_core::carveout`), as an executable's launches of a kernel
    /// with lines do.
    fn fit_carveout(&self, func: &CudaFunction, cfg: &LaunchConfig) -> Result<(), GpuError> {
        use cudarc::driver::sys::CUdevice_attribute as Device;
        use sl1_core::carveout::{carveout_preference, CarveoutInputs, DRIVER_SPLIT};
        let carveout = CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
        // The occupancy calculator's answer at the driver's own split.
        func.set_attribute(carveout, DRIVER_SPLIT)?;
        let threads = cfg.block_dim.0 * cfg.block_dim.1 * cfg.block_dim.2;
        let most_resident = func.occupancy_max_active_blocks_per_multiprocessor(
            threads,
            cfg.shared_mem_bytes as usize,
            None,
        )?;
        let static_bytes =
            func.get_attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?;
        let percent = carveout_preference(CarveoutInputs {
            grid_blocks: u64::from(cfg.grid_dim.0)
                * u64::from(cfg.grid_dim.1)
                * u64::from(cfg.grid_dim.2),
            sms: self
                .ctx
                .attribute(Device::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?
                as u64,
            most_resident: u64::from(most_resident),
            block_bytes: static_bytes as u64 + u64::from(cfg.shared_mem_bytes),
            shared_per_sm: self
                .ctx
                .attribute(Device::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR)?
                as u64,
        });
        func.set_attribute(carveout, percent)?;
        Ok(())
    }

    /// Runs one configuration of `app`, launched in the shape the app gives
    /// it: outputs filled (poisoned, zeroed or copied from an input), one warm-up
    /// launch, then `reps` timed launches (none: the warm-up alone) (outputs refilled before each, so
    /// accumulating kernels start from the same state); a launch-sized line
    /// buffer gets its bytes (`LineBuffer`); returns the median and
    /// the outputs of the last launch.
    pub fn run(
        &self,
        (func, line_buffer, fit_carveout): (&CudaFunction, Option<LineBuffer>, bool),
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
        let shape = app.shape(config);
        let own = app.shared_bytes(case);
        let block_threads = u64::from(shape.block.0) * u64::from(shape.block.1);
        let cfg = LaunchConfig {
            grid_dim: (shape.grid.0, shape.grid.1, 1),
            block_dim: (shape.block.0, shape.block.1, 1),
            shared_mem_bytes: line_buffer.map_or(own, |b| b.launch_bytes(block_threads, own)),
        };
        opt_in_dynamic_shared(func, cfg.shared_mem_bytes)?;
        if line_buffer.is_some() && fit_carveout {
            self.fit_carveout(func, &cfg)?;
        }
        let start = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let end = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let mut times = Vec::with_capacity(reps);
        for rep in 0..=reps {
            for (buffer, out) in outputs.iter_mut().zip(&case.outputs) {
                match out.fill {
                    Fill::Byte(byte) => self.fill(buffer, byte)?,
                    Fill::Input(i) => {
                        // In place: the output starts as a copy of the input.
                        assert_eq!(inputs[i].len(), out.bytes, "output copied from input {i}");
                        self.stream.memcpy_dtod(&inputs[i], buffer)?;
                    }
                }
            }
            start.record(&self.stream)?;
            {
                // Pointers into an output at an offset (aliasing in-place
                // arguments) are views of it, alive for the launch.
                let views: Vec<Option<cudarc::driver::CudaView<'_, u8>>> = args
                    .iter()
                    .map(|arg| match arg {
                        Arg::OutputAt(i, offset) => Some(outputs[*i].slice(*offset as usize..)),
                        _ => None,
                    })
                    .collect();
                let mut launch = self.stream.launch_builder(func);
                for (arg, view) in args.iter().zip(&views) {
                    match (arg, view) {
                        (Arg::OutputAt(..), Some(view)) => launch.arg(view),
                        (Arg::Input(i), _) => launch.arg(&inputs[*i]),
                        (Arg::Output(i), _) => launch.arg(&outputs[*i]),
                        (Arg::U64(v), _) => launch.arg(v),
                        (Arg::U32(v), _) => launch.arg(v),
                        (Arg::OutputAt(..), None) => unreachable!("every offset has its view"),
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

/// Opts `func` in to the dynamic shared memory a launch gives: above 48 KiB
/// (with the static shared memory) a launch fails without it.
fn opt_in_dynamic_shared(func: &CudaFunction, bytes: u32) -> Result<(), GpuError> {
    if bytes > 0 {
        func.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )?;
    }
    Ok(())
}

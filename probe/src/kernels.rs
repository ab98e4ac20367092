//! The probe's kernels on the GPU: `probe/kernels/probe.cu`, compiled to PTX by
//! `build.rs` and embedded here, loaded through cudarc, with one launch
//! wrapper per measurement. The pure helpers (chase arrays and sequences,
//! sector counts) are public and tested off-GPU.

use std::sync::{Arc, Mutex};

use cudarc::driver::sys::{CUdevice_attribute, CUevent_flags, CUfunction_attribute};
use cudarc::driver::{
    CudaContext, CudaFunction, CudaModule, CudaSlice, CudaStream, LaunchConfig, PushKernelArg,
};
use cudarc::nvrtc::Ptx;

use super::data::{
    ChasePath, ChaseRun, DeviceInfo, SharedStrideRun, ThroughputPoint, ThroughputRequest,
    ThroughputTarget,
};
use super::run::Device;
use sl1_gpu_base::device::{driver_present, GpuError};
use sl1_gpu_base::median;

/// The probe kernels as PTX (sm_80, PTX ISA 7.0: the driver compiles it for
/// any later GPU when the module is loaded).
pub const PROBE_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/probe.ptx"));

/// The kernels `PROBE_PTX` defines (`extern "C"` names in probe.cu).
pub const KERNEL_NAMES: [&str; 9] = [
    "probe_chase_ca",
    "probe_chase_cg",
    "probe_chase_nc",
    "probe_chase_shared",
    "probe_chase_init",
    "probe_shared_stride_u32",
    "probe_shared_stride_u64",
    "probe_throughput_global",
    "probe_throughput_shared",
];

/// Most accesses one chase records. The records sit in dynamic shared
/// memory (8 bytes per access) until the timed pass is over: 4096 take 32
/// KiB, under the 48 KiB a block gets without opting in. Shared memory the
/// chase uses is taken from the L1 (unified L1/shared): the driver picks
/// the smallest shared-memory carve-out that fits, so fewer records leave
/// a larger L1 (see `chase_shared_bytes`).
pub const MAX_RECORDED: usize = 4096;

/// Most untimed warm-up accesses of one chase: a single thread at DRAM
/// latency takes a few seconds for these. A longer pass (a footprint of
/// tens of MB at a small stride, far beyond any cache where it matters)
/// is warmed up only this far; the timed accesses go on from there.
pub const MAX_CHASE_WARMUP: u64 = 1 << 23;

/// Largest stride, in words, of the shared-memory stride kernel (its array
/// holds 32 x 64 words).
pub const MAX_SHARED_STRIDE: u32 = 64;

/// Timed rounds of 64 accesses per thread in a shared-stride run (after one
/// untimed round).
pub const SHARED_STRIDE_REPS: u32 = 16;

/// Timed launches per throughput point (after one warm-up launch); the
/// point's time is their median.
pub const THROUGHPUT_REPS: usize = 5;

/// Bytes of one sector, the unit of L2 and DRAM transfers.
pub const SECTOR_BYTES: u64 = 32;

/// Coalescing degrees the throughput kernels support: threads per sector.
pub const COALESCING_DEGREES: [u32; 4] = [1, 2, 4, 8];

/// Threads per block of the chase-initialisation kernel.
const INIT_THREADS: u32 = 256;

/// The first GPU with the probe module loaded.
pub struct ProbeGpu {
    ctx: Arc<CudaContext>,
    stream: Arc<CudaStream>,
    _module: Arc<CudaModule>,
    chase_ca: CudaFunction,
    chase_cg: CudaFunction,
    chase_nc: CudaFunction,
    chase_shared: CudaFunction,
    chase_init: CudaFunction,
    stride_u32: CudaFunction,
    stride_u64: CudaFunction,
    throughput_global: CudaFunction,
    throughput_shared: CudaFunction,
    /// The global throughput buffer, kept between calls of the same working
    /// set size (sweeps use one size for many points).
    throughput_buffer: Mutex<Option<CudaSlice<u32>>>,
}

/// An invalid argument or a wrong result of `what` (the wrappers' errors
/// that do not come from the driver).
fn probe_error(what: &str, message: impl Into<String>) -> GpuError {
    GpuError::Module {
        path: format!("probe {what}"),
        message: message.into(),
    }
}

impl ProbeGpu {
    /// Opens the first GPU and loads the embedded PTX. `GpuError::NoDriver`
    /// where no NVIDIA driver is installed.
    pub fn open() -> Result<ProbeGpu, GpuError> {
        if !driver_present() {
            return Err(GpuError::NoDriver);
        }
        let ctx = CudaContext::new(0)?;
        let stream = ctx.default_stream();
        let module = ctx
            .load_module(Ptx::from_src(PROBE_PTX))
            .map_err(|e| probe_error("module", format!("the driver rejected the PTX: {e}")))?;
        let load = |name: &str| {
            module
                .load_function(name)
                .map_err(|e| probe_error("module", format!("no kernel `{name}`: {e}")))
        };
        let gpu = ProbeGpu {
            chase_ca: load("probe_chase_ca")?,
            chase_cg: load("probe_chase_cg")?,
            chase_nc: load("probe_chase_nc")?,
            chase_shared: load("probe_chase_shared")?,
            chase_init: load("probe_chase_init")?,
            stride_u32: load("probe_shared_stride_u32")?,
            stride_u64: load("probe_shared_stride_u64")?,
            throughput_global: load("probe_throughput_global")?,
            throughput_shared: load("probe_throughput_shared")?,
            ctx,
            stream,
            _module: module,
            throughput_buffer: Mutex::new(None),
        };
        // Kernels that read global memory prefer the largest L1 (the driver
        // then takes the smallest shared-memory carve-out their launch
        // needs); the shared-memory throughput kernel prefers the largest
        // shared memory, so that more blocks fit on an SM.
        let carveout = CUfunction_attribute::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT;
        for f in [
            &gpu.chase_ca,
            &gpu.chase_cg,
            &gpu.chase_nc,
            &gpu.throughput_global,
        ] {
            f.set_attribute(carveout, 0)?;
        }
        gpu.throughput_shared.set_attribute(carveout, 100)?;
        Ok(gpu)
    }

    fn optin_shared(&self) -> Result<u64, GpuError> {
        Ok(self
            .ctx
            .attribute(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)?
            .max(0) as u64)
    }

    /// Lets `func` launch with `bytes` of dynamic shared memory (above 48
    /// KiB a kernel must opt in), or fails when the GPU has less.
    fn allow_dynamic_shared(
        &self,
        what: &str,
        func: &CudaFunction,
        bytes: u64,
    ) -> Result<(), GpuError> {
        let optin = self.optin_shared()?;
        if bytes > optin {
            return Err(probe_error(
                what,
                format!("needs {bytes} bytes of shared memory per block; the GPU has {optin}"),
            ));
        }
        func.set_attribute(
            CUfunction_attribute::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            bytes as i32,
        )?;
        Ok(())
    }
}

impl Device for ProbeGpu {
    /// The driver's figures for the device.
    fn device_info(&self) -> Result<DeviceInfo, GpuError> {
        let attr = |a: CUdevice_attribute| -> Result<u32, GpuError> {
            Ok(self.ctx.attribute(a)?.max(0) as u32)
        };
        let (major, minor) = self.ctx.compute_capability()?;
        Ok(DeviceInfo {
            name: self.ctx.name()?,
            compute_capability: (major.max(0) as u32, minor.max(0) as u32),
            sm_count: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT)?,
            clock_khz: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_CLOCK_RATE)?,
            shared_per_block: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK,
            )?
            .into(),
            shared_per_block_optin: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN,
            )?
            .into(),
            shared_per_sm: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR,
            )?
            .into(),
            l2_bytes: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE)?.into(),
            max_threads_per_sm: attr(
                CUdevice_attribute::CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR,
            )?,
            warp_size: attr(CUdevice_attribute::CU_DEVICE_ATTRIBUTE_WARP_SIZE)?,
        })
    }

    /// A fine-grained pointer chase: one thread walks `footprint_bytes` of
    /// 32-bit words `stride_bytes` apart (both multiples of 4) along `path`,
    /// one full pass untimed (at most MAX_CHASE_WARMUP accesses), then
    /// `record` (1..=MAX_RECORDED) accesses timed, each recorded. The
    /// chase's indices are checked against the expected sequence.
    fn chase(
        &self,
        path: ChasePath,
        stride_bytes: u64,
        footprint_bytes: u64,
        record: usize,
    ) -> Result<ChaseRun, GpuError> {
        let what = "chase";
        let plan = ChasePlan::new(stride_bytes, footprint_bytes, record)
            .map_err(|m| probe_error(what, m))?;
        let (func, shared_bytes) = match path {
            ChasePath::L1 => (&self.chase_ca, plan.shared_bytes(false)),
            ChasePath::L2 => (&self.chase_cg, plan.shared_bytes(false)),
            ChasePath::ReadOnly => (&self.chase_nc, plan.shared_bytes(false)),
            ChasePath::Shared => (&self.chase_shared, plan.shared_bytes(true)),
        };
        self.allow_dynamic_shared(what, func, shared_bytes)?;

        // SAFETY: u32 words, all written by probe_chase_init before the chase.
        let mut array = unsafe { self.stream.alloc::<u32>(plan.words as usize) }?;
        let mut lat = self.stream.alloc_zeros::<u32>(record)?;
        let mut next = self.stream.alloc_zeros::<u32>(record)?;
        let init_blocks = plan.words.div_ceil(INIT_THREADS).clamp(1, 65_535);
        {
            let mut launch = self.stream.launch_builder(&self.chase_init);
            launch
                .arg(&mut array)
                .arg(&plan.words)
                .arg(&plan.stride_words);
            // SAFETY: (u32*, u32 words, u32 stride) as probe_chase_init
            // declares; `array` holds `words` words.
            unsafe {
                launch.launch(LaunchConfig {
                    grid_dim: (init_blocks, 1, 1),
                    block_dim: (INIT_THREADS, 1, 1),
                    shared_mem_bytes: 0,
                })
            }?;
        }
        let record_u32 = record as u32;
        {
            let mut launch = self.stream.launch_builder(func);
            launch
                .arg(&array)
                .arg(&plan.words)
                .arg(&plan.warmup)
                .arg(&record_u32)
                .arg(&mut lat)
                .arg(&mut next);
            // SAFETY: the arguments follow probe_chase_*'s signature; the
            // outputs hold `record` words, the dynamic shared memory is
            // what the kernel lays out (checked against the GPU's limit).
            unsafe {
                launch.launch(LaunchConfig {
                    grid_dim: (1, 1, 1),
                    block_dim: (1, 1, 1),
                    shared_mem_bytes: shared_bytes as u32,
                })
            }?;
        }
        let latencies = self.stream.clone_dtoh(&lat)?;
        let next = self.stream.clone_dtoh(&next)?;
        let start = chase_position(plan.warmup as u64, plan.stride_words, plan.words);
        let expected = chase_next(start, plan.stride_words, plan.words, record);
        if let Some(i) = (0..record).find(|&i| next[i] != expected[i]) {
            return Err(probe_error(
                what,
                format!(
                    "{}: access {i} read {}, expected {} (stride {stride_bytes} B, footprint \
                     {footprint_bytes} B)",
                    path.label(),
                    next[i],
                    expected[i]
                ),
            ));
        }
        Ok(ChaseRun {
            path,
            stride_bytes,
            footprint_bytes,
            latencies,
            indices: indices_read(start, &next),
        })
    }

    /// One warp reads shared memory, thread t at word `t * stride_words`
    /// (words of `word_bytes`, 4 or 8; stride 0..=MAX_SHARED_STRIDE), each
    /// thread 64 dependent accesses per round; the slowest thread's average
    /// cycles per access (the clock read included, as in the paper).
    fn shared_stride(
        &self,
        word_bytes: u32,
        stride_words: u32,
    ) -> Result<SharedStrideRun, GpuError> {
        let what = "shared stride";
        let func = match word_bytes {
            4 => &self.stride_u32,
            8 => &self.stride_u64,
            _ => {
                return Err(probe_error(
                    what,
                    format!("word size {word_bytes} is not 4 or 8"),
                ))
            }
        };
        if stride_words > MAX_SHARED_STRIDE {
            return Err(probe_error(
                what,
                format!("stride {stride_words} words is more than {MAX_SHARED_STRIDE}"),
            ));
        }
        let mut cycles = self.stream.alloc_zeros::<u32>(32)?;
        let reps = SHARED_STRIDE_REPS;
        {
            let mut launch = self.stream.launch_builder(func);
            launch.arg(&stride_words).arg(&reps).arg(&mut cycles);
            // SAFETY: (u32 stride, u32 reps, u32* cycles[32]) as
            // probe_shared_stride_* declares; its shared array is static.
            unsafe {
                launch.launch(LaunchConfig {
                    grid_dim: (1, 1, 1),
                    block_dim: (32, 1, 1),
                    shared_mem_bytes: 0,
                })
            }?;
        }
        let cycles = self.stream.clone_dtoh(&cycles)?;
        let slowest = cycles.iter().copied().max().unwrap_or(0);
        Ok(SharedStrideRun {
            word_bytes,
            stride_words,
            cycles_per_access: f64::from(slowest) / f64::from(reps * 64),
        })
    }

    /// The request's `blocks` x `threads` threads read `iterations` 4-byte
    /// words each, `coalescing` (1, 2, 4 or 8) neighbouring threads in one
    /// 32-byte sector, from a buffer of `working_set_bytes` (a multiple of
    /// 32): for L2 and DRAM one global buffer read with `ld.global.cg` (L2 only),
    /// for shared memory a buffer of that size in every block. The buffer
    /// must hold one iteration of the grid (blocks x ceil(threads /
    /// coalescing) sectors; shared: one block's). Timed with events: the
    /// median of THROUGHPUT_REPS launches after a warm-up launch (for L2 one
    /// that reads the whole working set). Consecutive global launches go on
    /// where the last stopped, so a DRAM working set far beyond the L2 is
    /// not re-read from L2.
    fn throughput(&self, request: ThroughputRequest) -> Result<ThroughputPoint, GpuError> {
        let what = "throughput";
        let plan = ThroughputPlan::new(request).map_err(|m| probe_error(what, m))?;
        let ThroughputRequest {
            target,
            blocks,
            threads,
            coalescing,
            working_set_bytes,
            iterations,
        } = request;
        let mut sink = self
            .stream
            .alloc_zeros::<u32>(blocks as usize * threads as usize)?;
        let cfg = |shared_mem_bytes: u32| LaunchConfig {
            grid_dim: (blocks, 1, 1),
            block_dim: (threads, 1, 1),
            shared_mem_bytes,
        };
        let start_event = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let end_event = self.ctx.new_event(Some(CUevent_flags::CU_EVENT_DEFAULT))?;
        let mut times = Vec::with_capacity(THROUGHPUT_REPS);

        match target {
            ThroughputTarget::L2 | ThroughputTarget::Dram => {
                let mut cache = self
                    .throughput_buffer
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                let words = plan.sectors as usize * (SECTOR_BYTES as usize / 4);
                if cache.as_ref().map(|b| b.len()) != Some(words) {
                    *cache = None; // free the old buffer first
                    *cache = Some(self.stream.alloc_zeros::<u32>(words)?);
                }
                let buffer = cache.as_ref().expect("allocated above");
                let mut start = 0u32;
                for rep in 0..=THROUGHPUT_REPS {
                    // The warm-up launch: for L2 it reads the whole working set
                    // (which then stays there); for DRAM it only starts the
                    // GPU up (the buffer is far beyond the L2 anyway).
                    let iters = if rep == 0 && target == ThroughputTarget::L2 {
                        plan.warmup_iterations()
                    } else {
                        iterations
                    };
                    if rep > 0 {
                        start_event.record(&self.stream)?;
                    }
                    {
                        let mut launch = self.stream.launch_builder(&self.throughput_global);
                        launch
                            .arg(buffer)
                            .arg(&plan.sectors)
                            .arg(&start)
                            .arg(&coalescing)
                            .arg(&iters)
                            .arg(&mut sink);
                        // SAFETY: the arguments follow probe_throughput_global's
                        // signature; the buffer holds `sectors` sectors, the
                        // sink one word per thread, start < sectors and one
                        // grid iteration fits in the buffer (checked by the plan).
                        unsafe { launch.launch(cfg(0)) }?;
                    }
                    if rep > 0 {
                        end_event.record(&self.stream)?;
                        end_event.synchronize()?;
                        times.push(start_event.elapsed_ms(&end_event)?);
                    }
                    start = plan.next_start(start, iters);
                }
                self.stream.synchronize()?;
            }
            ThroughputTarget::Shared => {
                let shared = working_set_bytes;
                self.allow_dynamic_shared(what, &self.throughput_shared, shared)?;
                for rep in 0..=THROUGHPUT_REPS {
                    if rep > 0 {
                        start_event.record(&self.stream)?;
                    }
                    {
                        let mut launch = self.stream.launch_builder(&self.throughput_shared);
                        launch
                            .arg(&plan.sectors)
                            .arg(&coalescing)
                            .arg(&iterations)
                            .arg(&mut sink);
                        // SAFETY: the arguments follow probe_throughput_shared's
                        // signature; the dynamic shared memory holds `sectors`
                        // sectors (within the GPU's limit), one block's
                        // iteration fits in it, the sink has a word per thread.
                        unsafe { launch.launch(cfg(shared as u32)) }?;
                    }
                    if rep > 0 {
                        end_event.record(&self.stream)?;
                        end_event.synchronize()?;
                        times.push(start_event.elapsed_ms(&end_event)?);
                    }
                }
                self.stream.synchronize()?;
            }
        }
        let ms = median(&times).unwrap_or(f32::NAN);
        Ok(ThroughputPoint {
            target,
            blocks,
            threads,
            coalescing,
            bytes: throughput_bytes(blocks, threads, coalescing, iterations),
            useful_bytes: useful_bytes(blocks, threads, iterations),
            seconds: f64::from(ms) / 1e3,
        })
    }
}

/// A chase's launch parameters, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChasePlan {
    /// The footprint in 32-bit words.
    pub words: u32,
    /// The stride in words, reduced modulo `words` (the same chase).
    pub stride_words: u32,
    /// Untimed accesses first: one pass over the footprint, at most
    /// MAX_CHASE_WARMUP.
    pub warmup: u32,
    pub record: u32,
}

impl ChasePlan {
    pub fn new(stride_bytes: u64, footprint_bytes: u64, record: usize) -> Result<Self, String> {
        if stride_bytes % 4 != 0 || footprint_bytes % 4 != 0 {
            return Err(format!(
                "stride ({stride_bytes} B) and footprint ({footprint_bytes} B) must be multiples \
                 of 4 bytes"
            ));
        }
        let words = footprint_bytes / 4;
        if words == 0 || words > u64::from(u32::MAX) {
            return Err(format!(
                "footprint {footprint_bytes} B is not between 4 B and 16 GiB"
            ));
        }
        if record == 0 || record > MAX_RECORDED {
            return Err(format!(
                "records {record} accesses; 1 to {MAX_RECORDED} can be recorded"
            ));
        }
        let stride_words = (stride_bytes / 4) % words;
        let warmup = pass_length(words, stride_words).min(MAX_CHASE_WARMUP);
        Ok(ChasePlan {
            words: words as u32,
            stride_words: stride_words as u32,
            warmup: warmup as u32,
            record: record as u32,
        })
    }

    /// Dynamic shared memory of the launch: the records (latency and index,
    /// 8 bytes per access), and for the shared path the array after them.
    pub fn shared_bytes(&self, shared_path: bool) -> u64 {
        chase_shared_bytes(
            self.record as usize,
            shared_path.then_some(self.words as u64),
        )
    }
}

/// Dynamic shared memory a chase launch takes: 8 bytes per recorded access,
/// plus 4 per word of the array where the chase is in shared memory.
pub fn chase_shared_bytes(record: usize, shared_words: Option<u64>) -> u64 {
    8 * record as u64 + 4 * shared_words.unwrap_or(0)
}

/// `array[j] = (j + stride) % words`: the chase array (probe_chase_init
/// writes it on the GPU; this is its host twin).
pub fn chase_array(words: u32, stride_words: u32) -> Vec<u32> {
    (0..u64::from(words))
        .map(|j| ((j + u64::from(stride_words)) % u64::from(words)) as u32)
        .collect()
}

/// Distinct words one pass of the chase visits before it is back at its
/// start: words / gcd(words, stride).
pub fn pass_length(words: u64, stride_words: u64) -> u64 {
    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    if words == 0 {
        return 0;
    }
    words / gcd(words, stride_words % words)
}

/// The index the chase is at after `accesses` accesses from index 0.
pub fn chase_position(accesses: u64, stride_words: u32, words: u32) -> u32 {
    let p = u128::from(accesses) * u128::from(stride_words) % u128::from(words);
    p as u32
}

/// The values `record` accesses load from index `start` on (each the index
/// of the next access), as the kernel stores them.
pub fn chase_next(start: u32, stride_words: u32, words: u32, record: usize) -> Vec<u32> {
    let (stride, words) = (u64::from(stride_words), u64::from(words));
    let mut j = u64::from(start);
    (0..record)
        .map(|_| {
            j = (j + stride) % words;
            j as u32
        })
        .collect()
}

/// The word index each access read, from the values the accesses loaded
/// (each the next index) and the index the timed accesses started at.
pub fn indices_read(start: u32, next: &[u32]) -> Vec<u32> {
    std::iter::once(start)
        .chain(next.iter().copied())
        .take(next.len())
        .collect()
}

/// A throughput launch's parameters, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThroughputPlan {
    /// Sectors in the buffer.
    pub sectors: u32,
    /// Sectors one iteration of the grid (global) or a block (shared) reads.
    pub step: u32,
}

impl ThroughputPlan {
    pub fn new(request: ThroughputRequest) -> Result<Self, String> {
        let ThroughputRequest {
            target,
            blocks,
            threads,
            coalescing,
            working_set_bytes,
            iterations,
        } = request;
        if !COALESCING_DEGREES.contains(&coalescing) {
            return Err(format!(
                "coalescing degree {coalescing} is not one of {COALESCING_DEGREES:?}"
            ));
        }
        if blocks == 0 || !(1..=1024).contains(&threads) || iterations == 0 {
            return Err(format!(
                "{blocks} blocks x {threads} threads x {iterations} iterations: each must be \
                 positive, threads at most 1024"
            ));
        }
        if working_set_bytes % SECTOR_BYTES != 0 {
            return Err(format!(
                "working set {working_set_bytes} B is not a multiple of {SECTOR_BYTES} B"
            ));
        }
        let sectors = working_set_bytes / SECTOR_BYTES;
        if sectors > 1 << 31 {
            return Err(format!(
                "working set {working_set_bytes} B is more than 64 GiB"
            ));
        }
        let per_block = u64::from(sectors_per_block(threads, coalescing));
        let step = match target {
            ThroughputTarget::Shared => per_block,
            ThroughputTarget::L2 | ThroughputTarget::Dram => u64::from(blocks) * per_block,
        };
        if step > sectors {
            return Err(format!(
                "working set {working_set_bytes} B is smaller than one iteration ({} B)",
                step * SECTOR_BYTES
            ));
        }
        Ok(ThroughputPlan {
            sectors: sectors as u32,
            step: step as u32,
        })
    }

    /// Iterations of a warm-up launch that reads every sector of the buffer.
    pub fn warmup_iterations(&self) -> u32 {
        self.sectors.div_ceil(self.step)
    }

    /// The sector the next launch starts at, after one of `iterations` from
    /// `start` (global buffers only).
    pub fn next_start(&self, start: u32, iterations: u32) -> u32 {
        ((u64::from(start) + u64::from(iterations) * u64::from(self.step))
            % u64::from(self.sectors)) as u32
    }
}

/// Sectors a block of `threads` reads per iteration with `coalescing`
/// threads per sector: ceil(threads / coalescing), since a group of
/// `coalescing` threads never straddles a warp (the degree divides 32).
pub fn sectors_per_block(threads: u32, coalescing: u32) -> u32 {
    threads.div_ceil(coalescing)
}

/// Distinct sectors one warp-iteration touches: its `active` threads (1 to
/// 32) in groups of `coalescing`.
pub fn sectors_per_warp(active: u32, coalescing: u32) -> u32 {
    active.div_ceil(coalescing)
}

/// Bytes moved by a throughput launch: every distinct sector a warp touches
/// in an iteration is one 32-byte transfer.
pub fn throughput_bytes(blocks: u32, threads: u32, coalescing: u32, iterations: u32) -> u64 {
    u64::from(blocks)
        * u64::from(sectors_per_block(threads, coalescing))
        * SECTOR_BYTES
        * u64::from(iterations)
}

/// Bytes the threads of a throughput launch use: one 4-byte word per thread
/// and iteration.
pub fn useful_bytes(blocks: u32, threads: u32, iterations: u32) -> u64 {
    u64::from(blocks) * u64::from(threads) * 4 * u64::from(iterations)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks the host array from `start` as the kernel does.
    fn walk(array: &[u32], start: u32, steps: usize) -> Vec<u32> {
        let mut j = start;
        (0..steps)
            .map(|_| {
                j = array[j as usize];
                j
            })
            .collect()
    }

    #[test]
    fn chase_array_links_each_word_to_the_next_stride() {
        assert_eq!(chase_array(8, 2), vec![2, 3, 4, 5, 6, 7, 0, 1]);
        assert_eq!(chase_array(5, 0), vec![0, 1, 2, 3, 4]);
        assert_eq!(chase_array(1, 0), vec![0]);
    }

    #[test]
    fn chase_sequence_matches_walking_the_array() {
        for (words, stride) in [(64, 1), (64, 8), (60, 8), (97, 13), (16, 0), (10, 3)] {
            let array = chase_array(words, stride);
            let pass = pass_length(u64::from(words), u64::from(stride));
            // After one pass the chase is back at 0.
            assert_eq!(chase_position(pass, stride, words), 0, "{words} {stride}");
            let walked = walk(&array, 0, pass as usize + 50);
            let start = chase_position(pass, stride, words);
            let expected = chase_next(start, stride, words, 50);
            assert_eq!(&walked[pass as usize..], &expected[..], "{words} {stride}");
            // A pass visits `pass` distinct words.
            let mut seen: Vec<u32> = walked[..pass as usize].to_vec();
            seen.sort_unstable();
            seen.dedup();
            assert_eq!(seen.len() as u64, pass);
        }
    }

    #[test]
    fn pass_length_is_words_over_gcd() {
        assert_eq!(pass_length(1024, 8), 128);
        assert_eq!(pass_length(60, 8), 15);
        assert_eq!(pass_length(97, 13), 97);
        assert_eq!(pass_length(16, 0), 1);
        assert_eq!(pass_length(16, 16), 1);
        assert_eq!(pass_length(0, 4), 0);
    }

    #[test]
    fn indices_read_are_the_previous_loaded_values() {
        let next = chase_next(0, 8, 32, 5);
        assert_eq!(next, vec![8, 16, 24, 0, 8]);
        assert_eq!(indices_read(0, &next), vec![0, 8, 16, 24, 0]);
        assert!(indices_read(3, &[]).is_empty());
    }

    #[test]
    fn chase_plan_checks_and_reduces() {
        let p = ChasePlan::new(32, 4096, 256).unwrap();
        assert_eq!(
            p,
            ChasePlan {
                words: 1024,
                stride_words: 8,
                warmup: 128,
                record: 256
            }
        );
        assert_eq!(p.shared_bytes(false), 2048);
        assert_eq!(p.shared_bytes(true), 2048 + 4096);
        // A stride beyond the footprint is the same chase as its remainder.
        assert_eq!(ChasePlan::new(4096 + 32, 4096, 1).unwrap().stride_words, 8);
        assert!(ChasePlan::new(6, 4096, 1).is_err());
        assert!(ChasePlan::new(4, 4098, 1).is_err());
        assert!(ChasePlan::new(4, 0, 1).is_err());
        assert!(ChasePlan::new(4, 4096, 0).is_err());
        assert!(ChasePlan::new(4, 4096, MAX_RECORDED + 1).is_err());
        assert!(ChasePlan::new(4, 4096, MAX_RECORDED).is_ok());
        // 1 GiB at 4 B is 2^28 accesses: warmed up only in part.
        assert_eq!(
            ChasePlan::new(4, 1 << 30, 16).unwrap().warmup as u64,
            MAX_CHASE_WARMUP
        );
        assert_eq!(ChasePlan::new(4096, 1 << 30, 16).unwrap().warmup, 1 << 18);
        assert_eq!(chase_shared_bytes(MAX_RECORDED, None), 32 * 1024);
    }

    #[test]
    fn sectors_of_a_block_are_the_sum_over_its_warps() {
        for c in COALESCING_DEGREES {
            for threads in 1..=1024u32 {
                let by_warp: u32 = (0..threads.div_ceil(32))
                    .map(|w| sectors_per_warp((threads - 32 * w).min(32), c))
                    .sum();
                assert_eq!(sectors_per_block(threads, c), by_warp, "{threads} {c}");
            }
        }
        // A full warp: 32 sectors uncoalesced, 4 with 8 threads per sector.
        assert_eq!(sectors_per_warp(32, 1), 32);
        assert_eq!(sectors_per_warp(32, 4), 8);
        assert_eq!(sectors_per_warp(32, 8), 4);
        assert_eq!(sectors_per_warp(5, 4), 2);
    }

    #[test]
    fn throughput_bytes_count_sectors_and_words() {
        // 2 blocks x 64 threads x 10 iterations, 4 threads per sector:
        // 16 sectors a block per iteration.
        assert_eq!(throughput_bytes(2, 64, 4, 10), 2 * 16 * 32 * 10);
        assert_eq!(useful_bytes(2, 64, 10), 2 * 64 * 4 * 10);
        // Fully coalesced, sectors carry only useful bytes.
        assert_eq!(throughput_bytes(3, 96, 8, 7), useful_bytes(3, 96, 7));
        // Uncoalesced, 8 times as many.
        assert_eq!(throughput_bytes(3, 96, 1, 7), 8 * useful_bytes(3, 96, 7));
    }

    /// The plan of a throughput request given field by field.
    fn throughput_plan(
        target: ThroughputTarget,
        blocks: u32,
        threads: u32,
        coalescing: u32,
        working_set_bytes: u64,
        iterations: u32,
    ) -> Result<ThroughputPlan, String> {
        ThroughputPlan::new(ThroughputRequest {
            target,
            blocks,
            threads,
            coalescing,
            working_set_bytes,
            iterations,
        })
    }

    #[test]
    fn throughput_plan_checks_the_working_set() {
        use ThroughputTarget::*;
        let p = throughput_plan(Dram, 4, 256, 2, 1 << 20, 100).unwrap();
        assert_eq!(p.sectors, (1 << 20) / 32);
        assert_eq!(p.step, 4 * 128);
        assert_eq!(p.warmup_iterations(), 64);
        assert_eq!(p.next_start(0, 10), 5120);
        assert_eq!(p.next_start(32000, 10), (32000 + 5120) % 32768);
        // Shared: one block's iteration must fit.
        let s = throughput_plan(Shared, 1000, 1024, 1, 32 * 1024, 1).unwrap();
        assert_eq!(s.step, 1024);
        assert!(throughput_plan(Shared, 1, 1024, 1, 16 * 1024, 1).is_err());
        assert!(throughput_plan(L2, 1000, 1024, 1, 16 << 20, 1).is_err());
        assert!(throughput_plan(L2, 1, 32, 3, 1 << 20, 1).is_err());
        assert!(throughput_plan(L2, 1, 32, 16, 1 << 20, 1).is_err());
        assert!(throughput_plan(L2, 1, 1025, 1, 1 << 20, 1).is_err());
        assert!(throughput_plan(L2, 1, 32, 1, 1000, 1).is_err());
        assert!(throughput_plan(L2, 0, 32, 1, 1 << 20, 1).is_err());
    }

    #[test]
    fn embedded_ptx_defines_every_kernel() {
        assert!(PROBE_PTX.contains(".target sm_80"));
        for name in KERNEL_NAMES {
            assert!(
                PROBE_PTX.contains(&format!(".entry {name}(")),
                "{name} missing from the PTX"
            );
        }
    }

    #[test]
    fn open_without_a_driver_says_so() {
        if !driver_present() {
            assert!(matches!(ProbeGpu::open(), Err(GpuError::NoDriver)));
        }
    }
}

//! Options of the transformation, shared by the plugin (`-mllvm -sl1-*`), the
//! driver and the tests; `option_list` spells each for the plugin.

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::rates::MemoryRates;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    /// Accesses each thread simulates before deciding what to cache (paper: 300).
    pub threshold: u32,
    /// Cache line size in bytes (paper: 16); the smallest a launch uses.
    pub line_size: u32,
    /// The largest line size a launch may use: per launch the decision picks
    /// the largest power of two from `line_size` up to this that gives every
    /// structure of the loop a line for every thread of the block (32 B, the
    /// memory sector of current GPUs, by default; equal to `line_size`, the
    /// size is fixed).
    #[serde(default = "default_max_line_size")]
    pub max_line_size: u32,
    /// The largest line size in kernels whose sliced loops only read: their
    /// fills come from the stage, loaded a run ahead, and a longer line
    /// makes longer runs (64 B by default; `max_line_size` when line sizes
    /// are given).
    #[serde(default = "default_read_only_max_line_size")]
    pub read_only_max_line_size: u32,
    /// The largest line size in kernels whose sliced loops only stream:
    /// every cached structure only read or only written, each byte it
    /// passes once, all by one stride, in counted line runs (128 B by
    /// default; `max_line_size` when line sizes are given).
    #[serde(default = "default_stream_max_line_size")]
    pub stream_max_line_size: u32,
    /// When false the pass analyses and reports but leaves kernels untouched.
    pub transform: bool,
    /// Block size the shared-memory buffer is provisioned for when the kernel
    /// has no `__launch_bounds__`.
    pub max_threads: u32,
    /// Insert everything but let the decision cache nothing: the cost of the
    /// inserted code alone (the paper's overhead experiment, Fig. 14).
    #[serde(default)]
    pub force_uncached: bool,
    /// Cache read-only restrict arguments too, as the paper does. Off by
    /// default: a thread streaming through a read-only array needs one 32 B
    /// sector of the hardware L1 at a time, which a modern L1 (up to 256 KiB
    /// per SM) holds for every resident thread; caching it in shared memory
    /// only adds work there (measured on the H100, docs/benchmarks.md).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cache_read_only: bool,
    /// Count simulated and real hits and misses per data structure into a
    /// global the host can read (`sl1_stats_<kernel>`; layout in
    /// `transform::stats`). Off by default: the counting costs time.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub stats: bool,
    /// Decide statically for structures whose hit rate follows from their
    /// addresses (a constant stride per iteration): no monitoring slice when
    /// every structure of a loop is predicted, and structures predicted to
    /// hit too rarely stay direct. Off (and with `force_uncached`), every
    /// loop is monitored as in the paper.
    #[serde(default = "yes")]
    pub static_prediction: bool,
    /// On a fill, also ask L2 for the memory 128 bytes further on (a unit
    /// stride structure's next lines), so that later fills wait less.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub prefetch: bool,
    /// In the all-cached copy of a loop whose structures all move by a
    /// positive stride in the loop itself, run the iterations that stay in
    /// the resident lines as an inner loop without tag checks (line runs).
    /// Off, every access checks its tag.
    #[serde(default = "yes")]
    pub line_runs: bool,
    /// Pad each line in shared memory so that a warp's threads reading the
    /// same offset of their lines hit different banks. Off, lines are packed
    /// and byte accesses of a warp to 32 B lines conflict eight ways.
    #[serde(default = "yes")]
    pub line_padding: bool,
    /// In counted line runs, load the next line of each read-only structure
    /// into registers when a run starts, so that its fill after the run
    /// does not wait on memory. Off, fills load when they miss.
    #[serde(default = "yes")]
    pub line_staging: bool,
    /// In counted line runs, a run over the rest of every structure's line
    /// after an access at its first byte runs in an unrolled copy whose
    /// accesses sit at constant offsets, so that neighbouring byte accesses
    /// merge into 4-byte ones. Off, every run is the same loop.
    #[serde(default = "yes")]
    pub full_runs: bool,
    /// When a whole warp fills or writes back lines of 32 B or more at once,
    /// its lanes move the lines together, neighbouring lanes neighbouring
    /// 16 B, so that each memory request covers whole sectors. Off, each
    /// thread copies its own line.
    #[serde(default = "yes")]
    pub warp_copies: bool,
    /// A loop whose iterations are independent over each thread's
    /// contiguous chunk gets a copy a whole warp runs over the union of its
    /// lanes' chunks, 16 bytes a lane at a time, entered when a run-time
    /// check finds the chunks adjacent (`transform::warp_ranges`). Written
    /// in a report only when off.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub warp_ranges: bool,
    /// Device tuning, not part of S-L1 itself (`tuning`): small switches
    /// that only choose values become selects, and divisions that nested
    /// loops build on are frozen, in every function of the module, also when
    /// `transform` is off. The driver turns it on with its other device
    /// options.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub device_tuning: bool,
    /// With `device_tuning`: in kernels the S-L1 transform left alone, merge
    /// each top-level loop with its inner loops whose exit tests depend on
    /// loaded data, so that a warp's threads advance together whatever loop
    /// each is in (`tuning::merge_divergent_loops`).
    #[serde(default = "yes")]
    pub loop_merging: bool,
    /// With `device_tuning`: loops of kernels whose pointer arguments may
    /// alias get a copy behind run-time alias checks
    /// (`tuning::check_aliases`). Written in a report only when off.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub alias_checks: bool,
    /// With `device_tuning`: unrolled loops that read adjacent elements get
    /// a copy reading them 16 bytes at a time, entered where the first
    /// address is aligned (`tuning::vectorize_aligned_loads`).
    #[serde(default = "yes")]
    pub vector_loads: bool,
    /// With `device_tuning`: small grid-stride loops (a step known at run
    /// time only) get an unroll count of 4, as nvcc unrolls them
    /// (`tuning::unroll_strided_loops`). Written in a report only when off.
    #[serde(default = "yes", skip_serializing_if = "is_yes")]
    pub strided_unroll: bool,
    /// With `device_tuning`: inner loops whose start moves with the
    /// enclosing loop count their trips from zero, to a trip count computed
    /// before them that LLVM's runtime unroller can afford
    /// (`tuning::count_trips`). Off until timed on the GPU.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub counted_trips: bool,
    /// Shared memory, in bytes, the line buffer and the kernel's own static
    /// shared memory may take together per block: at most the 48 KiB a block
    /// gets without opting in (the buffer is static; a compiled program's
    /// launches cannot be made to opt in), less on a GPU whose profile says
    /// so.
    #[serde(
        default = "default_shared_budget",
        skip_serializing_if = "is_default_shared_budget"
    )]
    pub shared_budget: u64,
    /// The most dynamic shared memory (`extern __shared__`), in bytes, a
    /// launch of the module's kernels gives. A kernel that uses dynamic
    /// shared memory gets a line buffer only when this is given: the buffer
    /// is static, and a launch fails when the two together pass the block's
    /// limit, so it takes the budget less this. Without it such kernels stay
    /// untransformed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_shared: Option<u64>,
    /// The line buffer lives in dynamic shared memory and each launch gives
    /// it the bytes its block needs (`LaunchBytes` in the report; the host
    /// compile adds them to the launches it sees, `launch::size_launches`),
    /// instead of a static buffer sized for `max_threads` threads: a block
    /// of six threads then holds 120 B, not 20 KiB, and an SM as many blocks
    /// as without S-L1. A launch that gives less caches for fewer threads,
    /// none when it gives nothing. Kernels with dynamic shared memory of
    /// their own keep the static buffer.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub launch_sized: bool,
    /// The GPU profile the line sizes and budget came from, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_profile: Option<String>,
    /// The L2 and device-memory bandwidths the gain bound compares: the
    /// GPU profile's when it measured them, else the H100's.
    #[serde(default)]
    pub memory_rates: MemoryRates,
    /// Tests only: fail (panic) after transforming this kernel, and after
    /// merging its loops, to check that the kernel is then left exactly as
    /// it was.
    #[serde(skip)]
    pub fail_kernel_for_testing: Option<String>,
}

/// Static shared memory a kernel may use without opting in (48 KiB).
pub const STATIC_SHARED_LIMIT: u64 = 48 * 1024;

fn default_shared_budget() -> u64 {
    STATIC_SHARED_LIMIT
}

fn is_default_shared_budget(budget: &u64) -> bool {
    *budget == STATIC_SHARED_LIMIT
}

fn is_yes(on: &bool) -> bool {
    *on
}

fn yes() -> bool {
    true
}

fn default_max_line_size() -> u32 {
    32
}

fn default_read_only_max_line_size() -> u32 {
    64
}

fn default_stream_max_line_size() -> u32 {
    128
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: 300,
            line_size: 16,
            max_line_size: default_max_line_size(),
            read_only_max_line_size: default_read_only_max_line_size(),
            stream_max_line_size: default_stream_max_line_size(),
            transform: true,
            max_threads: 1024,
            force_uncached: false,
            cache_read_only: false,
            stats: false,
            static_prediction: true,
            prefetch: false,
            line_runs: true,
            line_padding: true,
            line_staging: true,
            full_runs: true,
            warp_copies: true,
            warp_ranges: true,
            device_tuning: false,
            loop_merging: true,
            alias_checks: true,
            vector_loads: true,
            strided_unroll: true,
            counted_trips: false,
            shared_budget: STATIC_SHARED_LIMIT,
            dynamic_shared: None,
            launch_sized: false,
            gpu_profile: None,
            memory_rates: MemoryRates::default(),
            fail_kernel_for_testing: None,
        }
    }
}

/// Line sizes the runtime supports: powers of two, so that a line is an
/// aligned block and never reaches outside the allocation of a byte it holds.
/// (24-byte lines, the paper's odd size, can straddle a page boundary at the
/// edge of an allocation; on the H100 that faulted for matmul.)
pub const LINE_SIZES: [u32; 5] = [8, 16, 32, 64, 128];

impl Options {
    /// The line sizes a launch may use, smallest first: powers of two from
    /// `line_size` to `max_line_size`.
    pub fn line_sizes(&self) -> Vec<u32> {
        std::iter::successors(Some(self.line_size), |s| Some(s * 2))
            .take_while(|&s| s <= self.max_line_size)
            .collect()
    }

    pub fn validate(&self) -> Result<(), Error> {
        if !LINE_SIZES.contains(&self.line_size) {
            return Err(Error::InvalidOption(format!(
                "line size {} B is not supported; use one of {:?}",
                self.line_size, LINE_SIZES
            )));
        }
        if !LINE_SIZES.contains(&self.max_line_size) || self.max_line_size < self.line_size {
            return Err(Error::InvalidOption(format!(
                "largest line size {} B must be one of {:?} and at least the line size ({} B)",
                self.max_line_size, LINE_SIZES, self.line_size
            )));
        }
        for (largest, loops) in [
            (self.read_only_max_line_size, "read"),
            (self.stream_max_line_size, "stream"),
        ] {
            if !LINE_SIZES.contains(&largest) || largest < self.line_size {
                return Err(Error::InvalidOption(format!(
                    "largest line size of loops that only {loops}, {largest} B, must be one of \
                     {LINE_SIZES:?} and at least the line size ({} B)",
                    self.line_size
                )));
            }
        }
        if self.max_threads == 0 || self.max_threads > 1024 {
            return Err(Error::InvalidOption(format!(
                "max threads {} is not a CUDA block size (1-1024)",
                self.max_threads
            )));
        }
        if !(1024..=STATIC_SHARED_LIMIT).contains(&self.shared_budget) {
            return Err(Error::InvalidOption(format!(
                "shared-memory budget {} B must be 1 KiB to {} KiB (the static shared memory a \
                 block gets without opting in)",
                self.shared_budget,
                STATIC_SHARED_LIMIT / 1024
            )));
        }
        if self.dynamic_shared.is_some_and(|d| d >= self.shared_budget) {
            return Err(Error::InvalidOption(format!(
                "dynamic shared memory {} B leaves nothing of the {} B shared-memory budget for \
                 lines; give less, or leave the option out to keep such kernels untransformed",
                self.dynamic_shared.unwrap_or_default(),
                self.shared_budget
            )));
        }
        if self.threshold == 0 {
            return Err(Error::InvalidOption(
                "threshold must be at least 1 access".to_string(),
            ));
        }
        Ok(())
    }
}

//! What the probe measures, as plain data: the GPU's own figures, every
//! pointer-chase run with each access's latency, shared-memory stride runs
//! and throughput sweeps. The runner (`run`) fills it on the GPU; inference
//! (`infer`), the summary, the plots and the JSON file read it.

use serde::{Deserialize, Serialize};

/// Figures the driver reports for the device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DeviceInfo {
    pub name: String,
    /// Compute capability, e.g. (9, 0).
    pub compute_capability: (u32, u32),
    pub sm_count: u32,
    /// SM clock in kHz (to turn cycles into nanoseconds).
    pub clock_khz: u32,
    /// Static shared memory a block may use without opting in.
    pub shared_per_block: u64,
    /// Shared memory a block may use after opting in.
    pub shared_per_block_optin: u64,
    pub shared_per_sm: u64,
    pub l2_bytes: u64,
    pub max_threads_per_sm: u32,
    pub warp_size: u32,
}

/// Which load a pointer chase uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChasePath {
    /// `ld.global.ca`: cached in L1 and L2.
    L1,
    /// `ld.global.cg`: cached in L2 only.
    L2,
    /// `ld.global.nc`: the read-only (texture) path.
    ReadOnly,
    /// `ld.shared`: shared memory.
    Shared,
}

impl ChasePath {
    pub const ALL: [ChasePath; 4] = [
        ChasePath::L1,
        ChasePath::L2,
        ChasePath::ReadOnly,
        ChasePath::Shared,
    ];

    pub fn label(self) -> &'static str {
        match self {
            ChasePath::L1 => "L1 (ld.global.ca)",
            ChasePath::L2 => "L2 (ld.global.cg)",
            ChasePath::ReadOnly => "read-only (ld.global.nc)",
            ChasePath::Shared => "shared (ld.shared)",
        }
    }
}

/// One fine-grained pointer chase: a single thread walks an array of 32-bit
/// words with `array[j] = (j + stride) % words` (`stride_bytes` apart,
/// `footprint_bytes` in all), once to warm the caches, then timed: every
/// access's latency in cycles (`clock`, the store of the index to shared
/// memory included) and the word index it read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ChaseRun {
    pub path: ChasePath,
    pub stride_bytes: u64,
    pub footprint_bytes: u64,
    pub latencies: Vec<u32>,
    pub indices: Vec<u32>,
}

/// A warp reading shared memory with thread `t` at word `t * stride_words`
/// (words of `word_bytes`, 4 or 8): average cycles per access.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SharedStrideRun {
    pub word_bytes: u32,
    pub stride_words: u32,
    pub cycles_per_access: f64,
}

/// Where a throughput sweep reads from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ThroughputTarget {
    /// A working set that fits in L2 (read repeatedly after a warm-up).
    L2,
    /// A working set many times the L2 (every read misses it).
    Dram,
    /// Shared memory.
    Shared,
}

impl ThroughputTarget {
    pub fn label(self) -> &'static str {
        match self {
            ThroughputTarget::L2 => "L2",
            ThroughputTarget::Dram => "device memory",
            ThroughputTarget::Shared => "shared memory",
        }
    }
}

/// One throughput launch to measure: `blocks` x `threads` threads read
/// `iterations` 4-byte words each, `coalescing` neighbouring threads in one
/// 32-byte sector, from a buffer of `working_set_bytes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThroughputRequest {
    pub target: ThroughputTarget,
    pub blocks: u32,
    pub threads: u32,
    pub coalescing: u32,
    pub working_set_bytes: u64,
    pub iterations: u32,
}

/// One point of a throughput sweep: `blocks` x `threads` threads read
/// 4-byte words with `coalescing` neighbouring threads of a warp in one
/// 32-byte sector (1: every thread its own sector; 8: a warp reads 4 full
/// sectors). `bytes` counts the sectors moved (the paper's "bytes
/// transferred"), `useful_bytes` the words the threads used.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ThroughputPoint {
    pub target: ThroughputTarget,
    pub blocks: u32,
    pub threads: u32,
    pub coalescing: u32,
    pub bytes: u64,
    pub useful_bytes: u64,
    pub seconds: f64,
}

impl ThroughputPoint {
    /// Bytes moved per second, in GB/s (10^9).
    pub fn gbps(&self) -> f64 {
        if self.seconds > 0.0 {
            self.bytes as f64 / self.seconds / 1e9
        } else {
            0.0
        }
    }
}

/// Everything one probe run measured.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ProbeData {
    pub device: DeviceInfo,
    /// "quick" or "full".
    pub mode: String,
    pub chases: Vec<ChaseRun>,
    pub shared_strides: Vec<SharedStrideRun>,
    pub throughput: Vec<ThroughputPoint>,
}

//! The GPU profile: the JSON file a probe run writes. It carries S-L1's
//! parameters derived from the measurements (`sl1`, the part the pass reads
//! with `-sl1-gpu-profile` / `sl1-driver build --gpu-profile`), what was
//! inferred, and every measurement, so that `--from` can redo the inference,
//! the summary and the plots without a GPU.

use serde::{Deserialize, Serialize};

use super::data::{ChasePath, DeviceInfo, ProbeData, ThroughputTarget};
use super::infer::Inferred;

// The line sizes the pass supports and the static shared memory a block
// may use without opting in (the line buffer is static, and a compiled
// program's launches cannot be made to opt in), from the LLVM-free core.
use sl1_core::options::{LINE_SIZES, STATIC_SHARED_LIMIT};

/// The largest line size a profile recommends.
const MOST_PROFILED_LINE: u32 = 64;

/// What the pass reads (`sl1_core::profile::ProfileParameters`), with why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sl1Parameters {
    pub line_size: u32,
    pub max_line_size: u32,
    pub shared_budget_bytes: u64,
    /// The L2's and device memory's bandwidth, GB/s, at the fewest threads
    /// per sector measured (one, a thrashing L1's case): the gain bound's
    /// rates. None where the probe measured no throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub l2_gb_per_s: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device_gb_per_s: Option<u32>,
    /// How each value follows from the measurements, for people.
    pub why: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Profile {
    /// The tool and version that wrote the file.
    pub tool: String,
    pub device: DeviceInfo,
    pub sl1: Sl1Parameters,
    pub inferred: Inferred,
    pub data: ProbeData,
}

impl Profile {
    pub fn new(data: ProbeData, inferred: Inferred) -> Profile {
        Profile {
            tool: format!("sl1-driver probe {}", env!("CARGO_PKG_VERSION")),
            device: data.device.clone(),
            sl1: derive(&data.device, &inferred),
            inferred,
            data,
        }
    }
}

/// S-L1's parameters from what was measured:
/// - the largest line is the unit one miss brings into the SM's L1 (the
///   fill unit: a line smaller than it wastes what the memory sends anyway,
///   a larger one takes two requests), as a supported power of two;
/// - the smallest line is half of that, at least 8 B and at most 16 B (the
///   widest single load), for blocks too large to give each thread a full
///   line;
/// - the budget is the static shared memory a block may use, at most 48 KiB.
pub fn derive(device: &DeviceInfo, inferred: &Inferred) -> Sl1Parameters {
    let mut why = Vec::new();
    let fill = [ChasePath::L1, ChasePath::ReadOnly, ChasePath::L2]
        .iter()
        .find_map(|&path| {
            inferred
                .caches
                .iter()
                .find(|c| c.path == path)
                .and_then(|c| c.fill_bytes)
                .map(|f| (path, f))
        });
    let max_line_size = match fill {
        Some((path, bytes)) => {
            let line = nearest_line_size(bytes);
            why.push(format!(
                "largest line {line} B: a miss through {} fills {bytes} B",
                path.label()
            ));
            line
        }
        None => {
            why.push("largest line 32 B: no fill unit was measured (the default)".into());
            32
        }
    };
    let line_size = (max_line_size / 2).clamp(8, 16).min(max_line_size);
    why.push(format!(
        "smallest line {line_size} B: half the largest, 8 to 16 B (the widest load)"
    ));
    let per_block = if device.shared_per_block > 0 {
        device.shared_per_block
    } else {
        STATIC_SHARED_LIMIT
    };
    let shared_budget_bytes = per_block.min(STATIC_SHARED_LIMIT);
    why.push(format!(
        "shared-memory budget {shared_budget_bytes} B: the static shared memory a block may use \
         ({per_block} B reported, at most {STATIC_SHARED_LIMIT} B)"
    ));
    let rate = |target: ThroughputTarget| {
        let t = inferred
            .throughput
            .iter()
            .filter(|t| t.target == target)
            .min_by_key(|t| t.coalescing)?;
        Some((t.peak_gbps.round() as u32, t.coalescing))
    };
    let (l2, device) = (rate(ThroughputTarget::L2), rate(ThroughputTarget::Dram));
    if let (Some((l2, l2_way)), Some((device, device_way))) = (l2, device) {
        why.push(format!(
            "memory rates L2 {l2} GB/s ({l2_way} thread(s) per sector) and device memory \
             {device} GB/s ({device_way}): the peaks the gain bound compares"
        ));
    }
    Sl1Parameters {
        line_size,
        max_line_size,
        shared_budget_bytes,
        l2_gb_per_s: l2.map(|r| r.0),
        device_gb_per_s: device.map(|r| r.0),
        why,
    }
}

/// The supported line size closest to `bytes` (ties to the larger), up to
/// 64 B: 128 B lines are for kernels that stream bytes, and slow others
/// (docs/benchmarks.md), so a profile does not give them to every kernel.
fn nearest_line_size(bytes: u64) -> u32 {
    *LINE_SIZES
        .iter()
        .filter(|&&s| s <= MOST_PROFILED_LINE)
        .min_by_key(|&&s| {
            let d = (f64::from(s).log2() - (bytes.max(1) as f64).log2()).abs();
            ((d * 1000.0) as u64, u32::MAX - s)
        })
        .expect("line sizes")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_line_sizes() {
        assert_eq!(nearest_line_size(32), 32);
        assert_eq!(nearest_line_size(128), 64);
        assert_eq!(nearest_line_size(4), 8);
        assert_eq!(nearest_line_size(24), 32);
        assert_eq!(nearest_line_size(16), 16);
    }

    #[test]
    fn rates_come_from_the_fewest_threads_per_sector() {
        use crate::infer::ThroughputInference;
        let sweep = |target, coalescing, peak_gbps| ThroughputInference {
            target,
            coalescing,
            peak_gbps,
            peak_blocks: 132,
            peak_threads: 1024,
            saturating_threads: None,
        };
        let inferred = Inferred {
            throughput: vec![
                sweep(ThroughputTarget::L2, 4, 7100.0),
                sweep(ThroughputTarget::L2, 1, 7918.4),
                sweep(ThroughputTarget::Dram, 1, 3101.0),
                sweep(ThroughputTarget::Shared, 1, 33219.0),
            ],
            ..Inferred::default()
        };
        let p = derive(&DeviceInfo::default(), &inferred);
        assert_eq!((p.l2_gb_per_s, p.device_gb_per_s), (Some(7918), Some(3101)));
        assert!(p.why.iter().any(|w| w.contains("7918 GB/s")), "{:?}", p.why);
        // Nothing measured, nothing claimed: the pass keeps its own rates.
        let none = derive(&DeviceInfo::default(), &Inferred::default());
        assert_eq!((none.l2_gb_per_s, none.device_gb_per_s), (None, None));
    }
}

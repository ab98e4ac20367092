//! The bandwidths the pass's gain bound compares (`transform/cost.rs` in
//! sl1-pass): the L2's, at which a thrashing L1 fetches a sector for each
//! lane, and device memory's, which every byte of a stream passes once.
//! They differ by GPU (the H200's device memory is faster than the H100's
//! behind the same L2), and so does what a line can gain: a GPU profile
//! gives the rates its probe measured; without one the H100's hold.

use serde::{Deserialize, Serialize};

/// Two bandwidths in GB/s (whole numbers: `Options` compares as `Eq`), and
/// where they came from, which the report names.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryRates {
    /// The L2's, one thread per 32-byte sector (the probe's 1-way figure).
    pub l2_gb_per_s: u32,
    /// Device memory's, one thread per sector.
    pub device_gb_per_s: u32,
    /// `H100 (sl1-probe, 2026-11-23)`, or the profile's path and GPU.
    pub from: String,
}

/// The H100's (80GB HBM3, `sl1-probe` 2026-11-23, docs/probe.md: L2 7.9
/// TB/s and device memory 3.10 TB/s, one thread per sector): the rates
/// when no GPU profile gives others.
pub fn h100() -> MemoryRates {
    MemoryRates {
        l2_gb_per_s: 7900,
        device_gb_per_s: 3100,
        from: "H100 (sl1-probe, 2026-11-23; a GPU profile gives others)".into(),
    }
}

/// The H200's (141GB HBM3e, `sl1-probe --quick` 2026-11-29,
/// docs/results/2026-11-29-h200-probe-quick-1way-4879aae.txt: L2 8.60
/// TB/s and device memory 4.53 TB/s, one thread per sector): its device
/// memory is 1.46x the H100's behind an L2 1.09x as fast, so a line saves
/// less against it.
pub fn h200() -> MemoryRates {
    MemoryRates {
        l2_gb_per_s: 8595,
        device_gb_per_s: 4526,
        from: "H200 (sl1-probe --quick, 2026-11-29; named by --gpu-profile h200)".into(),
    }
}

/// Makes one GPU's rates.
pub type RatesOf = fn() -> MemoryRates;

/// The GPUs whose rates S-L1 carries, by the name `--gpu-profile` takes.
pub const KNOWN_GPUS: &[(&str, RatesOf)] = &[("h100", h100), ("h200", h200)];

/// The rates of the GPU `name` (`h100`, `h200`, any case), if S-L1 has
/// them.
pub fn of_gpu(name: &str) -> Option<MemoryRates> {
    KNOWN_GPUS
        .iter()
        .find(|(known, _)| known.eq_ignore_ascii_case(name))
        .map(|(_, rates)| rates())
}

impl Default for MemoryRates {
    fn default() -> Self {
        h100()
    }
}

impl MemoryRates {
    /// Bytes per second of the L2.
    pub fn l2_bytes_per_s(&self) -> f64 {
        f64::from(self.l2_gb_per_s) * 1e9
    }

    /// Bytes per second of device memory.
    pub fn device_bytes_per_s(&self) -> f64 {
        f64::from(self.device_gb_per_s) * 1e9
    }
}

impl std::fmt::Display for MemoryRates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "L2 {:.2} TB/s, device memory {:.2} TB/s: {}",
            f64::from(self.l2_gb_per_s) / 1000.0,
            f64::from(self.device_gb_per_s) / 1000.0,
            self.from
        )
    }
}

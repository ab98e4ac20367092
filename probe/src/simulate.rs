//! A whole simulated GPU for the runner, built from the cache models
//! (`cache_model`), and the profile a quick probe run of it writes: tests of
//! the probe, the command line and the pass's reading of a profile run on it.

use super::cache_model::{chase, shared_runs, throughput_curve, CacheConfig, ChaseSpec, Timing};
use super::data::{
    ChasePath, ChaseRun, DeviceInfo, SharedStrideRun, ThroughputPoint, ThroughputRequest,
    ThroughputTarget,
};
use super::infer::infer;
use super::plan::Plan;
use super::profile::Profile;
use super::run::{run, Device};
use sl1_gpu_base::device::GpuError;

/// A whole simulated GPU for the runner (`run::Device`): an L1 that the L1
/// and read-only paths share, an L2 behind it, a conflict-modelled shared
/// memory and saturating throughput. Lets tests run a full plan and check
/// that inference gives back the simulated geometry.
pub struct SimulatedGpu {
    pub device: DeviceInfo,
    pub l1: CacheConfig,
    pub l2: CacheConfig,
    /// L1 hit and miss (an L2 hit) cycles.
    pub l1_timing: Timing,
    /// L2 hit and miss (device memory) cycles.
    pub l2_timing: Timing,
}

impl SimulatedGpu {
    /// A small GPU: a 32 KiB, 4-way L1 of 128 B lines filled 32 B at a
    /// time, a 16-way 1 MiB L2, noisy latencies.
    pub fn example() -> SimulatedGpu {
        const KIB: u64 = 1024;
        SimulatedGpu {
            device: DeviceInfo {
                name: "simulated GPU".into(),
                compute_capability: (9, 0),
                sm_count: 4,
                clock_khz: 1_000_000,
                shared_per_block: 48 * KIB,
                shared_per_block_optin: 96 * KIB,
                shared_per_sm: 100 * KIB,
                l2_bytes: 1024 * KIB,
                max_threads_per_sm: 2048,
                warp_size: 32,
            },
            l1: CacheConfig::lru(32 * KIB, 128, 32, 4),
            l2: CacheConfig::lru(1024 * KIB, 128, 32, 16),
            l1_timing: Timing::noisy(35, 250),
            l2_timing: Timing::noisy(250, 600),
        }
    }

    /// The profile a quick probe run of [`SimulatedGpu::example`] writes
    /// (for tests of the command line and of the pass's reading of it).
    pub fn example_profile() -> Profile {
        let gpu = SimulatedGpu::example();
        let plan = Plan::new(&gpu.device, true);
        let bar = indicatif::ProgressBar::hidden();
        let data = run(&gpu, &plan, true, &bar).expect("the simulation cannot fail");
        Profile::new(data.clone(), infer(&data))
    }
}

impl Device for SimulatedGpu {
    fn device_info(&self) -> Result<DeviceInfo, GpuError> {
        Ok(self.device.clone())
    }

    fn chase(
        &self,
        path: ChasePath,
        stride_bytes: u64,
        footprint_bytes: u64,
        record: usize,
    ) -> Result<ChaseRun, GpuError> {
        let spec = ChaseSpec {
            path,
            stride_bytes,
            footprint_bytes,
            timed_passes: 1,
            record_limit: record,
        };
        let seed = stride_bytes ^ footprint_bytes.rotate_left(17);
        Ok(match path {
            ChasePath::L1 | ChasePath::ReadOnly => chase(&self.l1, &spec, &self.l1_timing, seed),
            ChasePath::L2 => chase(&self.l2, &spec, &self.l2_timing, seed),
            ChasePath::Shared => {
                let all_hit = Timing::clean(self.l1_timing.hit - 5, self.l1_timing.hit - 5);
                chase(&self.l1, &spec, &all_hit, seed)
            }
        })
    }

    fn shared_stride(
        &self,
        word_bytes: u32,
        stride_words: u32,
    ) -> Result<SharedStrideRun, GpuError> {
        Ok(shared_runs(&[word_bytes], &[stride_words], 30.0, 2.0).remove(0))
    }

    fn throughput(&self, request: ThroughputRequest) -> Result<ThroughputPoint, GpuError> {
        let ThroughputRequest {
            target,
            blocks,
            threads,
            coalescing,
            ..
        } = request;
        let (peak, half) = match target {
            ThroughputTarget::L2 => (8000.0, 20000.0),
            ThroughputTarget::Dram => (3000.0, 30000.0),
            ThroughputTarget::Shared => (20000.0, 10000.0),
        };
        Ok(throughput_curve(target, coalescing, &[blocks], &[threads], peak, half).remove(0))
    }
}

#[cfg(test)]
mod tests {
    use indicatif::ProgressBar;

    use super::*;
    use crate::infer::{self, Capacity};
    use crate::summary;

    const KIB: u64 = 1024;

    #[test]
    fn a_quick_run_on_a_simulated_gpu_gives_back_its_caches() {
        let gpu = SimulatedGpu::example();
        let plan = Plan::new(&gpu.device, true);
        let bar = ProgressBar::hidden();
        let data = run(&gpu, &plan, true, &bar).unwrap();
        assert_eq!(data.mode, "quick");
        // The coarse sweep doubles; the refinement bisects to the stride.
        let l1_runs = data
            .chases
            .iter()
            .filter(|r| r.path == ChasePath::L1)
            .count();
        assert!(
            l1_runs > plan.footprints[0].footprints.len() + 8,
            "{l1_runs} L1 runs"
        );
        let inferred = infer::infer(&data);
        let l1 = inferred
            .caches
            .iter()
            .find(|c| c.path == ChasePath::L1)
            .unwrap();
        assert_eq!(l1.capacity, Capacity::Exact(32 * KIB));
        assert_eq!(l1.fill_bytes, Some(32));
        assert_eq!((l1.line_bytes, l1.ways), (Some(128), Some(4)));
        let l2 = inferred
            .caches
            .iter()
            .find(|c| c.path == ChasePath::L2)
            .unwrap();
        // A 16-way MiB overflowing by a line misses 17 lines in 8192
        // accesses: within the noise tolerance, so found to a few lines.
        let l2_capacity = l2.capacity.exact().unwrap();
        assert!(
            (1024 * KIB..=1024 * KIB + 10 * KIB).contains(&l2_capacity),
            "{l2_capacity}"
        );
        let shared = inferred.shared.as_ref().unwrap();
        assert_eq!(shared.banks.zip(shared.bank_bytes), Some((32, 4)));
        let profile = Profile::new(data, inferred);
        assert_eq!(
            (
                profile.sl1.line_size,
                profile.sl1.max_line_size,
                profile.sl1.shared_budget_bytes
            ),
            (16, 32, 48 * KIB)
        );
        let text = summary::text(&profile);
        assert!(
            text.contains("capacity 32 KiB; fill unit 32 B; line 128 B; 4 ways"),
            "{text}"
        );
        assert!(
            text.contains("S-L1: lines 16-32 B, shared-memory budget 48 KiB"),
            "{text}"
        );
    }
}

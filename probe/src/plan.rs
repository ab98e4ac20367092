//! What a probe run measures: footprints, strides and launch shapes, for the
//! one-minute `--quick` mode and the full one. Pure data, so that tests can
//! check a plan without a GPU.

use super::data::{ChasePath, DeviceInfo, ThroughputTarget};

/// Sweeps of one probe run.
#[derive(Clone, Debug, PartialEq)]
pub struct Plan {
    /// Pointer chases through each path, before any inference: footprints
    /// for the capacity, at a stride no larger than a line.
    pub footprints: Vec<FootprintSweep>,
    /// Strides of the fill-unit sweep, run at a footprint several times the
    /// capacity once the capacity is known.
    pub fill_strides: Vec<u64>,
    /// How many lines past the capacity the overflow sweep goes (the paper's
    /// N = C + k b runs for line size and associativity).
    pub overflow_steps: u32,
    /// Accesses recorded per chase (the rest of a long pass runs unrecorded).
    /// The records wait in shared memory (8 B each), which takes them out of
    /// the L1 on GPUs that share the storage: 2048 keep that to 16 KiB.
    pub record: usize,
    /// Shared-memory stride runs: word sizes and strides in words.
    pub shared_word_bytes: Vec<u32>,
    pub shared_strides: Vec<u32>,
    pub throughput: Vec<ThroughputSweep>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct FootprintSweep {
    pub path: ChasePath,
    pub stride_bytes: u64,
    pub footprints: Vec<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ThroughputSweep {
    pub target: ThroughputTarget,
    pub working_set_bytes: u64,
    pub blocks: Vec<u32>,
    pub threads: Vec<u32>,
    pub coalescing: Vec<u32>,
    /// Words each thread reads per launch.
    pub iterations: u32,
}

impl ThroughputSweep {
    pub fn points(&self) -> usize {
        self.blocks.len() * self.threads.len() * self.coalescing.len()
    }
}

const KIB: u64 = 1024;
const MIB: u64 = 1024 * KIB;

/// Geometric footprints from `from` to `to` (inclusive), `per_octave` a
/// doubling, each rounded to whole `stride`s.
pub fn geometric(from: u64, to: u64, per_octave: u32, stride: u64) -> Vec<u64> {
    let factor = 2f64.powf(1.0 / f64::from(per_octave.max(1)));
    let mut out: Vec<u64> = Vec::new();
    let mut x = from as f64;
    while x <= to as f64 * 1.0001 {
        let rounded = ((x / stride as f64).round() as u64).max(1) * stride;
        if out.last() != Some(&rounded) {
            out.push(rounded);
        }
        x *= factor;
    }
    out
}

impl Plan {
    pub fn new(device: &DeviceInfo, quick: bool) -> Plan {
        let per_octave = if quick { 1 } else { 4 };
        // L1 and the read-only path share the SM's 256 KiB (H100) with shared
        // memory; L2 is tens of MiB. Sweep past both, bounded by the L2 size
        // the driver reports.
        let l1_top = MIB;
        let l2 = device.l2_bytes.max(MIB);
        let l2_top = (l2 * 4).min(512 * MIB);
        let l1_sweep = |path| FootprintSweep {
            path,
            stride_bytes: 32,
            footprints: geometric(4 * KIB, l1_top, per_octave, 32),
        };
        let mut footprints = vec![l1_sweep(ChasePath::L1), l1_sweep(ChasePath::ReadOnly)];
        footprints.push(FootprintSweep {
            path: ChasePath::L2,
            stride_bytes: 128,
            footprints: geometric(l2 / 8, l2_top, per_octave, 128),
        });
        footprints.push(FootprintSweep {
            path: ChasePath::Shared,
            stride_bytes: 4,
            footprints: vec![4 * KIB],
        });
        let sms = device.sm_count.max(1);
        let blocks = if quick {
            vec![1, sms]
        } else {
            let mut b = vec![1, 2, 4, 8, 16, 32, 64];
            b.retain(|&x| x < sms);
            b.extend([sms, 2 * sms]);
            b
        };
        let threads = if quick {
            vec![32, 128, 512, 1024]
        } else {
            vec![32, 64, 128, 256, 512, 768, 1024]
        };
        // One thread per sector (1-way) in both: the rates S-L1's gain bound takes.
        let coalescing = if quick { vec![1] } else { vec![1, 2, 4, 8] };
        let sweep = |target, working_set_bytes, iterations| ThroughputSweep {
            target,
            working_set_bytes,
            blocks: blocks.clone(),
            threads: threads.clone(),
            coalescing: coalescing.clone(),
            iterations,
        };
        Plan {
            footprints,
            fill_strides: vec![4, 8, 16, 32, 64, 128, 256, 512],
            overflow_steps: 16,
            record: 2048,
            shared_word_bytes: vec![4, 8],
            shared_strides: if quick {
                vec![1, 2, 4, 8, 16, 32, 64]
            } else {
                (1..=64).collect()
            },
            throughput: vec![
                sweep(ThroughputTarget::L2, (l2 / 4).max(MIB), 256),
                sweep(
                    ThroughputTarget::Dram,
                    (l2 * 16).clamp(256 * MIB, 2048 * MIB),
                    256,
                ),
                sweep(ThroughputTarget::Shared, 32 * KIB, 4096),
            ],
        }
    }

    /// Runs the plan makes before inference can add its own (an estimate
    /// for the progress bar: each path's fill and overflow sweeps follow).
    pub fn steps(&self) -> u64 {
        let chases: usize = self.footprints.iter().map(|f| f.footprints.len()).sum();
        let global_paths = self
            .footprints
            .iter()
            .filter(|f| f.path != ChasePath::Shared)
            .count();
        let adaptive = global_paths * (self.fill_strides.len() + self.overflow_steps as usize);
        let shared = self.shared_word_bytes.len() * self.shared_strides.len();
        let throughput: usize = self.throughput.iter().map(ThroughputSweep::points).sum();
        (chases + adaptive + shared + throughput) as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h100() -> DeviceInfo {
        DeviceInfo {
            name: "H100".into(),
            sm_count: 132,
            l2_bytes: 50 * MIB,
            ..DeviceInfo::default()
        }
    }

    #[test]
    fn geometric_footprints_double_and_stay_on_strides() {
        assert_eq!(
            geometric(4096, 32768, 1, 32),
            vec![4096, 8192, 16384, 32768]
        );
        let fine = geometric(4096, 8192, 4, 32);
        assert_eq!(fine.first(), Some(&4096));
        assert_eq!(fine.last(), Some(&8192));
        assert_eq!(fine.len(), 5);
        assert!(fine.iter().all(|f| f % 32 == 0));
    }

    #[test]
    fn sweeps_reach_past_each_cache() {
        for quick in [true, false] {
            let plan = Plan::new(&h100(), quick);
            let l2 = plan
                .footprints
                .iter()
                .find(|f| f.path == ChasePath::L2)
                .unwrap();
            assert!(*l2.footprints.last().unwrap() > 50 * MIB);
            let l1 = plan
                .footprints
                .iter()
                .find(|f| f.path == ChasePath::L1)
                .unwrap();
            assert!(*l1.footprints.last().unwrap() >= 512 * KIB);
            let dram = plan
                .throughput
                .iter()
                .find(|t| t.target == ThroughputTarget::Dram)
                .unwrap();
            assert!(dram.working_set_bytes >= 4 * 50 * MIB);
            assert!(dram.blocks.contains(&132));
        }
    }

    #[test]
    fn the_quick_plan_is_much_smaller() {
        let quick = Plan::new(&h100(), true).steps();
        let full = Plan::new(&h100(), false).steps();
        assert!(quick * 4 < full, "quick {quick}, full {full}");
    }
}

//! The shared-memory carveout an S-L1 kernel's launch asks for: the split
//! of each SM's on-chip memory between shared memory and the hardware L1.
//!
//! Left to itself, the CUDA driver takes as much shared memory as the most
//! blocks that could be resident need, and leaves the rest to L1. An S-L1
//! kernel's line buffer makes that most a large carveout (a 48 KiB buffer
//! and 4 blocks an SM: 196 of the H100's 228 KiB), and the hardware L1 that
//! its direct accesses, staged lines and spills still go through gets what
//! is left, also when the launch puts only 2 blocks on each SM. A launch
//! whose grid has fewer blocks an SM than fit instead asks for the shared
//! memory of the blocks it places on an SM at once. On the
//! H100 `upper` at 264x128 ran 0.281 ms with the driver's split and 0.244
//! ms with this one (docs/benchmarks.md).
//!
//! A launch whose grid fills every block slot of every SM keeps the
//! driver's split: its blocks are as many as the driver plans for, and the
//! smallest carveout that holds them can lose to the driver's larger one.
//! HeCBench `contract` (4 blocks an SM, held to 4 by its registers, 21 KiB
//! each) ran 0.107 s at a 100 KiB carveout and 0.088 s with the driver's
//! split or any carveout from 132 KiB up, the same 4 blocks resident in
//! each (H100, docs/results/2026-11-27-h100-carveout-residency.txt).

/// Shared memory the system keeps per resident block (sm_80 and later).
pub const RESERVED_PER_BLOCK: u64 = 1024;

/// What the split is computed from, for one launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CarveoutInputs {
    /// Blocks of the launch's grid.
    pub grid_blocks: u64,
    /// The GPU's SMs.
    pub sms: u64,
    /// Blocks of this launch that fit an SM at once at the largest carveout
    /// (the occupancy calculator's answer).
    pub most_resident: u64,
    /// Shared memory of one block: the kernel's static shared memory and
    /// the launch's dynamic shared memory.
    pub block_bytes: u64,
    /// Shared memory an SM has at most.
    pub shared_per_sm: u64,
}

/// The carveout preference (`cudaFuncAttributePreferredSharedMemoryCarveout`,
/// a percentage of `shared_per_sm`) that holds the blocks the launch puts
/// on each SM at once; the driver rounds it up to a carveout the GPU has.
/// `None` leaves the driver's own split: where the grid has at least as
/// many blocks an SM as fit, and where facts are missing (no SMs, no
/// shared memory).
pub fn carveout_percent(c: CarveoutInputs) -> Option<i32> {
    if c.sms == 0 || c.shared_per_sm == 0 {
        return None;
    }
    let per_sm = c.grid_blocks.div_ceil(c.sms);
    if per_sm >= c.most_resident {
        return None;
    }
    let blocks = per_sm.max(1);
    let need = blocks.saturating_mul(c.block_bytes + RESERVED_PER_BLOCK);
    Some(need.saturating_mul(100).div_ceil(c.shared_per_sm).min(100) as i32)
}

/// The preference a launch sets: `carveout_percent`, or the driver's own
/// split (`cudaSharedmemCarveoutDefault`, -1).
pub fn carveout_preference(c: CarveoutInputs) -> i32 {
    carveout_percent(c).unwrap_or(DRIVER_SPLIT)
}

/// `cudaSharedmemCarveoutDefault`: the driver chooses the split.
pub const DRIVER_SPLIT: i32 = -1;

#[cfg(test)]
mod tests {
    use super::*;

    const H100: CarveoutInputs = CarveoutInputs {
        grid_blocks: 264,
        sms: 132,
        most_resident: 4,
        block_bytes: 48 * 1024,
        shared_per_sm: 228 * 1024,
    };

    #[test]
    fn a_grid_of_two_blocks_an_sm_asks_for_two_blocks_shared_memory() {
        // 2 x 49 KiB of 228 KiB: 43% (the driver rounds it up to a
        // carveout the GPU has).
        assert_eq!(carveout_percent(H100), Some(43));
        // 3 blocks an SM of the 4 that fit.
        let c = CarveoutInputs {
            grid_blocks: 390,
            ..H100
        };
        assert_eq!(carveout_percent(c), Some(65));
    }

    #[test]
    fn a_grid_that_fills_every_slot_keeps_the_drivers_split() {
        for (grid_blocks, most_resident) in [(528, 4), (2112, 4), (100_000, 8), (5184, 4)] {
            let c = CarveoutInputs {
                grid_blocks,
                most_resident,
                ..H100
            };
            assert_eq!(carveout_percent(c), None, "{c:?}");
            assert_eq!(carveout_preference(c), DRIVER_SPLIT);
        }
    }

    #[test]
    fn a_grid_smaller_than_the_gpu_still_holds_one_block() {
        let c = CarveoutInputs {
            grid_blocks: 1,
            block_bytes: 0,
            ..H100
        };
        assert_eq!(carveout_percent(c), Some(1));
    }

    #[test]
    fn missing_device_facts_leave_the_drivers_split() {
        for c in [
            CarveoutInputs { sms: 0, ..H100 },
            CarveoutInputs {
                shared_per_sm: 0,
                ..H100
            },
        ] {
            assert_eq!(carveout_percent(c), None);
        }
    }
}

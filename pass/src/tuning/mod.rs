//! Device rewrites: rewrites that are not S-L1 but make the GPU code clang
//! emits closer to nvcc's (`-sl1-device-tuning`, on by default), each
//! counting what it changed (`Rewrite`). The late ones are the rows of
//! `LATE_REWRITES`: a new one is a file here, a row there and its
//! `Rewrite`. Loops of kernels whose arguments may alias
//! get a copy behind run-time alias checks first, before the S-L1 transform
//! (`alias_checks`), then stores are forwarded to the next iteration's
//! loads (`forwarded_stores`). Switches become selects early, after the
//! S-L1 transform (so the S-L1 analyses see the IR clang gave them) and
//! before LLVM's unroller; divisions are frozen, narrow range checks widened and sums of narrow
//! values narrowed last, after the optimizer
//! (whose instruction combining would move the freeze to their operands)
//! and before code generation, where loop strength reduction runs; unrolled
//! loops get copies with vector loads last (`vector_loads`). Inner
//! loops whose trip counts differ between threads are merged into their
//! top-level loop right after the S-L1 transform, in kernels it left alone
//! (`merged_loops`).

mod add_trees;
mod alias_check_trips;
mod alias_checks;
mod alias_paths;
mod byte_lane_counts;
pub mod byte_lanes;
mod byte_words;
mod counted_trips;
mod exit_layout;
mod forwarded_stores;
mod frozen_divisions;
mod indexed_addresses;
mod kept_rolled;
mod loads_first;
mod merged_loops;
mod narrow_sums;
mod relaxed_cas;
mod strided_unroll;
mod switch_selects;
mod vector_loads;
mod warp_atomics;
mod widened_range_checks;

pub use alias_checks::{check_aliases, AliasChecks};
pub use alias_paths::count_alias_paths;
pub use byte_lane_counts::count_byte_lanes;
pub use byte_words::lower_byte_vectors;
pub use counted_trips::count_trips;
pub use exit_layout::lay_out_exits_after_latches;
pub use forwarded_stores::forward_stores;
pub use frozen_divisions::freeze_divisions;
pub use indexed_addresses::index_crowded_addresses;
pub use kept_rolled::keep_ordered_loops_rolled;
pub use loads_first::move_loads_first;
pub use merged_loops::{
    loops_to_merge, merge_divergent_loops, KeptLoop, MergedLoop, Merging, NO_MERGING_HINT,
};
pub use narrow_sums::narrow_sums;
pub use relaxed_cas::relax_compare_and_swaps;
pub use strided_unroll::unroll_strided_loops;
pub use switch_selects::select_switches;
pub use vector_loads::vectorize_aligned_loads;
pub use warp_atomics::aggregate_atomics;
pub use widened_range_checks::widen_range_checks;

pub use sl1_core::report::rewrites::{Rewrite, RewriteCounts, RewriteReport};

use crate::options::Options;
use inkwell::module::Module;

/// A rewrite made after LLVM's optimizer, before code generation: one row
/// of `LATE_REWRITES`.
pub struct LateRewrite {
    /// What it is called, and the key of its count in the report.
    pub rewrite: Rewrite,
    /// Whether `options` leave it on: all but those an option of their own
    /// turns off (`-sl1-no-vector-loads`) run whenever the late rewrites do.
    pub on: fn(&Options) -> bool,
    /// Rewrites the module; returns how many places it changed.
    pub run: fn(&Module<'_>) -> usize,
}

const ALWAYS: fn(&Options) -> bool = |_| true;

/// The late rewrites, in the order they run: divisions frozen, counts of a
/// test on each byte of a word made one count, byte vectors on 32-bit words, range checks widened, sums narrowed, atomic adds to one
/// address made once per warp, loads moved ahead of stores they cannot
/// touch (which brings a loop's loads together), unrolled loops given
/// copies that read aligned 16 B pieces at once, loops whose loads wait
/// for another pointer's stores kept rolled for ptxas, and loops reading one
/// array at three or more run-time distances left without pointer
/// induction variables, and last each loop's exit block laid out after its
/// latch (none undoes another).
pub const LATE_REWRITES: &[LateRewrite] = &[
    LateRewrite {
        rewrite: Rewrite::FrozenDivisions,
        on: ALWAYS,
        run: freeze_divisions,
    },
    LateRewrite {
        rewrite: Rewrite::ByteLaneCounts,
        on: ALWAYS,
        run: count_byte_lanes,
    },
    LateRewrite {
        rewrite: Rewrite::ByteWords,
        on: ALWAYS,
        run: lower_byte_vectors,
    },
    LateRewrite {
        rewrite: Rewrite::WidenedRangeChecks,
        on: ALWAYS,
        run: widen_range_checks,
    },
    LateRewrite {
        rewrite: Rewrite::NarrowSums,
        on: ALWAYS,
        run: narrow_sums,
    },
    LateRewrite {
        rewrite: Rewrite::RelaxedCas,
        on: ALWAYS,
        run: relax_compare_and_swaps,
    },
    LateRewrite {
        rewrite: Rewrite::WarpAtomics,
        on: ALWAYS,
        run: aggregate_atomics,
    },
    LateRewrite {
        rewrite: Rewrite::LoadsFirst,
        on: ALWAYS,
        run: move_loads_first,
    },
    LateRewrite {
        rewrite: Rewrite::VectorLoads,
        on: |o| o.vector_loads,
        run: vectorize_aligned_loads,
    },
    LateRewrite {
        rewrite: Rewrite::KeptRolled,
        on: ALWAYS,
        run: keep_ordered_loops_rolled,
    },
    LateRewrite {
        rewrite: Rewrite::IndexedAddresses,
        on: ALWAYS,
        run: index_crowded_addresses,
    },
    LateRewrite {
        rewrite: Rewrite::ExitsAfterLatches,
        on: ALWAYS,
        run: lay_out_exits_after_latches,
    },
];

/// Runs `LATE_REWRITES` on `module`, each that `options` leave on, and
/// records in `counts` how many places each changed (0 for those left
/// off). Returns whether any changed the module.
pub fn run_late_rewrites(
    module: &Module<'_>,
    options: &Options,
    counts: &mut RewriteCounts,
) -> bool {
    let mut changed = false;
    for row in LATE_REWRITES {
        counts[row.rewrite] = if (row.on)(options) {
            (row.run)(module)
        } else {
            0
        };
        changed |= counts[row.rewrite] > 0;
    }
    changed
}

//! Device tuning: rewrites that are not S-L1 but make the GPU code clang
//! emits closer to nvcc's. The driver turns them on (`-sl1-device-tuning`)
//! with its other device options. Loops of kernels whose arguments may alias
//! get a copy behind run-time alias checks first, before the S-L1 transform
//! (`alias_checks`). Switches become selects early, after the
//! S-L1 transform (so the S-L1 analyses see the IR clang gave them) and
//! before LLVM's unroller; divisions are frozen, narrow range checks widened and sums of narrow
//! values narrowed last, after the optimizer
//! (whose instruction combining would move the freeze to their operands)
//! and before code generation, where loop strength reduction runs; unrolled
//! loops get copies with vector loads last (`vector_loads`). Inner
//! loops whose trip counts differ between threads are merged into their
//! top-level loop right after the S-L1 transform, in kernels it left alone
//! (`merged_loops`).

mod alias_checks;
mod alias_paths;
mod byte_words;
mod frozen_divisions;
mod loads_first;
mod merged_loops;
mod narrow_sums;
mod switch_selects;
mod vector_loads;
mod warp_atomics;
mod widened_range_checks;

pub use alias_checks::{check_aliases, AliasChecks};
pub use alias_paths::count_alias_paths;
pub use byte_words::lower_byte_vectors;
pub use frozen_divisions::freeze_divisions;
pub use loads_first::move_loads_first;
pub use merged_loops::{merge_divergent_loops, KeptLoop, MergedLoop, Merging, NO_MERGING_HINT};
pub use narrow_sums::narrow_sums;
pub use switch_selects::select_switches;
pub use vector_loads::vectorize_aligned_loads;
pub use warp_atomics::aggregate_atomics;
pub use widened_range_checks::widen_range_checks;

pub use sl1_core::report::tuning::TuningReport;

/// The rewrites made after LLVM's optimizer, before code generation:
/// divisions frozen, range checks widened, sums narrowed, atomic adds to
/// one address made once per warp, loads moved ahead of stores they cannot
/// touch (which brings a loop's loads together), and with `vector_loads`
/// unrolled loops given copies that read aligned 16 B pieces at once (in
/// that order: none undoes another). Records in `report` how many of each.
pub fn tune_late(
    module: &inkwell::module::Module<'_>,
    vector_loads: bool,
    report: &mut TuningReport,
) -> bool {
    report.frozen_divisions = freeze_divisions(module);
    report.byte_words = lower_byte_vectors(module);
    report.widened_range_checks = widen_range_checks(module);
    report.narrowed_sums = narrow_sums(module);
    report.warp_atomics = aggregate_atomics(module);
    report.loads_first = move_loads_first(module);
    report.vector_loads = if vector_loads {
        vectorize_aligned_loads(module)
    } else {
        0
    };
    report.frozen_divisions
        + report.byte_words
        + report.widened_range_checks
        + report.narrowed_sums
        + report.warp_atomics
        + report.loads_first
        + report.vector_loads
        > 0
}

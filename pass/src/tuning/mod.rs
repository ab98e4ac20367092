//! Device tuning: rewrites that are not S-L1 but make the GPU code clang
//! emits closer to nvcc's. The driver turns them on (`-sl1-device-tuning`)
//! with its other device options. Switches become selects early, after the
//! S-L1 transform (so the S-L1 analyses see the IR clang gave them) and
//! before LLVM's unroller; divisions are frozen last, after the optimizer
//! (whose instruction combining would move the freeze to their operands)
//! and before code generation, where loop strength reduction runs. Inner
//! loops whose trip counts differ between threads are merged into their
//! top-level loop right after the S-L1 transform, in kernels it left alone
//! (`merged_loops`).

mod frozen_divisions;
mod merged_loops;
mod switch_selects;

pub use frozen_divisions::freeze_divisions;
pub use merged_loops::{merge_divergent_loops, KeptLoop, MergedLoop, Merging, NO_MERGING_HINT};
pub use switch_selects::select_switches;

pub use sl1_core::report::tuning::TuningReport;

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

use serde::{Deserialize, Serialize};

pub use frozen_divisions::freeze_divisions;
pub use merged_loops::{merge_divergent_loops, KeptLoop, MergedLoop, Merging, NO_MERGING_HINT};
pub use switch_selects::select_switches;

/// What the device tuning changed in a module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TuningReport {
    /// Switches that only chose values, now compares and selects.
    pub selected_switches: usize,
    /// Divisions and remainders frozen for the loops nested below them.
    pub frozen_divisions: usize,
    /// Top-level loops merged with the inner loops whose trip counts depend
    /// on loaded data.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_loops: Vec<MergedLoop>,
    /// Top-level loops with such inner loops kept nested, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept_nested: Vec<KeptLoop>,
}

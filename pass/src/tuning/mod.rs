//! Device tuning: rewrites that are not S-L1 but make the GPU code clang
//! emits closer to nvcc's. The driver turns them on (`-sl1-device-tuning`)
//! with its other device options. Switches become selects early, after the
//! S-L1 transform (so the S-L1 analyses see the IR clang gave them) and
//! before LLVM's unroller; divisions are frozen last, after the optimizer
//! (whose instruction combining would move the freeze to their operands)
//! and before code generation, where loop strength reduction runs.

mod frozen_divisions;
mod switch_selects;

use serde::{Deserialize, Serialize};

pub use frozen_divisions::freeze_divisions;
pub use switch_selects::select_switches;

/// What the device tuning changed in a module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TuningReport {
    /// Switches that only chose values, now compares and selects.
    pub selected_switches: usize,
    /// Divisions and remainders frozen for the loops nested below them.
    pub frozen_divisions: usize,
}

//! What the device tuning reports of a module.

use serde::{Deserialize, Serialize};

/// What the device tuning changed in a module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TuningReport {
    /// Loops given a copy, behind run-time checks that the ranges their
    /// pointers touch are apart, in which they do not alias.
    #[serde(default)]
    pub alias_checked_loops: usize,
    /// Switches that only chose values, now compares and selects.
    pub selected_switches: usize,
    /// Divisions and remainders frozen for the loops nested below them.
    pub frozen_divisions: usize,
    /// Operations on vectors of bytes done on the 32-bit words holding them.
    #[serde(default)]
    pub byte_words: usize,
    /// Range checks on 8- and 16-bit integers made in 32 bits.
    #[serde(default)]
    pub widened_range_checks: usize,
    /// Wide sums whose narrow addends are added in 32 bits first.
    #[serde(default)]
    pub narrowed_sums: usize,
    /// Atomic adds to an address the same for a whole warp, made once per
    /// warp with the sum of its threads' values.
    #[serde(default)]
    pub warp_atomics: usize,
    /// Loads moved ahead of stores before them in their block that LLVM
    /// knows they cannot touch (scopes, `noalias` arguments).
    #[serde(default)]
    pub loads_first: usize,
    /// Unrolled loops given a copy that reads adjacent elements 16 bytes at
    /// a time, entered when the first address is aligned.
    #[serde(default)]
    pub vector_loads: usize,
    /// Top-level loops merged with the inner loops whose trip counts depend
    /// on loaded data.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub merged_loops: Vec<MergedLoop>,
    /// Top-level loops with such inner loops kept nested, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub kept_nested: Vec<KeptLoop>,
}

/// One top-level loop merged with inner loops.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MergedLoop {
    pub kernel: String,
    /// The top-level loop's header block.
    pub outer: String,
    /// Header blocks of the inner loops merged into it.
    pub inner: Vec<String>,
    /// Whether the loop's own iterations run in rounds: a thread back from
    /// its inner loops waits while others of its warp are still in theirs,
    /// so that the iterations that enter no inner loop (a search for the
    /// next line start) run for the whole warp at once.
    #[serde(default)]
    pub rounds: bool,
    /// Headers of the loops nested in the inner loops whose first
    /// iteration was taken out in front of them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub peeled: Vec<String>,
}

/// A top-level loop kept nested although an inner loop's trip count depends
/// on loaded data, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KeptLoop {
    pub kernel: String,
    pub outer: String,
    pub reason: String,
    /// The merge was tried and failed (`NO_MERGING_HINT` skips it).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub failed: bool,
}

/// The option that skips loop merging.
pub const NO_MERGING_HINT: crate::option_list::Hint = crate::option_list::Hint {
    option: "no-loop-merging",
    value: None,
    effect: "skips it",
};

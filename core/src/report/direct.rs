//! Why a structure's accesses stay direct (not through lines), and what a
//! static prediction decided: one variant per cause, the text by `Display`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Why a structure, or one of its accesses, goes straight to memory.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum DirectReason {
    /// Accessed only outside the loop's inner loops.
    Cold,
    /// An atomic: the line is evicted before it.
    Atomic,
    /// A memcpy or memset range: the structure is flushed before it.
    Range,
    Volatile,
    /// Wider than a line, or not a power of two bytes.
    OddSize,
    /// A load or store of a struct or array value.
    Aggregate,
    /// A read-only restrict structure, left to the hardware L1.
    ReadOnly,
    /// The structure is not cached in this loop.
    NotCached,
    /// A one-line cache would hit too few of its accesses.
    LowHitRate {
        stride: i64,
        line_bytes: u32,
        hit_percent: u32,
    },
    /// Nothing predicts its hit rate, because of `why`.
    Unpredicted {
        why: String,
    },
    /// Its addresses are loaded from memory.
    Indirect,
    /// A warp's neighbouring lanes are `distance` bytes apart, within one
    /// hardware line.
    LanesClose {
        distance: i64,
        hardware_line_bytes: i64,
    },
    /// A warp's lanes access it within one sector (`distance` bytes apart,
    /// 0 where they read one address): the hardware serves the warp with one
    /// request, and a line per thread would fill the same bytes for every
    /// lane. Left direct whatever the loop's other structures are.
    OneSector {
        distance: i64,
        sector_bytes: u64,
    },
    /// One of `members` arguments without restrict that may alias each
    /// other, more than the `most` whose lines are looked up together (the
    /// paper's aliased mode): every access of such a group looks up every
    /// member's line, so its code and its work per iteration grow with the
    /// square of the group.
    LargeAliasedGroup {
        members: usize,
        most: usize,
    },
    /// The traffic bound (`cost::gain_bound`) leaves lines too little.
    LittleGain {
        l2_bytes: u64,
        device_bytes: u64,
        l2_tb_per_s: f64,
        device_tb_per_s: f64,
        gain: f64,
        min_gain: f64,
    },
}

impl DirectReason {
    /// Whether monitoring the loop, as the paper does, would decide the
    /// structure instead (it is direct for want of a prediction).
    pub fn monitoring_decides(&self) -> bool {
        matches!(
            self,
            DirectReason::Unpredicted { .. } | DirectReason::Indirect
        )
    }
}

impl fmt::Display for DirectReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DirectReason::Cold => write!(f, "cold: accessed only outside the loop's inner loops"),
            DirectReason::Atomic => write!(f, "atomic: its line is evicted first"),
            DirectReason::Range => {
                write!(f, "memcpy/memset range: the structure is flushed first")
            }
            DirectReason::Volatile => write!(f, "volatile: the structure is flushed first"),
            DirectReason::OddSize => write!(
                f,
                "wider than a line or of odd size: the structure is flushed first"
            ),
            DirectReason::Aggregate => {
                write!(f, "aggregate value: the structure is flushed first")
            }
            DirectReason::ReadOnly => write!(f, "read-only: left to the hardware L1"),
            DirectReason::NotCached => write!(f, "structure not cached"),
            DirectReason::LowHitRate {
                stride,
                line_bytes,
                hit_percent,
            } => write!(
                f,
                "left direct: stride {stride} B per iteration, a {line_bytes} B line would hit \
                 {hit_percent}% of its accesses"
            ),
            DirectReason::Unpredicted { why } => write!(
                f,
                "left direct: nothing predicts its hit rate ({why}), and monitoring a loop costs \
                 more than it has saved wherever measured (docs/benchmarks.md)"
            ),
            DirectReason::Indirect => write!(
                f,
                "left direct: its addresses are loaded from memory (an indirect access); a \
                 thread's private line is hit again only when consecutive indices fall in it, \
                 which nothing predicts, and repeated lookups are the hardware L1's (shared by \
                 the SM's threads)"
            ),
            DirectReason::LanesClose {
                distance,
                hardware_line_bytes,
            } => write!(
                f,
                "left direct: a warp's neighbouring lanes access it {distance} B apart (known at \
                 compile time), within one {hardware_line_bytes} B line of the hardware L1, \
                 which serves them together"
            ),
            DirectReason::OneSector {
                distance,
                sector_bytes,
            } => write!(
                f,
                "left direct: a warp's lanes access it {distance} B apart (known at compile \
                 time), all within one {sector_bytes} B sector that one request serves; a line \
                 per thread would fill the same bytes once for every lane and save nothing"
            ),
            DirectReason::LargeAliasedGroup { members, most } => write!(
                f,
                "left direct: one of {members} arguments without __restrict__ that may alias \
                 each other; every access of such a group looks up every member's line, so \
                 groups of more than {most} stay direct (16: 212,000 PTX lines and two minutes \
                 of ptxas for one loop); __restrict__ or run-time alias checks give each its \
                 own line"
            ),
            DirectReason::LittleGain {
                l2_bytes,
                device_bytes,
                l2_tb_per_s,
                device_tb_per_s,
                gain,
                min_gain,
            } => write!(
                f,
                "left direct: per iteration a thrashing hardware L1 moves {l2_bytes} B from L2 \
                 for {device_bytes} B that device memory must move anyway, {:.1}x the bytes \
                 under the bandwidths' ratio ({l2_tb_per_s:.1} / {device_tb_per_s:.2} TB/s): \
                 lines can gain at most {gain:.2}x (S-L1 caches from {min_gain}x)",
                *l2_bytes as f64 / *device_bytes as f64,
            ),
        }
    }
}

/// How a cached structure's loop decides at run time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decided {
    /// Every structure of the loop is predicted: no monitoring.
    Statically,
    /// The loop is monitored for its other structures.
    Monitored,
}

/// What a structure's static prediction decided.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Decision {
    /// Through lines: what the traffic bound lets them gain at most, and
    /// how the loop decides (known once the kernel's plan is made).
    Cached {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        gain: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        decided: Option<Decided>,
    },
    Direct {
        reason: DirectReason,
    },
}

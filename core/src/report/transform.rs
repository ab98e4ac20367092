//! What the transformation reports of one kernel (the report's
//! `transform` object).

use serde::{Deserialize, Serialize};

use super::direct::{Decided, Decision, DirectReason};
use super::kinds::{AccessKind, SourceLocation};
use super::reason::Reason;

/// An access the transform leaves as it is, and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DirectAccess {
    pub argument: String,
    pub kind: AccessKind,
    pub reason: DirectReason,
    /// Where the access is in the source (with debug information).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub location: Option<SourceLocation>,
}

/// What the transformation did to one kernel.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TransformReport {
    pub applied: bool,
    /// Why the kernel, or some of its loops, were left untransformed.
    pub reasons: Vec<Reason>,
    /// Headers of the loops sliced.
    pub loops_sliced: Vec<String>,
    /// Headers of the loops given a copy a whole warp runs over its lanes'
    /// adjacent chunks (`Options::warp_ranges`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warp_ranges: Vec<String>,
    /// Loops over per-thread chunks that got no such copy, and why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub warp_ranges_refused: Vec<RefusedWarpRange>,
    /// Accesses routed through the cache.
    pub accesses_cached: usize,
    pub accesses_direct: Vec<DirectAccess>,
    /// Bytes of the kernel's S-L1 line buffer in shared memory.
    pub shared_bytes: u64,
    /// Static shared memory the kernel used before.
    pub kernel_shared_bytes: u64,
    /// Dynamic shared memory the kernel's launches were declared to give at
    /// most (`Options::dynamic_shared`), when it uses any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dynamic_shared_bytes: Option<u64>,
    /// Block size the buffer is provisioned for.
    pub max_threads: u32,
    /// When the buffer cannot hold every line of a block of `max_threads`
    /// threads at the smallest line size: how many of its warps get all
    /// their lines (the warp threshold); later warps get fewer or none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warps_with_lines: Option<u32>,
    /// When every sliced loop only streams (`ChosenLoop::streams` in the
    /// pass): the largest line a launch may then pick, in bytes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream_lines: Option<u32>,
    /// Bytes of padding after each line in the buffer (`line_pad`).
    #[serde(default)]
    pub line_pad_bytes: u32,
    /// With the warp threshold: how many warps get at least one line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warps_with_a_line: Option<u32>,
    /// Static predictions per main loop and structure (with static
    /// prediction on).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub predictions: Vec<PredictionReport>,
    /// Read-only structures cached because an inner loop re-reads them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rereads: Vec<RereadReport>,
    /// Main loops that take arguments without restrict as restrict, the
    /// run-time alias checks guarding them having found them apart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub apart_by_checks: Vec<ApartReport>,
    /// Per predicted loop: whether its all-cached copy got line runs, or why not.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub line_runs: Vec<LineRunsReport>,
    /// Per sliced loop: the structures cached only where a warp's lanes
    /// access them at least a hardware L1 line apart (`lanes`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lane_tests: Vec<LaneTestReport>,
    /// The global holding the run-time statistics (statistics builds only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats_symbol: Option<String>,
    /// With a launch-sized line buffer (`Options::launch_sized`): the
    /// dynamic shared memory each launch must add for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch_bytes: Option<LaunchBytes>,
}

/// The dynamic shared memory a launch adds for a launch-sized line buffer:
/// `min(per_thread * threads of the block, most)` bytes. `per_thread` holds a
/// line of the largest size for every structure, so that a block picks the
/// line size a static buffer for `max_threads` threads would let it pick;
/// `most` is that static buffer's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchBytes {
    pub per_thread: u64,
    pub most: u64,
}

impl LaunchBytes {
    /// The bytes a launch of `threads` threads a block adds.
    pub fn for_block(&self, threads: u64) -> u64 {
        self.per_thread.saturating_mul(threads).min(self.most)
    }
}

/// A loop over per-thread chunks (counted up by one, one block) that a
/// warp may not walk as one range, and why (`transform::warp_ranges`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RefusedWarpRange {
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub why: String,
}

/// A read-only structure that every iteration of an inner loop reads again
/// (`analysis::reuse`): cached, where other read-only structures are left
/// to the hardware L1.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RereadReport {
    /// Header of the main loop.
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub argument: String,
    /// Header of the inner loop whose iterations read it again.
    pub inner_loop: String,
}

/// Arguments without restrict that a main loop takes as restrict: the
/// loop is the copy that run-time alias checks guard, and its scoped alias
/// metadata keeps them apart from every other access
/// (`analysis::scopes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ApartReport {
    /// Header of the main loop.
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub arguments: Vec<String>,
}

/// Line runs in one predicted main loop (`line_runs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineRunsReport {
    /// Header of the main loop.
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub applied: bool,
    /// What runs without checks, or why nothing does.
    pub detail: String,
}

/// The structures of one sliced loop under the lane test (`lanes`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaneTestReport {
    /// Header of the main loop.
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub arguments: Vec<String>,
    /// Bytes a warp's neighbouring lanes must lie apart for a line to pay.
    pub min_bytes: i64,
}

/// How the report records one structure's prediction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PredictionReport {
    /// Header of the main loop.
    #[serde(rename = "loop")]
    pub loop_header: String,
    pub argument: String,
    /// Bytes the structure's addresses move per iteration, when predicted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stride: Option<i64>,
    /// Predicted hit rate of a one-line cache, when predicted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hit_percent: Option<u32>,
    /// Cached (how the loop decides), or left direct (why).
    #[serde(flatten)]
    pub decision: Decision,
    /// What a profiler would count for a cached structure, direct and
    /// through lines (`cost::sector_figures`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sectors: Option<SectorFigures>,
}

impl PredictionReport {
    /// Left direct for want of a prediction: monitoring, as the paper does,
    /// would decide it (`MONITORING_HINT`).
    pub fn monitoring_decides(&self) -> bool {
        matches!(&self.decision, Decision::Direct { reason } if reason.monitoring_decides())
    }

    /// The decision in words.
    pub fn decision_text(&self) -> String {
        match &self.decision {
            Decision::Direct { reason } => reason.to_string(),
            Decision::Cached { gain, decided } => {
                let mut text = format!(
                    "predicted: stride {} B per iteration, {}% hits",
                    self.stride.unwrap_or_default(),
                    self.hit_percent.unwrap_or_default()
                );
                if let Some(gain) = gain {
                    text.push_str(&format!(", lines can gain up to {gain:.1}x"));
                }
                match decided {
                    Some(Decided::Statically) => {
                        text.push_str("; decided statically, without monitoring")
                    }
                    Some(Decided::Monitored) => {
                        text.push_str("; monitored with the loop's other structures")
                    }
                    None => {}
                }
                text
            }
        }
    }
}

/// The option that monitors the loops of structures left direct for want
/// of a prediction.
pub const MONITORING_HINT: crate::option_list::Hint = crate::option_list::Hint {
    option: "no-static-prediction",
    value: None,
    effect: "monitors it, as the paper does",
};

/// What a profiler's memory tables (Nsight Compute: sectors per request,
/// shared-memory bank conflicts) would count for one structure's accesses
/// in its loop, expected from the addresses' pattern: direct, with a warp's
/// lanes a line or more apart (where the cache takes a structure), and
/// through its lines.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SectorFigures {
    /// Warp-wide requests per iteration (the structure's accesses).
    pub requests: u32,
    /// Sectors those requests touch per iteration, direct.
    pub direct_sectors: u32,
    /// The fewest they could touch: each request's bytes side by side.
    pub ideal_sectors: u32,
    /// Through lines of each size: sectors moved (fills, write-backs) per
    /// so many iterations.
    pub through_lines: Vec<LineSectors>,
    /// The most distinct 4 B words one access of the warp puts in one
    /// shared-memory bank of the line buffer (1: no conflict).
    pub bank_ways: u32,
}

/// Sectors lines of `line` bytes move per `iterations` iterations.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineSectors {
    pub line: u32,
    pub sectors: u32,
    pub iterations: u32,
}

impl SectorFigures {
    /// Sectors per request, direct and fewest.
    pub fn direct_per_request(&self) -> f64 {
        f64::from(self.direct_sectors) / f64::from(self.requests)
    }
    pub fn ideal_per_request(&self) -> f64 {
        f64::from(self.ideal_sectors) / f64::from(self.requests)
    }

    /// The report's words.
    pub fn describe(&self) -> String {
        let lines: Vec<String> = self
            .through_lines
            .iter()
            .map(|l| {
                format!(
                    "{:.2} through {} B lines",
                    f64::from(l.sectors) / f64::from(l.iterations * self.requests),
                    l.line
                )
            })
            .collect();
        format!(
            "sectors per request {:.0} direct ({:.0} excessive over the {:.0} of side-by-side \
             lanes), {}; line buffer {}",
            self.direct_per_request(),
            self.direct_per_request() - self.ideal_per_request(),
            self.ideal_per_request(),
            lines.join(", "),
            if self.bank_ways <= 1 {
                "free of bank conflicts".to_string()
            } else {
                format!("{}-way bank conflicts", self.bank_ways)
            }
        )
    }
}

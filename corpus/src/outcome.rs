//! What running a program's two builds gave: each run's verdict, time and
//! output, and what the pair says of S-L1 (wrong, slower).

use serde::{Deserialize, Serialize};
use sl1_core::launches::KernelLaunches;

/// What one run of one build gave.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub verdict: Verdict,
    /// Wall time of the whole process.
    pub seconds: f64,
    /// The kernel time the program printed, in milliseconds, when it
    /// printed one (`... kernel execution time: 12.5 (us)`).
    pub kernel_ms: Option<f64>,
    /// The rate the program printed where it prints no kernel time (`2292.4
    /// MB/s`), per second in the unit's base (bytes, items): higher is faster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rate: Option<f64>,
    /// What it printed, lines with times left out (to compare builds).
    pub output: String,
    pub exit_code: Option<i32>,
    /// The S-L1 runtime's account of the run's launches (`SL1_LAUNCHES=1`:
    /// one entry per kernel with lines), for an S-L1 build that exited by
    /// itself; none for other runs and in older corpus.json files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launches: Option<Vec<KernelLaunches>>,
}

/// A run's outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// Printed PASS (and no FAIL), exit status 0.
    Pass,
    /// Printed FAIL, or exited with an error.
    Fail,
    /// Exited 0 without a verdict: only the outputs can be compared.
    NoVerdict,
    /// Still running at the time limit: killed.
    Timeout,
    /// Could not be started.
    NotRun,
}

/// The runs of a program's two builds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Runs {
    pub sl1: RunResult,
    pub no_sl1: RunResult,
    /// The two executables are the same bytes (S-L1 left every kernel as
    /// it was): run once, the result stands for both.
    #[serde(default)]
    pub identical: bool,
    /// The build without S-L1 printed other output when run again: its
    /// output cannot judge S-L1's (threads appending in any order).
    #[serde(default)]
    pub nondeterministic: bool,
    /// The nvcc build's run, where one was built (`sl1-corpus run --nvcc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvcc: Option<RunResult>,
}

/// A slowdown past this (S-L1 time over the time without it) counts.
pub const SLOWER: f64 = 1.0 / 0.97;

impl Runs {
    /// What S-L1 got wrong: a verdict worse than the build without it, or
    /// other output where neither gives a verdict.
    pub fn wrong(&self) -> Option<String> {
        use Verdict::*;
        match (self.no_sl1.verdict, self.sl1.verdict) {
            (Pass, Fail | Timeout | NotRun) | (NoVerdict, Fail | Timeout | NotRun) => {
                Some(format!(
                    "{:?} with S-L1, {:?} without",
                    self.sl1.verdict, self.no_sl1.verdict
                ))
            }
            (Pass | NoVerdict, _)
                if self.sl1.output != self.no_sl1.output && !self.nondeterministic =>
            {
                Some("its output differs from the build without S-L1".into())
            }
            _ => None,
        }
    }

    /// What the driver's builds got wrong with or without S-L1: a verdict
    /// worse than nvcc's in the build without S-L1 (the S-L1 build's is
    /// `wrong`'s), which comparing the two driver builds cannot see (HeCBench
    /// `topk` failed both ways, 2026-11-30: the device tuning's registers).
    /// Verdicts only: float output may differ from nvcc's within rounding.
    pub fn wrong_against_nvcc(&self) -> Option<String> {
        use Verdict::*;
        let nvcc = self.nvcc.as_ref()?;
        matches!(
            (nvcc.verdict, self.no_sl1.verdict),
            (Pass, Fail | Timeout | NotRun) | (NoVerdict, Fail | Timeout | NotRun)
        )
        .then(|| {
            format!(
                "{:?} without S-L1, {:?} with nvcc: clang, the device rewrites or the device \
                 tuning",
                self.no_sl1.verdict, nvcc.verdict
            )
        })
    }

    /// S-L1's time over the time without it: the kernel times the program
    /// printed, else the processes' wall times.
    pub fn ratio(&self) -> Option<f64> {
        if self.identical {
            return None;
        }
        time_ratio(&self.sl1, &self.no_sl1)
    }

    /// S-L1's time over nvcc's, where both ran to the same verdict, PASS
    /// or none (the program's own check or nothing to check: a FAIL is an
    /// input the checkout lacks, whose times say little).
    pub fn nvcc_ratio(&self) -> Option<f64> {
        let nvcc = self.nvcc.as_ref()?;
        matches!(self.sl1.verdict, Verdict::Pass | Verdict::NoVerdict)
            .then(|| time_ratio(&self.sl1, nvcc))
            .flatten()
    }
}

/// `a`'s time over `b`'s: the kernel times both printed, else the rates
/// both printed (inverted: a rate is work over time), else the wall times;
/// none where the verdicts differ.
fn time_ratio(a: &RunResult, b: &RunResult) -> Option<f64> {
    let (x, y) = match (a.kernel_ms, b.kernel_ms, a.rate, b.rate) {
        (Some(x), Some(y), _, _) if y > 0.0 => (x, y),
        (_, _, Some(ra), Some(rb)) if ra > 0.0 => (rb, ra),
        _ => (a.seconds, b.seconds),
    };
    (y > 0.0 && a.verdict == b.verdict).then(|| x / y)
}

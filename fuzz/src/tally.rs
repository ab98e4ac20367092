//! The running totals of a fuzz run, per build, and the summary printed at
//! the end (also when the run is cut off) and written as JSON.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::ops::Range;

use serde::Serialize;

use crate::build::{Built, SeedBuild};
use crate::gpu_run::{SeedOutcome, Verdict};

/// One build's totals. For the plain build, `compared` counts seeds whose
/// two runs agreed and `nondeterministic` those whose runs differed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct BuildTally {
    pub name: String,
    pub options: String,
    /// Built by the driver and ptxas (or found to be the same code).
    pub built: u64,
    /// Run on the GPU and compared with the plain build.
    pub compared: u64,
    /// The same PTX as another build of the seed: not run again.
    pub same_code: u64,
    /// Which builds it had the same code as, and how often.
    pub same_as: BTreeMap<String, u64>,
    /// Built but not compared: the plain build gave no reference.
    pub no_reference: u64,
    pub mismatches: u64,
    pub nondeterministic: u64,
    pub build_failures: u64,
    /// Built, but the PTX meets the ptxas bug of `sl1_pass::ptxas_bugs`: not run.
    pub hazards: u64,
    pub launch_failures: u64,
    /// Seconds of builder threads (driver and ptxas), summed.
    pub build_seconds: f64,
    /// Seconds of the GPU thread.
    pub gpu_seconds: f64,
}

impl BuildTally {
    fn add_build(&mut self, built: &Built, seconds: f64) {
        self.build_seconds += seconds;
        match built {
            Built::Code(_) => self.built += 1,
            Built::Same(other) => {
                self.built += 1;
                self.same_code += 1;
                *self.same_as.entry(other.clone()).or_default() += 1;
            }
            Built::Failed(_) => self.build_failures += 1,
            Built::Hazard(_) => {
                self.built += 1;
                self.hazards += 1;
            }
        }
    }

    fn add_verdict(&mut self, verdict: &Verdict, seconds: f64, plain: bool) {
        self.gpu_seconds += seconds;
        match verdict {
            Verdict::NotRun => {}
            Verdict::NoReference => self.no_reference += 1,
            Verdict::Agrees => self.compared += 1,
            Verdict::Differs(_) if plain => self.nondeterministic += 1,
            Verdict::Differs(_) => {
                self.compared += 1;
                self.mismatches += 1;
            }
            Verdict::LaunchFailed(_) => self.launch_failures += 1,
        }
    }

    fn problems(&self) -> u64 {
        self.mismatches + self.nondeterministic + self.build_failures + self.launch_failures
    }
}

/// Something to look at: a mismatch, a nondeterministic kernel, a build or
/// launch failure.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub what: String,
    pub seed: u64,
    pub mode: String,
    pub message: String,
    /// The JSON record written for it, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
}

/// The totals of a run.
#[derive(Clone, Debug, Serialize)]
pub struct Tally {
    /// `plain` first, then the modes in the order given.
    pub builds: Vec<BuildTally>,
    pub seeds: Range<u64>,
    pub gpu: Option<String>,
    pub seeds_completed: u64,
    /// Seeds not built: not of the run's `--shapes` (done all the same).
    pub seeds_skipped: u64,
    /// Every seed below this one was completed (resume with `--seeds`
    /// from here); `None` when all were.
    pub first_incomplete: Option<u64>,
    pub cut_off: Option<String>,
    pub contexts_reopened: u64,
    pub wall_seconds: f64,
    pub findings: Vec<Finding>,
    #[serde(skip)]
    done: Vec<bool>,
}

impl Tally {
    pub fn new(seeds: Range<u64>, modes: &[crate::modes::Mode]) -> Tally {
        let plain = crate::modes::Mode::plain();
        let builds = std::iter::once(&plain)
            .chain(modes)
            .map(|m| BuildTally {
                name: m.name.clone(),
                options: m.options.clone(),
                ..BuildTally::default()
            })
            .collect();
        Tally {
            builds,
            done: vec![false; (seeds.end - seeds.start) as usize],
            first_incomplete: (!seeds.is_empty()).then_some(seeds.start),
            seeds,
            gpu: None,
            seeds_completed: 0,
            seeds_skipped: 0,
            cut_off: None,
            contexts_reopened: 0,
            wall_seconds: 0.0,
            findings: Vec::new(),
        }
    }

    /// Adds a seed's builds, and its GPU outcome when it was run.
    pub fn add(&mut self, build: &SeedBuild, outcome: Option<&SeedOutcome>) {
        let pairs = std::iter::once(&build.plain).chain(&build.modes);
        for (tally, b) in self.builds.iter_mut().zip(pairs) {
            tally.add_build(&b.built, b.seconds);
        }
        if let Some(outcome) = outcome {
            self.builds[0].add_verdict(&outcome.plain, outcome.plain_seconds, true);
            let modes = outcome.modes.iter().zip(&outcome.mode_seconds);
            for (tally, (verdict, seconds)) in self.builds[1..].iter_mut().zip(modes) {
                tally.add_verdict(verdict, *seconds, false);
            }
        }
        self.seeds_completed += 1;
        self.mark_done(build.seed);
    }

    /// Counts a seed the run's shapes leave out; it is done.
    pub fn skip(&mut self, seed: u64) {
        self.seeds_skipped += 1;
        self.mark_done(seed);
    }

    fn mark_done(&mut self, seed: u64) {
        if let Some(slot) = self.done.get_mut((seed - self.seeds.start) as usize) {
            *slot = true;
        }
        let from = self.first_incomplete.unwrap_or(self.seeds.end);
        self.first_incomplete =
            (from..self.seeds.end).find(|s| !self.done[(s - self.seeds.start) as usize]);
    }

    pub fn record(&mut self, finding: Finding) {
        self.findings.push(finding);
    }

    /// Builds done (a seed in each of its builds).
    pub fn kernels(&self) -> u64 {
        self.seeds_completed * self.builds.len() as u64
    }

    pub fn problems(&self) -> u64 {
        self.builds.iter().map(BuildTally::problems).sum()
    }

    /// One line of running totals.
    pub fn line(&self) -> String {
        let sum = |f: fn(&BuildTally) -> u64| self.builds.iter().map(f).sum::<u64>();
        format!(
            "{} seeds, {} kernels built, {} compared, {} same code, {} mismatches, {} nondeterministic, \
             {} build failures, {} ptxas hazards, {} launch failures, {:.0} s",
            self.seeds_completed,
            sum(|b| b.built),
            sum(|b| b.compared),
            sum(|b| b.same_code),
            sum(|b| b.mismatches),
            sum(|b| b.nondeterministic),
            sum(|b| b.build_failures),
            sum(|b| b.hazards),
            sum(|b| b.launch_failures),
            self.wall_seconds,
        )
    }

    /// The summary table and the totals under it.
    pub fn table(&self) -> String {
        let width = self
            .builds
            .iter()
            .map(|b| b.name.len())
            .max()
            .unwrap_or(4)
            .max(5);
        let mut s = String::new();
        let _ = writeln!(
            s,
            "{:<width$} {:>7} {:>8} {:>6} {:>8} {:>6} {:>10} {:>6} {:>11} {:>8} {:>7}",
            "build",
            "built",
            "compared",
            "same",
            "mismatch",
            "nondet",
            "build-fail",
            "hazard",
            "launch-fail",
            "build-s",
            "gpu-s"
        );
        for b in &self.builds {
            let _ = writeln!(
                s,
                "{:<width$} {:>7} {:>8} {:>6} {:>8} {:>6} {:>10} {:>6} {:>11} {:>8.1} {:>7.1}",
                b.name,
                b.built,
                b.compared,
                b.same_code,
                b.mismatches,
                b.nondeterministic,
                b.build_failures,
                b.hazards,
                b.launch_failures,
                b.build_seconds,
                b.gpu_seconds
            );
        }
        let no_reference: u64 = self.builds.iter().map(|b| b.no_reference).sum();
        if no_reference > 0 {
            let _ = writeln!(
                s,
                "{no_reference} distinct build(s) not compared: their seed's plain build failed or was nondeterministic"
            );
        }
        let hazards: u64 = self.builds.iter().map(|b| b.hazards).sum();
        if hazards > 0 {
            let _ = writeln!(
                s,
                "{hazards} build(s) not run: their PTX meets a ptxas bug (a narrow store of a register a float or double operation wrote, `sl1_pass::ptxas_bugs`); a seed whose plain build does gives no reference"
            );
        }
        let rate = if self.wall_seconds > 0.0 {
            self.kernels() as f64 / self.wall_seconds
        } else {
            0.0
        };
        let _ = writeln!(
            s,
            "seeds {}..{}: {} completed{}; {} kernels ({} builds each) in {:.1} s, {:.1} kernels/s{}",
            self.seeds.start,
            self.seeds.end,
            self.seeds_completed,
            match self.seeds_skipped {
                0 => String::new(),
                n => format!(" and {n} skipped (not of the shapes asked)"),
            },
            self.kernels(),
            self.builds.len(),
            self.wall_seconds,
            rate,
            self.gpu
                .as_ref()
                .map(|g| format!(", on {g}"))
                .unwrap_or_else(|| " (build only)".into())
        );
        if self.contexts_reopened > 0 {
            let _ = writeln!(
                s,
                "CUDA context re-opened {} time(s) after a fault",
                self.contexts_reopened
            );
        }
        if let Some(reason) = &self.cut_off {
            let _ = writeln!(
                s,
                "CUT OFF ({reason}): first seed not completed: {}; resume with --seeds {}..{}",
                self.first_incomplete.unwrap_or(self.seeds.end),
                self.first_incomplete.unwrap_or(self.seeds.end),
                self.seeds.end
            );
        }
        s
    }
}

/// Which builds the table names, with the same-code counts spelled out
/// (`same as plain: 10, default: 2`).
pub fn same_code_lines(tally: &Tally) -> Vec<String> {
    tally
        .builds
        .iter()
        .filter(|b| b.same_code > 0)
        .map(|b| {
            let of: Vec<String> = b.same_as.iter().map(|(n, c)| format!("{n} {c}")).collect();
            format!("{}: same code as {}", b.name, of.join(", "))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::Build;
    use crate::gpu_run::Difference;
    use crate::modes::Mode;

    fn build(built: Built) -> Build {
        Build {
            built,
            seconds: 0.5,
            launch_bytes: Default::default(),
        }
    }

    #[test]
    fn totals_follow_builds_and_verdicts() {
        let modes = vec![
            Mode::new("a", "").unwrap(),
            Mode::new("b", "--stats").unwrap(),
        ];
        let mut t = Tally::new(10..14, &modes);
        let seed = |seed, modes| SeedBuild {
            seed,
            spec: None,
            plain: build(Built::Code(vec![1])),
            modes,
        };
        let diff = Difference::between(&[vec![1]], &[vec![2]]).unwrap();
        t.add(
            &seed(
                11,
                vec![
                    build(Built::Code(vec![2])),
                    build(Built::Same("plain".into())),
                ],
            ),
            Some(&SeedOutcome {
                plain: Verdict::Agrees,
                modes: vec![Verdict::Differs(diff), Verdict::NotRun],
                plain_seconds: 0.25,
                mode_seconds: vec![0.1, 0.0],
            }),
        );
        assert_eq!(t.first_incomplete, Some(10));
        t.add(
            &seed(
                10,
                vec![
                    build(Built::Failed("boom".into())),
                    build(Built::Code(vec![3])),
                ],
            ),
            None,
        );
        assert_eq!(t.first_incomplete, Some(12));
        let [plain, a, b] = &t.builds[..] else {
            panic!()
        };
        assert_eq!(
            (plain.built, plain.compared, plain.build_seconds),
            (2, 1, 1.0)
        );
        assert_eq!(
            (a.built, a.compared, a.mismatches, a.build_failures),
            (1, 1, 1, 1)
        );
        assert_eq!((b.built, b.same_code, b.compared), (2, 1, 0));
        assert_eq!(b.same_as["plain"], 1);
        assert_eq!(t.problems(), 2);
        assert_eq!(t.kernels(), 6);
        t.cut_off = Some("SIGTERM".into());
        let table = t.table();
        assert!(table.contains("resume with --seeds 12..14"), "{table}");
        assert!(t
            .line()
            .starts_with("2 seeds, 5 kernels built, 2 compared, 1 same code, 1 mismatches"));
        assert_eq!(same_code_lines(&t), ["b: same code as plain 1"]);
    }

    #[test]
    fn a_nondeterministic_plain_build_leaves_modes_without_reference() {
        let modes = vec![Mode::new("a", "").unwrap()];
        let mut t = Tally::new(0..1, &modes);
        let diff = Difference::between(&[vec![1]], &[vec![2]]).unwrap();
        t.add(
            &SeedBuild {
                seed: 0,
                spec: None,
                plain: build(Built::Code(vec![1])),
                modes: vec![build(Built::Code(vec![2]))],
            },
            Some(&SeedOutcome {
                plain: Verdict::Differs(diff),
                modes: vec![Verdict::NoReference],
                plain_seconds: 0.0,
                mode_seconds: vec![0.0],
            }),
        );
        assert_eq!(t.builds[0].nondeterministic, 1);
        assert_eq!((t.builds[1].compared, t.builds[1].no_reference), (0, 1));
        assert_eq!(t.first_incomplete, None);
        assert!(t.table().contains("1 distinct build(s) not compared"));
    }
}

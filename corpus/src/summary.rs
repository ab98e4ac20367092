//! A corpus run's results: one entry per program, the totals, and the
//! programs that build without S-L1 but not with it (S-L1's bugs).

use std::fmt::Write;

use serde::{Deserialize, Serialize};

use sl1_core::launches::KernelLaunches;

use crate::build::BuildResult;
use crate::makefile::MakeInfo;
use crate::outcome::{Runs, Verdict, SLOWER};

/// One program's builds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    pub program: String,
    pub make: Option<MakeInfo>,
    pub sl1: BuildResult,
    pub no_sl1: BuildResult,
    /// The nvcc build, made on the GPU machine (`sl1-corpus run --nvcc`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nvcc: Option<BuildResult>,
    /// Both builds run on the GPU machine (`sl1-corpus run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runs: Option<Runs>,
}

impl Entry {
    /// Builds without S-L1 and not with it.
    pub fn sl1_only_failure(&self) -> bool {
        self.no_sl1.built && !self.sl1.built
    }
}

/// The totals of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub attempted: usize,
    pub built_no_sl1: usize,
    pub built_sl1: usize,
    pub transformed: usize,
    pub sl1_only_failures: usize,
}

pub fn totals(entries: &[Entry]) -> Totals {
    Totals {
        attempted: entries.len(),
        built_no_sl1: entries.iter().filter(|e| e.no_sl1.built).count(),
        built_sl1: entries.iter().filter(|e| e.sl1.built).count(),
        transformed: entries
            .iter()
            .filter(|e| e.sl1.built && !e.sl1.transformed.is_empty())
            .count(),
        sl1_only_failures: entries.iter().filter(|e| e.sl1_only_failure()).count(),
    }
}

/// The runs' summary: how many ran, passed, what S-L1 got wrong, and which
/// programs it made slower.
pub fn runs_text(entries: &[Entry]) -> String {
    let ran: Vec<(&Entry, &Runs)> = entries
        .iter()
        .filter_map(|e| e.runs.as_ref().map(|r| (e, r)))
        .collect();
    let pass = ran
        .iter()
        .filter(|(_, r)| r.sl1.verdict == Verdict::Pass && r.no_sl1.verdict == Verdict::Pass)
        .count();
    let wrong: Vec<(&str, String)> = ran
        .iter()
        .filter_map(|(e, r)| r.wrong().map(|w| (e.program.as_str(), w)))
        .collect();
    let driver_wrong: Vec<(&str, String)> = ran
        .iter()
        .filter_map(|(e, r)| r.wrong_against_nvcc().map(|w| (e.program.as_str(), w)))
        .collect();
    let ratios: Vec<(&str, f64)> = ran
        .iter()
        .filter_map(|(e, r)| r.ratio().map(|x| (e.program.as_str(), x)))
        .collect();
    let slower: Vec<&(&str, f64)> = ratios.iter().filter(|(_, x)| *x > SLOWER).collect();
    let identical = ran.iter().filter(|(_, r)| r.identical).count();
    let nondeterministic: Vec<&str> = ran
        .iter()
        .filter(|(_, r)| r.nondeterministic)
        .map(|(e, _)| e.program.as_str())
        .collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "programs run {} ({identical} with the same executable both ways, run once), PASS with \
         and without S-L1 {pass}, wrong with S-L1 {}, slower than 0.97x {}",
        ran.len(),
        wrong.len(),
        slower.len()
    );
    if !ratios.is_empty() {
        let geo = (ratios.iter().map(|(_, x)| x.ln()).sum::<f64>() / ratios.len() as f64).exp();
        let _ = writeln!(
            out,
            "time with S-L1 over time without: geometric mean {geo:.3} over the {} programs \
             whose executables differ",
            ratios.len()
        );
    }
    let over_nvcc: Vec<f64> = ran.iter().filter_map(|(_, r)| r.nvcc_ratio()).collect();
    if !over_nvcc.is_empty() {
        let geo = (over_nvcc.iter().map(|x| -x.ln()).sum::<f64>() / over_nvcc.len() as f64).exp();
        let _ = writeln!(
            out,
            "S-L1 over nvcc -O3 (nvcc's time over S-L1's): geometric mean {geo:.2}x over {} \
             programs, {} faster, {} slower",
            over_nvcc.len(),
            over_nvcc.iter().filter(|x| **x < 1.0).count(),
            over_nvcc.iter().filter(|x| **x > 1.0).count()
        );
    }
    for (program, why) in &wrong {
        let _ = writeln!(out, "WRONG {program}: {why}");
    }
    for (program, why) in &driver_wrong {
        let _ = writeln!(out, "WRONG WITHOUT S-L1 {program}: {why}");
    }
    if !nondeterministic.is_empty() {
        let _ = writeln!(
            out,
            "nondeterministic output without S-L1 (not compared): {}",
            nondeterministic.join(" ")
        );
    }
    for (program, x) in &slower {
        let _ = writeln!(
            out,
            "SLOWER {program}: {:.2}x of the build without S-L1",
            1.0 / x
        );
    }
    out.push_str(&launches_text(&launch_counts(entries)));
    out
}

/// What the S-L1 runtime said (`SL1_LAUNCHES=1`) of the launches of the
/// programs S-L1 transformed that ran.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LaunchCounts<'a> {
    /// Programs S-L1 transformed that ran.
    pub transformed: usize,
    /// Of those, the ones whose S-L1 build gave the runtime's account: it
    /// differs from the build without S-L1 and exited by itself.
    pub accounted: usize,
    /// Of those, the ones each of whose transformed kernels launched with
    /// lines.
    pub with_lines: usize,
    /// Of `with_lines`, those whose launches all asked for their bytes
    /// themselves (sized in their own files): lines before the runtime
    /// too.
    pub before: usize,
    /// Each kernel some of whose launches only the runtime sized (no lines
    /// before it), with its program.
    pub by_runtime: Vec<(&'a str, &'a KernelLaunches)>,
    /// Each transformed kernel of an accounted program that launched
    /// without lines or not at all, with its program.
    pub without_lines: Vec<(&'a str, &'a str)>,
    /// Transformed programs run without the runtime's account.
    pub unaccounted: Vec<&'a str>,
}

pub fn launch_counts(entries: &[Entry]) -> LaunchCounts<'_> {
    let mut counts = LaunchCounts::default();
    for e in entries {
        let Some(runs) = &e.runs else { continue };
        if e.sl1.transformed.is_empty() {
            continue;
        }
        counts.transformed += 1;
        let Some(account) = &runs.sl1.launches else {
            counts.unaccounted.push(&e.program);
            continue;
        };
        counts.accounted += 1;
        let mut kernels: Vec<&str> = Vec::new();
        for k in &e.sl1.transformed {
            if !kernels.contains(&k.as_str()) {
                kernels.push(k);
            }
        }
        // A kernel registered by several modules has a line for each.
        let launched = |kernel: &str| {
            account
                .iter()
                .filter(|l| l.kernel == kernel)
                .map(|l| l.launches)
                .sum::<u64>()
        };
        let without: Vec<&str> = kernels.into_iter().filter(|k| launched(k) == 0).collect();
        let sized_by_runtime: Vec<&KernelLaunches> =
            account.iter().filter(|l| l.by_runtime > 0).collect();
        if without.is_empty() {
            counts.with_lines += 1;
            if sized_by_runtime.is_empty() {
                counts.before += 1;
            }
        }
        counts
            .without_lines
            .extend(without.into_iter().map(|k| (e.program.as_str(), k)));
        counts.by_runtime.extend(
            sized_by_runtime
                .into_iter()
                .map(|l| (e.program.as_str(), l)),
        );
    }
    counts
}

/// The launch counts as the run's summary prints them; nothing where S-L1
/// transformed no program that ran.
pub fn launches_text(c: &LaunchCounts<'_>) -> String {
    let mut out = String::new();
    if c.transformed == 0 {
        return out;
    }
    let _ = writeln!(
        out,
        "launches (SL1_LAUNCHES=1) of the {} transformed programs run: the runtime's account \
         from {}; every transformed kernel launched with lines in {}, {} of which sized all \
         their launches in their own files (lines before the runtime)",
        c.transformed, c.accounted, c.with_lines, c.before
    );
    if !c.unaccounted.is_empty() {
        let _ = writeln!(
            out,
            "no account (the same executable both ways, or no exit of its own): {}",
            c.unaccounted.join(" ")
        );
    }
    for (program, l) in &c.by_runtime {
        let _ = writeln!(
            out,
            "SIZED BY THE RUNTIME {program}: {} {} of {} launches with lines (no lines before \
             the runtime), the last {} B",
            l.kernel, l.by_runtime, l.launches, l.last_bytes
        );
    }
    if !c.without_lines.is_empty() {
        let _ = writeln!(
            out,
            "transformed kernels with no launch with lines (not launched by the run, or through \
             an API the runtime does not wrap, such as cuLaunchKernel):"
        );
    }
    for (program, kernel) in &c.without_lines {
        let _ = writeln!(out, "NO LINES {program}: {kernel}");
    }
    out
}

/// The text summary: totals, then each failure that S-L1 causes, then why
/// the others did not build (grouped by their first words).
/// The line a program's runs print as they finish: its verdict with S-L1,
/// and S-L1's speed over the build without it and over nvcc.
pub fn run_line(program: &str, runs: &Runs) -> String {
    let mut line = format!("ran {program}: {:?}", runs.sl1.verdict);
    if runs.identical {
        line.push_str(", the same executable both ways");
    }
    if let Some(x) = runs.ratio() {
        let _ = write!(line, ", S-L1 over no-sl1 {:.2}x", 1.0 / x);
    }
    if let Some(x) = runs.nvcc_ratio() {
        let _ = write!(line, ", S-L1 over nvcc {:.2}x", 1.0 / x);
    }
    line
}

/// One row per program run: what S-L1 transformed, whether it is correct,
/// and its speed over the build without it and over nvcc (Markdown).
pub fn table(entries: &[Entry]) -> String {
    let speed = |x: Option<f64>| x.map_or_else(String::new, |x| format!("{:.2}x", 1.0 / x));
    let mut out = String::from(
        "| program | kernels S-L1 transformed | verdict | correct | S-L1 over no-sl1 | S-L1 over nvcc |\n\
         |---|---|---|---|---|---|\n",
    );
    for e in entries {
        let Some(r) = &e.runs else { continue };
        let correct = match (r.wrong(), r.nondeterministic) {
            (Some(_), _) => "WRONG",
            (None, true) => "yes (nondeterministic output)",
            (None, false) if r.identical => "same executable",
            (None, false) => "yes",
        };
        let _ = writeln!(
            out,
            "| {} | {} | {:?} | {correct} | {} | {} |",
            e.program,
            e.sl1.transformed.len(),
            r.sl1.verdict,
            speed(r.ratio()),
            speed(r.nvcc_ratio()),
        );
    }
    out
}

pub fn text(entries: &[Entry]) -> String {
    let t = totals(entries);
    let mut out = String::new();
    let _ = writeln!(
        out,
        "programs attempted {}, built without S-L1 {}, built with S-L1 {}, transformed {}, \
         S-L1-only build failures {}",
        t.attempted, t.built_no_sl1, t.built_sl1, t.transformed, t.sl1_only_failures
    );
    for e in entries.iter().filter(|e| e.sl1_only_failure()) {
        let _ = writeln!(
            out,
            "S-L1 FAILS {}: {}",
            e.program,
            e.sl1.error.as_deref().unwrap_or("")
        );
    }
    let mut reasons: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    for e in entries.iter().filter(|e| !e.no_sl1.built) {
        let why = e.no_sl1.error.clone().unwrap_or_default();
        let key = reason_key(&why);
        reasons.entry(key).or_default().push(&e.program);
    }
    for (why, programs) in reasons {
        let _ = writeln!(
            out,
            "not built ({}): {why}: {}",
            programs.len(),
            programs.join(" ")
        );
    }
    out
}

/// A failure's kind: the message without file positions and names.
fn reason_key(why: &str) -> String {
    if let Some(at) = why.find("error:") {
        return why[at..].chars().take(80).collect();
    }
    if let Some(at) = why.find(": ") {
        if why[..at].contains("sources") || why[..at].starts_with("links") {
            return why[at + 2..].to_string();
        }
    }
    why.chars().take(80).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build::Mode;
    use crate::outcome::RunResult;

    fn result(mode: Mode, built: bool, error: &str, transformed: &[&str]) -> BuildResult {
        BuildResult {
            mode,
            built,
            executable: None,
            error: (!error.is_empty()).then(|| error.to_string()),
            transformed: transformed.iter().map(|s| s.to_string()).collect(),
            seconds: 1.0,
        }
    }

    #[test]
    fn totals_and_the_failures_s_l1_causes() {
        let entries = vec![
            Entry {
                program: "a-cuda".into(),
                make: None,
                sl1: result(Mode::Sl1, true, "", &["k"]),
                no_sl1: result(Mode::NoSl1, true, "", &[]),
                nvcc: None,
                runs: None,
            },
            Entry {
                program: "b-cuda".into(),
                make: None,
                sl1: result(Mode::Sl1, false, "b.cu:1:1: error: boom", &[]),
                no_sl1: result(Mode::NoSl1, true, "", &[]),
                nvcc: None,
                runs: None,
            },
            Entry {
                program: "c-cuda".into(),
                make: None,
                sl1: result(
                    Mode::Sl1,
                    false,
                    "x.cu:2:3: error: 'mpi.h' file not found",
                    &[],
                ),
                no_sl1: result(
                    Mode::NoSl1,
                    false,
                    "x.cu:2:3: error: 'mpi.h' file not found",
                    &[],
                ),
                nvcc: None,
                runs: None,
            },
        ];
        let t = totals(&entries);
        assert_eq!(
            t,
            Totals {
                attempted: 3,
                built_no_sl1: 2,
                built_sl1: 1,
                transformed: 1,
                sl1_only_failures: 1
            }
        );
        let text = text(&entries);
        assert!(
            text.contains("S-L1 FAILS b-cuda: b.cu:1:1: error: boom"),
            "{text}"
        );
        assert!(
            text.contains("not built (1): error: 'mpi.h' file not found: c-cuda"),
            "{text}"
        );
    }

    fn run_result(verdict: Verdict, kernel_ms: Option<f64>, output: &str) -> RunResult {
        RunResult {
            verdict,
            seconds: 1.0,
            kernel_ms,
            rate: None,
            output: output.into(),
            exit_code: Some(0),
            launches: None,
        }
    }

    #[test]
    fn a_printed_rate_times_the_builds_where_no_kernel_time_is_printed() {
        let rated = |rate: f64, seconds: f64| RunResult {
            rate: Some(rate),
            seconds,
            ..run_result(Verdict::Pass, None, "x\n")
        };
        // Twice the rate with S-L1: half the time, whatever the wall clock.
        let runs = Runs {
            identical: false,
            nondeterministic: false,
            sl1: rated(2000.0, 5.0),
            no_sl1: rated(1000.0, 4.0),
            nvcc: None,
        };
        assert_eq!(runs.ratio(), Some(0.5));
    }

    #[test]
    fn wrong_results_and_slowdowns() {
        let same = Runs {
            identical: false,
            nondeterministic: false,
            sl1: run_result(Verdict::Pass, Some(1.0), "x\n"),
            no_sl1: run_result(Verdict::Pass, Some(2.0), "x\n"),
            nvcc: Some(run_result(Verdict::Pass, Some(4.0), "y\n")),
        };
        assert_eq!(same.wrong(), None);
        assert_eq!(same.nvcc_ratio(), Some(0.25));
        assert_eq!(same.ratio(), Some(0.5));
        let failed = Runs {
            identical: false,
            nondeterministic: false,
            sl1: run_result(Verdict::Fail, None, "x\n"),
            no_sl1: run_result(Verdict::Pass, None, "x\n"),
            nvcc: None,
        };
        assert!(failed.wrong().unwrap().contains("Fail with S-L1"));
        assert_eq!(failed.ratio(), None);
        let other = Runs {
            identical: false,
            nondeterministic: false,
            sl1: run_result(Verdict::NoVerdict, None, "sum 3\n"),
            no_sl1: run_result(Verdict::NoVerdict, None, "sum 4\n"),
            nvcc: None,
        };
        assert!(other.wrong().unwrap().contains("output differs"));
        let slow = Runs {
            identical: false,
            nondeterministic: false,
            sl1: run_result(Verdict::Pass, Some(2.0), "x\n"),
            no_sl1: run_result(Verdict::Pass, Some(1.0), "x\n"),
            nvcc: Some(run_result(Verdict::Pass, Some(1.0), "x\n")),
        };
        let entry = |name: &str, runs: Runs| Entry {
            program: name.into(),
            make: None,
            sl1: result(Mode::Sl1, true, "", &[]),
            no_sl1: result(Mode::NoSl1, true, "", &[]),
            nvcc: None,
            runs: Some(runs),
        };
        let text = runs_text(&[
            entry("a", same.clone()),
            entry("b", failed),
            entry("c", slow.clone()),
        ]);
        assert!(
            text.contains(
                "programs run 3 (0 with the same executable both ways, run once), PASS with and \
                 without S-L1 2, wrong with S-L1 1, slower than 0.97x 1"
            ),
            "{text}"
        );
        assert!(text.contains("WRONG b: "), "{text}");
        assert!(text.contains("SLOWER c: 0.50x"), "{text}");
        // a: 4x nvcc's speed; c: half of it.
        assert!(
            text.contains(
                "S-L1 over nvcc -O3 (nvcc's time over S-L1's): geometric mean 1.41x over 2 \
                 programs, 1 faster, 1 slower"
            ),
            "{text}"
        );
        assert_eq!(
            run_line("a", &same),
            "ran a: Pass, S-L1 over no-sl1 2.00x, S-L1 over nvcc 4.00x"
        );
        let table = table(&[entry("a", same.clone()), entry("c", slow.clone())]);
        assert!(
            table.contains("| a | 0 | Pass | yes | 2.00x | 4.00x |"),
            "{table}"
        );
        assert!(
            table.contains("| c | 0 | Pass | yes | 0.50x | 0.50x |"),
            "{table}"
        );
    }

    fn line(kernel: &str, launches: u64, by_runtime: u64) -> KernelLaunches {
        KernelLaunches {
            kernel: kernel.into(),
            launches,
            last_bytes: 512,
            by_runtime,
        }
    }

    #[test]
    fn a_failure_of_both_driver_builds_where_nvcc_passes_is_wrong_too() {
        // topk failed with and without S-L1 and passed with nvcc: comparing
        // the driver's two builds alone called it right (2026-11-30).
        let both_fail = Runs {
            identical: true,
            nondeterministic: false,
            sl1: run_result(Verdict::Fail, None, "FAIL\n"),
            no_sl1: run_result(Verdict::Fail, None, "FAIL\n"),
            nvcc: Some(run_result(Verdict::Pass, None, "PASS\n")),
        };
        assert_eq!(both_fail.wrong(), None);
        assert!(both_fail
            .wrong_against_nvcc()
            .unwrap()
            .contains("Fail without S-L1, Pass with nvcc"));
        let no_nvcc = Runs {
            nvcc: None,
            ..both_fail.clone()
        };
        assert_eq!(no_nvcc.wrong_against_nvcc(), None);
        let nvcc_fails_too = Runs {
            nvcc: Some(run_result(Verdict::Fail, None, "FAIL\n")),
            ..both_fail.clone()
        };
        assert_eq!(nvcc_fails_too.wrong_against_nvcc(), None);
        let entry = Entry {
            program: "topk".into(),
            make: None,
            sl1: result(Mode::Sl1, true, "", &[]),
            no_sl1: result(Mode::NoSl1, true, "", &[]),
            nvcc: None,
            runs: Some(both_fail),
        };
        let text = runs_text(&[entry]);
        assert!(
            text.contains("WRONG WITHOUT S-L1 topk: Fail without S-L1"),
            "{text}"
        );
    }

    #[test]
    fn launches_with_lines_before_and_after_the_runtime_are_counted() {
        let entry = |name: &str, transformed: &[&str], launches: Option<Vec<KernelLaunches>>| {
            let sl1 = RunResult {
                launches,
                ..run_result(Verdict::Pass, Some(1.0), "x\n")
            };
            Entry {
                program: name.into(),
                make: None,
                sl1: result(Mode::Sl1, true, "", transformed),
                no_sl1: result(Mode::NoSl1, true, "", &[]),
                nvcc: None,
                runs: Some(Runs {
                    identical: false,
                    nondeterministic: false,
                    no_sl1: run_result(Verdict::Pass, Some(1.0), "x\n"),
                    sl1,
                    nvcc: None,
                }),
            }
        };
        let mut not_run = entry("f", &["k"], None);
        not_run.runs = None;
        let entries = vec![
            // Every launch sized in its own file.
            entry(
                "a",
                &["k1", "k2"],
                Some(vec![line("k1", 4, 0), line("k2", 1, 0)]),
            ),
            // Two of three launches sized by the runtime alone; a kernel
            // registered by two modules, launched from one of them.
            entry(
                "b",
                &["k", "t"],
                Some(vec![line("k", 3, 2), line("t", 0, 0), line("t", 5, 0)]),
            ),
            // One kernel launched with lines, one never with lines, one
            // the runtime has no line for.
            entry(
                "c",
                &["k", "dead", "gone"],
                Some(vec![line("k", 1, 0), line("dead", 0, 0)]),
            ),
            // The S-L1 build gave no account (same executable, killed).
            entry("d", &["k"], None),
            // Not transformed, or not run: not counted.
            entry("e", &[], Some(vec![])),
            not_run,
        ];
        let counts = launch_counts(&entries);
        let b_line = line("k", 3, 2);
        assert_eq!(
            counts,
            LaunchCounts {
                transformed: 4,
                accounted: 3,
                with_lines: 2,
                before: 1,
                by_runtime: vec![("b", &b_line)],
                without_lines: vec![("c", "dead"), ("c", "gone")],
                unaccounted: vec!["d"],
            }
        );
        let text = runs_text(&entries);
        assert!(
            text.contains(
                "launches (SL1_LAUNCHES=1) of the 4 transformed programs run: the runtime's \
                 account from 3; every transformed kernel launched with lines in 2, 1 of which \
                 sized all their launches in their own files (lines before the runtime)"
            ),
            "{text}"
        );
        assert!(
            text.contains(
                "SIZED BY THE RUNTIME b: k 2 of 3 launches with lines (no lines before the \
                 runtime), the last 512 B"
            ),
            "{text}"
        );
        assert!(
            text.contains("NO LINES c: dead\nNO LINES c: gone\n"),
            "{text}"
        );
        assert!(
            text.contains("no account (the same executable both ways, or no exit of its own): d\n"),
            "{text}"
        );
        // Nothing transformed ran: nothing said.
        assert_eq!(launches_text(&launch_counts(&entries[4..])), "");
    }

    #[test]
    fn the_runtime_s_account_is_kept_in_corpus_json_and_older_files_load() {
        let mut r = run_result(Verdict::Pass, Some(1.0), "x\n");
        let old = serde_json::to_value(&r).unwrap();
        assert!(old.get("launches").is_none());
        let read: RunResult = serde_json::from_value(old).unwrap();
        assert_eq!(read.launches, None);
        r.launches = Some(vec![line("k", 2, 1)]);
        let json = serde_json::to_string(&r).unwrap();
        assert!(
            json.contains("\"launches\":[{\"kernel\":\"k\",\"launches\":2"),
            "{json}"
        );
        assert_eq!(serde_json::from_str::<RunResult>(&json).unwrap(), r);
    }
}

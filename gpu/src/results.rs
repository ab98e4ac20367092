//! Measurements, their summary (best configuration per build, speed-up over a
//! baseline) and the JSON written for the record.

use serde::{Deserialize, Serialize};

use crate::floor::Floor;
use crate::sweep::Config;

/// One build of one app at one configuration.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Measurement {
    pub app: String,
    pub variant: String,
    pub config: Config,
    pub median_ms: f32,
    /// None when the output matched the CPU reference, else what differed.
    pub mismatch: Option<String>,
}

/// The best configuration of one build of one app.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Best {
    pub app: String,
    pub variant: String,
    pub config: Config,
    pub median_ms: f32,
    /// Baseline's best time over this build's best time.
    pub speedup: Option<f32>,
    /// Every configuration of this build matched the reference.
    pub correct: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Report {
    pub gpu: String,
    pub bytes: usize,
    pub reps: usize,
    pub baseline: String,
    pub best: Vec<Best>,
    pub measurements: Vec<Measurement>,
    /// Counters of the run-time statistics build, one entry per app and
    /// configuration it ran at (empty when that build was not run).
    #[serde(default)]
    pub hit_rates: Vec<HitRates>,
    /// Configurations a build could not be launched at (too many registers
    /// or too much shared memory per block).
    #[serde(default)]
    pub launch_failures: Vec<LaunchFailure>,
    /// The memory floor measured in the same run (none in older reports).
    #[serde(default)]
    pub floor: Option<Floor>,
    /// The executables' runs (`sl1-bench --exes`; none in older reports).
    #[serde(default)]
    pub executables: Vec<crate::exe::ExeMeasurement>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaunchFailure {
    pub app: String,
    pub variant: String,
    pub config: Config,
    pub error: String,
}

/// What the statistics build (`--stats`) counted in one launch of one app.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HitRates {
    pub app: String,
    pub variant: String,
    pub config: Config,
    pub structures: Vec<StructureStats>,
    /// The paths of the kernel's run-time alias checks, in check order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub alias_paths: Vec<AliasPaths>,
}

/// Thread entries down each path of one run-time alias check, summed over
/// every thread of the launch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AliasPaths {
    /// Entries that found the ranges apart: the copy without aliases ran.
    pub apart: u64,
    /// Entries that found them overlapping: the original ran.
    pub overlapping: u64,
}

/// Counters of one data structure, summed over every thread of the launch.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StructureStats {
    /// The kernel argument the structure is.
    pub argument: String,
    /// Accesses the monitoring slice simulated: hits and misses.
    pub simulated_hits: u64,
    pub simulated_misses: u64,
    /// Accesses served through the cache: hits and misses (line fills).
    pub hits: u64,
    pub misses: u64,
    /// Threads that decided to cache the structure, of all threads that
    /// reached a decision.
    pub threads_caching: u64,
    pub threads_deciding: u64,
}

impl StructureStats {
    /// Simulated hit rate, the one the decision used (None without accesses).
    pub fn simulated_hit_rate(&self) -> Option<f64> {
        ratio(
            self.simulated_hits,
            self.simulated_hits + self.simulated_misses,
        )
    }
    /// Hit rate of the accesses that went through the cache.
    pub fn hit_rate(&self) -> Option<f64> {
        ratio(self.hits, self.hits + self.misses)
    }
    /// Share of the deciding threads that cached the structure.
    pub fn caching_share(&self) -> Option<f64> {
        ratio(self.threads_caching, self.threads_deciding)
    }
}

fn ratio(part: u64, whole: u64) -> Option<f64> {
    (whole > 0).then(|| part as f64 / whole as f64)
}

/// Best configuration per (app, variant), in the order the pairs first appear,
/// with speed-ups over `baseline`'s best for the same app.
pub fn summarize(measurements: &[Measurement], baseline: &str) -> Vec<Best> {
    let mut best: Vec<Best> = Vec::new();
    for m in measurements {
        let correct = m.mismatch.is_none();
        match best
            .iter_mut()
            .find(|b| b.app == m.app && b.variant == m.variant)
        {
            Some(b) => {
                b.correct &= correct;
                if m.median_ms < b.median_ms {
                    b.median_ms = m.median_ms;
                    b.config = m.config;
                }
            }
            None => best.push(Best {
                app: m.app.clone(),
                variant: m.variant.clone(),
                config: m.config,
                median_ms: m.median_ms,
                speedup: None,
                correct,
            }),
        }
    }
    let base: Vec<(String, f32)> = best
        .iter()
        .filter(|b| b.variant == baseline)
        .map(|b| (b.app.clone(), b.median_ms))
        .collect();
    for b in &mut best {
        b.speedup = base
            .iter()
            .find(|(app, _)| *app == b.app)
            .map(|(_, ms)| ms / b.median_ms);
    }
    best
}

/// Why two reports cannot be one.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MergeError {
    #[error("no reports to merge")]
    Empty,
    #[error("report {index} differs in {field} ({theirs} against {ours}): runs of different set-ups are not comparable")]
    Mismatch {
        index: usize,
        field: &'static str,
        ours: String,
        theirs: String,
    },
    #[error("app {app} build {variant} is in more than one report")]
    Overlap { app: String, variant: String },
}

impl Report {
    /// One report of runs made in parts (apps split across device calls): the
    /// parts must share GPU, input size, repetitions and baseline, and no
    /// (app, build) pair may be measured twice. Best configurations are
    /// recomputed from the union of measurements.
    pub fn merge(parts: Vec<Report>) -> Result<Report, MergeError> {
        let mut parts = parts.into_iter();
        let mut merged = parts.next().ok_or(MergeError::Empty)?;
        for (i, part) in parts.enumerate() {
            let index = i + 1;
            let same = |field, ours: String, theirs: String| {
                if ours == theirs {
                    Ok(())
                } else {
                    Err(MergeError::Mismatch {
                        index,
                        field,
                        ours,
                        theirs,
                    })
                }
            };
            same("gpu", merged.gpu.clone(), part.gpu.clone())?;
            same("bytes", merged.bytes.to_string(), part.bytes.to_string())?;
            same("reps", merged.reps.to_string(), part.reps.to_string())?;
            same("baseline", merged.baseline.clone(), part.baseline.clone())?;
            if let Some(b) = part.best.iter().find(|b| {
                merged
                    .best
                    .iter()
                    .any(|o| o.app == b.app && o.variant == b.variant)
            }) {
                return Err(MergeError::Overlap {
                    app: b.app.clone(),
                    variant: b.variant.clone(),
                });
            }
            merged.best.extend(part.best);
            merged.measurements.extend(part.measurements);
            merged.hit_rates.extend(part.hit_rates);
            merged.launch_failures.extend(part.launch_failures);
            // Each part measured its own copy; the first part's rate stands,
            // and apps floored only in a later part are floored at it.
            if let (Some(floor), Some(theirs)) = (merged.floor.as_mut(), part.floor) {
                for a in theirs.apps {
                    if !floor.apps.iter().any(|o| o.app == a.app) {
                        floor.add(&a.app, a.bytes);
                    }
                }
            }
        }
        merged.best = summarize(&merged.measurements, &merged.baseline);
        Ok(merged)
    }
}

/// The summary as a text table.
pub fn table(best: &[Best], baseline: &str) -> String {
    table_compared(best, baseline, None, None)
}

/// Each row's speed-up over build `against` of the same app: `against`'s
/// best time over the row's (None where the app has no `against` build).
pub fn speedups_over(best: &[Best], against: &str) -> Vec<Option<f32>> {
    best.iter()
        .map(|b| {
            best.iter()
                .find(|o| o.app == b.app && o.variant == against)
                .map(|o| o.median_ms / b.median_ms)
        })
        .collect()
}

/// The summary as a text table; with `compare_to` (and that build among the
/// rows), one more column: each row's speed-up over that build of its app;
/// with `floor`, one more: each row's time over its app's memory floor.
/// The app column widens for names longer than 10 characters.
pub fn table_compared(
    best: &[Best],
    baseline: &str,
    compare_to: Option<&str>,
    floor: Option<&Floor>,
) -> String {
    let compare = compare_to.filter(|c| best.iter().any(|b| b.variant == *c));
    let width = best.iter().map(|b| b.app.len()).max().unwrap_or(0).max(10);
    let ratio = |s: Option<f32>| s.map_or_else(|| "-".into(), |s| format!("{s:.2}x"));
    let mut out = format!(
        "{:<width$} {:<12} {:>10} {:>12} {:>10}",
        "app",
        "build",
        "best ms",
        "blocks x thr",
        format!("vs {baseline}"),
    );
    if let Some(c) = compare {
        out += &format!(" {:>10}", format!("vs {c}"));
    }
    if floor.is_some() {
        out += &format!(" {:>9}", "x floor");
    }
    out += "  check\n";
    let over = compare.map(|c| speedups_over(best, c));
    for (k, b) in best.iter().enumerate() {
        out += &format!(
            "{:<width$} {:<12} {:>10.3} {:>12} {:>10}",
            b.app,
            b.variant,
            b.median_ms,
            format!("{}x{}", b.config.blocks, b.config.threads),
            ratio(b.speedup),
        );
        if let Some(over) = &over {
            out += &format!(" {:>10}", ratio(over[k]));
        }
        if let Some(floor) = floor {
            let times = floor.times_floor(&b.app, b.median_ms);
            out += &format!(
                " {:>9}",
                times.map_or_else(|| "-".into(), |t| format!("{t:.2}x"))
            );
        }
        out += &format!("  {}\n", if b.correct { "OK" } else { "MISMATCH" });
    }
    out
}

/// One line on how `build` fares against `against` over the apps that have
/// both: the geometric mean of `against`'s best time over `build`'s, the
/// worst and the best app (None when no app has both).
pub fn comparison_summary(best: &[Best], build: &str, against: &str) -> Option<String> {
    let pairs: Vec<(&str, f32)> = best
        .iter()
        .filter(|b| b.variant == build)
        .filter_map(|b| {
            best.iter()
                .find(|o| o.app == b.app && o.variant == against)
                .map(|o| (b.app.as_str(), o.median_ms / b.median_ms))
        })
        .collect();
    let worst = pairs.iter().min_by(|a, b| a.1.total_cmp(&b.1))?;
    let top = pairs.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let mean =
        (pairs.iter().map(|(_, r)| f64::from(*r).ln()).sum::<f64>() / pairs.len() as f64).exp();
    let slower = pairs.iter().filter(|(_, r)| *r < 0.95).count();
    Some(format!(
        "{build} vs {against} ({against} ms / {build} ms) over {} app(s): geometric mean {mean:.2}x, \
         worst {:.2}x ({}), best {:.2}x ({}), {slower} below 0.95x",
        pairs.len(),
        worst.1,
        worst.0,
        top.1,
        top.0
    ))
}

/// The hit rates each statistics build counted for each app, at the
/// configuration where the plain S-L1 build (`sl1`) was best (else at the
/// first counted).
pub fn hit_rates_at_best<'a>(hit_rates: &'a [HitRates], best: &[Best]) -> Vec<&'a HitRates> {
    let mut keys: Vec<(&str, &str)> = hit_rates
        .iter()
        .map(|h| (h.app.as_str(), h.variant.as_str()))
        .collect();
    keys.dedup();
    keys.iter()
        .filter_map(|&(app, variant)| {
            let at = best
                .iter()
                .find(|b| b.app == app && b.variant == "sl1")
                .map(|b| b.config);
            let of_build = || {
                hit_rates
                    .iter()
                    .filter(move |h| h.app == app && h.variant == variant)
            };
            of_build()
                .find(|h| Some(h.config) == at)
                .or_else(|| of_build().next())
        })
        .collect()
}

/// Hit rates as a text table (per app and structure).
pub fn hit_rate_table(hit_rates: &[HitRates], best: &[Best]) -> String {
    let pct = |r: Option<f64>| r.map_or("-".to_string(), |r| format!("{:.1}%", 100.0 * r));
    let mut out = format!(
        "{:<10} {:<16} {:<12} {:>12} {:>10} {:>10} {:>12}\n",
        "app", "build", "structure", "blocks x thr", "simulated", "real", "threads on"
    );
    for h in hit_rates_at_best(hit_rates, best) {
        for s in &h.structures {
            out += &format!(
                "{:<10} {:<16} {:<12} {:>12} {:>10} {:>10} {:>12}\n",
                h.app,
                h.variant,
                s.argument,
                format!("{}x{}", h.config.blocks, h.config.threads),
                pct(s.simulated_hit_rate()),
                pct(s.hit_rate()),
                pct(s.caching_share())
            );
        }
    }
    let checked: Vec<&HitRates> = hit_rates_at_best(hit_rates, best)
        .into_iter()
        .filter(|h| !h.alias_paths.is_empty())
        .collect();
    if !checked.is_empty() {
        out += &format!(
            "{:<10} {:<16} {:<12} {:>12} {:>14} {:>14}\n",
            "app", "build", "alias check", "blocks x thr", "apart", "overlapping"
        );
    }
    for h in checked {
        for (i, p) in h.alias_paths.iter().enumerate() {
            out += &format!(
                "{:<10} {:<16} {:<12} {:>12} {:>14} {:>14}\n",
                h.app,
                h.variant,
                i,
                format!("{}x{}", h.config.blocks, h.config.threads),
                p.apart,
                p.overlapping
            );
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(app: &str, variant: &str, blocks: u32, ms: f32, ok: bool) -> Measurement {
        Measurement {
            app: app.into(),
            variant: variant.into(),
            config: Config {
                blocks,
                threads: 256,
            },
            median_ms: ms,
            mismatch: (!ok).then(|| "differs".into()),
        }
    }

    #[test]
    fn best_configuration_and_speedup_over_the_baseline() {
        let ms = [
            m("upper", "nvcc", 132, 9.0, true),
            m("upper", "nvcc", 264, 8.0, true),
            m("upper", "sl1", 132, 2.0, true),
            m("upper", "sl1", 264, 4.0, false),
            m("wc", "sl1", 132, 1.0, true),
        ];
        let best = summarize(&ms, "nvcc");
        assert_eq!(best.len(), 3);
        assert_eq!(best[0].median_ms, 8.0);
        assert_eq!(best[0].config.blocks, 264);
        assert_eq!(best[1].speedup, Some(4.0));
        assert!(
            !best[1].correct,
            "one mismatching configuration makes the build incorrect"
        );
        assert_eq!(best[2].speedup, None, "no baseline for wc");
        let text = table(&best, "nvcc");
        assert!(
            text.contains("MISMATCH") && text.contains("4.00x"),
            "{text}"
        );
    }

    #[test]
    fn a_column_and_a_summary_compare_builds_with_another() {
        let ms = [
            m("inplace_shift", "no-sl1", 132, 2.0, true),
            m("inplace_shift", "sl1", 132, 4.0, true),
            m("gather", "no-sl1", 132, 3.0, true),
            m("gather", "sl1", 132, 1.0, true),
            m("stencil3", "sl1", 132, 1.0, true),
        ];
        let best = summarize(&ms, "nvcc");
        assert_eq!(
            speedups_over(&best, "no-sl1"),
            [Some(1.0), Some(0.5), Some(1.0), Some(3.0), None]
        );
        let text = table_compared(&best, "nvcc", Some("no-sl1"), None);
        let header = text.lines().next().unwrap();
        assert!(
            header.contains("vs no-sl1") && header.starts_with("app    "),
            "{text}"
        );
        let row = text
            .lines()
            .find(|l| l.starts_with("inplace_shift sl1"))
            .unwrap();
        assert!(row.contains("0.50x") && row.ends_with("OK"), "{text}");
        // Without the build to compare to, the table is the plain one.
        let plain = table(&best, "nvcc");
        assert_eq!(table_compared(&best, "nvcc", Some("clang"), None), plain);
        assert!(!plain.contains("vs no-sl1"));
        let line = comparison_summary(&best, "sl1", "no-sl1").unwrap();
        assert!(line.contains("over 2 app(s)"), "{line}");
        // sqrt(0.5 * 3) = 1.22
        assert!(line.contains("geometric mean 1.22x"), "{line}");
        assert!(line.contains("worst 0.50x (inplace_shift)"), "{line}");
        assert!(line.contains("best 3.00x (gather)"), "{line}");
        assert!(line.contains("1 below 0.95x"), "{line}");
        assert_eq!(comparison_summary(&best, "sl1", "nvcc"), None);
    }

    #[test]
    fn the_apps_table_keeps_its_columns() {
        let best = summarize(&[m("upper", "sl1", 132, 2.0, true)], "nvcc");
        assert_eq!(
            table(&best, "nvcc"),
            "app        build           best ms blocks x thr    vs nvcc  check\n\
             upper      sl1               2.000      132x256          -  OK\n"
        );
    }

    #[test]
    fn the_floor_column_is_time_over_the_apps_floor() {
        let best = summarize(
            &[
                m("upper", "sl1", 132, 2.0, true),
                m("wc", "sl1", 132, 1.0, true),
            ],
            "nvcc",
        );
        // 1 MiB copied in 1 ms; upper moves 2 MiB (floor 1 ms), wc no floor.
        let mut floor = Floor::from_copy(1 << 20, 1.0);
        floor.add("upper", 2 << 20);
        let text = table_compared(&best, "nvcc", None, Some(&floor));
        assert!(text.lines().next().unwrap().contains("x floor"), "{text}");
        let row = |app: &str| text.lines().find(|l| l.starts_with(app)).unwrap();
        assert!(row("upper").contains(" 2.00x  OK"), "{text}");
        assert!(row("wc").contains("       -  OK"), "{text}");
    }

    #[test]
    fn merged_parts_floor_every_app_at_the_first_parts_rate() {
        let mut first = part("H100", vec![m("upper", "sl1", 132, 2.0, true)]);
        let mut floor = Floor::from_copy(1 << 20, 1.0);
        floor.add("upper", 2 << 20);
        first.floor = Some(floor);
        let mut second = part("H100", vec![m("wc", "sl1", 132, 1.0, true)]);
        let mut theirs = Floor::from_copy(1 << 20, 2.0);
        theirs.add("wc", 1 << 20);
        second.floor = Some(theirs);
        let merged = Report::merge(vec![first, second]).unwrap();
        let floor = merged.floor.unwrap();
        assert_eq!(floor.copy_ms, 1.0);
        assert_eq!(floor.times_floor("wc", 1.0), Some(2.0));
    }

    #[test]
    fn report_round_trips_through_json() {
        let ms = vec![m("upper", "sl1", 132, 2.0, true)];
        let report = Report {
            gpu: "test".into(),
            bytes: 10,
            reps: 3,
            baseline: "nvcc".into(),
            best: summarize(&ms, "nvcc"),
            measurements: ms,
            hit_rates: vec![HitRates {
                app: "upper".into(),
                variant: "sl1-stats".into(),
                config: Config {
                    blocks: 1,
                    threads: 32,
                },
                structures: vec![StructureStats {
                    argument: "in".into(),
                    simulated_hits: 3,
                    simulated_misses: 1,
                    ..Default::default()
                }],
                alias_paths: vec![AliasPaths {
                    apart: 96,
                    overlapping: 0,
                }],
            }],
            launch_failures: vec![],
            floor: None,
            executables: vec![],
        };
        let json = serde_json::to_string(&report).unwrap();
        assert_eq!(serde_json::from_str::<Report>(&json).unwrap(), report);
        assert_eq!(
            report.hit_rates[0].structures[0].simulated_hit_rate(),
            Some(0.75)
        );
        assert_eq!(report.hit_rates[0].structures[0].hit_rate(), None);
        let text = hit_rate_table(&report.hit_rates, &report.best);
        assert!(
            text.contains("upper") && text.contains("sl1-stats") && text.contains("75.0%"),
            "{text}"
        );
        assert!(
            text.contains("alias check")
                && text.lines().last().unwrap().ends_with(" 96              0"),
            "{text}"
        );
    }

    fn part(gpu: &str, ms: Vec<Measurement>) -> Report {
        Report {
            gpu: gpu.into(),
            bytes: 100,
            reps: 3,
            baseline: "nvcc".into(),
            best: summarize(&ms, "nvcc"),
            measurements: ms,
            hit_rates: vec![],
            launch_failures: vec![],
            floor: None,
            executables: vec![],
        }
    }

    #[test]
    fn reports_of_one_set_up_merge_into_one() {
        let a = part(
            "H100",
            vec![
                m("upper", "nvcc", 1, 8.0, true),
                m("upper", "sl1", 1, 2.0, true),
            ],
        );
        let b = part(
            "H100",
            vec![m("wc", "nvcc", 1, 3.0, true), m("wc", "sl1", 2, 6.0, false)],
        );
        let merged = Report::merge(vec![a, b]).unwrap();
        assert_eq!(merged.measurements.len(), 4);
        let got: Vec<(&str, &str, Option<f32>, bool)> = merged
            .best
            .iter()
            .map(|b| (b.app.as_str(), b.variant.as_str(), b.speedup, b.correct))
            .collect();
        assert_eq!(
            got,
            [
                ("upper", "nvcc", Some(1.0), true),
                ("upper", "sl1", Some(4.0), true),
                ("wc", "nvcc", Some(1.0), true),
                ("wc", "sl1", Some(0.5), false)
            ]
        );
    }

    #[test]
    fn reports_of_different_set_ups_or_overlapping_apps_do_not_merge() {
        let a = part("H100", vec![m("upper", "nvcc", 1, 8.0, true)]);
        let other_gpu = part("A100", vec![m("wc", "nvcc", 1, 3.0, true)]);
        let err = Report::merge(vec![a.clone(), other_gpu]).unwrap_err();
        assert!(
            matches!(err, MergeError::Mismatch { field: "gpu", .. }),
            "{err}"
        );
        let again = part("H100", vec![m("upper", "nvcc", 2, 7.0, true)]);
        assert_eq!(
            Report::merge(vec![a, again]).unwrap_err(),
            MergeError::Overlap {
                app: "upper".into(),
                variant: "nvcc".into()
            }
        );
        assert_eq!(Report::merge(vec![]).unwrap_err(), MergeError::Empty);
    }
}

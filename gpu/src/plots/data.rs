//! What each plot shows, computed from a [`Report`]: pure functions that turn
//! the best configurations and the statistics build's counters into bar
//! series. Nothing here draws.

use crate::results::{Best, HitRates, Report};

/// The build without S-L1, compiled by clang like the S-L1 builds.
pub const NO_SL1: &str = "no-sl1";
/// S-L1 with its default 16 B lines.
pub const SL1: &str = "sl1";
/// S-L1 with caching forced off: the cost of the inserted code alone.
pub const SL1_OFF: &str = "sl1-off";
/// Line size of the `sl1` build; `sl1-l<N>` builds have N-byte lines.
pub const SL1_LINE_BYTES: u32 = 16;
/// The overhead the paper aims to stay under, in percent.
pub const OVERHEAD_GOAL_PERCENT: f64 = 8.0;

/// Label of the group that averages the apps.
pub const MEAN_GROUP: &str = "mean";

/// How the values of a chart read: ticks and bar labels are written this way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A ratio such as a speed-up, written `3.98`.
    Ratio,
    /// A percentage, written `12.5%`.
    Percent,
    /// A count, written `67.6k`.
    Count,
}

impl Unit {
    /// The value as a bar label.
    pub fn label(self, v: f64) -> String {
        match self {
            Unit::Ratio => format!("{v:.2}"),
            Unit::Percent if v.abs() >= 10.0 => format!("{v:.0}%"),
            Unit::Percent => format!("{v:.1}%"),
            Unit::Count => count(v),
        }
    }
    /// The value as an axis tick.
    pub fn tick(self, v: f64) -> String {
        match self {
            Unit::Ratio => trim(format!("{v:.2}")),
            Unit::Percent => format!("{}%", trim(format!("{v:.1}"))),
            Unit::Count => count(v),
        }
    }
}

/// `67584` as `67.6k`, `1081344` as `1.08M`.
fn count(v: f64) -> String {
    let (scaled, suffix) = match v.abs() {
        a if a >= 1e6 => (v / 1e6, "M"),
        a if a >= 1e3 => (v / 1e3, "k"),
        _ => (v, ""),
    };
    let digits = if scaled.abs() >= 100.0 || suffix.is_empty() {
        0
    } else if scaled.abs() >= 10.0 {
        1
    } else {
        2
    };
    format!("{}{suffix}", trim(format!("{scaled:.digits$}")))
}

/// `2.50` as `2.5`, `3.00` as `3`.
fn trim(s: String) -> String {
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YScale {
    Linear,
    Log,
}

/// One bar per group: `values[i]` belongs to `groups[i]`, None draws no bar.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub values: Vec<Option<f64>>,
}

/// A horizontal reference line across the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct RefLine {
    pub value: f64,
    pub label: String,
}

/// A grouped bar chart: every plot of the suite is one.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// File stem: the chart is written as `<name>.svg` and `<name>.png`.
    pub name: &'static str,
    pub title: String,
    pub y_label: String,
    /// The x axis: apps, an app's structures, and possibly [`MEAN_GROUP`].
    pub groups: Vec<String>,
    pub series: Vec<Series>,
    pub lines: Vec<RefLine>,
    pub y_scale: YScale,
    pub unit: Unit,
    /// A line under the chart (what a `*` on an app means, say).
    pub note: Option<String>,
}

impl BarChart {
    /// Every value the chart draws, bars and lines.
    pub fn values(&self) -> impl Iterator<Item = f64> + '_ {
        self.series
            .iter()
            .flat_map(|s| s.values.iter().flatten().copied())
            .chain(self.lines.iter().map(|l| l.value))
    }
}

/// A plot that was not drawn, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    pub plot: &'static str,
    pub reason: String,
}

/// Every plot of the suite, in the paper's order: drawn or skipped.
pub fn all(report: &Report) -> Vec<Result<BarChart, Skipped>> {
    vec![
        speedup(report),
        hit_rate(report),
        threads(report),
        overhead(report),
        line_size(report),
        floor(report),
    ]
}

/// Note under charts where an app is marked.
const MISMATCH_NOTE: &str =
    "* some configuration of a shown build of this app differed from the CPU reference";

/// Apps in the order the report first names them.
pub fn apps(report: &Report) -> Vec<String> {
    let mut apps: Vec<String> = Vec::new();
    let names = report
        .best
        .iter()
        .map(|b| &b.app)
        .chain(report.measurements.iter().map(|m| &m.app));
    for app in names {
        if !apps.contains(app) {
            apps.push(app.clone());
        }
    }
    apps
}

/// The best configuration of `variant` for `app`.
pub fn best<'a>(report: &'a Report, app: &str, variant: &str) -> Option<&'a Best> {
    report
        .best
        .iter()
        .find(|b| b.app == app && b.variant == variant)
}

fn has_build(report: &Report, variant: &str) -> bool {
    report.best.iter().any(|b| b.variant == variant)
}

/// Arithmetic mean of the values present (None when there are none).
pub fn mean(values: &[Option<f64>]) -> Option<f64> {
    let present: Vec<f64> = values.iter().flatten().copied().collect();
    (!present.is_empty()).then(|| present.iter().sum::<f64>() / present.len() as f64)
}

/// Per app, one series per `(series name, build)` with `value` of the build's
/// best configuration; apps none of whose builds has a value are left out. An
/// app is marked `*` when one of its shown builds was not correct. With
/// `with_mean`, a last group holds each series' arithmetic mean.
fn per_app(
    report: &Report,
    builds: &[(String, String)],
    value: impl Fn(&str, &Best) -> Option<f64>,
    with_mean: bool,
) -> (Vec<String>, Vec<Series>, Option<String>) {
    let mut groups = Vec::new();
    let mut series: Vec<Series> = builds
        .iter()
        .map(|(name, _)| Series {
            name: name.clone(),
            values: Vec::new(),
        })
        .collect();
    let mut marked = false;
    for app in apps(report) {
        let bests: Vec<Option<&Best>> = builds
            .iter()
            .map(|(_, variant)| best(report, &app, variant))
            .collect();
        let values: Vec<Option<f64>> = bests
            .iter()
            .map(|b| b.and_then(|b| value(&app, b)))
            .collect();
        if values.iter().all(Option::is_none) {
            continue;
        }
        let wrong = bests.iter().flatten().any(|b| !b.correct);
        marked |= wrong;
        groups.push(if wrong { format!("{app}*") } else { app });
        for (s, v) in series.iter_mut().zip(values) {
            s.values.push(v);
        }
    }
    if with_mean && !groups.is_empty() {
        groups.push(MEAN_GROUP.into());
        for s in &mut series {
            let m = mean(&s.values);
            s.values.push(m);
        }
    }
    (groups, series, marked.then(|| MISMATCH_NOTE.into()))
}

fn present(report: &Report, builds: &[&str]) -> Vec<(String, String)> {
    builds
        .iter()
        .filter(|b| has_build(report, b))
        .map(|b| (b.to_string(), b.to_string()))
        .collect()
}

/// Figure 1: speed-up over the baseline of each build's best configuration.
pub fn speedup(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "speedup";
    let builds = present(report, &[NO_SL1, SL1]);
    if builds.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: format!("the report has neither build {NO_SL1} nor {SL1}"),
        });
    }
    let (groups, series, note) = per_app(report, &builds, |_, b| b.speedup.map(f64::from), true);
    if groups.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: format!(
                "no speed-ups: the baseline build {} has no measurement of these apps",
                report.baseline
            ),
        });
    }
    Ok(BarChart {
        name: NAME,
        title: format!(
            "Speed-up over {} (best configuration of each build; mean: arithmetic)",
            report.baseline
        ),
        y_label: format!("speed-up over {}", report.baseline),
        groups,
        series,
        lines: vec![RefLine {
            value: 1.0,
            label: format!("{} (1.0)", report.baseline),
        }],
        y_scale: YScale::Linear,
        unit: Unit::Ratio,
        note,
    })
}

/// The statistics entry of `app` to show: the one at `sl1`'s best
/// configuration when the statistics build ran there, else its first.
fn hit_rates_of<'a>(report: &'a Report, app: &str) -> Option<&'a HitRates> {
    let entries: Vec<&HitRates> = report.hit_rates.iter().filter(|h| h.app == app).collect();
    let at = best(report, app, SL1).map(|b| b.config);
    entries
        .iter()
        .find(|h| Some(h.config) == at)
        .or_else(|| entries.first())
        .copied()
}

/// Figure 2: per structure (app/argument), the hit rate the monitoring slice
/// simulated, the hit rate of the accesses served by the cache, and the share
/// of threads that chose to cache it.
pub fn hit_rate(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "hit-rate";
    if report.hit_rates.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: "the report has no hit rates (the statistics build was not run)".into(),
        });
    }
    let mut apps: Vec<&str> = Vec::new();
    for h in &report.hit_rates {
        if !apps.contains(&h.app.as_str()) {
            apps.push(&h.app);
        }
    }
    let mut groups = Vec::new();
    let mut simulated = Vec::new();
    let mut real = Vec::new();
    let mut caching = Vec::new();
    let percent = |r: Option<f64>| r.map(|r| r * 100.0);
    for app in apps {
        let Some(entry) = hit_rates_of(report, app) else {
            continue;
        };
        for s in &entry.structures {
            groups.push(format!("{app}/{}", s.argument));
            simulated.push(percent(s.simulated_hit_rate()));
            real.push(percent(s.hit_rate()));
            caching.push(percent(s.caching_share()));
        }
    }
    if groups.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: "the hit rates list no structure".into(),
        });
    }
    let variant = &report.hit_rates[0].variant;
    Ok(BarChart {
        name: NAME,
        title: format!("Hit rate per structure ({variant}, at {SL1}'s best configuration)"),
        y_label: "percent".into(),
        groups,
        series: vec![
            Series {
                name: "simulated hit rate (monitoring)".into(),
                values: simulated,
            },
            Series {
                name: "real hit rate (cached accesses)".into(),
                values: real,
            },
            Series {
                name: "threads caching it".into(),
                values: caching,
            },
        ],
        lines: Vec::new(),
        y_scale: YScale::Linear,
        unit: Unit::Percent,
        note: None,
    })
}

/// Figure 3: total threads (blocks x threads) of the best configuration of
/// the builds without S-L1 and of `sl1`.
pub fn threads(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "threads";
    let mut wanted = vec![report.baseline.as_str()];
    if report.baseline != NO_SL1 {
        wanted.push(NO_SL1);
    }
    wanted.push(SL1);
    let builds = present(report, &wanted);
    if !builds.iter().any(|(b, _)| b == SL1) || builds.len() < 2 {
        return Err(Skipped {
            plot: NAME,
            reason: format!(
                "needs build {SL1} and {} or {NO_SL1}; the report has {}",
                report.baseline,
                names(&builds)
            ),
        });
    }
    let (groups, series, note) = per_app(
        report,
        &builds,
        |_, b| Some(b.config.total_threads() as f64),
        false,
    );
    Ok(BarChart {
        name: NAME,
        title: "Threads (blocks x threads per block) of the best configuration".into(),
        y_label: "threads in all (log scale)".into(),
        groups,
        series,
        lines: Vec::new(),
        y_scale: YScale::Log,
        unit: Unit::Count,
        note,
    })
}

fn names(builds: &[(String, String)]) -> String {
    if builds.is_empty() {
        "neither".into()
    } else {
        builds
            .iter()
            .map(|(_, v)| v.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Figure 4: the cost of S-L1's code with caching off: best time of `sl1-off`
/// over best time of `no-sl1`, in percent above it.
pub fn overhead(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "overhead";
    if !has_build(report, SL1_OFF) || !has_build(report, NO_SL1) {
        return Err(Skipped {
            plot: NAME,
            reason: format!(
                "needs builds {SL1_OFF} and {NO_SL1}; the report has {}",
                names(&present(report, &[SL1_OFF, NO_SL1]))
            ),
        });
    }
    let builds = [(format!("{SL1_OFF} vs {NO_SL1}"), SL1_OFF.to_string())];
    let (groups, series, note) = per_app(
        report,
        &builds,
        |app, off| {
            let base = best(report, app, NO_SL1)?;
            Some((f64::from(off.median_ms) / f64::from(base.median_ms) - 1.0) * 100.0)
        },
        true,
    );
    if groups.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: format!("no app has both {SL1_OFF} and {NO_SL1}"),
        });
    }
    Ok(BarChart {
        name: NAME,
        title: format!(
            "Overhead of S-L1 with caching off ({SL1_OFF} over {NO_SL1}, best times; mean: arithmetic)"
        ),
        y_label: format!("time above {NO_SL1}"),
        groups,
        series,
        lines: vec![RefLine {
            value: OVERHEAD_GOAL_PERCENT,
            label: format!("goal: {OVERHEAD_GOAL_PERCENT}%"),
        }],
        y_scale: YScale::Linear,
        unit: Unit::Percent,
        note,
    })
}

/// Line size in bytes of an S-L1 build: `sl1` is 16 B, `sl1-l<N>` is N B.
pub fn line_bytes(variant: &str) -> Option<u32> {
    if variant == SL1 {
        return Some(SL1_LINE_BYTES);
    }
    variant.strip_prefix("sl1-l")?.parse().ok()
}

/// Figure 5: speed-up over the baseline for every line size the report has.
pub fn line_size(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "line-size";
    let mut sizes: Vec<(u32, String)> = Vec::new();
    for b in &report.best {
        if let Some(n) = line_bytes(&b.variant) {
            if !sizes.iter().any(|(m, _)| *m == n) {
                sizes.push((n, b.variant.clone()));
            }
        }
    }
    sizes.sort();
    if sizes.len() < 2 {
        return Err(Skipped {
            plot: NAME,
            reason: format!(
                "needs two line sizes ({SL1} and sl1-l8, sl1-l32 or sl1-l64); the report has {}",
                if sizes.is_empty() {
                    "none".to_string()
                } else {
                    sizes
                        .iter()
                        .map(|(_, v)| v.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ),
        });
    }
    let builds: Vec<(String, String)> = sizes
        .into_iter()
        .map(|(n, v)| (format!("{n} B lines ({v})"), v))
        .collect();
    let (groups, series, note) = per_app(report, &builds, |_, b| b.speedup.map(f64::from), true);
    if groups.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: format!(
                "no speed-ups: the baseline build {} has no measurement of these apps",
                report.baseline
            ),
        });
    }
    Ok(BarChart {
        name: NAME,
        title: format!(
            "Speed-up over {} by S-L1 line size (best configuration; mean: arithmetic)",
            report.baseline
        ),
        y_label: format!("speed-up over {}", report.baseline),
        groups,
        series,
        lines: vec![RefLine {
            value: 1.0,
            label: format!("{} (1.0)", report.baseline),
        }],
        y_scale: YScale::Linear,
        unit: Unit::Ratio,
        note,
    })
}

/// Figure 6: each build's best time over the app's memory floor (the bytes
/// it must move at the device-to-device copy's rate, measured in the run).
pub fn floor(report: &Report) -> Result<BarChart, Skipped> {
    const NAME: &str = "floor";
    let Some(floor) = &report.floor else {
        return Err(Skipped {
            plot: NAME,
            reason: "the report has no memory floor (made before sl1-bench measured it)".into(),
        });
    };
    let mut wanted = vec![report.baseline.as_str()];
    if report.baseline != NO_SL1 {
        wanted.push(NO_SL1);
    }
    wanted.push(SL1);
    let builds = present(report, &wanted);
    let (groups, series, note) = per_app(
        report,
        &builds,
        |app, b| floor.times_floor(app, b.median_ms),
        false,
    );
    if groups.is_empty() {
        return Err(Skipped {
            plot: NAME,
            reason: format!("no app of {} has a floor", names(&builds)),
        });
    }
    Ok(BarChart {
        name: NAME,
        title: format!(
            "Time over the memory floor (a copy's rate: {:.0} GB/s read + written; best configuration)",
            floor.bytes_per_second / 1e9
        ),
        y_label: "best time / floor time".into(),
        groups,
        series,
        lines: vec![RefLine {
            value: 1.0,
            label: "memory floor (1.0)".into(),
        }],
        y_scale: YScale::Linear,
        unit: Unit::Ratio,
        note,
    })
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::results::{summarize, Measurement, StructureStats};
    use crate::sweep::Config;

    pub(crate) fn m(app: &str, variant: &str, blocks: u32, threads: u32, ms: f32) -> Measurement {
        Measurement {
            app: app.into(),
            variant: variant.into(),
            config: Config { blocks, threads },
            median_ms: ms,
            mismatch: None,
        }
    }

    pub(crate) fn report(measurements: Vec<Measurement>, hit_rates: Vec<HitRates>) -> Report {
        Report {
            gpu: "test".into(),
            bytes: 1000,
            reps: 3,
            baseline: "nvcc".into(),
            best: summarize(&measurements, "nvcc"),
            measurements,
            hit_rates,
            launch_failures: vec![],
            floor: None,
            executables: vec![],
        }
    }

    /// Two apps, every build the plots know.
    pub(crate) fn full() -> Report {
        let mut ms = Vec::new();
        for (app, scale) in [("upper", 1.0), ("wc", 2.0)] {
            ms.push(m(app, "nvcc", 528, 256, 8.0 * scale));
            ms.push(m(app, "nvcc", 132, 256, 9.0 * scale));
            ms.push(m(app, "no-sl1", 528, 256, 10.0 * scale));
            ms.push(m(app, "sl1", 132, 512, 2.0 * scale));
            ms.push(m(app, "sl1", 528, 256, 3.0 * scale));
            ms.push(m(app, "sl1-off", 528, 256, 10.5 * scale));
            ms.push(m(app, "sl1-l8", 132, 512, 4.0 * scale));
            ms.push(m(app, "sl1-l32", 132, 512, 1.6 * scale));
            ms.push(m(app, "sl1-l64", 132, 512, 8.0 * scale));
        }
        let stats = |app: &str, blocks, argument: &str, sim_hits| HitRates {
            app: app.into(),
            variant: "sl1-stats".into(),
            config: Config {
                blocks,
                threads: 512,
            },
            structures: vec![StructureStats {
                argument: argument.into(),
                simulated_hits: sim_hits,
                simulated_misses: 100 - sim_hits,
                hits: 90,
                misses: 10,
                threads_caching: 3,
                threads_deciding: 4,
            }],
            alias_paths: Vec::new(),
        };
        let hit_rates = vec![
            stats("upper", 528, "in", 10),
            stats("upper", 132, "in", 75),
            stats("wc", 132, "text", 50),
        ];
        let mut full = report(ms, hit_rates);
        let mut floor = crate::floor::Floor::from_copy(1 << 20, 1.0);
        floor.add("upper", 1 << 20);
        floor.add("wc", 1 << 20);
        full.floor = Some(floor);
        full
    }

    fn values(chart: &BarChart, series: usize) -> Vec<Option<f64>> {
        chart.series[series]
            .values
            .iter()
            .map(|v| v.map(|v| (v * 1000.0).round() / 1000.0))
            .collect()
    }

    #[test]
    fn speedup_has_no_sl1_and_sl1_and_the_arithmetic_mean() {
        let chart = speedup(&full()).unwrap();
        assert_eq!(chart.groups, ["upper", "wc", "mean"]);
        assert_eq!(chart.series.len(), 2);
        assert_eq!(chart.series[0].name, "no-sl1");
        assert_eq!(values(&chart, 0), [Some(0.8), Some(0.8), Some(0.8)]);
        assert_eq!(chart.series[1].name, "sl1");
        assert_eq!(values(&chart, 1), [Some(4.0), Some(4.0), Some(4.0)]);
        assert_eq!(chart.lines[0].value, 1.0);
        assert!(chart.title.contains("arithmetic"), "{}", chart.title);
        assert_eq!(chart.note, None);
    }

    #[test]
    fn mean_is_arithmetic_over_the_apps_present() {
        assert_eq!(mean(&[Some(1.0), None, Some(4.0)]), Some(2.5));
        assert_eq!(mean(&[None]), None);
    }

    #[test]
    fn speedup_marks_apps_whose_output_differed() {
        let mut ms = vec![
            m("upper", "nvcc", 1, 32, 2.0),
            m("upper", "sl1", 1, 32, 1.0),
        ];
        ms[1].mismatch = Some("differs".into());
        let chart = speedup(&report(ms, vec![])).unwrap();
        assert_eq!(chart.groups, ["upper*", "mean"]);
        assert!(chart.note.unwrap().starts_with('*'));
    }

    #[test]
    fn speedup_is_skipped_without_its_builds_or_a_baseline() {
        let only_nvcc = report(vec![m("upper", "nvcc", 1, 32, 2.0)], vec![]);
        let skip = speedup(&only_nvcc).unwrap_err();
        assert_eq!(skip.plot, "speedup");
        assert!(skip.reason.contains("no-sl1"), "{}", skip.reason);
        let no_baseline = report(vec![m("upper", "sl1", 1, 32, 2.0)], vec![]);
        let skip = speedup(&no_baseline).unwrap_err();
        assert!(skip.reason.contains("baseline"), "{}", skip.reason);
    }

    #[test]
    fn hit_rate_takes_the_entry_at_sl1s_best_configuration() {
        let chart = hit_rate(&full()).unwrap();
        assert_eq!(chart.groups, ["upper/in", "wc/text"]);
        // upper ran at 528 and 132 blocks; sl1's best is 132x512, where 75 of 100 hit.
        assert_eq!(values(&chart, 0), [Some(75.0), Some(50.0)]);
        assert_eq!(values(&chart, 1), [Some(90.0), Some(90.0)]);
        assert_eq!(values(&chart, 2), [Some(75.0), Some(75.0)]);
    }

    #[test]
    fn hit_rate_leaves_rates_without_accesses_out() {
        let mut r = full();
        r.hit_rates[1].structures[0].hits = 0;
        r.hit_rates[1].structures[0].misses = 0;
        let chart = hit_rate(&r).unwrap();
        assert_eq!(chart.series[1].values[0], None);
    }

    #[test]
    fn hit_rate_is_skipped_without_statistics() {
        let mut r = full();
        r.hit_rates.clear();
        let skip = hit_rate(&r).unwrap_err();
        assert!(skip.reason.contains("no hit rates"), "{}", skip.reason);
    }

    #[test]
    fn threads_of_the_best_configurations() {
        let chart = threads(&full()).unwrap();
        assert_eq!(chart.groups, ["upper", "wc"], "no mean of thread counts");
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["nvcc", "no-sl1", "sl1"]);
        assert_eq!(values(&chart, 0), [Some(135168.0), Some(135168.0)]);
        assert_eq!(values(&chart, 2), [Some(67584.0), Some(67584.0)]);
        assert_eq!(chart.y_scale, YScale::Log);
    }

    #[test]
    fn threads_needs_sl1_and_a_build_without_it() {
        let r = report(vec![m("upper", "sl1", 1, 32, 2.0)], vec![]);
        let skip = threads(&r).unwrap_err();
        assert!(
            skip.reason.contains("the report has sl1"),
            "{}",
            skip.reason
        );
    }

    #[test]
    fn overhead_is_percent_above_no_sl1() {
        let chart = overhead(&full()).unwrap();
        assert_eq!(chart.groups, ["upper", "wc", "mean"]);
        assert_eq!(values(&chart, 0), [Some(5.0), Some(5.0), Some(5.0)]);
        assert_eq!(chart.lines[0].value, 8.0);
        assert!(chart.lines[0].label.contains("8%"));
    }

    #[test]
    fn overhead_is_skipped_without_sl1_off() {
        let r = report(
            vec![
                m("upper", "nvcc", 1, 32, 2.0),
                m("upper", "no-sl1", 1, 32, 2.0),
            ],
            vec![],
        );
        let skip = overhead(&r).unwrap_err();
        assert!(
            skip.reason.contains("sl1-off") && skip.reason.contains("has no-sl1"),
            "{}",
            skip.reason
        );
    }

    #[test]
    fn floor_is_each_builds_time_over_the_apps_floor() {
        let mut r = full();
        r.floor = None;
        assert!(floor(&r).unwrap_err().reason.contains("no memory floor"));
        // 1 MiB copied in 1 ms: an app moving 1 MiB has a 0.5 ms floor.
        let mut f = crate::floor::Floor::from_copy(1 << 20, 1.0);
        f.add("upper", 1 << 20);
        r.floor = Some(f);
        let chart = floor(&r).unwrap();
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["nvcc", "no-sl1", "sl1"]);
        // wc has no floor: only upper is drawn; sl1's best is 2 ms.
        assert_eq!(chart.groups, ["upper"]);
        assert_eq!(values(&chart, 2), [Some(4.0)]);
        assert_eq!(chart.lines[0].value, 1.0);
    }

    #[test]
    fn line_sizes_in_byte_order() {
        let chart = line_size(&full()).unwrap();
        let names: Vec<&str> = chart.series.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "8 B lines (sl1-l8)",
                "16 B lines (sl1)",
                "32 B lines (sl1-l32)",
                "64 B lines (sl1-l64)"
            ]
        );
        assert_eq!(values(&chart, 0), [Some(2.0), Some(2.0), Some(2.0)]);
        assert_eq!(values(&chart, 2), [Some(5.0), Some(5.0), Some(5.0)]);
        assert_eq!(line_bytes("sl1-l24"), Some(24));
        assert_eq!(line_bytes("sl1-off"), None);
        assert_eq!(line_bytes("sl1-stats"), None);
    }

    #[test]
    fn line_size_needs_two_sizes() {
        let r = report(
            vec![
                m("upper", "nvcc", 1, 32, 2.0),
                m("upper", "sl1", 1, 32, 1.0),
            ],
            vec![],
        );
        let skip = line_size(&r).unwrap_err();
        assert!(skip.reason.contains("has sl1"), "{}", skip.reason);
    }

    #[test]
    fn apps_without_a_value_are_left_out() {
        let mut r = full();
        r.measurements.push(m("grep", "nvcc", 1, 32, 1.0));
        r.best = summarize(&r.measurements, "nvcc");
        assert_eq!(apps(&r), ["upper", "wc", "grep"]);
        assert_eq!(overhead(&r).unwrap().groups, ["upper", "wc", "mean"]);
    }

    #[test]
    fn units_write_short_labels() {
        assert_eq!(Unit::Count.label(67584.0), "67.6k");
        assert_eq!(Unit::Count.label(1081344.0), "1.08M");
        assert_eq!(Unit::Count.tick(4096.0), "4.1k");
        assert_eq!(Unit::Count.tick(100000.0), "100k");
        assert_eq!(Unit::Ratio.label(3.981), "3.98");
        assert_eq!(Unit::Ratio.tick(2.5), "2.5");
        assert_eq!(Unit::Percent.label(5.04), "5.0%");
        assert_eq!(Unit::Percent.label(-12.4), "-12%");
        assert_eq!(Unit::Percent.tick(8.0), "8%");
    }
}

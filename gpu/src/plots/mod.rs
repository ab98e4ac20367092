//! Plots of a benchmark [`Report`], as SVG and PNG: the paper's figures.
//!
//! | file stem   | shows                                                         | needs builds              |
//! |-------------|---------------------------------------------------------------|---------------------------|
//! | `speedup`   | speed-up over the baseline of each build's best configuration | `no-sl1` or `sl1`          |
//! | `hit-rate`  | simulated and real hit rate, threads caching, per structure   | the statistics build's counters |
//! | `threads`   | total threads of the best configuration (log scale)           | `sl1` and the baseline or `no-sl1` |
//! | `overhead`  | `sl1-off` over `no-sl1` best time, in percent, 8% goal line   | `sl1-off`, `no-sl1`         |
//! | `line-size` | speed-up for each line size (`sl1-l8`, `sl1`, `sl1-l32`, ...) | two of them               |
//!
//! Means are arithmetic means of the apps' values. [`data`] computes what each
//! chart shows (pure, tested on its own); [`draw`] renders it.

pub mod data;
pub mod draw;

use std::fmt;
use std::path::{Path, PathBuf};

use crate::results::Report;

pub use data::{BarChart, Skipped};
use sl1_gpu_base::plot::font;
pub use sl1_gpu_base::plot::PlotError;

/// What [`write_all`] did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlotSummary {
    /// Every file written, an SVG and a PNG per plot drawn.
    pub written: Vec<PathBuf>,
    /// The plots not drawn, each with why (a build missing from the report).
    pub skipped: Vec<Skipped>,
}

impl fmt::Display for PlotSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for path in &self.written {
            writeln!(f, "wrote {}", path.display())?;
        }
        for s in &self.skipped {
            writeln!(f, "skipped {}: {}", s.plot, s.reason)?;
        }
        Ok(())
    }
}

/// Draws every plot whose builds `report` has into `dir` (created if needed)
/// as `<name>.svg` and `<name>.png`, and says which plots it skipped and why.
pub fn write_all(report: &Report, dir: &Path) -> Result<PlotSummary, PlotError> {
    let fonts = font::ensure().map_err(PlotError::Font)?;
    std::fs::create_dir_all(dir).map_err(|source| PlotError::Dir {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut summary = PlotSummary::default();
    for chart in data::all(report) {
        let chart = match chart {
            Ok(chart) => chart,
            Err(skipped) => {
                summary.skipped.push(skipped);
                continue;
            }
        };
        let svg = dir.join(format!("{}.svg", chart.name));
        draw::svg(&chart, fonts, &svg).map_err(|message| PlotError::Draw {
            path: svg.clone(),
            message,
        })?;
        summary.written.push(svg);
        let png = dir.join(format!("{}.png", chart.name));
        draw::png(&chart, fonts, &png).map_err(|message| PlotError::Draw {
            path: png.clone(),
            message,
        })?;
        summary.written.push(png);
    }
    Ok(summary)
}

#[cfg(test)]
mod tests {
    use super::*;
    use data::tests::{full, m, report};

    const PNG_SIGNATURE: &[u8] = b"\x89PNG\r\n\x1a\n";

    /// Writes the plots; a missing font fails here with the message that says
    /// what to install.
    fn write(report: &Report) -> (tempfile::TempDir, PlotSummary) {
        let dir = tempfile::tempdir().unwrap();
        let summary = write_all(report, dir.path()).unwrap_or_else(|e| panic!("{e}"));
        (dir, summary)
    }

    fn check_files(summary: &PlotSummary, labels: &[&str]) {
        for path in &summary.written {
            let bytes = std::fs::read(path).unwrap();
            assert!(!bytes.is_empty(), "{} is empty", path.display());
            match path.extension().and_then(|e| e.to_str()) {
                Some("png") => assert!(
                    bytes.starts_with(PNG_SIGNATURE),
                    "{} is no PNG",
                    path.display()
                ),
                Some("svg") => {
                    let text = String::from_utf8(bytes).expect("SVG is text");
                    assert!(
                        text.starts_with("<svg") && text.trim_end().ends_with("</svg>"),
                        "{} is no SVG document",
                        path.display()
                    );
                    for label in labels {
                        assert!(text.contains(label), "{} lacks {label}", path.display());
                    }
                }
                _ => panic!("unexpected file {}", path.display()),
            }
        }
    }

    fn names(summary: &PlotSummary) -> Vec<String> {
        summary
            .written
            .iter()
            .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
            .collect()
    }

    #[test]
    fn every_plot_of_a_full_report() {
        let (dir, summary) = write(&full());
        assert_eq!(summary.skipped, []);
        assert_eq!(
            names(&summary),
            [
                "speedup.svg",
                "speedup.png",
                "hit-rate.svg",
                "hit-rate.png",
                "threads.svg",
                "threads.png",
                "overhead.svg",
                "overhead.png",
                "line-size.svg",
                "line-size.png",
                "floor.svg",
                "floor.png"
            ]
        );
        assert!(summary.written.iter().all(|p| p.starts_with(dir.path())));
        // Every chart names the apps, the hit rates as app/argument.
        check_files(&summary, &["upper", "wc"]);
        let svg = |name| std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert!(svg("hit-rate.svg").contains("upper/in"));
        assert!(svg("speedup.svg").contains("mean"));
        assert!(svg("overhead.svg").contains("goal: 8%"));
        assert!(svg("line-size.svg").contains("64 B lines"));
        assert!(svg("floor.svg").contains("memory floor (1.0)"));
    }

    #[test]
    fn plots_without_their_builds_are_skipped_with_a_reason() {
        let r = report(
            vec![
                m("upper", "nvcc", 132, 256, 8.0),
                m("upper", "sl1", 132, 256, 2.0),
                m("grep", "nvcc", 132, 256, 3.0),
                m("grep", "sl1", 132, 256, 6.0),
            ],
            vec![],
        );
        let (_dir, summary) = write(&r);
        assert_eq!(
            names(&summary),
            ["speedup.svg", "speedup.png", "threads.svg", "threads.png"]
        );
        let skipped: Vec<&str> = summary.skipped.iter().map(|s| s.plot).collect();
        assert_eq!(skipped, ["hit-rate", "overhead", "line-size", "floor"]);
        check_files(&summary, &["upper", "grep"]);
        let text = summary.to_string();
        assert!(
            text.contains("skipped hit-rate: the report has no hit rates"),
            "{text}"
        );
    }

    #[test]
    fn a_report_with_nothing_to_plot_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("new/plots");
        let r = report(vec![m("upper", "nvcc", 1, 32, 1.0)], vec![]);
        let summary = write_all(&r, &out).unwrap_or_else(|e| panic!("{e}"));
        assert!(summary.written.is_empty());
        assert_eq!(summary.skipped.len(), 6);
        assert!(out.is_dir());
    }

    #[test]
    fn plots_of_a_recorded_h100_run() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../docs/results/2026-11-22-h100-suite6-results.json");
        let text = std::fs::read_to_string(&path).unwrap();
        let report: Report = serde_json::from_str(&text).unwrap();
        assert!(report.hit_rates.is_empty(), "an older report: no hit rates");
        let (_dir, summary) = write(&report);
        assert_eq!(summary.written.len(), 8, "{summary}");
        let skipped: Vec<&str> = summary.skipped.iter().map(|s| s.plot).collect();
        assert_eq!(
            skipped,
            ["hit-rate", "floor"],
            "an older report: no floor either"
        );
        check_files(
            &summary,
            &["upper", "wc", "grep", "kmeans", "matmul", "pvc"],
        );
    }
}

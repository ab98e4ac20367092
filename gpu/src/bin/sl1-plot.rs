//! `sl1-plot`: draws the paper's figures from the JSON `sl1-bench --json` wrote,
//! as `<name>.svg` and `<name>.png` in a directory, and says which it skipped.
//! Several JSON files (a suite run in parts) are merged into one report first.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Parser;
use sl1_gpu::plots::write_all;
use sl1_gpu::results::{hit_rate_table, table, Report};

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Plot S-L1's app-suite results (speed-up, hit rate, threads, overhead, line size)",
    after_help = "PNG text needs DejaVu Sans (Debian: fonts-dejavu-core) or SL1_PLOT_FONT=FILE.ttf"
)]
struct Args {
    /// Results JSON written by `sl1-bench --json`; several are merged (same GPU,
    /// input size, repetitions and baseline; each app and build in one only).
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Directory for the plots (created if needed).
    #[arg(long, default_value = "plots")]
    out: PathBuf,
    /// Also write the merged report here.
    #[arg(long)]
    merged: Option<PathBuf>,
    /// Print the summary and hit-rate tables.
    #[arg(long)]
    table: bool,
}

fn read(path: &PathBuf) -> Result<Report> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a sl1-bench report", path.display()))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let parts = args.results.iter().map(read).collect::<Result<Vec<_>>>()?;
    let report = Report::merge(parts).context("cannot merge the reports")?;
    if let Some(path) = &args.merged {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if args.table {
        print!("{}", table(&report.best, &report.baseline));
        if !report.hit_rates.is_empty() {
            println!();
            print!("{}", hit_rate_table(&report.hit_rates, &report.best));
        }
    }
    let summary = write_all(&report, &args.out)?;
    print!("{summary}");
    Ok(())
}

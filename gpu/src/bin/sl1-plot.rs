//! `sl1-plot`: draws the paper's figures from the JSON `sl1-bench --json` wrote,
//! as `<name>.svg` and `<name>.png` in a directory, and says which it skipped.

use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Parser;
use sl1_gpu::plots::write_all;
use sl1_gpu::results::Report;

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Plot S-L1's app-suite results (speed-up, hit rate, threads, overhead, line size)",
    after_help = "PNG text needs DejaVu Sans (Debian: fonts-dejavu-core) or SL1_PLOT_FONT=FILE.ttf"
)]
struct Args {
    /// Results JSON written by `sl1-bench --json`.
    results: PathBuf,
    /// Directory for the plots (created if needed).
    #[arg(long, default_value = "plots")]
    out: PathBuf,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let text = std::fs::read_to_string(&args.results)
        .with_context(|| format!("cannot read {}", args.results.display()))?;
    let report: Report = serde_json::from_str(&text)
        .with_context(|| format!("{} is not a sl1-bench report", args.results.display()))?;
    let summary = write_all(&report, &args.out)?;
    print!("{summary}");
    Ok(())
}

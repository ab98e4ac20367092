//! `sl1-fuzz`: differential runs of generated kernels. Each seed's kernel
//! is built plain (`--no-sl1 --no-device-tuning`) and in each selected mode
//! of `fuzz/modes.txt`, in memory and in parallel, assembled by ptxas, and
//! run on the GPU on the same inputs: the plain build twice (runs that
//! differ: a nondeterministic kernel, the generator's bug), each distinct
//! mode once; every buffer must be the same byte for byte. Findings are
//! written to `--out` as JSON; the seed replays them.
//!
//! Exit status: 1 on any mismatch, nondeterministic kernel, build or launch
//! failure (or error); else 2 when the run was cut off (signal, time limit)
//! before its last seed; else 0.

use std::ops::Range;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::Parser;
use sl1_fuzz::modes;
use sl1_fuzz::ptxas::Ptxas;
use sl1_fuzz::run::{run, Settings};
use sl1_fuzz::shapes::Shapes;
use sl1_fuzz::stop::Stop;
use sl1_fuzz::tally::{same_code_lines, Tally};
use sl1_gpu::device::GpuError;

#[derive(Parser)]
#[command(
    name = "sl1-fuzz",
    version,
    about = "Differential fuzzing of S-L1 on the GPU"
)]
struct Cli {
    /// Seeds FIRST..END (END not included).
    #[arg(long, default_value = "0..1000", value_parser = parse_seeds, value_name = "FIRST..END")]
    seeds: Range<u64>,
    /// Modes of modes.txt to compare with the plain build, comma-separated,
    /// or `all`.
    #[arg(long, default_value = "all", value_name = "LIST|all")]
    modes: String,
    /// Which seeds to build: `all`, `alias` (issue 56's shapes: a
    /// broadcast read beside arguments without noalias, or a shifted
    /// twin) `counts` (a loop that only counts bytes), `maps` or `atomics`; the others are
    /// skipped and count as done.
    #[arg(long, value_enum, default_value = "all")]
    shapes: Shapes,
    /// Builder threads [default: all cores but one].
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Where findings are written as JSON.
    #[arg(long, default_value = "fuzz-mismatches", value_name = "DIR")]
    out: PathBuf,
    /// Also write the summary as JSON to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Stop after SECS seconds (the summary names the first seed not
    /// completed).
    #[arg(long, value_name = "SECS")]
    time_limit: Option<f64>,
    /// Build and assemble every kernel, run nothing: no GPU needed.
    #[arg(long)]
    build_only: bool,
    /// ptxas to use [default: $CUDA_PATH/bin/ptxas, then ptxas on PATH].
    #[arg(long, value_name = "PATH")]
    ptxas: Option<PathBuf>,
    /// Testing on a GPU: the first distinct mode of SEED runs with pointers
    /// outside memory, faults, and must be recorded as a launch failure
    /// after which the run goes on in a new context.
    #[arg(long, value_name = "SEED", hide = true)]
    inject_fault: Option<u64>,
}

fn parse_seeds(text: &str) -> Result<Range<u64>, String> {
    let (first, end) = text
        .split_once("..")
        .ok_or_else(|| format!("`{text}`: expected FIRST..END, e.g. 0..1000"))?;
    let number = |s: &str| {
        s.trim()
            .parse::<u64>()
            .map_err(|e| format!("`{s}` in `{text}`: {e}"))
    };
    let (first, end) = (number(first)?, number(end)?);
    if first >= end {
        return Err(format!("`{text}`: no seeds (END is not included)"));
    }
    Ok(first..end)
}

/// Every core but one: the GPU thread needs one.
fn default_jobs() -> usize {
    std::thread::available_parallelism()
        .map(|n| n.get().saturating_sub(1))
        .unwrap_or(1)
        .max(1)
}

fn main_result(cli: &Cli) -> Result<Tally> {
    if !cli.build_only && !sl1_gpu::device::driver_present() {
        return Err(GpuError::NoDriver.into());
    }
    let modes = modes::select(&cli.modes)?;
    let ptxas = Ptxas::locate(cli.ptxas.as_deref())?;
    if let Some(secs) = cli.time_limit {
        if !(secs.is_finite() && secs > 0.0) {
            bail!("--time-limit {secs}: expected a positive number of seconds");
        }
    }
    let stop = Stop::new(cli.time_limit.map(Duration::from_secs_f64));
    stop.on_signals()
        .context("cannot install the signal handler")?;
    let settings = Settings {
        seeds: cli.seeds.clone(),
        shapes: cli.shapes,
        jobs: cli.jobs.unwrap_or_else(default_jobs),
        out: cli.out.clone(),
        build_only: cli.build_only,
        ptxas,
        report_every: Duration::from_secs(15),
        inject_fault: cli.inject_fault,
        modes,
    };
    println!(
        "sl1-fuzz: seeds {}..{}{}, plain + {} mode(s) ({}), {} builder thread(s), ptxas {}{}",
        settings.seeds.start,
        settings.seeds.end,
        match settings.shapes {
            Shapes::All => String::new(),
            shapes => format!(" (only --shapes {})", shapes.name()),
        },
        settings.modes.len(),
        settings
            .modes
            .iter()
            .map(|m| m.name.as_str())
            .collect::<Vec<_>>()
            .join(","),
        settings.jobs,
        settings.ptxas.path.display(),
        if settings.build_only {
            ", build only"
        } else {
            ""
        }
    );
    let tally = run(&settings, &stop)?;
    print!("{}", tally.table());
    for line in same_code_lines(&tally) {
        println!("  {line}");
    }
    if !tally.findings.is_empty() {
        println!(
            "sl1-fuzz: {} finding(s), written under {}",
            tally.findings.len(),
            cli.out.display()
        );
    }
    if let Some(path) = &cli.json {
        let text = serde_json::to_string_pretty(&tally)? + "\n";
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(tally)
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match main_result(&cli) {
        Ok(tally) if !tally.findings.is_empty() || tally.problems() > 0 => ExitCode::FAILURE,
        Ok(tally) if tally.cut_off.is_some() => ExitCode::from(2),
        Ok(_) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("sl1-fuzz: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

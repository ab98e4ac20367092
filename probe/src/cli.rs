//! The probe's command line, shared by `sl1-driver probe` and `sl1-probe`
//! (the same program without LLVM, for GPU machines that have none).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};

use super::data::ProbeData;
use super::kernels::ProbeGpu;
use super::plan::Plan;
use super::profile::Profile;
use super::run::Device;
use super::{infer, plot, run, summary};
use sl1_gpu_base::device::GpuError;

#[derive(clap::Args, Debug, Clone)]
pub struct ProbeArgs {
    /// A run of about a minute: fewer footprints, strides and launch shapes.
    #[arg(long)]
    pub quick: bool,
    /// The GPU profile to write (JSON): S-L1's parameters, what was
    /// inferred and every measurement; `sl1-driver build --gpu-profile`
    /// reads it.
    #[arg(short, long, value_name = "FILE", default_value = "gpu-profile.json")]
    pub output: PathBuf,
    /// Directory for the plots (SVG and PNG).
    #[arg(long, value_name = "DIR", default_value = "probe-plots")]
    pub plots: PathBuf,
    /// Measure nothing: read the measurements of an earlier profile and redo
    /// the inference, the summary, the plots and the parameters (no GPU
    /// needed).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
}

/// Runs the probe (or re-reads one), writes the profile and the plots, and
/// prints the summary.
pub fn main(args: &ProbeArgs) -> Result<()> {
    let data = match &args.from {
        Some(path) => read_data(path)?,
        None => measure(args.quick)?,
    };
    let profile = Profile::new(data.clone(), infer::infer(&data));
    let json = serde_json::to_string_pretty(&profile)? + "\n";
    std::fs::write(&args.output, json)
        .with_context(|| format!("cannot write {}", args.output.display()))?;
    print!("{}", summary::text(&profile));
    let written = plot::write_all(&profile.data, &args.plots)?;
    println!(
        "wrote {} and {} plot files in {}",
        args.output.display(),
        written.len(),
        args.plots.display()
    );
    Ok(())
}

fn read_data(path: &PathBuf) -> Result<ProbeData> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let profile: Profile = serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not a GPU profile written by `sl1-driver probe`",
            path.display()
        )
    })?;
    Ok(profile.data)
}

fn measure(quick: bool) -> Result<ProbeData> {
    let gpu = match ProbeGpu::open() {
        Ok(gpu) => gpu,
        Err(GpuError::NoDriver) => bail!(
            "no NVIDIA GPU driver on this machine (libcuda.so.1 not found): the probe measures \
             a GPU, run it on a machine with one (or re-read a profile with --from FILE)"
        ),
        Err(e) => return Err(e).context("cannot open the GPU"),
    };
    let plan = Plan::new(&gpu.device_info()?, quick);
    let bar = ProgressBar::new(plan.steps()).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
            .expect("a valid template"),
    );
    let data = run::run(&gpu, &plan, quick, &bar)?;
    bar.finish_and_clear();
    Ok(data)
}

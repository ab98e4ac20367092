//! `sl1-bench`: runs the app suite's builds on the GPU, checks every output
//! against the CPU reference and times a block/thread sweep; `--suite harm`
//! runs the do-no-harm kernels the same way. A device-to-device copy timed
//! in the same run gives each app's memory floor (`floor`): the table says
//! how far each build's best time is from it.
//!
//! A bundle holds one PTX per build and app: `<bundle>/ptx/<build>/<app>.ptx`
//! (`ci/gpu-bundle` makes it; its run script adds the nvcc build there).
//! Pairs of app and build without PTX are skipped (the harm kernels are
//! built in a few builds only).

use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::{Parser, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use sl1_core::report::AliasPathCounters;
use sl1_gpu::apps::{self, check, check_args};
use sl1_gpu::device::Gpu;
use sl1_gpu::exe;
use sl1_gpu::floor::{must_move_bytes, Floor};
use sl1_gpu::line_buffer::LineBuffer;
use sl1_gpu::results::{
    comparison_summary, hit_rate_table, summarize, table_compared, HitRates, LaunchFailure,
    Measurement, Report,
};
use sl1_gpu::stats::{alias_paths_layout, decode_alias_paths, StatsLayout};
use sl1_gpu::suites;
use sl1_gpu::sweep::configs;

/// Which kernels run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Suite {
    /// The paper's ten apps.
    Apps,
    /// The do-no-harm kernels (common CUDA patterns, testdata/harm).
    Harm,
    /// Both.
    All,
}

/// `exe::Alloc` on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum ExeAlloc {
    Pool,
    Malloc,
}

impl From<ExeAlloc> for exe::Alloc {
    fn from(a: ExeAlloc) -> exe::Alloc {
        match a {
            ExeAlloc::Pool => exe::Alloc::Pool,
            ExeAlloc::Malloc => exe::Alloc::Malloc,
        }
    }
}

#[derive(Parser, Debug)]
#[command(version, about = "Check and time S-L1's app suite on the GPU")]
struct Args {
    /// Bundle with ptx/<build>/<app>.ptx.
    #[arg(long, default_value = ".")]
    bundle: PathBuf,
    /// Apps to run, of either suite (default: every app of the suite with
    /// PTX in the bundle).
    #[arg(long, value_delimiter = ',')]
    apps: Vec<String>,
    /// The kernels to run when --apps is not given.
    #[arg(long, value_enum, default_value_t = Suite::Apps)]
    suite: Suite,
    /// Builds to run (default: every folder under ptx/).
    #[arg(long, value_delimiter = ',')]
    builds: Vec<String>,
    /// The build speed-ups are measured against.
    #[arg(long, default_value = "nvcc")]
    baseline: String,
    /// One more column: each build's speed-up over this build of the same
    /// app, and a line on `sl1` against it (default: no-sl1 with --suite
    /// harm or all, none with apps).
    #[arg(long)]
    compare_to: Option<String>,
    /// Input size in bytes.
    #[arg(long, default_value_t = (512 << 20) + 37)]
    bytes: usize,
    /// Timed launches per configuration (after one warm-up).
    #[arg(long, default_value_t = 10)]
    reps: usize,
    /// Three configurations instead of twenty.
    #[arg(long)]
    quick: bool,
    /// Write every measurement as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Draw the plots (SVG and PNG) into this directory; needs a font (see
    /// `sl1-plot --help`). `sl1-plot` draws them later from the JSON.
    #[arg(long)]
    plots: Option<PathBuf>,
    /// Builds whose launches leave the shared-memory carveout to the driver
    /// (default: launches of kernels with lines ask for the carveout their
    /// resident blocks need, as executables' launches do;
    /// `sl1_core::carveout`).
    #[arg(long, value_delimiter = ',')]
    driver_carveout: Vec<String>,
    /// Also run the executables under this directory (`<layout>/<app>`,
    /// `ci/exe-bundle`), each at the configuration where the PTX of
    /// `--exes-against` was fastest, against that PTX time.
    #[arg(long)]
    exes: Option<PathBuf>,
    /// The build whose PTX the executables are compared with: theirs
    /// (executables size their line buffers at launch).
    #[arg(long, default_value = "sl1-launch")]
    exes_against: String,
    /// How the executables allocate their buffers: `pool` as the PTX runs
    /// do (the same memory under the same kernel), `malloc` as most
    /// programs do (which alone moves some kernels' times by a few percent).
    #[arg(long, value_enum, default_value_t = ExeAlloc::Pool)]
    exes_alloc: ExeAlloc,
}

fn list_dirs(dir: &std::path::Path) -> Result<Vec<String>> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read {}", dir.display()))?
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    Ok(names)
}

/// The line buffer of `kernel` in the S-L1 report next to `ptx`; None for a
/// build without a report (nvcc's) or a kernel left alone.
fn line_buffer_of(ptx: &std::path::Path, kernel: &str) -> Result<Option<LineBuffer>> {
    let report = ptx.with_extension("report.json");
    match std::fs::read_to_string(&report) {
        Ok(text) => LineBuffer::from_report(&text, kernel)
            .map_err(|e| anyhow::anyhow!("{}: {e}", report.display())),
        Err(_) => Ok(None),
    }
}

/// The statistics layouts of a build whose S-L1 report (next to its PTX)
/// names counters globals (per structure, per alias check); None for
/// builds that do not count.
fn stats_layouts(
    ptx: &std::path::Path,
    kernel: &str,
) -> Result<(Option<StatsLayout>, Option<AliasPathCounters>)> {
    let report = ptx.with_extension("report.json");
    if !report.is_file() {
        return Ok((None, None));
    }
    let text = std::fs::read_to_string(&report)
        .with_context(|| format!("cannot read {}", report.display()))?;
    let at = || format!("{}", report.display());
    Ok((
        StatsLayout::from_report(&text, kernel).with_context(at)?,
        alias_paths_layout(&text, kernel).with_context(at)?,
    ))
}

fn main() -> Result<()> {
    let args = Args::parse();
    let ptx_dir = args.bundle.join("ptx");
    let builds = if args.builds.is_empty() {
        list_dirs(&ptx_dir)?
    } else {
        args.builds.clone()
    };
    if builds.is_empty() {
        bail!(
            "{}: no builds (expected ptx/<build>/<app>.ptx)",
            ptx_dir.display()
        );
    }
    let suite = match args.suite {
        Suite::Apps => apps::all(),
        Suite::Harm => suites::harm(),
        Suite::All => apps::all().into_iter().chain(suites::harm()).collect(),
    };
    let compare_to = args
        .compare_to
        .clone()
        .or_else(|| (args.suite != Suite::Apps).then(|| "no-sl1".to_string()));
    let wanted: Vec<&'static dyn apps::App> = if args.apps.is_empty() {
        suite
            .into_iter()
            .filter(|a| {
                builds
                    .iter()
                    .any(|b| ptx_dir.join(b).join(format!("{}.ptx", a.name())).is_file())
            })
            .collect()
    } else {
        args.apps
            .iter()
            .map(|n| suites::by_name(n).with_context(|| format!("unknown app `{n}`")))
            .collect::<Result<_>>()?
    };

    if wanted.is_empty() {
        bail!(
            "{}: no PTX of any app of the suite `{}` (expected ptx/<build>/<app>.ptx)",
            ptx_dir.display(),
            args.suite
                .to_possible_value()
                .map_or_else(String::new, |v| v.get_name().to_string())
        );
    }
    // Pairs without PTX are skipped: one line per build says which.
    for build in &builds {
        let missing: Vec<&str> = wanted
            .iter()
            .map(|a| a.name())
            .filter(|a| !ptx_dir.join(build).join(format!("{a}.ptx")).is_file())
            .collect();
        if !missing.is_empty() {
            println!(
                "skipped: no PTX in {} for {} of {} app(s): {}",
                ptx_dir.join(build).display(),
                missing.len(),
                wanted.len(),
                missing.join(", ")
            );
        }
    }

    let gpu = Gpu::open()?;
    // The floor's copy moves as many bytes as the apps' inputs hold.
    let copy_ms = gpu.copy_ms(args.bytes, args.reps.max(5))?;
    let mut floor = Floor::from_copy(args.bytes as u64, copy_ms);
    let sweep = configs(args.quick);
    let total = (wanted.len() * builds.len() * sweep.len()) as u64;
    let bar = ProgressBar::new(total).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}").expect("a valid template"),
    );
    let mut measurements = Vec::new();
    let mut hit_rates = Vec::new();
    let mut launch_failures = Vec::new();
    let mut executables = Vec::new();
    for app in &wanted {
        bar.set_message(format!("{}: generating input", app.name()));
        let case = app.case(args.bytes, 1);
        let app_configs = app.configs(&case, &sweep);
        if let Some(first) = app_configs.first() {
            floor.add(
                app.name(),
                must_move_bytes(&case, &app.args(&case, first.total_threads())),
            );
        }
        if app_configs.len() != sweep.len() {
            let more = (app_configs.len() * builds.len()) as u64;
            bar.set_length(bar.length().unwrap_or(0) + more - (sweep.len() * builds.len()) as u64);
        }
        for build in &builds {
            let path = ptx_dir.join(build).join(format!("{}.ptx", app.name()));
            if !path.is_file() {
                bar.inc(app_configs.len() as u64);
                continue;
            }
            let kernel = gpu.load(&path, app.kernel())?;
            let (layout, alias_layout) = stats_layouts(&path, app.kernel())?;
            let line_buffer = line_buffer_of(&path, app.kernel())?;
            let fit_carveout = !args.driver_carveout.contains(build);
            let inputs = gpu.upload(&case)?;
            for &config in &app_configs {
                if let Err(e) = check_args(&case, &app.args(&case, config.total_threads())) {
                    bail!("{}: arguments do not fit its buffers: {e}", app.name());
                }
                bar.set_message(format!(
                    "{} {build} {}x{}",
                    app.name(),
                    config.blocks,
                    config.threads
                ));
                let run = match gpu.run(
                    (&kernel.func, line_buffer, fit_carveout),
                    *app,
                    &case,
                    &inputs,
                    config,
                    args.reps,
                ) {
                    Ok(run) => run,
                    Err(e) if e.is_out_of_resources() => {
                        launch_failures.push(LaunchFailure {
                            app: app.name().into(),
                            variant: build.clone(),
                            config,
                            error: e.to_string(),
                        });
                        bar.inc(1);
                        continue;
                    }
                    Err(e) => return Err(e.into()),
                };
                measurements.push(Measurement {
                    app: app.name().into(),
                    variant: build.clone(),
                    config,
                    median_ms: run.median_ms,
                    mismatch: check(&case, &run.outputs).err(),
                });
                if layout.is_some() || alias_layout.is_some() {
                    // One more launch, counted from zero.
                    for symbol in layout.iter().map(|l| &l.symbol) {
                        gpu.zero_global(&kernel, symbol)?;
                    }
                    for symbol in alias_layout.iter().map(|l| &l.symbol) {
                        gpu.zero_global(&kernel, symbol)?;
                    }
                    gpu.run(
                        (&kernel.func, line_buffer, fit_carveout),
                        *app,
                        &case,
                        &inputs,
                        config,
                        0,
                    )?;
                    let structures = match &layout {
                        Some(l) => l.decode(app.kernel(), &gpu.read_global(&kernel, &l.symbol)?)?,
                        None => Vec::new(),
                    };
                    let alias_paths = match &alias_layout {
                        Some(l) => decode_alias_paths(
                            l,
                            app.kernel(),
                            &gpu.read_global(&kernel, &l.symbol)?,
                        )?,
                        None => Vec::new(),
                    };
                    hit_rates.push(HitRates {
                        app: app.name().into(),
                        variant: build.clone(),
                        config,
                        structures,
                        alias_paths,
                    });
                }
                bar.inc(1);
            }
        }
        if let Some(dir) = &args.exes {
            bar.set_message(format!("{}: executables", app.name()));
            let against = ExesAgainst {
                exes: dir,
                ptx_dir: &ptx_dir,
                build: &args.exes_against,
                fit_carveout: !args.driver_carveout.contains(&args.exes_against),
                reps: args.reps,
                alloc: args.exes_alloc.into(),
            };
            executables.extend(run_executables(
                &gpu,
                &against,
                (*app, &case),
                &measurements,
                app_configs.first().copied(),
            )?);
        }
    }
    bar.finish_and_clear();

    let best = summarize(&measurements, &args.baseline);
    println!(
        "{} | {} bytes | median of {} launches | best of {} configurations",
        gpu.name(),
        args.bytes,
        args.reps,
        sweep.len()
    );
    let carveouts = if args.driver_carveout.is_empty() {
        String::new()
    } else {
        format!(" (the driver's in {})", args.driver_carveout.join(", "))
    };
    println!("launches of kernels with lines: the carveout of their resident blocks{carveouts}");
    print!(
        "{}",
        table_compared(&best, &args.baseline, compare_to.as_deref(), Some(&floor))
    );
    print!("{}", floor.text());
    if let Some(line) = compare_to
        .as_deref()
        .and_then(|c| comparison_summary(&best, "sl1", c))
    {
        println!("{line}");
    }
    if !hit_rates.is_empty() {
        print!("{}", hit_rate_table(&hit_rates, &best));
    }
    for m in measurements.iter().filter(|m| m.mismatch.is_some()) {
        println!(
            "MISMATCH {} {} {}x{}: {}",
            m.app,
            m.variant,
            m.config.blocks,
            m.config.threads,
            m.mismatch.as_deref().unwrap_or_default()
        );
    }
    for f in &launch_failures {
        println!(
            "NOT LAUNCHED {} {} {}x{}: {}",
            f.app, f.variant, f.config.blocks, f.config.threads, f.error
        );
    }
    if args.exes.is_some() {
        print!(
            "{}",
            exe::table(&executables, &args.exes_against, args.exes_alloc.into())
        );
        for r in &executables {
            if let Some(m) = &r.mismatch {
                println!("MISMATCH {} executable {}: {m}", r.app, r.layout);
            }
            if let Some(p) = r.lines_problem() {
                println!("WITHOUT LINES {} executable {}: {p}", r.app, r.layout);
            }
        }
    }
    let exe_failed = executables
        .iter()
        .any(|r| r.mismatch.is_some() || r.lines_problem().is_some());
    let failed = measurements.iter().any(|m| m.mismatch.is_some());
    let report = Report {
        gpu: gpu.name(),
        bytes: args.bytes,
        reps: args.reps,
        baseline: args.baseline.clone(),
        best,
        measurements,
        hit_rates,
        launch_failures,
        floor: Some(floor),
        executables,
    };
    if let Some(path) = &args.json {
        std::fs::write(path, serde_json::to_string_pretty(&report)? + "\n")
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if let Some(dir) = &args.plots {
        let summary = sl1_gpu::plots::write_all(&report, dir)
            .context("cannot draw the plots (the JSON, if asked for, is written)")?;
        print!("{summary}");
    }
    if failed {
        bail!("some outputs differ from the CPU reference");
    }
    if exe_failed {
        bail!("some executables gave wrong outputs or launched without their lines");
    }
    Ok(())
}

/// Runs `app`'s executables (`<dir>/<layout>/<app>`) at the configuration
/// where the PTX of `build` was fastest in this run (else `fallback`),
/// checks their outputs and compares their times with that PTX time.
/// What `--exes` runs and the PTX build it times them against.
struct ExesAgainst<'a> {
    exes: &'a std::path::Path,
    ptx_dir: &'a std::path::Path,
    build: &'a str,
    fit_carveout: bool,
    reps: usize,
    alloc: exe::Alloc,
}

fn run_executables(
    gpu: &Gpu,
    against: &ExesAgainst<'_>,
    (app, case): (&dyn apps::App, &apps::Case),
    measurements: &[Measurement],
    fallback: Option<sl1_gpu::sweep::Config>,
) -> Result<Vec<exe::ExeMeasurement>> {
    let ExesAgainst {
        exes: dir,
        ptx_dir,
        build,
        fit_carveout,
        reps,
        alloc,
    } = *against;
    let found = exe::executables(dir, app.name())?;
    let best = measurements
        .iter()
        .filter(|m| m.app == app.name() && m.variant == build && m.mismatch.is_none())
        .min_by(|a, b| a.median_ms.total_cmp(&b.median_ms));
    let Some(config) = best.map(|m| m.config).or(fallback) else {
        return Ok(Vec::new());
    };
    let reps = exe::reps_for(reps, best.map(|m| m.median_ms));
    if found.is_empty() {
        return Ok(Vec::new());
    }
    let ptx = ptx_dir.join(build).join(format!("{}.ptx", app.name()));
    let line_buffer = line_buffer_of(&ptx, app.kernel())?;
    let shape = app.shape(config);
    let own = app.shared_bytes(case);
    let block_threads = u64::from(shape.block.0) * u64::from(shape.block.1);
    let problem = tempfile::tempdir().context("cannot make a problem directory")?;
    exe::write_inputs(problem.path(), case)?;
    let args = app.args(case, config.total_threads());
    let launch = exe::HostLaunch {
        shape,
        shared: own,
        reps,
    };
    exe::write_spec(problem.path(), case, &args, launch)?;
    // The PTX is timed again just before and just after each executable,
    // at the same configuration: its time from the sweep is the least of
    // several configurations' medians (biased low) and minutes old, where a
    // 65 us kernel moves by 1-3 us.
    let ptx_kernel = ptx
        .is_file()
        .then(|| gpu.load(&ptx, app.kernel()))
        .transpose()?;
    let inputs = gpu.upload(case)?;
    let time_ptx = || -> Result<Option<f32>> {
        let Some(kernel) = &ptx_kernel else {
            return Ok(None);
        };
        let launch = (&kernel.func, line_buffer, fit_carveout);
        Ok(Some(
            gpu.run(launch, app, case, &inputs, config, reps)?.median_ms,
        ))
    };
    let mut runs = Vec::new();
    for (layout, path) in found {
        let before = time_ptx()?;
        let run = exe::run(&path, problem.path(), case.outputs.len(), alloc)?;
        let after = time_ptx()?;
        runs.push(exe::ExeMeasurement {
            app: app.name().into(),
            layout,
            config,
            alloc,
            exe_ms: run.median_ms,
            ptx_ms: before.zip(after).map(|(b, a)| (b + a) / 2.0),
            ptx_bytes: line_buffer.map(|b| b.launch_bytes(block_threads, own)),
            launches: run.launches.into_iter().find(|l| l.kernel == app.kernel()),
            expected_launches: reps as u64 + 1,
            mismatch: check(case, &run.outputs).err(),
        });
    }
    Ok(runs)
}

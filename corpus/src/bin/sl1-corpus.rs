//! `sl1-corpus build --hecbench DIR --out DIR`: builds every `src/*-cuda`
//! program of a HeCBench checkout with S-L1 and without it (`--no-sl1`),
//! through `sl1-driver`, and writes `corpus.json` and a summary: what
//! built, what S-L1 transformed, and every program that builds without
//! S-L1 but not with it.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use clap::{Parser, Subcommand};
use indicatif::{ProgressBar, ProgressStyle};
use sl1_corpus::build::{build, Mode};
use sl1_corpus::program::{discover, Program};
use sl1_corpus::summary::{self, Entry};

#[derive(Parser, Debug)]
#[command(
    version,
    about = "Build a corpus of CUDA programs with and without S-L1"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Build every program with S-L1 and with --no-sl1.
    Build(BuildArgs),
    /// On the GPU machine: run both builds of every program built both
    /// ways (the CUDA runtime library on LD_LIBRARY_PATH), compare them.
    Run(RunArgs),
}

#[derive(clap::Args, Debug)]
struct RunArgs {
    /// The HeCBench checkout (programs run in their own directories).
    #[arg(long, value_name = "DIR")]
    hecbench: PathBuf,
    /// The directory `build` wrote (corpus.json, <mode>/<program>/).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Only these programs.
    #[arg(long, value_delimiter = ',')]
    programs: Vec<String>,
    /// Seconds a run may take before it is killed (a hang).
    #[arg(long, default_value_t = 60)]
    each: u64,
    /// Start no program after this many seconds.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<u64>,
    /// Runs of each build whose executables differ, alternating, the
    /// fastest timed (the verdict and output are the first run's).
    #[arg(long, default_value_t = 2)]
    reps: u32,
    /// Run again the programs a previous `run` got to (else only those
    /// named in --programs are).
    #[arg(long)]
    again: bool,
    /// Also build every program with this nvcc (`-O3`, the Makefile's
    /// sources, flags and libraries) and time it beside the two builds:
    /// S-L1 over nvcc.
    #[arg(long, value_name = "NVCC")]
    nvcc: Option<PathBuf>,
    /// The GPU architecture of the nvcc build.
    #[arg(long, default_value = "sm_90")]
    arch: String,
    /// Also keep corpus.json here, rewritten after every program: what a
    /// run killed from outside got to survives it.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Programs whose two builds are the same bytes (nothing to time) run
    /// this many at a time; the others, and with --nvcc every program,
    /// always run alone.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// One program to run: its builds, arguments and directory.
struct RunJob {
    index: usize,
    program: String,
    executables: (PathBuf, PathBuf),
    args: Vec<String>,
    dir: PathBuf,
    /// The two executables are the same bytes.
    same: bool,
    /// nvcc's executable, where it built.
    nvcc: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct BuildArgs {
    /// A HeCBench checkout (its src/<name>-cuda directories).
    #[arg(long, value_name = "DIR")]
    hecbench: PathBuf,
    /// Where the executables, reports and corpus.json go.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Only these programs (directory names, e.g. vadd-cuda).
    #[arg(long, value_delimiter = ',')]
    programs: Vec<String>,
    /// At most this many programs (the first by name).
    #[arg(long)]
    limit: Option<usize>,
    /// Programs built at once (default: the CPUs).
    #[arg(long)]
    jobs: Option<usize>,
    /// The sl1-driver to build with (default: beside this program).
    #[arg(long)]
    driver: Option<PathBuf>,
    /// Start no program after this many seconds; the summary covers those
    /// done.
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<u64>,
}

fn main() -> Result<()> {
    match Cli::parse().command {
        Command::Build(args) => build_all(&args),
        Command::Run(args) => run_all(&args),
    }
}

fn default_driver() -> Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find this program's path")?;
    Ok(exe.with_file_name("sl1-driver"))
}

fn build_all(args: &BuildArgs) -> Result<()> {
    let driver = match &args.driver {
        Some(d) => d.clone(),
        None => default_driver()?,
    };
    if !driver.is_file() {
        bail!(
            "{}: no sl1-driver there (build it with `cargo build -p sl1-driver`, or pass --driver)",
            driver.display()
        );
    }
    let mut programs = discover(&args.hecbench).with_context(|| {
        format!(
            "{}: cannot read src/ (expected a HeCBench checkout)",
            args.hecbench.display()
        )
    })?;
    if !args.programs.is_empty() {
        for wanted in &args.programs {
            if !programs.iter().any(|p| &p.name == wanted) {
                bail!(
                    "{wanted}: no such program under {}/src",
                    args.hecbench.display()
                );
            }
        }
        programs.retain(|p| args.programs.contains(&p.name));
    }
    if let Some(n) = args.limit {
        programs.truncate(n);
    }
    if programs.is_empty() {
        bail!(
            "{}: no src/*-cuda program with a Makefile",
            args.hecbench.display()
        );
    }
    std::fs::create_dir_all(&args.out)
        .with_context(|| format!("cannot create {}", args.out.display()))?;
    let out = std::fs::canonicalize(&args.out)?;
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1);
    let deadline = args
        .time_limit
        .map(|s| Instant::now() + Duration::from_secs(s));

    let bar = ProgressBar::new(programs.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
            .expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let entries: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                let Some(program) = programs.get(i) else {
                    break;
                };
                bar.set_message(program.name.clone());
                let entry = build_program(&driver, program, &out);
                if entry.sl1_only_failure() {
                    say(
                        &bar,
                        format!(
                            "S-L1 FAILS {}: {}",
                            entry.program,
                            entry.sl1.error.as_deref().unwrap_or("")
                        ),
                    );
                }
                entries.lock().expect("no panic holds it").push(entry);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let mut entries = entries.into_inner().expect("no panic holds it");
    entries.sort_by(|a, b| a.program.cmp(&b.program));
    let json = out.join("corpus.json");
    write_corpus(&json, &entries)?;
    print!("{}", summary::text(&entries));
    if entries.len() < programs.len() {
        println!(
            "CUT OFF (time limit): {} of {} programs done",
            entries.len(),
            programs.len()
        );
    }
    println!("results: {}", json.display());
    Ok(())
}

fn run_all(args: &RunArgs) -> Result<()> {
    let json_path = args.out.join("corpus.json");
    let text = std::fs::read_to_string(&json_path)
        .with_context(|| format!("{}: run `sl1-corpus build` first", json_path.display()))?;
    let mut json: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a corpus.json", json_path.display()))?;
    let mut entries: Vec<Entry> = serde_json::from_value(json["programs"].take())
        .with_context(|| format!("{}: not a corpus.json", json_path.display()))?;
    let todo: Vec<usize> = entries
        .iter()
        .enumerate()
        .filter(|(_, e)| e.sl1.built && e.no_sl1.built)
        .filter(|(_, e)| args.programs.is_empty() || args.programs.contains(&e.program))
        // A run cut off by its time limit goes on where it stopped.
        .filter(|(_, e)| e.runs.is_none() || args.again || !args.programs.is_empty())
        .map(|(i, _)| i)
        .collect();
    let deadline = args
        .time_limit
        .map(|s| Instant::now() + Duration::from_secs(s));
    let bar = ProgressBar::new(todo.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} {elapsed} {msg}")
            .expect("a valid template"),
    );
    let limit = Duration::from_secs(args.each);
    if let Some(nvcc) = &args.nvcc {
        build_with_nvcc(nvcc, args, &todo, &mut entries);
    }
    let jobs: Vec<RunJob> = todo
        .iter()
        .filter_map(|&i| {
            let entry = &entries[i];
            let make = entry.make.as_ref()?;
            let exe = |mode: Mode| {
                args.out
                    .join(mode.name())
                    .join(&entry.program)
                    .join(&make.program)
            };
            let (no_sl1, sl1) = (exe(Mode::NoSl1), exe(Mode::Sl1));
            let same = sl1_corpus::run::same_bytes(&no_sl1, &sl1);
            Some(RunJob {
                index: i,
                program: entry.program.clone(),
                executables: (no_sl1, sl1),
                args: make.run_args.clone(),
                dir: args.hecbench.join("src").join(&entry.program),
                same,
                nvcc: entry.nvcc.as_ref().and_then(|b| b.executable.clone()),
            })
        })
        .collect();
    let run_job = |job: &RunJob| {
        let runs = sl1_corpus::run::run_both(
            sl1_corpus::run::Executables {
                no_sl1: &job.executables.0,
                sl1: &job.executables.1,
                nvcc: job.nvcc.as_deref(),
            },
            &job.args,
            &job.dir,
            limit,
            args.reps,
        );
        if let Some(why) = runs.wrong() {
            say(&bar, format!("WRONG {}: {why}", job.program));
        }
        say(&bar, summary::run_line(&job.program, &runs));
        bar.inc(1);
        runs
    };
    let past_deadline = || deadline.is_some_and(|d| Instant::now() >= d);
    // Programs whose builds are the same bytes have nothing to time: they
    // run --jobs at a time. The others run alone, so that their times hold.
    // Every program's runs go into corpus.json as soon as they are done.
    let entries = Mutex::new(entries);
    let done = AtomicUsize::new(0);
    let record = |index: usize, runs| -> Result<()> {
        let mut entries = entries.lock().expect("no panics");
        entries[index].runs = Some(runs);
        done.fetch_add(1, Ordering::Relaxed);
        write_corpus(&json_path, &entries)?;
        if let Some(copy) = &args.json {
            write_corpus(copy, &entries)?;
        }
        Ok(())
    };
    // Programs S-L1 left as they were run --jobs at a time, unless they
    // are timed against nvcc: times are only compared between runs alone.
    let (same, differ): (Vec<&RunJob>, Vec<&RunJob>) =
        jobs.iter().partition(|j| j.same && j.nvcc.is_none());
    let next = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..args.jobs.max(1) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(job) = same.get(k) else { break };
                if past_deadline() {
                    break;
                }
                let runs = run_job(job);
                if let Err(e) = record(job.index, runs) {
                    say(&bar, format!("{e:#}"));
                }
            });
        }
    });
    for job in differ {
        if past_deadline() {
            break;
        }
        bar.set_message(job.program.clone());
        let runs = run_job(job);
        record(job.index, runs)?;
    }
    let entries = entries.into_inner().expect("no panics");
    let done = done.into_inner();
    bar.finish_and_clear();
    write_corpus(&json_path, &entries)?;
    let table_path = args.out.join("corpus-table.md");
    std::fs::write(&table_path, summary::table(&entries))
        .with_context(|| format!("cannot write {}", table_path.display()))?;
    print!("{}", summary::runs_text(&entries));
    if done < todo.len() {
        println!(
            "CUT OFF (time limit): {done} of {} programs run",
            todo.len()
        );
    }
    println!(
        "results: {} and {}",
        json_path.display(),
        table_path.display()
    );
    Ok(())
}

/// Builds the programs `todo` names with nvcc, all CPUs at once, into
/// `<out>/nvcc/`; a program whose nvcc build is there from an earlier run
/// keeps it.
fn build_with_nvcc(nvcc: &Path, args: &RunArgs, todo: &[usize], entries: &mut [Entry]) {
    let wanted: Vec<usize> = todo
        .iter()
        .copied()
        .filter(|&i| {
            let done = entries[i].nvcc.as_ref().and_then(|b| b.executable.as_ref());
            entries[i].make.is_some() && !done.is_some_and(|e| e.is_file())
        })
        .collect();
    let bar = ProgressBar::new(wanted.len() as u64).with_style(
        ProgressStyle::with_template("nvcc {bar:40} {pos}/{len} {elapsed} {msg}")
            .expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let built = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some(&i) = wanted.get(k) else { break };
                let entry = &entries[i];
                let Some(make) = entry.make.as_ref() else {
                    continue;
                };
                bar.set_message(entry.program.clone());
                let dir = args.hecbench.join("src").join(&entry.program);
                let result = sl1_corpus::nvcc::build(
                    nvcc,
                    &dir,
                    &entry.program,
                    make,
                    &args.arch,
                    &args.out,
                );
                built.lock().expect("no panics").push((i, result));
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    let built = built.into_inner().expect("no panics");
    let failed = built.iter().filter(|(_, b)| !b.built).count();
    println!(
        "nvcc builds: {} of {} built",
        built.len() - failed,
        built.len()
    );
    for (i, result) in built {
        entries[i].nvcc = Some(result);
    }
}

/// `corpus.json`: the totals and every program's entry.
/// A line above the progress bar, or on standard output where the bar is
/// hidden (not a terminal: a GPU machine's log), where `println` on the
/// bar would print nothing.
fn say(bar: &ProgressBar, line: impl AsRef<str>) {
    if bar.is_hidden() {
        println!("{}", line.as_ref());
    } else {
        bar.println(line);
    }
}

fn write_corpus(path: &Path, entries: &[Entry]) -> Result<()> {
    let json = serde_json::json!({
        "totals": summary::totals(entries),
        "programs": entries,
    });
    std::fs::write(path, serde_json::to_string_pretty(&json)? + "\n")
        .with_context(|| format!("cannot write {}", path.display()))
}

fn build_program(driver: &Path, program: &Program, out: &Path) -> Entry {
    Entry {
        program: program.name.clone(),
        make: program.make.as_ref().ok().cloned(),
        no_sl1: build(driver, program, Mode::NoSl1, out),
        sl1: build(driver, program, Mode::Sl1, out),
        nvcc: None,
        runs: None,
    }
}

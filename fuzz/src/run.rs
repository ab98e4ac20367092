//! A fuzz run: builder threads take seeds in order and build each in every
//! selected build, and send the cubins over a bounded channel to this
//! thread, which runs them on the GPU (or, build only, just counts them).
//! The channel's bound keeps the builders a few seeds ahead, so memory
//! stays small; a seed's plain outputs live only while its modes run.

use std::ops::Range;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, RecvTimeoutError};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::build::{Builder, Built, SeedBuild};
use crate::case::{case, FuzzCase};
use crate::findings::{Recorder, Subject};
use crate::gpu_run::{GpuRunner, SeedOutcome, Verdict};
use crate::launches::{case_run, CaseRun};
use crate::modes::Mode;
use crate::progress::Progress;
use crate::ptxas::Ptxas;
use crate::shapes::Shapes;
use crate::stop::Stop;
use crate::tally::{Finding, Tally};

pub struct Settings {
    pub seeds: Range<u64>,
    /// Which of `seeds` are built; the others are skipped.
    pub shapes: Shapes,
    pub modes: Vec<Mode>,
    pub jobs: usize,
    /// Where findings are written.
    pub out: PathBuf,
    /// Build and assemble only: no GPU.
    pub build_only: bool,
    pub ptxas: Ptxas,
    /// How often a line of running totals is printed.
    pub report_every: Duration,
    /// Make this seed's first distinct mode fault (tests the recovery).
    pub inject_fault: Option<u64>,
}

/// What a builder thread sends the GPU thread.
enum Work {
    Built(SeedBuild),
    /// A seed `Settings::shapes` leaves out.
    Skipped(u64),
}

/// Runs `settings` until done or stopped; the totals either way.
pub fn run(settings: &Settings, stop: &Stop) -> Result<Tally> {
    let started = Instant::now();
    // The GPU first: without a driver, say so before building anything.
    let mut runner = match settings.build_only {
        true => None,
        false => Some(GpuRunner::open()?),
    };
    if let Some(runner) = &mut runner {
        runner.inject_fault = settings.inject_fault;
    }
    let builder = Builder::new(settings.modes.clone(), settings.ptxas.clone())
        .context("cannot make a temporary directory for ptxas")?;
    let mut tally = Tally::new(settings.seeds.clone(), &settings.modes);
    tally.gpu = runner.as_ref().map(|r| r.name().to_string());
    let builds_per_seed = settings.modes.len() as u64 + 1;
    let seeds = settings.seeds.end.saturating_sub(settings.seeds.start);
    let mut progress = Progress::new(seeds * builds_per_seed, settings.report_every);
    let recorder = Recorder::new(&settings.out);
    let plain = Mode::plain();
    let next = AtomicU64::new(settings.seeds.start);
    let jobs = settings.jobs.max(1);
    let (sender, receiver) = sync_channel::<Work>(jobs * 2);
    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let sender = sender.clone();
            let (builder, next, stop) = (&builder, &next, stop);
            scope.spawn(move || loop {
                if stop.is_set() {
                    break;
                }
                let seed = next.fetch_add(1, Ordering::SeqCst);
                if seed >= settings.seeds.end {
                    break;
                }
                let work = if settings.shapes.admits(seed) {
                    match builder.build_seed(seed, worker, stop.flag()) {
                        Some(build) => Work::Built(build),
                        None => break,
                    }
                } else {
                    Work::Skipped(seed)
                };
                if sender.send(work).is_err() {
                    break;
                }
            });
        }
        drop(sender);
        let mut consumer = Consumer {
            tally: &mut tally,
            progress: &mut progress,
            recorder: &recorder,
            modes: &settings.modes,
            plain: &plain,
            stop,
        };
        while !stop.is_set() {
            match receiver.recv_timeout(Duration::from_millis(250)) {
                Ok(Work::Built(build)) => consumer.take(runner.as_mut(), &build, builds_per_seed),
                Ok(Work::Skipped(seed)) => {
                    consumer.tally.skip(seed);
                    consumer.progress.advance(builds_per_seed, consumer.tally);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break,
            }
            consumer.tally.wall_seconds = started.elapsed().as_secs_f64();
            consumer.progress.tick(consumer.tally);
        }
        // Builders blocked on a full channel see it closed and end; those
        // mid-build end after that build.
        drop(receiver);
    });
    progress.finish();
    if let Some(runner) = &runner {
        tally.contexts_reopened = runner.reopened;
    }
    if tally.first_incomplete.is_some() {
        tally.cut_off = Some(stop.reason().unwrap_or_else(|| "stopped".into()));
    }
    tally.wall_seconds = started.elapsed().as_secs_f64();
    Ok(tally)
}

/// The GPU thread's side: runs, compares, records and counts each seed.
struct Consumer<'a> {
    tally: &'a mut Tally,
    progress: &'a mut Progress,
    recorder: &'a Recorder,
    modes: &'a [Mode],
    plain: &'a Mode,
    stop: &'a Stop,
}

impl Consumer<'_> {
    fn take(&mut self, runner: Option<&mut GpuRunner>, build: &SeedBuild, builds_per_seed: u64) {
        let mut outcome = None;
        if let (Some(runner), Some(spec)) = (runner, &build.spec) {
            let c = case(spec, build.seed);
            let run = case_run(&c, spec);
            match runner.run_seed(build, &c, &run) {
                Ok(o) => {
                    let subject = |what, mode| Subject {
                        what,
                        seed: build.seed,
                        mode,
                        spec: Some(spec),
                    };
                    if let Verdict::Differs(d) = &o.plain {
                        let s = subject("nondeterministic", self.plain);
                        let file = self.recorder.difference(&s, &c, &run, d);
                        self.found(
                            &s,
                            format!(
                                "buffer {} byte {}, {} byte(s) differ",
                                d.buffer, d.offset, d.count
                            ),
                            file,
                        );
                    }
                    for (verdict, mode) in o.modes.iter().zip(self.modes) {
                        if let Verdict::Differs(d) = verdict {
                            let s = subject("mismatch", mode);
                            let file = self.recorder.difference(&s, &c, &run, d);
                            self.found(
                                &s,
                                format!(
                                    "buffer {} byte {}, {} byte(s) differ",
                                    d.buffer, d.offset, d.count
                                ),
                                file,
                            );
                        }
                    }
                    self.launch_failures(build, &o, &c, &run);
                    if runner.hung {
                        self.stop.request("a kernel never ended");
                    }
                    outcome = Some(o);
                }
                Err(err) => {
                    let message = format!("no CUDA context after a fault: {err}");
                    self.stop.request(&message);
                    self.tally.record(Finding {
                        what: "gpu error".into(),
                        seed: build.seed,
                        mode: String::new(),
                        message,
                        file: None,
                    });
                    // The seed is not complete: leave it to a resumed run.
                    return;
                }
            }
        }
        let builds =
            std::iter::once((&build.plain, self.plain)).chain(build.modes.iter().zip(self.modes));
        let plain_hazard = matches!(build.plain.built, Built::Hazard(_));
        for (b, mode) in builds {
            let what = match &b.built {
                Built::Failed(message) => Some(("build failure", message)),
                // S-L1's code meets the ptxas bug where the plain build
                // does not: its users would get ptxas's bytes.
                Built::Hazard(message) if !plain_hazard => Some(("ptxas hazard", message)),
                _ => None,
            };
            if let Some((what, message)) = what {
                let s = Subject {
                    what,
                    seed: build.seed,
                    mode,
                    spec: build.spec.as_ref(),
                };
                let file = self.recorder.failure(&s, message);
                self.found(&s, message.clone(), file);
            }
        }
        self.tally.add(build, outcome.as_ref());
        self.progress.advance(builds_per_seed, self.tally);
    }

    fn launch_failures(&mut self, build: &SeedBuild, o: &SeedOutcome, c: &FuzzCase, run: &CaseRun) {
        let verdicts =
            std::iter::once((&o.plain, self.plain)).chain(o.modes.iter().zip(self.modes));
        for (verdict, mode) in verdicts {
            if let Verdict::LaunchFailed(message) = verdict {
                let s = Subject {
                    what: "launch failure",
                    seed: build.seed,
                    mode,
                    spec: build.spec.as_ref(),
                };
                let file = self.recorder.launch_failure(&s, c, run, message);
                self.found(&s, message.clone(), file);
            }
        }
    }

    /// Prints a finding and keeps it for the summary.
    fn found(&mut self, s: &Subject<'_>, message: String, file: std::io::Result<PathBuf>) {
        let (file, note) = match file {
            Ok(path) => (Some(path.display().to_string()), path.display().to_string()),
            Err(e) => (None, format!("not written: {e}")),
        };
        let first_line = message.lines().next().unwrap_or("");
        self.progress.println(&format!(
            "sl1-fuzz: {} seed {} mode {}: {first_line} ({note})",
            s.what.to_uppercase(),
            s.seed,
            s.mode.name
        ));
        self.tally.record(Finding {
            what: s.what.into(),
            seed: s.seed,
            mode: s.mode.name.clone(),
            message,
            file,
        });
    }
}

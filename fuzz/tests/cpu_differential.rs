//! Issue 22, off the GPU: the differential run itself, on the CPU. For a
//! slice of seeds that moves on from run to run, every mode of `modes.txt`
//! is built, run with `lli-22` one thread after another (`sl1_fuzz::cpu`)
//! on the seed's inputs and compared byte for byte with the plain build.
//! One thread at a time cannot show what threads do to each other (the GPU
//! run does), but every mistake of a single thread's cache logic shows here,
//! in CI, without a GPU.
//!
//! `SL1_CPU_FUZZ_FIRST` sets the first seed (default: drawn from the clock
//! and printed), `SL1_CPU_FUZZ_SEEDS` how many (default 4).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};

use sl1_driver::build_ir::{compile_text, Compiled};
use sl1_fuzz::case::{case, differences, FuzzCase};
use sl1_fuzz::cpu::{run, CpuRun, Order};
use sl1_fuzz::launches::{case_run, with_line_buffers, CaseRun};
use sl1_fuzz::modes::{self, Mode};
use sl1_pass::transform::LaunchBytes;
use sl1_pass::tuning::{Rewrite, RewriteReport};

fn env_u64(name: &str) -> Option<u64> {
    std::env::var(name).ok().map(|v| {
        v.parse()
            .unwrap_or_else(|e| panic!("{name}={v}: not a number: {e}"))
    })
}

/// A seed's kernel and inputs, made once for all of its builds (making
/// them is a good part of a build's time in a debug test binary).
struct Seed {
    seed: u64,
    ir: String,
    case: FuzzCase,
    run: CaseRun,
}

impl Seed {
    fn new(seed: u64) -> Seed {
        let kernel = sl1_kernelgen::generate(seed);
        let case = case(&kernel.spec, seed);
        let run = case_run(&case, &kernel.spec);
        Seed {
            seed,
            ir: kernel.ir,
            case,
            run,
        }
    }

    /// The optimised IR of the seed's kernel built in `mode`.
    fn built(&self, mode: &Mode) -> Result<Built, String> {
        compile_text(&self.ir, &format!("k{}", self.seed), &mode.args, true)
            .map(|c| (c.text, sl1_pass::launch::launch_bytes(&c.report)))
            .map_err(|e| format!("{e:#}"))
    }

    /// Every buffer after `ir`, the seed's kernel in some build, ran on the
    /// seed's inputs (launches giving launch-sized line buffers their bytes).
    fn outputs(&self, (ir, bytes): &Built) -> Result<Vec<Vec<u8>>, String> {
        let launches = with_line_buffers(&self.run, bytes);
        run(
            &CpuRun {
                ir,
                case: &launches,
                buffer_of_arg: &self.case.buffer_of_arg,
                order: Order::Reverse,
                shared_fill: 0xA5,
            },
            &self.case.buffers,
        )
        .map_err(|e| format!("{e:#}"))
    }

    /// What `mode` does to the seed: `Ok(true)` compared equal, `Ok(false)`
    /// same IR as plain (nothing to run), `Err` a failure.
    fn check(&self, mode: &Mode, plain_ir: &str, plain: &[Vec<u8>]) -> Result<bool, String> {
        let ir = self.built(mode)?;
        if ir.0 == plain_ir {
            return Ok(false);
        }
        let got = self.outputs(&ir)?;
        let (listed, count) = differences(plain, &got, 8);
        if count > 0 {
            return Err(format!(
                "{count} byte(s) differ from the plain build, first (buffer, offset, plain, {}): {listed:?}",
                mode.name
            ));
        }
        Ok(true)
    }
}

/// A build's optimised IR and its kernels' launch-sized line buffers.
type Built = (String, BTreeMap<String, LaunchBytes>);

#[test]
fn every_mode_computes_the_plain_bytes_on_the_cpu() {
    let count = env_u64("SL1_CPU_FUZZ_SEEDS").unwrap_or(4);
    // New seeds every ten minutes, away from every_mode_builds' slice.
    let first = env_u64("SL1_CPU_FUZZ_FIRST").unwrap_or_else(|| {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_secs();
        500_000 + (secs / 600 * count) % 500_000
    });
    let modes = modes::all();
    eprintln!(
        "cpu_differential: seeds {first}..{} (SL1_CPU_FUZZ_FIRST={first} repeats this run) in {} modes",
        first + count,
        modes.len()
    );
    let next = AtomicU64::new(first);
    let failures = Mutex::new(Vec::new());
    let compared = AtomicU64::new(0);
    let start = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| loop {
                let seed = next.fetch_add(1, Ordering::SeqCst);
                if seed >= first + count {
                    break;
                }
                let fail = |what: String| failures.lock().unwrap().push(what);
                let s = Seed::new(seed);
                let plain_ir = match s.built(&Mode::plain()) {
                    Ok(ir) => ir,
                    Err(e) => {
                        fail(format!("seed {seed} plain: {e}"));
                        continue;
                    }
                };
                let plain = match s.outputs(&plain_ir) {
                    Ok(out) => out,
                    Err(e) => {
                        fail(format!("seed {seed} plain: {e}"));
                        continue;
                    }
                };
                for mode in &modes {
                    match s.check(mode, &plain_ir.0, &plain) {
                        Ok(true) => {
                            compared.fetch_add(1, Ordering::SeqCst);
                        }
                        Ok(false) => {}
                        Err(e) => fail(format!("seed {seed} mode {}: {e}", mode.name)),
                    }
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!(
        "cpu_differential: {} builds compared with the plain build in {:.1} s",
        compared.load(Ordering::SeqCst),
        start.elapsed().as_secs_f64()
    );
    assert!(
        failures.is_empty(),
        "{} failure(s) (reproduce: SL1_CPU_FUZZ_FIRST={first}):\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        compared.load(Ordering::SeqCst) > 0,
        "no mode changed any of the seeds' code"
    );
}

/// The first `SEEDS_PER_SHAPE` seeds from 151501 whose IR has `marker` and
/// whose default build's report passes `made`.
fn first_seeds_built_so(marker: &str, made: impl Fn(&RewriteReport) -> bool) -> Vec<u64> {
    first_seeds_compiled_so(marker, |c| {
        c.report.device_rewrites.as_ref().is_some_and(&made)
    })
}

/// Seeds of each shape the tests below run in every mode: one (each shape's
/// rewrite in all 40 builds; the GPU fuzzer runs thousands more). With three,
/// this file took 200 s of `ci/test` on 2 CPUs, with two 95 s (2026-11-29).
const SEEDS_PER_SHAPE: usize = 1;

/// The first `SEEDS_PER_SHAPE` seeds from 151501 whose IR has `marker` and
/// whose default build passes `made`.
fn first_seeds_compiled_so(marker: &str, made: impl Fn(&Compiled) -> bool) -> Vec<u64> {
    let modes = modes::all();
    let default = modes
        .iter()
        .find(|m| m.name == "default")
        .expect("modes.txt has a default mode");
    let seeds: Vec<u64> = (151_501..152_001)
        .filter(|&seed| {
            let kernel = sl1_kernelgen::generate(seed);
            if !kernel.ir.contains(marker) {
                return false;
            }
            let c = compile_text(&kernel.ir, &format!("k{seed}"), &default.args, true)
                .unwrap_or_else(|e| panic!("seed {seed} default: {e:#}"));
            made(&c)
        })
        .take(SEEDS_PER_SHAPE)
        .collect();
    assert_eq!(
        seeds.len(),
        SEEDS_PER_SHAPE,
        "seeds with `{marker}` built so: {seeds:?}"
    );
    seeds
}

/// `seeds` compute the plain build's bytes in every mode.
fn every_mode_computes_the_plain_bytes(seeds: &[u64]) {
    let mut compared = 0;
    for &seed in seeds {
        let s = Seed::new(seed);
        let plain_ir = s.built(&Mode::plain()).unwrap();
        let plain = s.outputs(&plain_ir).unwrap();
        for mode in &modes::all() {
            match s.check(mode, &plain_ir.0, &plain) {
                Ok(true) => compared += 1,
                Ok(false) => {}
                Err(e) => panic!("seed {seed} mode {}: {e}", mode.name),
            }
        }
    }
    assert!(compared > 0, "no mode changed the code of {seeds:?}");
}

/// Byte maps (`out[i] = f(in[i])` over bytes: range checks that choose a
/// value, compares' 0 or 1), whose words the device tuning computes on
/// 32-bit registers.
#[test]
fn byte_words_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("select i1 %in", |t| t.count(Rewrite::ByteWords) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Loops that count bytes (`acc += (in[i] & mask) == value`, and where the
/// byte before matches and this one does not: a test carried from the
/// iteration before), whose tests on a word's four bytes the device tuning
/// counts at once.
#[test]
fn byte_lane_counts_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("%tw", |t| t.count(Rewrite::ByteLaneCounts) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Pattern compares inside scans, whose first iteration merged loops peel.
#[test]
fn peeled_compares_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("%mh", |t| {
        t.merged_loops.iter().any(|m| !m.peeled.is_empty())
    });
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Window inner loops (a run-time trip count over the thread's next
/// elements: a dot product's shape), whose unrolled copies the vector loads
/// read 16 B at a time where aligned.
#[test]
fn vector_loads_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("%wtrips", |t| t.count(Rewrite::VectorLoads) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Window loops counted from the chunk loop's index (`Inner::from_outer`),
/// whose trip counts `--counted-trips` computes before them: the first seed
/// from 760000 whose code that changes (760009, whose runs reach the
/// window: with the trip count one short its counted-trips build ran off
/// its buffers, 2026-11-29; 151516, the first from 151501, never enters
/// its window loop on its inputs).
#[test]
fn counted_trips_compute_the_plain_bytes_on_the_cpu() {
    let modes = modes::all();
    let mode = |name: &str| &modes.iter().find(|m| m.name == name).unwrap().args;
    let seed = (760_000..760_500)
        .find(|&seed| {
            let kernel = sl1_kernelgen::generate(seed);
            let build = |name: &str| {
                compile_text(&kernel.ir, &format!("k{seed}"), mode(name), true)
                    .unwrap_or_else(|e| panic!("seed {seed} {name}: {e:#}"))
                    .text
            };
            kernel.ir.contains("%wend") && build("counted-trips") != build("default")
        })
        .expect("a seed in 760000..760500 whose code --counted-trips changes");
    every_mode_computes_the_plain_bytes(&[seed]);
}

/// Window loops run again in a loop of rounds around them (kmeans's nest):
/// the vector loads' checks and the short twin's other tests go out of the
/// loop of rounds (`.unswitched` copies), the twin's first iteration in
/// front of it (`vec.short.peel`).
#[test]
fn rounds_around_windows_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_compiled_so("%rtrips", |c| {
        c.text.contains(".unswitched") && c.text.contains("vec.short.peel")
    });
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Tallies of matching elements (sums of 0s and 1s), which the device
/// tuning adds narrow before one wide add.
#[test]
fn narrowed_sums_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("%th", |t| t.count(Rewrite::NarrowSums) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Integer adds to one element by every thread, which the device tuning
/// makes once per warp (on the CPU each thread is a warp of its own, so
/// this checks the rewrite's plumbing, not the warp's sum).
#[test]
fn warp_atomics_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("atomicrmw add", |t| t.count(Rewrite::WarpAtomics) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Switches on a byte whose cases only choose a value, which the device
/// tuning makes compares and selects.
#[test]
fn switch_selects_compute_the_plain_bytes_on_the_cpu() {
    let seeds = first_seeds_built_so("switch i64", |t| t.count(Rewrite::SwitchSelects) > 0);
    every_mode_computes_the_plain_bytes(&seeds);
}

/// Seeds the GPU fuzzer found wrong, in the mode it found them in, each
/// with the date and what was wrong (docs/reliability.md).
const FOUND: &[(u64, &str)] = &[
    // 2026-11-27: LLVM's VectorCombine put `exact` on the first peeled
    // iteration's shift (llvm::miscompiles), so a running value lost bits.
    (121612, "t7-l32"),
    // 2026-11-27: a double's low byte stored from the register its
    // addition wrote, which ptxas converts (ptxas_bugs); the guard the
    // build puts between them runs on the CPU as the value itself.
    (128610, "t1-l8"),
];

#[test]
fn seeds_the_gpu_found_compute_the_plain_bytes_on_the_cpu() {
    let modes = modes::all();
    for &(seed, name) in FOUND {
        let mode = modes
            .iter()
            .find(|m| m.name == name)
            .unwrap_or_else(|| panic!("no mode {name} in modes.txt"));
        let s = Seed::new(seed);
        let plain_ir = s.built(&Mode::plain()).unwrap();
        let plain = s.outputs(&plain_ir).unwrap();
        let compared = s
            .check(mode, &plain_ir.0, &plain)
            .unwrap_or_else(|e| panic!("seed {seed} mode {name}: {e}"));
        assert!(compared, "seed {seed} mode {name}: the same code as plain");
    }
}

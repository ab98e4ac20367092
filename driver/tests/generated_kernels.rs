//! Issue 7, off the GPU: generated streaming kernels (`sl1-kernelgen`) go
//! through the pass under a rotation of options, the verifier, O3, the NVPTX
//! back end and ptxas; none may fail or panic. A failure is shrunk to a
//! minimal spec, saved under `testdata/fuzz/<seed>.ll`, and fails the test;
//! every saved reproducer is re-checked by `saved_reproducers_pass`.
//!
//! `SL1_FUZZ_KERNELS` (default 300) sets how many seeds, `SL1_FUZZ_FIRST`
//! the first (default: a window of 1000000.. that moves every ten minutes,
//! printed), `SL1_FUZZ_PTXAS_EVERY` (default 1: every kernel)
//! on which rounds of the option rotation ptxas runs. 1000 kernels took
//! 140 s in `ci/test` on 2 CPUs (2026-11-29): kernels are checked on every
//! CPU, and LLVM's O3 and the back end take most of the time, ptxas some,
//! the pass little; the GPU fuzzer (`fuzz/`) covers far more seeds.

mod common;

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use common::*;
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{FileType, TargetMachine};
use sl1_kernelgen::{generate, shrink_candidates, to_ir, KernelSpec};
use sl1_pass::Options;

/// The driver's clean-up before the pass (build_ir.rs `PRE_CLEANUP`), used
/// by some variants so that the pass also sees instcombined loops. A plain
/// textual `instcombine` aborts the process (LLVM ERROR) on kernels it needs
/// two rounds for (testdata/fuzz/driver_instcombine_fixpoint.ll).
const PRE_CLEANUP: &str =
    "always-inline,function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>)";

/// Options the seeds rotate through: (name, options, clean-up first).
fn variants() -> Vec<(&'static str, Options, bool)> {
    let d = Options::default;
    vec![
        ("default", d(), false),
        ("default+cleanup", d(), true),
        (
            "cache-read-only",
            Options {
                cache_read_only: true,
                ..d()
            },
            false,
        ),
        (
            "no-static-prediction+cleanup",
            Options {
                static_prediction: false,
                ..d()
            },
            true,
        ),
        (
            "line-8",
            Options {
                line_size: 8,
                ..d()
            },
            false,
        ),
        (
            "line-64+cache-read-only+cleanup",
            Options {
                line_size: 64,
                max_line_size: 64,
                cache_read_only: true,
                ..d()
            },
            true,
        ),
    ]
}

fn target_machine() -> TargetMachine {
    sl1_driver::build_ir::target_machine("sm_90", 3).expect("NVPTX target machine")
}

/// How a kernel failed: `kind` is what shrinking must preserve.
#[derive(Debug)]
struct Failure {
    kind: &'static str,
    message: String,
}

fn fail<T>(kind: &'static str, message: impl ToString) -> Result<T, Failure> {
    Err(Failure {
        kind,
        message: message.to_string().trim().to_string(),
    })
}

/// Whether the kernel got transformed (for the coverage check).
struct Outcome {
    applied: bool,
}

/// Everything a kernel must get through; panics become failures.
fn check(
    ir: &str,
    variant: &(&str, Options, bool),
    machine: &TargetMachine,
    ptx_dir: Option<&Path>,
) -> Result<Outcome, Failure> {
    match catch_unwind(AssertUnwindSafe(|| {
        check_inner(ir, variant, machine, ptx_dir)
    })) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic without a message".into());
            fail("panic", message)
        }
    }
}

fn check_inner(
    ir: &str,
    (_, options, cleanup): &(&str, Options, bool),
    machine: &TargetMachine,
    ptx_dir: Option<&Path>,
) -> Result<Outcome, Failure> {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "generated");
    let module = match context.create_module_from_ir(buffer) {
        Ok(m) => m,
        Err(e) => return fail("generator: IR does not parse", e),
    };
    if let Err(e) = module.verify() {
        return fail("generator: IR fails the verifier", e);
    }
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    if *cleanup {
        if let Err(e) = module.run_passes(PRE_CLEANUP, machine, PassBuilderOptions::create()) {
            return fail("clean-up passes failed", e);
        }
    }
    let report = match sl1_pass::run_on_module(&module, options) {
        Ok(r) => r,
        Err(e) => return fail("pass error", e),
    };
    if let Some(why) = report.internal_failure() {
        return fail("internal error (kernel left as it was)", why);
    }
    if let Err(e) = module.verify() {
        return fail("verifier after the pass", e);
    }
    if let Err(e) = module.run_passes("default<O3>", machine, PassBuilderOptions::create()) {
        return fail("O3 failed", e);
    }
    if let Err(e) = module.verify() {
        return fail("verifier after O3", e);
    }
    // The stage after the optimizer, as the plugin and the driver run it:
    // the late device rewrites and the workarounds of ptxas's and NVPTX's
    // bugs (an atomic load through a `noalias readonly` argument stops
    // NVPTX without it).
    let mut counts = sl1_pass::tuning::RewriteCounts::default();
    if let Err(e) = sl1_pass::run_late(&module, options, &mut counts) {
        return fail("late stage failed", e.message("--no-device-rewrites"));
    }
    let ptx = match machine.write_to_memory_buffer(&module, FileType::Assembly) {
        Ok(b) => b,
        Err(e) => return fail("PTX emission failed", e),
    };
    if let Some(dir) = ptx_dir {
        let path = dir.join("kernel.ptx");
        std::fs::write(&path, ptx.as_slice()).unwrap();
        // `-O0`: acceptance only (common::assert_ptxas_accepts says why).
        let out = Command::new(cuda_path().join("bin/ptxas"))
            .args(["-arch=sm_90", "-O0", "-o", "/dev/null"])
            .arg(&path)
            .output()
            .expect("ptxas runs");
        if !out.status.success() {
            return fail(
                "ptxas rejected the PTX",
                String::from_utf8_lossy(&out.stderr),
            );
        }
    }
    Ok(Outcome {
        applied: report.kernels.iter().any(|k| k.transform.applied),
    })
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|v| {
            v.parse()
                .unwrap_or_else(|_| panic!("{name}={v}: not a number"))
        })
        .unwrap_or(default)
}

fn fuzz_dir() -> PathBuf {
    testdata("fuzz")
}

/// Shrinks `spec` while some candidate fails with the same kind.
fn shrink(
    mut spec: KernelSpec,
    mut failure: Failure,
    variant: &(&str, Options, bool),
    machine: &TargetMachine,
    ptx_dir: &Path,
) -> (KernelSpec, Failure) {
    let ptxas = failure.kind.starts_with("ptxas");
    'outer: loop {
        for candidate in shrink_candidates(&spec) {
            let result = check(
                &to_ir(&candidate),
                variant,
                machine,
                ptxas.then_some(ptx_dir),
            );
            if let Err(f) = result {
                if f.kind == failure.kind {
                    spec = candidate;
                    failure = f;
                    continue 'outer;
                }
            }
        }
        return (spec, failure);
    }
}

fn comment(text: &str) -> String {
    text.lines().map(|l| format!("; {l}\n")).collect::<String>()
}

/// A kernel that failed, before shrinking.
struct Failed {
    seed: u64,
    variant: usize,
    failure: Failure,
}

/// Checks seeds `first..first + count` on every CPU; returns how many got
/// transformed and the failures, by seed.
fn check_seeds(first: u64, count: u64, ptxas_every: u64) -> (u64, Vec<Failed>) {
    let next = AtomicU64::new(first);
    let applied = AtomicU64::new(0);
    let failed = Mutex::new(Vec::new());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let machine = target_machine();
                let variants = variants();
                let temp = tempfile::tempdir().unwrap();
                loop {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    if seed >= first + count {
                        break;
                    }
                    let variant = (seed % variants.len() as u64) as usize;
                    // Whole rounds of the rotation, so every variant gets ptxas.
                    let round = seed / variants.len() as u64;
                    let ptx_dir = (round % ptxas_every == 0).then_some(temp.path());
                    let ir = generate(seed).ir;
                    match check(&ir, &variants[variant], &machine, ptx_dir) {
                        Ok(o) => {
                            applied.fetch_add(u64::from(o.applied), Ordering::Relaxed);
                        }
                        Err(failure) => failed.lock().unwrap().push(Failed {
                            seed,
                            variant,
                            failure,
                        }),
                    }
                }
            });
        }
    });
    let mut failed = failed.into_inner().unwrap();
    failed.sort_by_key(|f| f.seed);
    (applied.into_inner(), failed)
}

/// Shrinks the failing kernel of `seed`, writes the minimal reproducer to
/// `dir/<seed>.ll` with a header naming the seed, options and failure, and
/// returns the line the test reports.
fn shrink_and_save(
    seed: u64,
    failure: Failure,
    variant: &(&str, Options, bool),
    machine: &TargetMachine,
    temp: &Path,
    dir: &Path,
) -> String {
    let (spec, failure) = shrink(generate(seed).spec, failure, variant, machine, temp);
    let path = dir.join(format!("{seed}.ll"));
    std::fs::create_dir_all(dir).unwrap();
    let header = format!(
        "Reproducer from driver/tests/generated_kernels.rs: seed {seed}, options `{}`, \
         shrunk.\nFailure: {}\n{}",
        variant.0, failure.kind, failure.message
    );
    std::fs::write(&path, comment(&header) + &to_ir(&spec)).unwrap();
    format!(
        "seed {seed} ({}): {}: {}\n  minimal reproducer: {}",
        variant.0,
        failure.kind,
        failure.message.lines().next().unwrap_or(""),
        path.display()
    )
}

#[test]
fn generated_kernels_pass_the_pass_o3_and_ptxas() {
    let count = env_u64("SL1_FUZZ_KERNELS", 300);
    // New seeds every ten minutes, away from the other fuzz tests' slices.
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let first = env_u64(
        "SL1_FUZZ_FIRST",
        1_000_000 + (secs / 600 * count) % 1_000_000,
    );
    eprintln!(
        "generated_kernels: seeds {first}..{} (SL1_FUZZ_FIRST={first} repeats this run)",
        first + count
    );
    // ptxas (about 15% of the time) on every kernel by default;
    // SL1_FUZZ_PTXAS_EVERY=k on every k-th round of the option rotation.
    let ptxas_every = env_u64("SL1_FUZZ_PTXAS_EVERY", 1).max(1);
    assert!(count > 0, "SL1_FUZZ_KERNELS=0 checks nothing");
    // ptxas must be there (CI installs it): cuda_path() fails otherwise.
    let _ = cuda_path();
    let start = Instant::now();
    let (applied, failed) = check_seeds(first, count, ptxas_every);
    eprintln!(
        "{count} generated kernels (seeds {first}..{}) in {:.1?}: {applied} transformed, {} failed",
        first + count,
        start.elapsed(),
        failed.len()
    );
    // Shrink the first two failures of each kind; list the rest.
    let machine = target_machine();
    let variants = variants();
    let temp = tempfile::tempdir().unwrap();
    let mut shrunk: BTreeMap<&'static str, u32> = BTreeMap::new();
    let mut failures = Vec::new();
    for Failed {
        seed,
        variant,
        failure,
    } in failed
    {
        let variant = &variants[variant];
        let shrinks = shrunk.entry(failure.kind).or_default();
        if *shrinks >= 2 {
            failures.push(format!("seed {seed} ({}): {}", variant.0, failure.kind));
            continue;
        }
        *shrinks += 1;
        failures.push(shrink_and_save(
            seed,
            failure,
            variant,
            &machine,
            temp.path(),
            &fuzz_dir(),
        ));
    }
    assert!(
        failures.is_empty(),
        "{} of {count} generated kernels failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // The kernels must exercise the transform, not only the analysis.
    assert!(
        applied * 4 >= count,
        "only {applied} of {count} generated kernels were transformed"
    );
}

/// Options variant named in a reproducer's header, else all of them.
fn variants_for(text: &str) -> Vec<(&'static str, Options, bool)> {
    let all = variants();
    let named: Vec<_> = all
        .iter()
        .filter(|(name, _, _)| {
            text.lines()
                .next()
                .is_some_and(|l| l.contains(&format!("`{name}`")))
        })
        .cloned()
        .collect();
    if named.is_empty() {
        all
    } else {
        named
    }
}

#[test]
fn saved_reproducers_pass() {
    let dir = fuzz_dir();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no reproducers in {}", dir.display());
    let machine = target_machine();
    let temp = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for variant in variants_for(&text) {
            if let Err(f) = check(&text, &variant, &machine, Some(temp.path())) {
                failures.push(format!(
                    "{} ({}): {}: {}",
                    file.display(),
                    variant.0,
                    f.kind,
                    f.message
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_broken_kernel_is_caught_and_classified() {
    // The checks can fail: IR the generator could print wrongly is reported
    // as a generator failure, not passed over.
    let machine = target_machine();
    let variant = &variants()[0];
    let mut ir = generate(1).ir;
    ir = ir.replacen("ret void", "br label %entry", 1);
    let failure = check(&ir, variant, &machine, None).err().expect("rejected");
    assert!(failure.kind.starts_with("generator"), "{failure:?}");
    let bad_ptx = tempfile::tempdir().unwrap();
    let path = bad_ptx.path().join("kernel.ptx");
    std::fs::write(&path, ".version 8.0\n.target sm_90\nnot ptx\n").unwrap();
    let out = Command::new(cuda_path().join("bin/ptxas"))
        .args(["-arch=sm_90", "-o", "/dev/null"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(!out.status.success(), "ptxas accepts garbage");
}

#[test]
fn a_failure_shrinks_to_a_minimal_saved_reproducer() {
    // The pass's test hook makes the transform of kernel `k3` panic (caught
    // by the pass, reported as an internal error) whatever its body, so the
    // shrinker must cut the kernel down to nothing but still failing.
    let seed = 3;
    let variant = (
        "fail-injected",
        Options {
            fail_kernel_for_testing: Some(format!("k{seed}")),
            ..Options::default()
        },
        false,
    );
    let machine = target_machine();
    let temp = tempfile::tempdir().unwrap();
    let failure = check(&generate(seed).ir, &variant, &machine, None)
        .err()
        .expect("the injected failure is caught");
    assert!(failure.kind.starts_with("internal error"), "{failure:?}");
    let out = tempfile::tempdir().unwrap();
    let line = shrink_and_save(seed, failure, &variant, &machine, temp.path(), out.path());
    let path = out.path().join(format!("{seed}.ll"));
    assert!(line.contains(&path.display().to_string()), "{line}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with("; Reproducer from"), "{text}");
    assert!(text.contains("seed 3, options `fail-injected`"), "{text}");
    assert!(text.contains("internal error"), "{text}");
    // Minimal: one argument, no loops, and it still fails the same way.
    assert!(!text.contains("phi "), "not shrunk:\n{text}");
    assert!(
        text.contains("%a0, i64 %n, i64 %chunk)"),
        "not shrunk:\n{text}"
    );
    let again = check(&text, &variant, &machine, None)
        .err()
        .expect("still fails");
    assert!(again.kind.starts_with("internal error"));
}

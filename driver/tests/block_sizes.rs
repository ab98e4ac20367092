//! A kernel without `__launch_bounds__` keeps the largest block its plain
//! clang build launches. The device tuning took HeCBench `topk`'s kernels
//! from 56 to 72 registers, its blocks of 1024 threads then failed to
//! launch, unchecked, and every result was wrong (H200, 2026-11-30);
//! `testdata/cu/many_pointers.cu` goes past 64 registers the same way,
//! through its run-time alias checks.

mod common;

use std::path::Path;
use std::process::Command;

use common::*;

const SOURCE: &str = "cu/many_pointers.cu";

/// The registers of each "Used N registers" line of `ptxas -v`'s output,
/// in order (a line printed twice counts twice).
fn used_registers(verbose: &str) -> Vec<u32> {
    verbose
        .lines()
        .filter_map(|l| l.split("Used ").nth(1))
        .map(|r| r.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

/// The registers ptxas gives each function of `ptx`.
fn registers(ptx: &Path) -> Vec<u32> {
    let out = run_ok(
        Command::new(cuda_path().join("bin/ptxas"))
            .args(["-v", "--gpu-name=sm_90", "-o", "/dev/null"])
            .arg(ptx),
    );
    used_registers(&out.stderr)
}

#[test]
fn a_kernel_the_rewrites_take_past_64_registers_keeps_blocks_of_1024() {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("k.ptx");
    let report = dir.path().join("k.json");
    let out = run_ok(
        driver()
            .args(["build", "--no-sl1", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .arg("--report")
            .arg(&report)
            .arg(testdata(SOURCE)),
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(text.contains(")\n.maxntid 1024\n{"), "{text}");
    let used = registers(&ptx);
    assert!(used.iter().all(|&r| r <= 64), "{used:?}");
    assert!(
        out.stderr
            .contains("kernel `many_pointers` (sm_90) given `.maxntid 1024`"),
        "{}",
        out.stderr
    );
    let report = read_report(&report);
    let notes = &report.kernels[0].notes;
    assert!(
        notes
            .iter()
            .any(|n| n.contains("which allow blocks of 896 threads")),
        "{notes:?}"
    );
}

#[test]
fn a_kernel_within_64_registers_gets_no_bound() {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("k.ptx");
    let out = run_ok(
        driver()
            .args([
                "build",
                "--no-sl1",
                "--no-device-rewrites",
                "--no-device-tuning",
                "--emit",
                "ptx",
                "-o",
            ])
            .arg(&ptx)
            .arg(testdata(SOURCE)),
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(!text.contains(".maxntid"), "{text}");
    assert!(!out.stderr.contains("given `.maxntid"), "{}", out.stderr);
    assert!(registers(&ptx).iter().all(|&r| r <= 64));
}

#[test]
fn the_object_a_program_links_is_bounded_too_and_ptxas_v_shows_it() {
    let dir = tempfile::tempdir().unwrap();
    let object = dir.path().join("k.o");
    let out = run_ok(
        Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
            .args(["-arch=sm_90", "-c", "-Xptxas", "-v", "-Xsl1", "--no-sl1"])
            .arg(testdata(SOURCE))
            .arg("-o")
            .arg(&object),
    );
    let used = used_registers(&out.stderr);
    // ptxas's account of the final cubin alone, as the user asked for it.
    assert_eq!(used.len(), 1, "{}", out.stderr);
    assert!(used[0] <= 64, "{}", out.stderr);
    assert!(object.is_file());
}

#[test]
fn ptx_stands_where_ptxas_cannot_check_it() {
    // `--emit ptx` needed no ptxas before the check: an architecture the
    // local ptxas does not know, or its options, must not fail the build.
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("k.ptx");
    let out = run_ok(
        driver()
            .args([
                "build",
                "--no-sl1",
                "--emit",
                "ptx",
                "--ptxas-arg=--no-such-option",
                "-o",
            ])
            .arg(&ptx)
            .arg(testdata(SOURCE)),
    );
    assert!(
        out.stderr.contains("warning: block sizes not checked"),
        "{}",
        out.stderr
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(text.contains(".entry many_pointers("), "{text}");
}

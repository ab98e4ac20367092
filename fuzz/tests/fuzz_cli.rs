//! `sl1-fuzz` as CI sees it (no GPU): a GPU run says there is no driver and
//! fails; `--build-only` builds and assembles, prints the summary, and
//! stops cleanly at its time limit, naming the seed to resume from.

use std::path::PathBuf;
use std::process::{Command, Output};

fn ptxas() -> PathBuf {
    let cuda = std::env::var_os("CUDA_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.toolchain/cuda"));
    let ptxas = cuda.join("bin/ptxas");
    assert!(
        ptxas.is_file(),
        "no ptxas at {}: run ci/setup",
        ptxas.display()
    );
    ptxas
}

fn fuzz(args: &[&str]) -> (Output, String) {
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sl1-fuzz"))
        .args(args)
        .arg("--out")
        .arg(dir.path().join("findings"))
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out, text)
}

#[test]
fn without_a_driver_a_gpu_run_says_so() {
    if sl1_gpu::device::driver_present() {
        eprintln!("SKIPPED: a CUDA driver is present here; the fuzz bundle's run.sh runs sl1-fuzz");
        return;
    }
    let (out, text) = fuzz(&["--seeds", "0..2", "--modes", "default"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("no NVIDIA driver"), "{text}");
}

#[test]
fn build_only_builds_every_selected_mode_and_sums_up() {
    let ptxas = ptxas();
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let (out, text) = fuzz(&[
        "--build-only",
        "--seeds",
        "3..5",
        "--modes",
        "paper,rewrites-only",
        "--jobs",
        "2",
        "--ptxas",
        ptxas.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("seeds 3..5: 2 completed; 6 kernels"),
        "{text}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let names: Vec<&str> = summary["builds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["plain", "paper", "rewrites-only"]);
    for b in summary["builds"].as_array().unwrap() {
        assert_eq!(b["built"], 2, "{b}");
        assert_eq!(b["build_failures"], 0, "{b}");
    }
    assert_eq!(summary["first_incomplete"], serde_json::Value::Null);
}

#[test]
fn shapes_alias_builds_only_the_seeds_with_those_shapes() {
    let ptxas = ptxas();
    let seeds = 720_000..720_030u64;
    let with_shapes = seeds
        .clone()
        .filter(|&s| sl1_kernelgen::generate(s).spec.has_alias_shapes())
        .count();
    assert!(with_shapes > 0 && with_shapes < 30);
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("summary.json");
    let range = format!("{}..{}", seeds.start, seeds.end);
    let (out, text) = fuzz(&[
        "--build-only",
        "--shapes",
        "alias",
        "--seeds",
        &range,
        "--modes",
        "no-alias-checks",
        "--ptxas",
        ptxas.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("(only --shapes alias)"), "{text}");
    let skipped = 30 - with_shapes;
    assert!(
        text.contains(&format!(
            "{range}: {with_shapes} completed and {skipped} skipped (not of the shapes asked)"
        )),
        "{text}"
    );
    let summary: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(summary["seeds_skipped"], skipped as u64);
    assert_eq!(summary["builds"][1]["built"], with_shapes as u64);
    // Skipped seeds are done: nothing is left to resume.
    assert_eq!(summary["first_incomplete"], serde_json::Value::Null);
}

#[test]
fn a_time_limit_cuts_the_run_off_with_a_summary() {
    let ptxas = ptxas();
    let (out, text) = fuzz(&[
        "--build-only",
        "--seeds",
        "0..100000",
        "--modes",
        "default",
        "--jobs",
        "1",
        "--time-limit",
        "1",
        "--ptxas",
        ptxas.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{text}");
    assert!(
        text.contains("CUT OFF (time limit): first seed not completed: "),
        "{text}"
    );
    assert!(text.contains("resume with --seeds "), "{text}");
}

#[test]
fn unknown_modes_are_named_with_the_known_ones() {
    let (out, text) = fuzz(&["--build-only", "--modes", "default,nope"]);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("unknown mode `nope`"), "{text}");
    assert!(text.contains("paper"), "{text}");
}

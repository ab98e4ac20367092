//! `build --gpu-profile`: line sizes and the shared-memory budget from a GPU
//! profile, options given on the command line winning, and bad profiles as
//! clear errors.

mod common;

use common::*;

fn profile(dir: &std::path::Path, sl1: &str) -> std::path::PathBuf {
    let path = dir.join("gpu-profile.json");
    std::fs::write(
        &path,
        format!(r#"{{"tool": "test", "device": {{"name": "small GPU"}}, "sl1": {sl1}}}"#),
    )
    .unwrap();
    path
}

fn build_upper(dir: &std::path::Path, extra: &[&str]) -> sl1_pass::Report {
    let report = dir.join("upper.json");
    run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx"])
            .args(extra)
            .arg("-o")
            .arg(dir.join("upper.ptx"))
            .arg("--report")
            .arg(&report),
    );
    read_report(&report)
}

const SMALL: &str = r#"{"line_size": 8, "max_line_size": 16, "shared_budget_bytes": 16384}"#;

#[test]
fn a_profile_sets_line_sizes_and_the_budget() {
    let dir = tempfile::tempdir().unwrap();
    let path = profile(dir.path(), SMALL);
    let report = build_upper(dir.path(), &["--gpu-profile", path.to_str().unwrap()]);
    let o = &report.options;
    assert_eq!(
        (o.line_size, o.max_line_size, o.shared_budget),
        (8, 16, 16384)
    );
    assert_eq!(o.gpu_profile.as_deref(), path.to_str());
    let k = &report.kernels[0];
    assert!(k.transform.applied, "{:?}", k.transform.reasons);
    assert!(
        k.transform.shared_bytes <= 16384,
        "{} B of shared memory",
        k.transform.shared_bytes
    );
    // The same build without the profile takes the defaults.
    let plain = build_upper(dir.path(), &[]);
    assert_eq!(plain.options.shared_budget, 48 * 1024);
    assert!(plain.kernels[0].transform.shared_bytes > 16384);
}

#[test]
fn a_gpu_named_instead_of_a_profile_gives_the_plugin_its_rates() {
    let dir = tempfile::tempdir().unwrap();
    let report = build_upper(dir.path(), &["--gpu-profile", "h200"]);
    let o = &report.options;
    assert_eq!(o.memory_rates, sl1_core::rates::h200());
    assert_eq!(o.gpu_profile.as_deref(), Some("h200"));
    let plain = build_upper(dir.path(), &[]);
    assert_eq!(plain.options.memory_rates, sl1_core::rates::h100());
    assert_eq!(
        (o.line_size, o.shared_budget),
        (plain.options.line_size, plain.options.shared_budget)
    );
}

#[test]
fn options_given_win_over_the_profile() {
    let dir = tempfile::tempdir().unwrap();
    let path = profile(dir.path(), SMALL);
    let report = build_upper(
        dir.path(),
        &[
            "--gpu-profile",
            path.to_str().unwrap(),
            "--line-size",
            "32",
            "--shared-budget",
            "32768",
        ],
    );
    let o = &report.options;
    assert_eq!(
        (o.line_size, o.max_line_size, o.shared_budget),
        (32, 32, 32768)
    );
}

#[test]
fn a_bad_profile_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (profile(dir.path(), r#"{"line_size": 8}"#), "sl1"),
        (dir.path().join("missing.json"), "missing.json"),
    ];
    for (path, says) in cases {
        let out = run(driver()
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(dir.path().join("u.ptx"))
            .arg("--gpu-profile")
            .arg(&path));
        assert_ne!(out.code, Some(0));
        assert!(out.stderr.contains("GPU profile"), "{}", out.stderr);
        assert!(out.stderr.contains(says), "{}", out.stderr);
    }
    // A budget beyond static shared memory is refused by the pass's checks.
    let big = profile(
        dir.path(),
        r#"{"line_size": 16, "max_line_size": 32, "shared_budget_bytes": 200000}"#,
    );
    let out = run(driver()
        .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
        .arg(dir.path().join("u.ptx"))
        .arg("--gpu-profile")
        .arg(&big));
    assert_ne!(out.code, Some(0));
    assert!(out.stderr.contains("48 KiB"), "{}", out.stderr);
}

#[test]
fn a_profile_the_probe_wrote_drives_the_build() {
    // `sl1-driver probe --from` re-reads a (simulated) probe run and writes
    // a profile; `build --gpu-profile` takes its parameters.
    let dir = tempfile::tempdir().unwrap();
    let earlier = dir.path().join("earlier.json");
    let simulated = sl1_probe::simulate::SimulatedGpu::example_profile();
    std::fs::write(&earlier, serde_json::to_string(&simulated).unwrap()).unwrap();
    let written = dir.path().join("gpu-profile.json");
    let out = run_ok(
        driver()
            .args(["probe", "--from"])
            .arg(&earlier)
            .arg("-o")
            .arg(&written)
            .arg("--plots")
            .arg(dir.path().join("plots")),
    );
    assert!(out.stdout.contains("S-L1: lines 16-32 B"), "{}", out.stdout);
    let report = build_upper(dir.path(), &["--gpu-profile", written.to_str().unwrap()]);
    let o = &report.options;
    let sl1 = &simulated.sl1;
    assert_eq!(
        (o.line_size, o.max_line_size, o.shared_budget),
        (sl1.line_size, sl1.max_line_size, sl1.shared_budget_bytes)
    );
    assert_eq!(o.gpu_profile.as_deref(), written.to_str());
}

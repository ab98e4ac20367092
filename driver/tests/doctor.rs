//! `sl1-driver doctor` on a machine set up by ci/setup, and with tools missing.

mod common;

use common::*;

#[test]
fn doctor_finds_the_toolchain() {
    let out = run_ok(driver().arg("doctor"));
    for tool in [
        "clang++",
        "S-L1 plugin",
        "CUDA path",
        "ptxas",
        "fatbinary",
        "libdevice",
    ] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with("ok") && l.contains(tool)),
            "{tool} not found:\n{}",
            out.stdout
        );
    }
    assert!(out.stdout.contains("GPU driver"));
    assert!(out.stdout.contains("doctor: ready to build"));
}

#[test]
fn doctor_names_the_fix_for_each_missing_tool() {
    let out = run(driver().args([
        "doctor",
        "--cuda-path",
        "/nonexistent",
        "--clang",
        "/nonexistent/clang++",
        "--plugin",
        "/nonexistent/libsl1_pass.so",
    ]));
    assert_eq!(out.code, Some(1));
    let missing: Vec<_> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("MISSING"))
        .collect();
    assert_eq!(missing.len(), 6, "{}", out.stdout);
    assert!(
        missing.iter().all(|l| l.contains("fix: ")),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("apt-get install clang-22"));
    assert!(out.stdout.contains("cargo build --release -p sl1-pass"));
}

#[test]
fn help_and_version() {
    let out = run_ok(driver().arg("--help"));
    assert!(out.stdout.contains("build") && out.stdout.contains("doctor"));
    let out = run_ok(driver().args(["build", "--help"]));
    for flag in [
        "--emit",
        "--arch",
        "--no-sl1",
        "--report",
        "--cuda-path",
        "--clang",
        "-O",
        "-I",
        "-D",
        "-v",
    ] {
        assert!(out.stdout.contains(flag), "build --help lacks {flag}");
    }
    let out = run_ok(driver().arg("--version"));
    assert!(out.stdout.starts_with("sl1-driver "));
}

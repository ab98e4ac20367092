//! Every bad input gets a message naming the file and what to do, and a
//! non-zero exit code.

mod common;

use common::*;

fn assert_fails_with(cmd: &mut std::process::Command, needles: &[&str]) -> Outcome {
    let out = run(cmd);
    assert_eq!(
        out.code,
        Some(1),
        "expected exit 1: {cmd:?}\n{}",
        out.stderr
    );
    for needle in needles {
        assert!(
            out.stderr.contains(needle),
            "stderr lacks `{needle}`:\n{}",
            out.stderr
        );
    }
    out
}

#[test]
fn cuda_syntax_error_passes_clang_diagnostics_through() {
    let dir = tempfile::tempdir().unwrap();
    assert_fails_with(
        driver()
            .arg("build")
            .arg("testdata/bad/syntax_error.cu")
            .arg("-o")
            .arg(dir.path().join("x")),
        &[
            "syntax_error.cu:3:",
            "use of undeclared identifier 'undeclared_value'",
            "sl1-driver: error: testdata/bad/syntax_error.cu: clang++",
            "failed",
        ],
    );
}

#[test]
fn malformed_ir_names_file_and_line() {
    assert_fails_with(
        driver().args(["build", "testdata/bad/malformed.ll", "-o", "/dev/null"]),
        &[
            "sl1-driver: error: testdata/bad/malformed.ll: not valid LLVM IR",
            "malformed.ll:6:8: error: expected instruction opcode",
        ],
    );
}

#[test]
fn host_module_is_refused() {
    assert_fails_with(
        driver().args(["build", "testdata/bad/host_module.ll", "-o", "/dev/null"]),
        &[
            "host_module.ll: target triple is `x86_64-pc-linux-gnu`",
            "device code only",
        ],
    );
}

#[test]
fn unknown_arch_lists_known_ones() {
    for input in ["testdata/cu/upper.cu", "testdata/ll/restrict_loop.ll"] {
        assert_fails_with(
            driver().args(["build", input, "--arch", "sm_999", "-o", "/dev/null"]),
            &["unknown GPU architecture `sm_999`", "sm_90"],
        );
    }
}

#[test]
fn missing_and_unsupported_inputs() {
    assert_fails_with(
        driver().args(["build", "testdata/nope.cu"]),
        &["testdata/nope.cu: input not found"],
    );
    assert_fails_with(
        driver().args(["build", "Cargo.toml"]),
        &["Cargo.toml: unsupported input", ".cu", ".ll"],
    );
    assert_fails_with(
        driver().args(["build", "--emit", "exe", "testdata/ll/restrict_loop.ll"]),
        &["an executable needs host code"],
    );
}

#[test]
fn missing_tools_say_how_to_fix() {
    assert_fails_with(
        driver().args([
            "build",
            "testdata/ll/restrict_loop.ll",
            "--emit",
            "cubin",
            "--cuda-path",
            "/nonexistent/cuda",
            "-o",
            "/dev/null",
        ]),
        &[
            "CUDA installation (bin/ptxas) not found",
            "/nonexistent/cuda",
            "fix: run ci/setup",
        ],
    );
    assert_fails_with(
        driver().args([
            "build",
            "testdata/cu/upper.cu",
            "--clang",
            "/nonexistent/clang++",
            "-o",
            "/dev/null",
        ]),
        &["clang++ 22 not found", "apt-get install clang-22"],
    );
}

#[test]
fn bad_option_values_are_rejected() {
    let out = run(driver().args(["build", "testdata/ll/restrict_loop.ll", "-O7"]));
    assert_eq!(out.code, Some(2), "{}", out.stderr);
    assert!(out.stderr.contains("-O"), "{}", out.stderr);
    assert_fails_with(
        driver().args([
            "build",
            "testdata/ll/restrict_loop.ll",
            "--line-size",
            "12",
            "-o",
            "/dev/null",
        ]),
        &["line size 12 B is not supported"],
    );
    // On a CUDA source too, before clang runs: it was found inside clang,
    // which then also failed to write its report.
    let out = assert_fails_with(
        driver().args([
            "build",
            "testdata/cu/upper.cu",
            "--line-size",
            "33",
            "-o",
            "/dev/null",
        ]),
        &["line size 33 B is not supported"],
    );
    assert!(!out.stderr.contains("cannot read report"), "{}", out.stderr);
    assert!(!out.stderr.contains("clang++"), "{}", out.stderr);
}

/// A link that fails is the link's failure, not the first input's.
#[test]
fn a_failed_link_names_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().join("undefined.cpp");
    std::fs::write(&host, "int missing();\nint main() { return missing(); }\n").unwrap();
    let exe = dir.path().join("app");
    let out = assert_fails_with(
        driver()
            .args(["build", "testdata/cu/upper.cu"])
            .arg(&host)
            .arg("-o")
            .arg(&exe),
        &["the link of", "failed"],
    );
    assert!(
        out.stderr.contains(&exe.display().to_string()) && !out.stderr.contains("upper.cu: clang"),
        "{}",
        out.stderr
    );
}

//! `sl1-corpus build` on the two-program corpus of `testdata/corpus`, with
//! the workspace's `sl1-driver` (built by `cargo build --workspace`, as CI
//! does before the tests).

use std::path::{Path, PathBuf};
use std::process::Command;

fn driver() -> PathBuf {
    let corpus = Path::new(env!("CARGO_BIN_EXE_sl1-corpus"));
    let driver = corpus.with_file_name("sl1-driver");
    assert!(
        driver.is_file(),
        "{}: build it first (cargo build -p sl1-driver)",
        driver.display()
    );
    driver
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testdata/corpus")
}

#[test]
fn builds_each_program_with_and_without_s_l1_and_says_why_not() {
    let out = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_sl1-corpus"))
        .args(["build", "--jobs", "2", "--hecbench"])
        .arg(corpus())
        .arg("--out")
        .arg(out.path())
        .arg("--driver")
        .arg(driver())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(
        run.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert!(
        stdout.contains("programs attempted 2, built without S-L1 2, built with S-L1 2, transformed 1, S-L1-only build failures 0"),
        "{stdout}"
    );

    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.path().join("corpus.json")).unwrap())
            .unwrap();
    let tiny = &json["programs"][1];
    assert_eq!(tiny["program"], "tiny-cuda");
    assert_eq!(
        tiny["make"]["run_args"],
        serde_json::json!(["1048576", "4"])
    );
    assert_eq!(
        tiny["make"]["flags"],
        serde_json::json!(["-std=c++17", "-DSCALE=3"])
    );
    assert_eq!(
        tiny["sl1"]["transformed"],
        serde_json::json!(["_Z5scalePKhPhyy"])
    );
    assert_eq!(tiny["no_sl1"]["transformed"], serde_json::json!([]));
    // Two CUDA sources, linked.
    let split = &json["programs"][0];
    assert_eq!(split["program"], "split-cuda");
    assert_eq!(split["sl1"]["built"], true, "{split}");
    for mode in ["sl1", "no-sl1"] {
        assert!(out.path().join(mode).join("split-cuda/main").is_file());
        let exe = out.path().join(mode).join("tiny-cuda").join("main");
        let bytes = std::fs::read(&exe).unwrap();
        // Linked against the shared CUDA runtime: one library for all.
        assert!(bytes.windows(15).any(|w| w == b"libcudart.so.12"), "{mode}");
    }
}

#[test]
fn a_checkout_without_programs_is_an_error() {
    let empty = tempfile::tempdir().unwrap();
    std::fs::create_dir(empty.path().join("src")).unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_sl1-corpus"))
        .args(["build", "--hecbench"])
        .arg(empty.path())
        .arg("--out")
        .arg(empty.path().join("out"))
        .arg("--driver")
        .arg(driver())
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("no src/*-cuda program with a Makefile"),
        "{stderr}"
    );
}

//! `sl1-bench` off the GPU: bad bundles are explained, and without a driver it
//! says so and fails (CI has no GPU; on a GPU machine the run itself is the test).

use std::process::Command;

fn bench() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sl1-bench"))
}

#[test]
fn a_bundle_without_ptx_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    let out = bench().arg("--bundle").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("cannot read") && err.contains("ptx"), "{err}");
}

#[test]
fn without_a_driver_it_says_so() {
    if sl1_gpu::device::driver_present() {
        eprintln!("SKIPPED: a CUDA driver is present here; run the suite itself instead");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ptx/sl1")).unwrap();
    std::fs::write(dir.path().join("ptx/sl1/upper.ptx"), "// empty\n").unwrap();
    let out = bench().arg("--bundle").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no NVIDIA driver"), "{err}");
}

#[test]
fn unknown_apps_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ptx/sl1")).unwrap();
    let out = bench()
        .arg("--bundle")
        .arg(dir.path())
        .args(["--apps", "nosuchapp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown app `nosuchapp`"));
}

#[test]
fn a_suite_without_ptx_in_the_bundle_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("ptx/sl1")).unwrap();
    std::fs::write(dir.path().join("ptx/sl1/upper.ptx"), "// empty\n").unwrap();
    let out = bench()
        .arg("--bundle")
        .arg(dir.path())
        .args(["--suite", "harm"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no PTX of any app of the suite `harm`"),
        "{err}"
    );
    let out = bench()
        .arg("--bundle")
        .arg(dir.path())
        .args(["--suite", "nosuchsuite"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "clap refuses it");
}

#[test]
fn pairs_without_ptx_are_skipped_with_one_line_per_build() {
    if sl1_gpu::device::driver_present() {
        eprintln!("SKIPPED: a CUDA driver is present here; run the suite itself instead");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    for build in ["sl1", "no-sl1"] {
        std::fs::create_dir_all(dir.path().join("ptx").join(build)).unwrap();
    }
    for kernel in ["gather", "scatter"] {
        std::fs::write(
            dir.path().join(format!("ptx/sl1/{kernel}.ptx")),
            "// empty\n",
        )
        .unwrap();
    }
    let out = bench()
        .arg("--bundle")
        .arg(dir.path())
        .args(["--suite", "all"])
        .output()
        .unwrap();
    // Without a driver the run stops after the check of the bundle.
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let skipped: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("skipped:"))
        .collect();
    assert_eq!(skipped.len(), 1, "{stdout}");
    assert!(
        skipped[0].contains("no-sl1 for 2 of 2 app(s): gather, scatter"),
        "{stdout}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("no NVIDIA driver"));
}

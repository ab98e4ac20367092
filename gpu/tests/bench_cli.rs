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

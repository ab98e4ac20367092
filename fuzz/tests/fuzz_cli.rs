//! `sl1-fuzz` off the GPU: without a driver it says so and fails (CI has no
//! GPU; on a GPU machine `run.sh` runs it on the bundle's kernels).

use std::process::Command;

#[test]
fn without_a_driver_it_says_so() {
    if sl1_gpu::device::driver_present() {
        eprintln!("SKIPPED: a CUDA driver is present here; the bundle's run.sh runs sl1-fuzz");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_sl1-fuzz"))
        .arg("--bundle")
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no NVIDIA driver"), "{err}");
}

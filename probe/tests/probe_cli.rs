//! `sl1-probe` off the GPU: without a driver it says so and fails; `--from`
//! redoes the inference, summary, profile and plots of an earlier run (here
//! a simulated GPU's, whose caches are known).

use std::process::Command;

use sl1_probe::profile::Profile;
use sl1_probe::simulate::SimulatedGpu;

fn probe() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sl1-probe"))
}

#[test]
fn without_a_driver_it_says_so() {
    if sl1_gpu_base::device::driver_present() {
        eprintln!("SKIPPED: a CUDA driver is present here; `sl1-probe --quick` itself is the test");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = probe()
        .current_dir(dir.path())
        .arg("--quick")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no NVIDIA GPU driver"), "{err}");
    assert!(!dir.path().join("gpu-profile.json").exists());
}

#[test]
fn from_an_earlier_profile_it_redoes_everything() {
    let dir = tempfile::tempdir().unwrap();
    let earlier = dir.path().join("earlier.json");
    std::fs::write(
        &earlier,
        serde_json::to_string(&SimulatedGpu::example_profile()).unwrap(),
    )
    .unwrap();
    let out = probe()
        .current_dir(dir.path())
        .args([
            "--from",
            "earlier.json",
            "-o",
            "again.json",
            "--plots",
            "plots",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for line in [
        "simulated GPU (sm_90), 4 SMs at 1000 MHz",
        "L1 (ld.global.ca):",
        "capacity 32 KiB; fill unit 32 B; line 128 B; 4 ways x 64 sets",
        "shared memory: latency 30 cycles (30.0 ns); 32 banks of 4 B",
        "S-L1: lines 16-32 B, shared-memory budget 48 KiB",
    ] {
        assert!(stdout.contains(line), "`{line}` missing from:\n{stdout}");
    }
    let again: Profile =
        serde_json::from_str(&std::fs::read_to_string(dir.path().join("again.json")).unwrap())
            .unwrap();
    assert_eq!(again.sl1.max_line_size, 32);
    assert_eq!(
        again.data.chases.len(),
        SimulatedGpu::example_profile().data.chases.len()
    );
    for plot in [
        "chase-footprint",
        "chase-stride",
        "shared-stride",
        "throughput-dram",
    ] {
        for ext in ["svg", "png"] {
            let path = dir.path().join(format!("plots/{plot}.{ext}"));
            assert!(path.is_file(), "{} missing", path.display());
        }
    }
}

#[test]
fn a_file_that_is_not_a_profile_is_explained() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.json"), r#"{"sl1": 3}"#).unwrap();
    let out = probe()
        .current_dir(dir.path())
        .args(["--from", "x.json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("x.json is not a GPU profile"), "{err}");
}

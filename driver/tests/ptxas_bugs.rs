//! Every build through the plugin keeps floating-point bits out of narrow
//! stores (`sl1_pass::ptxas_bugs`): clang alone stores a float's low byte
//! from the register the float addition wrote, which ptxas converts; the
//! driver's builds, with S-L1 or without, and clang with the plugin do not.

mod common;

use std::process::Command;

use common::{clang, cuda_path, driver, plugin, repo, run_ok};
use sl1_pass::ptxas_bugs::narrow_store_of_float;

const SOURCE: &str = "testdata/cu/float_bytes.cu";

/// The device PTX clang makes of `SOURCE`, with the plugin or without.
fn clang_ptx(with_plugin: bool) -> String {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("float_bytes.ptx");
    let mut cmd = Command::new(clang());
    cmd.current_dir(repo())
        .args(["-x", "cuda", SOURCE, "--cuda-gpu-arch=sm_90", "-O3"])
        .args(["--cuda-device-only", "-S"])
        .arg(format!("--cuda-path={}", cuda_path().display()));
    if with_plugin {
        cmd.arg(format!("-fpass-plugin={}", plugin().display()));
    }
    run_ok(cmd.arg("-o").arg(&ptx));
    std::fs::read_to_string(&ptx).unwrap()
}

#[test]
fn clang_alone_stores_the_float_register() {
    let ptx = clang_ptx(false);
    assert!(narrow_store_of_float(&ptx).is_some(), "{ptx}");
}

#[test]
fn clang_with_the_plugin_does_not() {
    let ptx = clang_ptx(true);
    assert_eq!(narrow_store_of_float(&ptx), None, "{ptx}");
    assert!(ptx.contains("xor.b32"), "{ptx}");
}

#[test]
fn no_driver_build_does() {
    let dir = tempfile::tempdir().unwrap();
    for options in [&[][..], &["--no-sl1", "--no-device-tuning"][..]] {
        let ptx = dir.path().join("float_bytes.ptx");
        let mut cmd = driver();
        cmd.args(["build", SOURCE, "--emit", "ptx", "-o"])
            .arg(&ptx)
            .args(options);
        run_ok(&mut cmd);
        let text = std::fs::read_to_string(&ptx).unwrap();
        assert_eq!(narrow_store_of_float(&text), None, "{options:?}:\n{text}");
    }
}

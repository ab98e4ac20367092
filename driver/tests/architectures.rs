//! Several GPU architectures in one build (issue 58): `--arch` repeated or
//! comma-separated, and nvcc's repeated `-gencode` through `sl1-nvcc`, make
//! one fat binary with a cubin and PTX per architecture; PTX, cubins and
//! IR are one architecture's code, and asking for them with several is an
//! error that says so. Before, a second architecture was refused
//! ("cannot be used multiple times").

mod common;

use common::{driver, fake_cudart, run, run_ok, testdata};
use std::process::Command;

/// The fatbinary commands of a `-v` build's standard error.
fn fatbinary_lines(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("fatbinary") && l.contains("--create"))
        .collect()
}

#[test]
fn two_architectures_make_one_fat_binary() {
    let dir = tempfile::tempdir().unwrap();
    fake_cudart(dir.path());
    let exe = dir.path().join("two");
    let built = run_ok(
        driver()
            .arg("build")
            .arg(testdata("host/two_files/kernel.cu"))
            .arg(testdata("host/two_files/launch.cu"))
            .args(["--arch", "sm_80,sm_90", "-v", "-o"])
            .arg(&exe)
            .arg("-L")
            .arg(dir.path())
            .args(["-l", "fake_cudart"]),
    );
    // One fat binary per source, each with both architectures' code.
    let fatbins = fatbinary_lines(&built.stderr);
    assert_eq!(fatbins.len(), 2, "{}", built.stderr);
    for line in fatbins {
        for image in [
            "kind=elf,sm=80",
            "kind=ptx,sm=80",
            "kind=elf,sm=90",
            "kind=ptx,sm=90",
        ] {
            assert!(line.contains(image), "{image} not in {line}");
        }
    }
    // The launches are sized as in a one-architecture build.
    let ran = run_ok(&mut Command::new(&exe));
    assert!(
        ran.stdout.contains("launch 128x1x1 shared 9216"),
        "{}",
        ran.stdout
    );

    // nvcc's spelling, through sl1-nvcc.
    let nvcc_built = run_ok(
        Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
            .current_dir(common::repo())
            .args([
                "-gencode",
                "arch=compute_80,code=sm_80",
                "-gencode=arch=compute_90,code=sm_90",
                "-c",
                "-v",
                "testdata/host/two_files/kernel.cu",
                "-o",
            ])
            .arg(dir.path().join("kernel.o")),
    );
    let lines = fatbinary_lines(&nvcc_built.stderr);
    let [line] = lines[..] else {
        panic!("not one fatbinary command:\n{}", nvcc_built.stderr)
    };
    assert!(line.contains("sm=80") && line.contains("sm=90"), "{line}");
}

#[test]
fn one_architectures_outputs_refuse_several() {
    let dir = tempfile::tempdir().unwrap();
    let out = run(driver()
        .args(["build", "testdata/cu/upper.cu", "--emit", "ptx"])
        .args(["--arch", "sm_80", "--arch", "sm_90", "-o"])
        .arg(dir.path().join("upper.ptx")));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    assert!(
        out.stderr
            .contains("--emit ptx makes one architecture's code")
            && out.stderr.contains("sm_80, sm_90"),
        "{}",
        out.stderr
    );
}

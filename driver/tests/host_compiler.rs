//! The host compiler of host sources and the link (`--host-compiler`,
//! nvcc's `-ccbin`): a two-architecture program with a C++ host file using
//! GCC's OpenMP, built through `sl1-nvcc -ccbin g++ -Xcompiler -fopenmp`
//! (issue 58: `-ccbin` was ignored and the host compiler was always
//! clang++-22, which found no `omp.h` and no `-lomp`). It runs here on a
//! stand-in CUDA runtime (testdata/host/fake_cudart.c).

mod common;

use common::{fake_cudart, repo, run_ok};
use std::process::Command;

#[test]
fn ccbin_gpp_builds_and_links_an_openmp_host() {
    let dir = tempfile::tempdir().unwrap();
    fake_cudart(dir.path());
    let exe = dir.path().join("omp");
    let built = run_ok(
        Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
            .current_dir(repo())
            .args(["-ccbin", "g++", "-Xcompiler", "-fopenmp", "-v"])
            .args(["-gencode", "arch=compute_80,code=sm_80"])
            .args(["-gencode", "arch=compute_90,code=sm_90"])
            .args([
                "testdata/host/openmp/scale.cu",
                "testdata/host/openmp/main.cpp",
                "-o",
            ])
            .arg(&exe)
            .arg("-L")
            .arg(dir.path())
            .arg("-lfake_cudart"),
    );
    let commands: Vec<&str> = built
        .stderr
        .lines()
        .filter(|l| l.starts_with("+ "))
        .collect();
    assert!(
        commands
            .iter()
            .any(|c| c.starts_with("+ g++ ") && c.contains("main.cpp") && c.contains("-fopenmp")),
        "main.cpp not compiled by g++ with -fopenmp:\n{}",
        built.stderr
    );
    let link = commands.last().unwrap();
    assert!(
        link.starts_with("+ g++ ") && link.contains("--wrap="),
        "{link}"
    );
    // The stand-in launch leaves `out` at 1.0: the sum is n.
    let ran = run_ok(&mut Command::new(&exe));
    assert!(
        ran.stdout.contains("launch 256x1x1 shared 18432")
            && ran.stdout.contains("sum 1048576 (OpenMP on)"),
        "{}",
        ran.stdout
    );
}

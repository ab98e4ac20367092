//! Installed S-L1: the release archive ci/package makes works where it is
//! unpacked (its driver takes the plugin from ../lib, its CMake package finds
//! the same plugin), a driver copied out of its build tree (as `cargo install`
//! copies it) finds the plugin its build made, and the binaries print their
//! version and shell completions.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn nvcc() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
}

/// The folder cargo built this test's binaries and the plugin into.
fn profile_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_sl1-driver"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn every_binary_prints_its_version() {
    let driver_version = run_ok(driver().arg("--version"));
    assert_eq!(driver_version.stdout, format!("sl1-driver {VERSION}\n"));
    let build_version = run_ok(driver().args(["build", "--version"]));
    assert!(
        build_version.stdout.contains(VERSION),
        "{}",
        build_version.stdout
    );
    let nvcc_version = run_ok(nvcc().arg("--version"));
    assert!(
        nvcc_version
            .stdout
            .starts_with(&format!("sl1-nvcc {VERSION} ")),
        "{}",
        nvcc_version.stdout
    );
}

#[test]
fn completions_name_the_subcommands_and_options() {
    let bash = run_ok(driver().args(["completions", "bash"]));
    for word in [
        "sl1-driver",
        "build",
        "doctor",
        "probe",
        "completions",
        "--emit",
        "--line-buffer",
    ] {
        assert!(bash.stdout.contains(word), "no {word} in:\n{}", bash.stdout);
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let script = run_ok(driver().args(["completions", shell]));
        assert!(
            script.stdout.contains("completions") && script.stdout.contains("--emit"),
            "{shell}:\n{}",
            script.stdout
        );
    }
    let unknown = run(driver().args(["completions", "tcsh"]));
    assert_eq!(unknown.code, Some(2), "{}", unknown.stderr);
    assert!(
        unknown.stderr.contains("possible values"),
        "{}",
        unknown.stderr
    );
}

#[test]
fn a_driver_copied_out_of_its_build_tree_finds_the_plugin_its_build_made() {
    // `cargo install --path driver` copies the driver into ~/.cargo/bin; the
    // plugin, a cdylib dependency, stays in the build tree's deps/.
    let dir = tempfile::tempdir().unwrap();
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    let driver = bin.join("sl1-driver");
    std::fs::copy(env!("CARGO_BIN_EXE_sl1-driver"), &driver).unwrap();
    let plugin = profile_dir().join("deps/libsl1_pass.so");
    assert!(plugin.is_file(), "{} missing", plugin.display());

    let doctor = run_ok(Command::new(&driver).arg("doctor").env_remove("SL1_PLUGIN"));
    assert!(
        doctor
            .stdout
            .lines()
            .any(|l| l.starts_with("ok") && l.contains(&plugin.display().to_string())),
        "{}",
        doctor.stdout
    );
    let ptx = dir.path().join("upper.ptx");
    run_ok(
        Command::new(&driver)
            .current_dir(repo())
            .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "-o"])
            .arg(&ptx)
            .env_remove("SL1_PLUGIN"),
    );
    assert_ptxas_accepts(&ptx);
}

#[test]
fn the_release_archive_builds_programs_and_the_cmake_example_with_its_plugin() {
    let dir = tempfile::tempdir().unwrap();
    let packaged = run_ok(
        Command::new(repo().join("ci/package"))
            .arg("--from")
            .arg(profile_dir())
            .arg("--out")
            .arg(dir.path()),
    );
    let name = format!("sl1-{VERSION}-linux-{}", std::env::consts::ARCH);
    let archive = dir.path().join(format!("{name}.tar.gz"));
    assert_eq!(packaged.stdout.trim(), archive.display().to_string());

    let unpacked = dir.path().join("unpacked");
    std::fs::create_dir(&unpacked).unwrap();
    run_ok(
        Command::new("tar")
            .arg("-xzf")
            .arg(&archive)
            .arg("-C")
            .arg(&unpacked),
    );
    let prefix = unpacked.join(&name);
    for file in [
        "bin/sl1-driver",
        "bin/sl1-nvcc",
        "lib/libsl1_pass.so",
        // ci/test builds the plugin for clang 19 before the tests.
        "lib/libsl1_pass-19.so",
        "lib/cmake/SL1/SL1Config.cmake",
        "lib/cmake/SL1/SL1ConfigVersion.cmake",
        "lib/cmake/SL1/launches.c",
        "share/bash-completion/completions/sl1-driver",
        "share/zsh/site-functions/_sl1-driver",
        "share/fish/vendor_completions.d/sl1-driver.fish",
        "share/doc/sl1/README.md",
        "share/doc/sl1/cmake.md",
    ] {
        assert!(prefix.join(file).is_file(), "{file} not in the archive");
    }

    // The unpacked driver builds with the plugin in ../lib, from any folder.
    let plugin = prefix.join("bin/../lib/libsl1_pass.so");
    let ptx = dir.path().join("upper.ptx");
    let built = run_ok(
        Command::new(prefix.join("bin/sl1-driver"))
            .current_dir(dir.path())
            .arg("build")
            .arg(testdata("cu/upper.cu"))
            .args(["--emit", "ptx", "-v", "-o"])
            .arg(&ptx)
            .env_remove("SL1_PLUGIN")
            .env("CUDA_PATH", cuda_path()),
    );
    assert!(
        built
            .stderr
            .contains(&format!("-fpass-plugin={}", plugin.display())),
        "{}",
        built.stderr
    );
    assert_ptxas_accepts(&ptx);
    let nvcc_ptx = dir.path().join("caesar.ptx");
    run_ok(
        Command::new(prefix.join("bin/sl1-nvcc"))
            .current_dir(dir.path())
            .args(["--ptx", "-arch=sm_90"])
            .arg(repo().join("examples/cmake/caesar.cu"))
            .arg("-o")
            .arg(&nvcc_ptx)
            .env_remove("SL1_PLUGIN")
            .env("CUDA_PATH", cuda_path()),
    );
    assert_ptxas_accepts(&nvcc_ptx);

    // CMake finds the package under the prefix, and the package its plugin.
    let cuda = cuda_for_cmake(dir.path());
    let build = dir.path().join("example");
    run_ok(
        cmake_configure(&repo().join("examples/cmake"), &build, &cuda)
            .arg(format!("-DCMAKE_PREFIX_PATH={}", prefix.display())),
    );
    let cmake_built = cmake_build(&build);
    assert!(
        cmake_built.stdout.contains(&format!(
            "-fpass-plugin={}",
            prefix.join("lib/libsl1_pass.so").display()
        )),
        "{}",
        cmake_built.stdout
    );
    let report = read_report(&build.join("sl1/caesar/caesar.cu.json"));
    assert!(report.transformed);
}

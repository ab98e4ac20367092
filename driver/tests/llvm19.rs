//! The plugin built against LLVM 19 (`ci/build-plugins`, run by ci/test
//! before the tests): the driver picks it for clang 19, the ten apps build
//! through it to PTX that ptxas accepts with the decisions LLVM 22's build
//! makes, and a plugin of the wrong LLVM is refused before clang loads it.

mod common;

use std::path::PathBuf;

use common::*;

/// `libsl1_pass-19.so` beside the driver's own plugin.
fn plugin_19() -> PathBuf {
    let plugin = plugin().with_file_name("libsl1_pass-19.so");
    assert!(
        plugin.is_file(),
        "{} missing: run `bash ci/build-plugins dev` (ci/test does)",
        plugin.display()
    );
    plugin
}

fn clang_19() -> PathBuf {
    which::which("clang++-19").expect("clang++-19 not on PATH: run ci/setup")
}

/// (kernel, transformed, loops sliced, accesses through the cache) of a report.
fn decisions(report: &sl1_pass::Report) -> Vec<(String, bool, usize, usize)> {
    report
        .kernels
        .iter()
        .map(|k| {
            let t = &k.transform;
            (
                k.name.clone(),
                t.applied,
                t.loops_sliced.len(),
                t.accesses_cached,
            )
        })
        .collect()
}

#[test]
fn the_apps_build_under_clang_19_as_under_clang_22() {
    plugin_19();
    let dir = tempfile::tempdir().unwrap();
    let mut transformed = 0;
    for app in std::fs::read_dir(testdata("apps")).unwrap() {
        let app = app.unwrap().file_name().to_string_lossy().into_owned();
        let source = testdata(&format!("apps/{app}/{app}.cu"));
        let flags = std::fs::read_to_string(testdata(&format!("apps/{app}/driver-flags")))
            .unwrap_or_default();
        let build = |llvm: &str, clang: Option<PathBuf>| {
            let out = dir.path().join(format!("{app}.{llvm}.cubin"));
            let report = dir.path().join(format!("{app}.{llvm}.json"));
            let mut cmd = driver();
            cmd.arg("build")
                .arg(&source)
                .args(["--emit", "cubin"])
                .args(flags.split_whitespace())
                .arg("-o")
                .arg(&out)
                .arg("--report")
                .arg(&report);
            if let Some(clang) = clang {
                cmd.arg("--clang").arg(clang);
            }
            run_ok(&mut cmd);
            assert!(out.is_file(), "{app}: no cubin from LLVM {llvm}");
            read_report(&report)
        };
        let r19 = build("19", Some(clang_19()));
        let r22 = build("22", None);
        assert_eq!(decisions(&r19), decisions(&r22), "{app}");
        transformed += decisions(&r19).iter().filter(|d| d.1).count();
    }
    assert!(
        transformed >= 3,
        "too few kernels transformed: {transformed}"
    );
}

#[test]
fn a_program_with_launch_sized_lines_links_under_clang_19() {
    plugin_19();
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    let report = dir.path().join("upper.json");
    run_ok(
        driver()
            .args(["build", "testdata/cu/upper.cu", "--clang"])
            .arg(clang_19())
            .arg("-o")
            .arg(&exe)
            .arg("--report")
            .arg(&report),
    );
    assert!(exe.is_file());
    let report = read_report(&report);
    assert!(report.kernels.iter().any(|k| k.transform.applied));
}

/// The raw clang line under clang 19 (docs/install.md): the plugin loaded
/// before the command line is read too (clang 19 knows `-mllvm -sl1-*` only
/// then), and a whole executable with ci/setup's CUDA layout, whose
/// `fatbinary` takes clang 19's `--image=profile=...` (CUDA 13's own
/// fatbinary no longer does).
#[test]
fn the_raw_clang_19_line_builds_an_executable() {
    let plugin = plugin_19();
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    let report = dir.path().join("upper.json");
    run_ok(
        readme_clang(&clang_19(), &plugin, "testdata/cu/upper.cu")
            .args(["-Xclang", "-load", "-Xclang"])
            .arg(&plugin)
            .arg("-mllvm")
            .arg(format!("-sl1-report={}", report.display()))
            .args(cudart_static_link())
            .arg("-o")
            .arg(&exe),
    );
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");
    let report = read_report(&report);
    assert!(report.target.starts_with("nvptx64"), "{}", report.target);
    assert!(report.kernels.iter().any(|k| k.transform.applied));
}

#[test]
fn a_plugin_built_for_another_llvm_is_refused() {
    plugin_19();
    let out = run(driver()
        .args(["build", "testdata/cu/upper.cu", "--emit", "ptx", "--clang"])
        .arg(clang_19())
        .arg("--plugin")
        .arg(plugin())
        .args(["-o", "/dev/null"]));
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    for part in ["built for LLVM 22", "clang 19", "libsl1_pass-19.so"] {
        assert!(out.stderr.contains(part), "{part}: {}", out.stderr);
    }
}

#[test]
fn doctor_lists_each_llvm_with_its_clang_and_plugin() {
    plugin_19();
    let out = run_ok(driver().arg("doctor"));
    for major in ["LLVM 19", "LLVM 22"] {
        assert!(
            out.stdout
                .lines()
                .any(|l| l.starts_with("ok") && l.contains(major)),
            "{major}:\n{}",
            out.stdout
        );
    }
}

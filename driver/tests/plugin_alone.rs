//! The plugin from the README's raw clang line decides and compiles as
//! `sl1-driver build` does: the same defaults (device tuning and its LLVM
//! options, no jump tables), so the same PTX, the same decisions and the
//! same argument names. Clang drops value names before any pass plugin is
//! loaded unless given `-fno-discard-value-names` (which the driver gives);
//! the plugin then reads the arguments' names from the kernel's source, and
//! only blocks keep numbers (`bb2` for `for.body`).

mod common;

use std::path::Path;
use std::process::Command;

use common::{clang, driver, plugin, read_report, readme_clang, run_ok};

/// PTX without its comments (block names, loop depths) and blank lines.
fn code(ptx: &Path) -> Vec<String> {
    std::fs::read_to_string(ptx)
        .unwrap()
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim_end().to_string())
        .filter(|l| !l.is_empty())
        .collect()
}

/// Each kernel's name, whether S-L1 transformed it, the kinds of the
/// reasons it gives and its launch bytes: what a decision is, without the
/// names of values and blocks.
fn decisions(report: &Path) -> Vec<(String, bool, Vec<String>, String)> {
    let report = read_report(report);
    report
        .kernels
        .iter()
        .map(|k| {
            let kinds = serde_json::to_value(&k.transform.reasons)
                .unwrap()
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r["kind"].to_string())
                .collect();
            (
                k.name.clone(),
                k.transform.applied,
                kinds,
                format!("{:?}", k.transform.launch_bytes),
            )
        })
        .collect()
}

/// Each kernel's name and the names of its data structures (arguments).
fn argument_names(report: &Path) -> Vec<(String, Vec<String>)> {
    read_report(report)
        .kernels
        .iter()
        .map(|k| {
            let names = k
                .data_structures
                .iter()
                .map(|d| d.argument.clone())
                .collect();
            (k.name.clone(), names)
        })
        .collect()
}

/// The README's line, device code only, with `extra` after it.
fn raw_clang(source: &str, ptx: &Path, report: &Path, extra: &[&str]) -> Command {
    let mut cmd = readme_clang(&clang(), &plugin(), source);
    cmd.args(["--cuda-device-only", "-S", "-mllvm"])
        .arg(format!("-sl1-report={}", report.display()))
        .args(extra)
        .arg("-o")
        .arg(ptx);
    cmd
}

#[test]
fn the_plugin_alone_builds_what_the_driver_builds() {
    let dir = tempfile::tempdir().unwrap();
    // The README's kernels, the read-only float loop the vector loads take,
    // a transform of every kind (patterns.cu), a non-restrict matrix-vector
    // product with run-time alias checks, a sparse product, a dense switch.
    let sources = [
        "testdata/cu/upper.cu",
        "testdata/cu/wc.cu",
        "testdata/cu/float_bytes.cu",
        "testdata/cu/patterns.cu",
        "testdata/cu/switch_table.cu",
        "testdata/apps/kmeans/kmeans.cu",
        "testdata/harm/lut/lut.cu",
        "testdata/harm/mv_rows/mv_rows.cu",
        "testdata/harm/spmv_csr/spmv_csr.cu",
    ];
    for source in sources {
        let stem = Path::new(source).file_stem().unwrap().to_string_lossy();
        let (raw_ptx, raw_report) = (
            dir.path().join(format!("{stem}.raw.ptx")),
            dir.path().join(format!("{stem}.raw.json")),
        );
        let (driver_ptx, driver_report) = (
            dir.path().join(format!("{stem}.ptx")),
            dir.path().join(format!("{stem}.json")),
        );
        run_ok(&mut raw_clang(source, &raw_ptx, &raw_report, &[]));
        run_ok(
            driver()
                .args(["build", source, "--emit", "ptx", "-o"])
                .arg(&driver_ptx)
                .arg("--report")
                .arg(&driver_report),
        );
        assert!(
            code(&raw_ptx) == code(&driver_ptx),
            "{source}: the raw clang line's PTX differs from sl1-driver's"
        );
        assert_eq!(
            decisions(&raw_report),
            decisions(&driver_report),
            "{source}"
        );
        assert_eq!(
            argument_names(&raw_report),
            argument_names(&driver_report),
            "{source}: the raw clang line's report names the arguments otherwise"
        );
    }
}

#[test]
fn the_plugin_s_defaults_give_way_to_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let (ptx, report) = (dir.path().join("s.ptx"), dir.path().join("s.json"));
    let source = "testdata/cu/switch_table.cu";
    let jump_tables = |extra: &[&str]| {
        run_ok(&mut raw_clang(source, &ptx, &report, extra));
        std::fs::read_to_string(&ptx).unwrap().contains("brx.idx")
    };
    assert!(
        !jump_tables(&[]),
        "no jump tables by default, as the driver"
    );
    assert!(jump_tables(&["-mllvm", "-sl1-jump-tables"]));
    // Device tuning off: the report says no device rewrites ran.
    run_ok(&mut raw_clang(
        "testdata/cu/upper.cu",
        &ptx,
        &report,
        &["-mllvm", "-sl1-device-tuning=false"],
    ));
    assert!(read_report(&report).device_rewrites.is_none());
    run_ok(&mut raw_clang("testdata/cu/upper.cu", &ptx, &report, &[]));
    assert!(read_report(&report).device_rewrites.is_some());
}

//! The probe's embedded PTX off the GPU: ptxas (from `ci/setup`'s
//! `.toolchain/cuda`) assembles it for sm_80 and sm_90 without spills, and
//! every timed access of the chase kernels sits between two clock reads with
//! the intended load instruction. Without ptxas the test fails: CI has it.

use std::path::PathBuf;
use std::process::Command;

use sl1_probe::kernels::{KERNEL_NAMES, PROBE_PTX};

fn ptxas() -> PathBuf {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../.toolchain/cuda/bin/ptxas");
    assert!(
        path.is_file(),
        "ptxas not found at {}: run ci/setup (it assembles .toolchain/cuda)",
        path.display()
    );
    path
}

/// Runs `ptxas -arch=<arch> -v` on the embedded PTX; returns its report.
fn assemble(arch: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("probe.ptx");
    std::fs::write(&ptx, PROBE_PTX).unwrap();
    let out = Command::new(ptxas())
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg("-o")
        .arg(dir.path().join("probe.cubin"))
        .arg(&ptx)
        .output()
        .unwrap();
    let report = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.status.success(),
        "ptxas -arch={arch} rejected the probe PTX:\n{report}"
    );
    report
}

fn check_report(arch: &str) {
    let report = assemble(arch);
    for name in KERNEL_NAMES {
        assert!(
            report.contains(&format!("Compiling entry function '{name}' for '{arch}'")),
            "{name} not assembled for {arch}:\n{report}"
        );
    }
    // A spill would put local-memory traffic into the measurements.
    assert!(
        !report.lines().any(
            |l| l.contains("spill") && !l.contains("0 bytes spill stores, 0 bytes spill loads")
        ),
        "spills:\n{report}"
    );
    assert!(!report.contains("warning"), "ptxas warned:\n{report}");
}

#[test]
fn ptxas_accepts_the_probe_ptx_for_sm_90() {
    check_report("sm_90");
}

#[test]
fn ptxas_accepts_the_probe_ptx_for_sm_80() {
    check_report("sm_80");
}

/// The body of `.entry name(` up to its closing brace.
fn kernel_body(name: &str) -> &'static str {
    let start = PROBE_PTX
        .find(&format!(".entry {name}("))
        .unwrap_or_else(|| panic!("{name} missing from the PTX"));
    let rest = &PROBE_PTX[start..];
    let end = rest.find("\n}").expect("end of kernel");
    &rest[..end]
}

/// The instructions of a kernel, comments and labels left out.
fn instructions(name: &str) -> Vec<&'static str> {
    kernel_body(name)
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("//") && !l.ends_with(':'))
        .collect()
}

#[test]
fn timed_chase_accesses_sit_between_clock_reads() {
    for (kernel, load) in [
        ("probe_chase_ca", "ld.global.ca.u32"),
        ("probe_chase_cg", "ld.global.cg.u32"),
        ("probe_chase_nc", "ld.global.nc.u32"),
        ("probe_chase_shared", "ld.volatile.shared.u32"),
    ] {
        let body = instructions(kernel);
        let clocks: Vec<usize> = (0..body.len())
            .filter(|&i| body[i].contains("%clock"))
            .collect();
        // One timed access: two clock reads, between them the load, the
        // store of its value to shared memory, and nothing else that
        // touches memory or branches.
        assert_eq!(clocks.len(), 2, "{kernel}: {clocks:?}");
        let timed = &body[clocks[0] + 1..clocks[1]];
        let loads: Vec<&&str> = timed.iter().filter(|l| l.starts_with("ld.")).collect();
        assert_eq!(loads.len(), 1, "{kernel}: {timed:#?}");
        assert!(loads[0].starts_with(load), "{kernel}: {timed:#?}");
        let stores: Vec<&&str> = timed.iter().filter(|l| l.starts_with("st.")).collect();
        assert_eq!(stores.len(), 1, "{kernel}: {timed:#?}");
        assert!(stores[0].starts_with("st.shared"), "{kernel}: {timed:#?}");
        // The stored value is the loaded one (the dependency that makes the
        // second clock wait).
        let loaded = loads[0]
            .split_whitespace()
            .nth(1)
            .unwrap()
            .trim_end_matches(',');
        assert!(
            stores[0].ends_with(&format!("{loaded};")),
            "{kernel}: {timed:#?}"
        );
        assert!(
            !timed
                .iter()
                .any(|l| l.contains("bra") || l.starts_with('@')),
            "{kernel}"
        );
        // The warm-up uses the same load, and it is the only other load of
        // the array.
        assert_eq!(
            body.iter().filter(|l| l.starts_with(load)).count(),
            2,
            "{kernel}"
        );
    }
}

#[test]
fn shared_stride_chains_64_dependent_loads_between_clock_reads() {
    for (kernel, load) in [
        ("probe_shared_stride_u32", "ld.volatile.shared.u32"),
        ("probe_shared_stride_u64", "ld.volatile.shared.u64"),
    ] {
        let body = instructions(kernel);
        let clocks: Vec<usize> = (0..body.len())
            .filter(|&i| body[i].contains("%clock"))
            .collect();
        assert_eq!(clocks.len(), 2, "{kernel}");
        let timed = &body[clocks[0] + 1..clocks[1]];
        assert_eq!(
            timed.iter().filter(|l| l.starts_with(load)).count(),
            64,
            "{kernel}"
        );
        assert!(
            !timed
                .iter()
                .any(|l| l.starts_with("st.") || l.contains("bra")),
            "{kernel}"
        );
    }
}

#[test]
fn throughput_kernels_use_the_intended_loads() {
    let global = instructions("probe_throughput_global");
    assert!(
        global
            .iter()
            .filter(|l| l.starts_with("ld.global.cg.u32"))
            .count()
            >= 5
    );
    assert!(!global
        .iter()
        .any(|l| l.starts_with("ld.global.ca") || l.starts_with("ld.global.nc")));
    let shared = instructions("probe_throughput_shared");
    assert!(
        shared
            .iter()
            .filter(|l| l.starts_with("ld.volatile.shared.u32"))
            .count()
            >= 5
    );
}

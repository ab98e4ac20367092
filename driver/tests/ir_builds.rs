//! The in-process IR path: every .ll case to PTX (accepted by ptxas), and each
//! --emit kind.

mod common;

use common::*;
use sl1_pass::tuning::Rewrite;

#[test]
fn every_ll_case_builds_to_ptx_that_ptxas_accepts() {
    let dir = tempfile::tempdir().unwrap();
    // The `.ll` files alone: `ll/device/` holds the FileCheck cases of the
    // device rewrites (pass/tests/filecheck.rs).
    let mut cases: Vec<_> = std::fs::read_dir(testdata("ll"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ll"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 8);
    for case in cases {
        let ptx = dir
            .path()
            .join(case.file_stem().unwrap())
            .with_extension("ptx");
        run_ok(driver().args(["build"]).arg(&case).arg("-o").arg(&ptx));
        let text = std::fs::read_to_string(&ptx).unwrap();
        assert!(text.contains(".target sm_90"), "{}", case.display());
        assert!(
            text.contains(".entry"),
            "{}: no kernel entry",
            case.display()
        );
        assert_ptxas_accepts(&ptx);
    }
}

#[test]
fn ir_emits_ll_bc_and_cubin() {
    let dir = tempfile::tempdir().unwrap();
    let input = testdata("ll/restrict_loop.ll");
    for (emit, check) in [
        ("ll", b"target triple = \"nvptx64".as_slice()),
        ("bc", b"BC\xc0\xde".as_slice()),
        ("cubin", b"\x7fELF".as_slice()),
    ] {
        let out = dir.path().join(format!("k.{emit}"));
        run_ok(
            driver()
                .args(["build", "--emit", emit])
                .arg(&input)
                .arg("-o")
                .arg(&out)
                .arg(format!("--cuda-path={}", cuda_path().display())),
        );
        let bytes = std::fs::read(&out).unwrap();
        assert!(
            bytes.windows(check.len()).any(|w| w == check),
            "--emit {emit} wrote something else"
        );
    }
}

#[test]
fn ir_report_is_written_and_printed() {
    let dir = tempfile::tempdir().unwrap();
    let report = dir.path().join("r.json");
    let out = run_ok(
        driver()
            .args(["build", "--print-report", "-O2"])
            .arg(testdata("ll/nested_loops.ll"))
            .arg("-o")
            .arg(dir.path().join("k.ptx"))
            .arg("--report")
            .arg(&report),
    );
    assert!(
        out.stderr.contains("loop at dot (depth 2, inside cols)"),
        "{}",
        out.stderr
    );
    let report = read_report(&report);
    assert_eq!(report.kernels[0].name, "matmul");
    assert_eq!(report.kernels[0].loops.len(), 2);
}

/// A kernel as a front end other than clang may write it: no "target-cpu"
/// attribute. Its add to one address (the same for the whole warp, its
/// result unused) is what the device tuning makes once per warp from sm_80.
const NO_TARGET_CPU: &str = r#"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @count(ptr %totals, i64 %n) {
entry:
  %a0 = atomicrmw add ptr %totals, i64 %n monotonic, align 8
  ret void
}
"#;

/// The driver names the --arch it builds for on functions without a
/// target-cpu, as clang's --cuda-gpu-arch does, so that the device tuning
/// sees IR inputs as it sees clang's modules.
#[test]
fn ir_without_a_target_cpu_is_tuned_for_the_arch_it_is_built_for() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("count.ll");
    std::fs::write(&input, NO_TARGET_CPU).unwrap();
    let warp_atomics = |arch: &str| {
        let report = dir.path().join(format!("{arch}.json"));
        run_ok(
            driver()
                .args(["build", "--arch", arch])
                .arg(&input)
                .arg("-o")
                .arg(dir.path().join(format!("{arch}.ptx")))
                .arg("--report")
                .arg(&report),
        );
        read_report(&report)
            .device_rewrites
            .unwrap()
            .count(Rewrite::WarpAtomics)
    };
    assert_eq!(warp_atomics("sm_90"), 1);
    assert_eq!(warp_atomics("sm_70"), 0);
}

#[test]
fn bitcode_input_builds() {
    let dir = tempfile::tempdir().unwrap();
    let bc = dir.path().join("k.bc");
    run_ok(
        driver()
            .args(["build", "--emit", "bc"])
            .arg(testdata("ll/restrict_loop.ll"))
            .arg("-o")
            .arg(&bc),
    );
    let ptx = dir.path().join("k.ptx");
    run_ok(driver().arg("build").arg(&bc).arg("-o").arg(&ptx));
    assert_ptxas_accepts(&ptx);
}

#[test]
fn force_uncached_keeps_the_code_but_never_uses_shared_memory() {
    let dir = tempfile::tempdir().unwrap();
    let build = |extra: &[&str], out: &str| restrict_loop_ptx(dir.path(), extra, out);
    let cached = build(&[], "cached.ptx");
    let off = build(&["--force-uncached"], "off.ptx");
    assert!(cached.contains("ld.shared") && cached.contains("st.shared"));
    assert!(
        !off.contains("ld.shared") && !off.contains("st.shared"),
        "{off}"
    );
    // The monitoring slice is still there: its exit compares the access count.
    assert!(off.lines().count() > build(&["--no-sl1"], "plain.ptx").lines().count());
}

#[test]
fn a_transformed_module_is_not_transformed_again() {
    let dir = tempfile::tempdir().unwrap();
    let once = dir.path().join("once.ll");
    run_ok(
        driver()
            .args(["build", "--emit", "ll"])
            .arg(testdata("ll/restrict_loop.ll"))
            .arg("-o")
            .arg(&once),
    );
    let twice = dir.path().join("twice.ll");
    let out = run_ok(
        driver()
            .args(["build", "--emit", "ll", "--print-report"])
            .arg(&once)
            .arg("-o")
            .arg(&twice),
    );
    assert!(
        out.stderr.contains("already transformed by S-L1"),
        "{}",
        out.stderr
    );
    let text = std::fs::read_to_string(&twice).unwrap();
    let buffers = text
        .lines()
        .filter(|l| l.starts_with("@sl1.lines."))
        .count();
    assert_eq!(buffers, 1, "{text}");
}

#[test]
fn prefetch_adds_an_l2_prefetch_to_fills_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let build = |extra: &[&str], out: &str| restrict_loop_ptx(dir.path(), extra, out);
    let plain = build(&[], "plain.ptx");
    let prefetching = build(&["--prefetch"], "prefetch.ptx");
    assert!(!plain.contains("prefetch.global.L2"), "{plain}");
    assert!(prefetching.contains("prefetch.global.L2"), "{prefetching}");
}

/// PTX of `testdata/ll/restrict_loop.ll` built with `extra` options into
/// `dir/out`.
fn restrict_loop_ptx(dir: &std::path::Path, extra: &[&str], out: &str) -> String {
    let ptx = dir.join(out);
    run_ok(
        driver()
            .arg("build")
            .arg(testdata("ll/restrict_loop.ll"))
            .args(extra)
            .arg("-o")
            .arg(&ptx),
    );
    std::fs::read_to_string(&ptx).unwrap()
}

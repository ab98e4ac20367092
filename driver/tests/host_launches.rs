//! Issue 57, off the GPU: every launch of a kernel with a launch-sized line
//! buffer gives it its bytes, however the host code is written. The device
//! compile's report names the kernel's `launch_bytes`; the host compile with
//! the plugin then computes each launch's block size (`%sl1.dim3`) for
//! every `cudaLaunchKernel` site it rewrites. A `main` owning C++ objects
//! launched through an `invoke`, which the host pass skipped: the kernel ran
//! without lines, silently (H200, 2026-11-28).

mod common;

use common::{clang, cuda_path, driver, plugin, run_ok, testdata};

#[test]
fn every_launch_of_a_kernel_with_lines_is_sized_whoever_makes_it() {
    let dir = tempfile::tempdir().unwrap();
    let source = testdata("host/raii_launches.cu");
    let report = dir.path().join("report.json");
    run_ok(
        driver()
            .args([
                "build",
                "--emit",
                "ptx",
                "--line-buffer",
                "launch",
                "--report",
            ])
            .arg(&report)
            .arg("-o")
            .arg(dir.path().join("device.ptx"))
            .arg(&source),
    );
    let text = std::fs::read_to_string(&report).unwrap();
    assert!(text.contains("\"launch_bytes\""), "{text}");
    // The host compile as the driver runs it, printing IR (the device image
    // does not matter to the launches).
    let fatbin = dir.path().join("empty.fatbin");
    std::fs::write(&fatbin, b"").unwrap();
    let host = dir.path().join("host.ll");
    run_ok(
        std::process::Command::new(clang())
            .args(["-x", "cuda", "--cuda-gpu-arch=sm_90", "-O3", "-std=c++17"])
            .arg(format!("--cuda-path={}", cuda_path().display()))
            .args(["--no-offload-new-driver", "-Wno-unknown-cuda-version"])
            .args(["--cuda-host-only", "-fno-discard-value-names"])
            .arg(format!("-fpass-plugin={}", plugin().display()))
            .arg("-mllvm")
            .arg(format!("-sl1-launch-report={}", report.display()))
            .args(["-Xclang", "-fcuda-include-gpubinary", "-Xclang"])
            .arg(&fatbin)
            .args(["-S", "-emit-llvm", "-o"])
            .arg(&host)
            .arg(&source),
    );
    let ir = std::fs::read_to_string(&host).unwrap();
    let lines: Vec<&str> = ir.lines().collect();
    let sites: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].contains("call ") || lines[i].contains("invoke "))
        .filter(|&i| lines[i].contains("@cudaLaunchKernel(ptr"))
        .collect();
    assert!(sites.len() >= 5, "{} launch sites:\n{ir}", sites.len());
    assert!(
        sites.iter().any(|&i| lines[i].contains("invoke ")),
        "no invoke launch:\n{ir}"
    );
    for i in sites {
        // The dynamic shared bytes, the seventh argument: what the launch
        // gave, raised to its block's lines (`umax`), defined above the
        // launch in its function.
        let args = lines[i].split("@cudaLaunchKernel(").nth(1).unwrap();
        let shared = args.split(", ").nth(6).unwrap();
        let value = shared.rsplit(' ').next().unwrap();
        let definition = lines[..i]
            .iter()
            .rev()
            .take_while(|l| !l.starts_with("define "))
            .find(|l| l.trim_start().starts_with(&format!("{value} = ")))
            .unwrap_or_else(|| panic!("{value} not defined above {}:\n{ir}", lines[i]));
        assert!(
            definition.contains("umax"),
            "a launch without its block's bytes: {}\n{definition}",
            lines[i]
        );
    }
}

//! Issue 57, off the GPU: every launch of a kernel with a launch-sized line
//! buffer gives it its bytes, however the host code is written. The device
//! compile's report names the kernel's `launch_bytes`; the host compile with
//! the plugin then computes each launch's block size (`%sl1.dim3`) for
//! every `cudaLaunchKernel` site it rewrites. A `main` owning C++ objects
//! launched through an `invoke`, which the host pass skipped: the kernel ran
//! without lines, silently (H200, 2026-11-28).

mod common;

use common::{clang, cuda_path, driver, fake_cudart, plugin, run_ok, testdata};

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
        // gave, raised to its block's lines (`umax`) by the module's sizer
        // (inlined or called), defined above the launch in its function.
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
            definition.contains("umax") || definition.contains("@sl1.size_launch("),
            "a launch without its block's bytes: {}\n{definition}",
            lines[i]
        );
    }
}

/// Runs `exe` with `SL1_LAUNCHES=1`: each launch's kind and shared bytes,
/// and what the S-L1 runtime printed at exit.
fn launches_of(exe: &std::path::Path) -> (Vec<String>, String) {
    let out = run_ok(std::process::Command::new(exe).env("SL1_LAUNCHES", "1"));
    let launches = out
        .stdout
        .lines()
        .filter(|l| l.contains(" shared "))
        .map(str::to_string)
        .collect();
    (launches, out.stderr)
}

/// A kernel with lines launched from another file, through `<<<>>>` (the
/// other file's stub), `cudaLaunchKernel`, `cudaLaunchKernelEx` and
/// `cudaLaunchCooperativeKernel`, built in one command and through `-c`
/// then a link: every launch gets its block's lines (72 B a thread). Before
/// the runtime's wrappers only the `<<<>>>` launch did; the others gave the
/// kernel nothing, and it ran without lines, silently.
#[test]
fn launches_from_another_file_get_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    fake_cudart(dir.path());
    let kernel = testdata("host/two_files/kernel.cu");
    let launch = testdata("host/two_files/launch.cu");
    let expected = [
        "launch 128x1x1 shared 9216",
        "launch 256x1x1 shared 18432",
        "launch-ex 512x1x1 shared 36864",
        "cooperative 128x1x1 shared 9216",
    ];
    let link = |cmd: &mut std::process::Command, exe: &std::path::Path| {
        run_ok(
            cmd.arg("-o")
                .arg(exe)
                .arg("-L")
                .arg(dir.path())
                .args(["-l", "fake_cudart"]),
        );
    };
    // One command.
    let one = dir.path().join("one");
    link(driver().arg("build").arg(&kernel).arg(&launch), &one);
    // Each file with -c, then the objects linked.
    let objects: Vec<_> = [&kernel, &launch]
        .iter()
        .map(|source| {
            let object = dir
                .path()
                .join(source.file_stem().unwrap())
                .with_extension("o");
            run_ok(
                driver()
                    .args(["build", "-c", "-o"])
                    .arg(&object)
                    .arg(source),
            );
            object
        })
        .collect();
    let two = dir.path().join("two");
    link(driver().arg("build").args(&objects), &two);
    for exe in [one, two] {
        let (launches, stderr) = launches_of(&exe);
        assert_eq!(launches, expected, "{}\n{stderr}", exe.display());
        assert!(
            stderr.contains(
                "sl1: _Z5scalePfPKfyy: 4 launch(es) with lines, the last with 9216 B, \
                 3 sized by the runtime alone"
            ),
            "{stderr}"
        );
    }
}

/// The single-file layouts of `raii_launches.cu` (a `main` with C++ objects,
/// a lambda, a template, a wrapper owning a vector), as an executable.
#[test]
fn launches_in_cpp_functions_get_their_lines_in_the_executable() {
    let dir = tempfile::tempdir().unwrap();
    fake_cudart(dir.path());
    let exe = dir.path().join("raii");
    run_ok(
        driver()
            .arg("build")
            .arg(testdata("host/raii_launches.cu"))
            .arg("-o")
            .arg(&exe)
            .arg("-L")
            .arg(dir.path())
            .args(["-l", "fake_cudart"]),
    );
    let (launches, stderr) = launches_of(&exe);
    assert_eq!(
        launches,
        [
            "launch 256x1x1 shared 18432",
            "launch 512x1x1 shared 36864",
            "launch 64x1x1 shared 4608",
            "launch 128x1x1 shared 9216",
        ],
        "{stderr}"
    );
    // Each launch sized in its own file: none left to the wrappers.
    assert!(
        stderr.contains(
            "4 launch(es) with lines, the last with 9216 B, 0 sized by the runtime alone"
        ),
        "{stderr}"
    );
}

/// With the per-thread default stream (`sl1-nvcc --default-stream
/// per-thread`, which was an unknown option), the launches call the
/// runtime's `_ptsz` functions, which the S-L1 runtime wraps too.
#[test]
fn per_thread_default_stream_launches_get_their_lines() {
    let dir = tempfile::tempdir().unwrap();
    fake_cudart(dir.path());
    let exe = dir.path().join("ptsz");
    run_ok(
        std::process::Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"))
            .current_dir(common::repo())
            .args(["--default-stream", "per-thread"])
            .args([
                "testdata/host/two_files/kernel.cu",
                "testdata/host/two_files/launch.cu",
                "-o",
            ])
            .arg(&exe)
            .arg("-L")
            .arg(dir.path())
            .arg("-lfake_cudart"),
    );
    let (launches, stderr) = launches_of(&exe);
    assert_eq!(
        launches,
        [
            "launch 128x1x1 shared 9216",
            "launch 256x1x1 shared 18432",
            "launch-ex 512x1x1 shared 36864",
            "cooperative 128x1x1 shared 9216",
        ],
        "{stderr}"
    );
    // The program calls the _ptsz forms.
    let symbols = run_ok(std::process::Command::new("nm").arg(&exe)).stdout;
    assert!(
        symbols.contains("__wrap_cudaLaunchKernel_ptsz"),
        "{symbols}"
    );
}

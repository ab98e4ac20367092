//! `sl1-nvcc`: nvcc's command line, built by `sl1-driver build` with S-L1.
//! What users type out of habit builds, and today's CUDA C++ (thrust, CUB,
//! cooperative groups, templates, device lambdas) builds through it.

mod common;

use std::process::Command;

use common::*;

fn nvcc() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sl1-nvcc"));
    cmd.current_dir(repo());
    cmd
}

#[test]
fn nvcc_flags_build_a_program_of_several_sources() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("linked");
    let out = run_ok(
        nvcc()
            .args([
                "-arch=sm_90",
                "-O3",
                "-std=c++17",
                "--expt-relaxed-constexpr",
                "-Xcompiler",
                "-Wall",
                "-lineinfo",
                "testdata/cu/linked/kernels.cu",
                "testdata/cu/linked/main.cpp",
                "-o",
            ])
            .arg(&exe),
    );
    assert!(
        out.stderr
            .contains("`--expt-relaxed-constexpr` has no meaning here"),
        "{}",
        out.stderr
    );
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");

    // -c and --ptx as nvcc spells them.
    let object = dir.path().join("kernels.o");
    run_ok(
        nvcc()
            .args([
                "-c",
                "-arch",
                "sm_90",
                "testdata/cu/linked/kernels.cu",
                "-o",
            ])
            .arg(&object),
    );
    assert_eq!(&std::fs::read(&object).unwrap()[..4], b"\x7fELF");
    let ptx = dir.path().join("kernels.ptx");
    run_ok(
        nvcc()
            .args(["--ptx", "-gencode", "arch=compute_90,code=sm_90"])
            .arg("testdata/cu/linked/kernels.cu")
            .arg("-o")
            .arg(&ptx),
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(text.contains(".target sm_90"), "{text}");
}

#[test]
fn thrust_cub_cooperative_groups_and_lambdas_build() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("modern");
    run_ok(
        nvcc()
            .args([
                "-arch=sm_90",
                "--extended-lambda",
                "testdata/cu/modern.cu",
                "-o",
            ])
            .arg(&exe),
    );
    assert_eq!(&std::fs::read(&exe).unwrap()[..4], b"\x7fELF");
}

#[test]
fn what_sl1_nvcc_cannot_honour_fails_with_the_reason() {
    let out = nvcc()
        .args(["-rdc=true", "testdata/cu/linked/kernels.cu"])
        .output()
        .unwrap();
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("relocatable device code is not supported"),
        "{err}"
    );
    let version = run_ok(nvcc().arg("--version"));
    assert!(version.stdout.contains("sl1-nvcc"), "{}", version.stdout);
}

#[test]
fn sm_90a_builds_with_the_architecture_specific_features() {
    // `-arch=sm_90a` built plain sm_90 before, without
    // `__CUDA_ARCH_FEAT_SM90_ALL` (2026-11-28).
    let dir = tempfile::tempdir().unwrap();
    let source = dir.path().join("feat.cu");
    std::fs::write(
        &source,
        "#ifdef __CUDA_ARCH_FEAT_SM90_ALL\n\
         extern \"C\" __global__ void with_features(int *p) { p[threadIdx.x] = 1; }\n\
         #else\n\
         extern \"C\" __global__ void without_features(int *p) { p[threadIdx.x] = 2; }\n\
         #endif\n",
    )
    .unwrap();
    let ptx = dir.path().join("feat.ptx");
    run_ok(
        nvcc()
            .args(["-arch=sm_90a", "--ptx"])
            .arg(&source)
            .arg("-o")
            .arg(&ptx),
    );
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(text.contains(".target sm_90a"), "{text}");
    assert!(text.contains(".entry with_features"), "{text}");
}

#[test]
fn ptxas_options_reach_ptxas_and_show_resources_after_s_l1() {
    // `-Xptxas -v` was dropped as "ignored": users could not see a kernel's
    // registers and shared memory after S-L1 (2026-11-28).
    let dir = tempfile::tempdir().unwrap();
    let out = run_ok(
        nvcc()
            .args(["-arch=sm_90", "-Xptxas", "-v", "-cubin"])
            .arg(testdata("cu/upper.cu"))
            .arg("-o")
            .arg(dir.path().join("upper.cubin")),
    );
    assert!(out.stderr.contains("registers"), "{}", out.stderr);
    // The line buffer is the kernel's shared memory.
    assert!(out.stderr.contains("bytes smem"), "{}", out.stderr);
}

#[test]
fn an_unoptimised_device_compile_says_that_s_l1_needs_o1() {
    // S-L1 did nothing at -O0 and said only "no main loop" (2026-11-28).
    let dir = tempfile::tempdir().unwrap();
    let ptx = dir.path().join("upper.ptx");
    let out = run_ok(
        driver()
            .args(["build", "--emit", "ptx", "-O0"])
            .arg(testdata("cu/upper.cu"))
            .arg("-o")
            .arg(&ptx),
    );
    assert!(
        out.stderr
            .contains("S-L1 needs the device compile at -O1 or above"),
        "{}",
        out.stderr
    );
    // nvcc's -O0 is the host code's: the device code keeps its lines.
    let out = run_ok(
        nvcc()
            .args(["-arch=sm_90", "-O0", "--ptx"])
            .arg(testdata("cu/upper.cu"))
            .arg("-o")
            .arg(&ptx),
    );
    assert!(!out.stderr.contains("-O1 or above"), "{}", out.stderr);
    let text = std::fs::read_to_string(&ptx).unwrap();
    assert!(
        text.contains("sl1"),
        "no line buffer at sl1-nvcc -O0:\n{text}"
    );
}

/// `-c main.cpp` makes an object of a host source (it was refused as an
/// unsupported input), and `-x cu` compiles a .cpp as CUDA, with S-L1 (it
/// was ignored).
#[test]
fn host_sources_compile_alone_and_x_cu_makes_them_cuda() {
    let dir = tempfile::tempdir().unwrap();
    let host = dir.path().join("twice.cpp");
    std::fs::write(&host, "int twice(int x) { return 2 * x; }\n").unwrap();
    let object = dir.path().join("twice.o");
    run_ok(nvcc().arg("-c").arg(&host).arg("-o").arg(&object));
    assert_eq!(&std::fs::read(&object).unwrap()[..4], b"\x7fELF");
    // upper.cu copied to a .cpp and compiled as CUDA: the device compile
    // loads the plugin.
    let source = dir.path().join("upper.cpp");
    std::fs::copy(testdata("cu/upper.cu"), &source).unwrap();
    let built = run_ok(
        nvcc()
            .args(["-x", "cu", "-c", "-v", "-Itestdata/cu"])
            .arg(&source)
            .arg("-o")
            .arg(dir.path().join("upper.o")),
    );
    assert!(
        built
            .stderr
            .lines()
            .any(|l| l.contains("--cuda-device-only") && l.contains("upper.cpp")),
        "{}",
        built.stderr
    );
    let report = dir.path().join("upper.json");
    run_ok(
        driver()
            .args([
                "build",
                "-x",
                "cu",
                "-I",
                "testdata/cu",
                "--emit",
                "ptx",
                "--report",
            ])
            .arg(&report)
            .arg(&source)
            .arg("-o")
            .arg(dir.path().join("upper.ptx")),
    );
    let report = read_report(&report);
    assert!(
        report.kernels.iter().any(|k| k.transform.applied),
        "{:?}",
        report.kernels
    );
}

/// `-MD -MT -MF`, as CMake's and Make's rules pass them: the compile also
/// writes a dependency file naming the object and the headers (they were
/// unknown options); `-MMD` leaves the system headers out.
#[test]
fn dependency_files_are_written_with_the_compile() {
    let dir = tempfile::tempdir().unwrap();
    let object = dir.path().join("kernel.o");
    let deps = dir.path().join("kernel.o.d");
    run_ok(
        nvcc()
            .args(["-MD", "-MT", "objs/kernel.o", "-MF"])
            .arg(&deps)
            .args(["-c", "testdata/host/two_files/kernel.cu", "-o"])
            .arg(&object),
    );
    let text = std::fs::read_to_string(&deps).unwrap();
    assert!(text.starts_with("objs/kernel.o:"), "{text}");
    assert!(
        text.contains("kernel.cu") && text.contains("cuda_runtime.h"),
        "{text}"
    );
    // The driver's spelling, the file named after the output; user headers
    // only.
    run_ok(
        driver()
            .args([
                "build",
                "--deps",
                "user",
                "-c",
                "testdata/cu/upper.cu",
                "-I",
                "testdata/cu",
                "-o",
            ])
            .arg(dir.path().join("upper.o")),
    );
    let text = std::fs::read_to_string(dir.path().join("upper.d")).unwrap();
    assert!(text.contains("sl1_check.h"), "{text}");
    assert!(!text.contains("cuda_runtime.h"), "{text}");
}

/// `-Xlinker` reaches the link (it was ignored): an rpath given that way
/// is in the executable.
#[test]
fn linker_options_reach_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let exe = dir.path().join("upper");
    run_ok(
        nvcc()
            .args(["-Xlinker", "-rpath,/opt/sl1-rpath-test", "-Itestdata/cu"])
            .arg("testdata/cu/upper.cu")
            .arg("-o")
            .arg(&exe),
    );
    let dynamic = run_ok(Command::new("readelf").arg("-d").arg(&exe)).stdout;
    assert!(dynamic.contains("/opt/sl1-rpath-test"), "{dynamic}");
}

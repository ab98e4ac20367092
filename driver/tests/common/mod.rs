//! Paths and tools shared by the driver's integration tests. Every tool here is
//! required: CI installs all of them (ci/setup), so a missing one fails loudly.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

pub fn testdata(rel: &str) -> PathBuf {
    repo().join("testdata").join(rel)
}

pub fn driver() -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sl1-driver"));
    cmd.current_dir(repo());
    cmd
}

pub fn cuda_path() -> PathBuf {
    let path = std::env::var_os("CUDA_PATH")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".toolchain/cuda"));
    assert!(
        path.join("bin/ptxas").is_file(),
        "no CUDA installation at {}: run ci/setup",
        path.display()
    );
    path
}

/// The plugin cdylib built beside the driver (ci/test builds the workspace first).
pub fn plugin() -> PathBuf {
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_sl1-driver"));
    let plugin = exe.parent().unwrap().join("libsl1_pass.so");
    assert!(
        plugin.is_file(),
        "{} missing: run `cargo build --workspace` first",
        plugin.display()
    );
    plugin
}

pub fn clang() -> PathBuf {
    which::which("clang++-22").expect("clang++-22 not on PATH: run ci/setup")
}

/// The README's raw clang line for `source` (relative to the repository)
/// with `plugin` loaded, before its outputs: sm_90, -O3, the classic
/// offload path (it links with ld alone).
pub fn readme_clang(clang: &Path, plugin: &Path, source: &str) -> Command {
    let mut cmd = Command::new(clang);
    cmd.current_dir(repo())
        .args(["-x", "cuda", source, "--cuda-gpu-arch=sm_90", "-O3"])
        .arg(format!("--cuda-path={}", cuda_path().display()))
        .args(["-Wno-unknown-cuda-version", "--no-offload-new-driver"])
        .arg(format!("-fpass-plugin={}", plugin.display()));
    cmd
}

/// The README's link of an executable with the static CUDA runtime.
pub fn cudart_static_link() -> Vec<String> {
    let mut args = vec![format!("-L{}", cuda_path().join("lib64").display())];
    args.extend(["-lcudart_static", "-ldl", "-lrt", "-lpthread"].map(String::from));
    args
}

/// Asserts that ptxas accepts `ptx` for sm_90. At `-O0`: these tests ask
/// whether ptxas takes the PTX, not what code it makes, and `-O0` takes
/// about 60% of the time (62 PTX files of the apps and harm kernels: 13.9 s
/// against 22.4 s, 2026-11-29); what the GPU runs is assembled at the default.
pub fn assert_ptxas_accepts(ptx: &Path) {
    let out = Command::new(cuda_path().join("bin/ptxas"))
        .args(["-arch=sm_90", "-O0", "-o", "/dev/null"])
        .arg(ptx)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "ptxas rejected {}: {}",
        ptx.display(),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Output of a finished command, as text.
pub struct Outcome {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

pub fn run(cmd: &mut Command) -> Outcome {
    // A program a test has just copied can be busy for a moment: another
    // test thread's fork between the copy's open and its close holds the
    // file open for writing until that child execs (ETXTBSY).
    let mut tries = 0;
    let out = loop {
        match cmd.output() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            other => break other.expect("command starts"),
        }
    };
    Outcome {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

pub fn run_ok(cmd: &mut Command) -> Outcome {
    let outcome = run(cmd);
    assert_eq!(
        outcome.code,
        Some(0),
        "command failed: {cmd:?}\nstdout:\n{}\nstderr:\n{}",
        outcome.stdout,
        outcome.stderr
    );
    outcome
}

pub fn read_report(path: &Path) -> sl1_pass::Report {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

pub fn cmake() -> PathBuf {
    which::which("cmake").expect("cmake not on PATH: run ci/setup (installs cmake)")
}

/// A CUDA toolkit root that CMake accepts for clang: the tests' CUDA when it
/// has nvcc (a real toolkit), else one in `dir` (ci/cuda-for-cmake says why
/// the installation ci/setup assembles needs one).
pub fn cuda_for_cmake(dir: &Path) -> PathBuf {
    if cuda_path().join("bin/nvcc").is_file() {
        return cuda_path();
    }
    let root = dir.join("cuda");
    run_ok(
        Command::new(repo().join("ci/cuda-for-cmake"))
            .arg(&root)
            .arg(cuda_path()),
    );
    root
}

/// `cmake` configuring `source` into `build` with clang as the CUDA compiler
/// and the toolkit `cuda`; the caller says where the S-L1 package is.
pub fn cmake_configure(source: &Path, build: &Path, cuda: &Path) -> Command {
    let mut cmd = Command::new(cmake());
    cmd.arg("-S")
        .arg(source)
        .arg("-B")
        .arg(build)
        .arg(format!("-DCMAKE_CUDA_COMPILER={}", clang().display()))
        .arg("-DCMAKE_CUDA_FLAGS=--no-offload-new-driver -Wno-unknown-cuda-version")
        .arg(format!("-DCUDAToolkit_ROOT={}", cuda.display()))
        .arg("-DCMAKE_BUILD_TYPE=Release")
        .env_remove("SL1_PLUGIN")
        .env_remove("CUDAToolkit_ROOT");
    cmd
}

/// `cmake --build build --verbose`; returns what it printed.
pub fn cmake_build(build: &Path) -> Outcome {
    run_ok(
        Command::new(cmake())
            .arg("--build")
            .arg(build)
            .arg("--verbose"),
    )
}

/// Asserts that docs page `page` (under the repository) holds `made`
/// between its `begin` and `end` markers; with `SL1_UPDATE_DOCS` set,
/// writes it there instead. `test` names the test that does so.
pub fn assert_page_holds(page: &str, (begin, end): (&str, &str), made: &str, test: &str) {
    let path = repo().join(page);
    let text = std::fs::read_to_string(&path).unwrap();
    let (Some(start), Some(stop)) = (text.find(begin), text.find(end)) else {
        panic!("{} lacks the table's markers", path.display());
    };
    let current = &text[start + begin.len()..stop];
    if current == made {
        return;
    }
    if std::env::var_os("SL1_UPDATE_DOCS").is_some() {
        let updated = format!("{}{begin}{made}{}", &text[..start], &text[stop..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    panic!(
        "{page}'s table differs from what the code makes; run \
         SL1_UPDATE_DOCS=1 cargo test -p sl1-driver --test {test}\n--- page\n{current}\n--- made\n{made}"
    );
}

/// Builds `testdata/host/fake_cudart.c` into `dir/libfake_cudart.a`: a
/// stand-in CUDA runtime (`-L dir -l fake_cudart`) under which executables
/// run without a GPU and print the dynamic shared bytes of each launch.
pub fn fake_cudart(dir: &Path) {
    let object = dir.join("fake_cudart.o");
    run_ok(
        Command::new(clang())
            .args(["-x", "c", "-std=c11", "-O1", "-c", "-o"])
            .arg(&object)
            .arg(testdata("host/fake_cudart.c")),
    );
    run_ok(
        Command::new("ar")
            .arg("rcs")
            .arg(dir.join("libfake_cudart.a"))
            .arg(&object),
    );
}

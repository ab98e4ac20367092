//! CMake for the tests of the S-L1 CMake package (`cmake/`).

use std::path::{Path, PathBuf};
use std::process::Command;

use super::{clang, cuda_path, repo, run_ok};

pub fn cmake() -> PathBuf {
    which::which("cmake").expect("cmake not on PATH: run ci/setup (installs cmake)")
}

/// A CUDA toolkit root in `dir` that CMake accepts for clang (ci/cuda-for-cmake
/// says why the installation ci/setup assembles needs one).
pub fn cuda_for_cmake(dir: &Path) -> PathBuf {
    let root = dir.join("cuda");
    run_ok(
        Command::new(repo().join("ci/cuda-for-cmake"))
            .arg(&root)
            .arg(cuda_path()),
    );
    root
}

/// `cmake` configuring `source` into `build` with clang as the CUDA compiler
/// and the toolkit `cuda`; the caller says where the package is.
pub fn configure(source: &Path, build: &Path, cuda: &Path) -> Command {
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
pub fn build(build: &Path) -> super::Outcome {
    run_ok(
        Command::new(cmake())
            .arg("--build")
            .arg(build)
            .arg("--verbose"),
    )
}

//! Builds the probe's kernels (`kernels/probe.cu`) into PTX in OUT_DIR, which
//! `src/kernels.rs` embeds, so that the GPU machine needs no compiler.
//!
//! clang 22 compiles the file as CUDA device code only, without the CUDA
//! headers or libdevice (the kernels use clang builtins and inline PTX), so
//! no CUDA installation is needed. Without one, clang would assume PTX ISA
//! 4.2, which sm_80 does not accept: the PTX version is set explicitly. PTX
//! for sm_80 (PTX ISA 7.0) runs on every later GPU (the driver compiles it
//! when the module is loaded), an H100 included.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The GPU the PTX targets, and the PTX ISA version it is written in.
const ARCH: &str = "sm_80";
const PTX_FEATURE: &str = "+ptx70";

fn main() {
    let manifest =
        PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("CARGO_MANIFEST_DIR"));
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("OUT_DIR"));
    let source = manifest.join("kernels").join("probe.cu");
    println!("cargo:rerun-if-changed={}", source.display());
    println!("cargo:rerun-if-env-changed=LLVM_SYS_221_PREFIX");
    println!("cargo:rerun-if-env-changed=SL1_PROBE_CLANG");

    let clang = find_clang().unwrap_or_else(|tried| {
        panic!(
            "sl1-probe needs clang 22 to build the probe kernels (probe/kernels/probe.cu) and found none \
             (tried {tried}); run ci/setup, or set LLVM_SYS_221_PREFIX to the LLVM 22 \
             installation (e.g. /usr/lib/llvm-22) or SL1_PROBE_CLANG to a clang++ binary"
        )
    });
    let ptx = out.join("probe.ptx");
    let output = Command::new(&clang)
        .args(["-x", "cuda", "--cuda-device-only"])
        .arg(format!("--cuda-gpu-arch={ARCH}"))
        .args(["-Xclang", "-target-feature", "-Xclang", PTX_FEATURE])
        .args(["-nocudainc", "-nocudalib", "-O3", "-Wall", "-S", "-o"])
        .arg(&ptx)
        .arg(&source)
        .output()
        .unwrap_or_else(|e| panic!("could not run {}: {e}", clang.display()));
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        panic!(
            "{} failed to compile {} to PTX ({}):\n{stderr}",
            clang.display(),
            source.display(),
            output.status
        );
    }
    for line in stderr.lines().filter(|l| !l.trim().is_empty()) {
        println!("cargo:warning=probe.cu: {line}");
    }
}

/// clang++ 22: SL1_PROBE_CLANG, then `$LLVM_SYS_221_PREFIX/bin/clang++`, then
/// the Debian package's `/usr/lib/llvm-22/bin/clang++`, then `clang++-22` on
/// the PATH. Err lists what was tried.
fn find_clang() -> Result<PathBuf, String> {
    let mut tried = Vec::new();
    let mut candidates: Vec<PathBuf> = Vec::new();
    if let Some(c) = std::env::var_os("SL1_PROBE_CLANG") {
        // Asked for explicitly: that one or none.
        let c = PathBuf::from(c);
        return if c.is_file() {
            Ok(c)
        } else {
            Err(format!("SL1_PROBE_CLANG={}", c.display()))
        };
    }
    if let Some(prefix) = std::env::var_os("LLVM_SYS_221_PREFIX") {
        candidates.push(Path::new(&prefix).join("bin").join("clang++"));
    }
    candidates.push("/usr/lib/llvm-22/bin/clang++".into());
    for c in candidates {
        if c.is_file() {
            return Ok(c);
        }
        tried.push(c.display().to_string());
    }
    if let Some(path) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&path) {
            let c = dir.join("clang++-22");
            if c.is_file() {
                return Ok(c);
            }
        }
    }
    tried.push("clang++-22 on the PATH".into());
    Err(tried.join(", "))
}

//! Finding clang, the plugin and a CUDA installation, and saying how to get
//! what is missing.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::cli::ToolArgs;
use crate::error::DriverError;

/// The folder where `ci/setup` assembles CUDA from PyPI wheels.
fn bundled_cuda_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .unwrap_or(manifest)
        .join(".toolchain/cuda")
}

const SETUP_FIX: &str = "run ci/setup (installs clang-22 and assembles CUDA under .toolchain/cuda)";

/// Something looked for: where it was found, or everywhere it was looked for.
pub struct Found {
    pub path: Option<PathBuf>,
    pub searched: Vec<PathBuf>,
}

impl Found {
    fn first_existing(candidates: Vec<PathBuf>, exists: impl Fn(&Path) -> bool) -> Found {
        let path = candidates.iter().find(|p| exists(p)).cloned();
        Found {
            path,
            searched: candidates,
        }
    }

    fn require(&self, what: &'static str, fix: String) -> Result<PathBuf, DriverError> {
        self.path.clone().ok_or_else(|| DriverError::ToolMissing {
            what,
            searched: if self.searched.is_empty() {
                String::new()
            } else {
                format!(
                    " (looked in: {})",
                    self.searched
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
            fix,
        })
    }
}

fn env_path(name: &str) -> Option<PathBuf> {
    env::var_os(name)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

pub fn find_clang(args: &ToolArgs) -> Found {
    let mut candidates: Vec<PathBuf> = args.clang.iter().cloned().collect();
    candidates.extend(env_path("SL1_CLANG"));
    if args.clang.is_none() {
        candidates.extend(which::which("clang++-22").ok());
        candidates.push(PathBuf::from("/usr/lib/llvm-22/bin/clang++"));
    }
    Found::first_existing(candidates, Path::is_file)
}

/// The plugin that the build of this driver made: cargo builds the
/// `sl1-pass` cdylib, a dependency, into `deps/` of the profile directory
/// (`build.rs` records which). `cargo install --path driver` copies the
/// driver out of the build tree and leaves the plugin there.
pub fn build_tree_plugin() -> PathBuf {
    Path::new(env!("SL1_BUILD_PROFILE_DIR")).join("deps/libsl1_pass.so")
}

pub fn find_plugin(args: &ToolArgs) -> Found {
    let mut candidates: Vec<PathBuf> = args.plugin.iter().cloned().collect();
    candidates.extend(env_path("SL1_PLUGIN"));
    if args.plugin.is_none() {
        if let Some(dir) = env::current_exe()
            .ok()
            .and_then(|e| e.parent().map(Path::to_path_buf))
        {
            candidates.push(dir.join("libsl1_pass.so"));
            // `cargo test` runs the driver from target/<profile>/deps.
            candidates.push(dir.join("../libsl1_pass.so"));
            // An installed prefix (ci/package's archive): bin/ and lib/.
            candidates.push(dir.join("../lib/libsl1_pass.so"));
        }
        candidates.push(build_tree_plugin());
    }
    Found::first_existing(candidates, Path::is_file)
}

pub fn find_cuda(args: &ToolArgs) -> Found {
    let mut candidates: Vec<PathBuf> = args.cuda_path.iter().cloned().collect();
    if args.cuda_path.is_none() {
        candidates.extend(env_path("CUDA_PATH"));
        candidates.extend(env_path("CUDA_HOME"));
        candidates.push(bundled_cuda_dir());
        candidates.push(PathBuf::from("/usr/local/cuda"));
    }
    Found::first_existing(candidates, |p| p.join("bin/ptxas").is_file())
}

/// Everything a build needs.
pub struct Toolchain {
    pub clang: PathBuf,
    pub plugin: PathBuf,
    pub cuda: PathBuf,
}

/// ptxas of a CUDA installation.
pub fn ptxas(cuda: &Path) -> PathBuf {
    cuda.join("bin/ptxas")
}

impl Toolchain {
    pub fn ptxas(&self) -> PathBuf {
        ptxas(&self.cuda)
    }
    pub fn fatbinary(&self) -> PathBuf {
        self.cuda.join("bin/fatbinary")
    }
    pub fn cuda_lib_dir(&self) -> PathBuf {
        ["lib64", "lib"]
            .iter()
            .map(|d| self.cuda.join(d))
            .find(|d| d.is_dir())
            .unwrap_or_else(|| self.cuda.join("lib64"))
    }
}

pub fn clang_fix() -> String {
    "apt-get install clang-22 (or pass --clang / set SL1_CLANG)".to_string()
}

pub fn plugin_fix() -> String {
    "cargo build --release -p sl1-pass, or put libsl1_pass.so in lib/ beside this program's \
     bin/ (as ci/package's archive has it), or pass --plugin / set SL1_PLUGIN"
        .to_string()
}

pub fn cuda_fix() -> String {
    format!("{SETUP_FIX}, or pass --cuda-path / set CUDA_PATH to a CUDA toolkit")
}

/// Everything the CUDA path needs.
pub fn resolve(args: &ToolArgs) -> Result<Toolchain, DriverError> {
    Ok(Toolchain {
        cuda: resolve_cuda(args)?,
        clang: find_clang(args).require("clang++ 22", clang_fix())?,
        plugin: find_plugin(args).require("S-L1 plugin libsl1_pass.so", plugin_fix())?,
    })
}

/// The CUDA installation alone (the IR path needs it for ptxas only).
pub fn resolve_cuda(args: &ToolArgs) -> Result<PathBuf, DriverError> {
    find_cuda(args).require("CUDA installation (bin/ptxas)", cuda_fix())
}

/// First line of `tool --version`, if it runs.
pub fn version_line(tool: &Path, flag: &str) -> Option<String> {
    let out = Command::new(tool).arg(flag).output().ok()?;
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .map(str::to_string)
}

/// The CUDA driver library, when this machine has an NVIDIA driver.
pub fn find_gpu_driver() -> Option<PathBuf> {
    let dirs = [
        "/usr/lib/x86_64-linux-gnu",
        "/usr/lib64",
        "/usr/lib",
        "/usr/local/nvidia/lib64",
        "/usr/lib/wsl/lib",
    ];
    dirs.iter()
        .map(|d| Path::new(d).join("libcuda.so.1"))
        .find(|p| p.exists())
}

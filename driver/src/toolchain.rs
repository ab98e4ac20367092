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
    // A bare name (`--clang clang++-19`) is looked up on PATH.
    let on_path = |p: PathBuf| {
        if p.components().count() == 1 {
            which::which(&p).unwrap_or(p)
        } else {
            p
        }
    };
    let mut candidates: Vec<PathBuf> = args.clang.iter().cloned().map(on_path).collect();
    candidates.extend(env_path("SL1_CLANG").map(on_path));
    if args.clang.is_none() {
        candidates.extend(which::which("clang++-22").ok());
        candidates.push(PathBuf::from("/usr/lib/llvm-22/bin/clang++"));
    }
    Found::first_existing(candidates, Path::is_file)
}

/// LLVM majors S-L1 builds its plugin for: the driver's own (22) and 19.
pub const SUPPORTED_LLVM: [u32; 2] = [19, 22];

/// The plugin's file name for a clang of LLVM `major`: the driver's own
/// build (`libsl1_pass.so`), or one built against another LLVM by
/// `ci/build-plugins` (`libsl1_pass-19.so`).
pub fn plugin_file_name(major: u32) -> String {
    if major == sl1_pass::LLVM_MAJOR {
        "libsl1_pass.so".to_string()
    } else {
        format!("libsl1_pass-{major}.so")
    }
}

/// The LLVM major version of `clang` (`clang version 19.1.7 ...`).
pub fn clang_llvm_major(clang: &Path) -> Option<u32> {
    let line = version_line(clang, "--version")?;
    let rest = &line[line.find("version ")? + "version ".len()..];
    rest.split('.').next()?.parse().ok()
}

/// The LLVM major version a plugin links against, read from the libLLVM
/// it names (`libLLVM.so.19.1`, or `libLLVM-19.so` on older layouts)
/// without loading it. The name sits in the dynamic string table, near the
/// file's start: the first MiB is searched first (a debug plugin is tens
/// of MiB, read at every build), then the whole file.
pub fn plugin_llvm_major(plugin: &Path) -> Option<u32> {
    use std::io::Read;
    let mut head = Vec::new();
    std::fs::File::open(plugin)
        .ok()?
        .take(1 << 20)
        .read_to_end(&mut head)
        .ok()?;
    llvm_major_named_in(&head).or_else(|| llvm_major_named_in(&std::fs::read(plugin).ok()?))
}

/// The major version after the first `libLLVM.so.` or `libLLVM-` in `bytes`.
fn llvm_major_named_in(bytes: &[u8]) -> Option<u32> {
    [&b"libLLVM.so."[..], b"libLLVM-"]
        .iter()
        .find_map(|prefix| {
            let at = bytes.windows(prefix.len()).position(|w| w == *prefix)? + prefix.len();
            let digits: Vec<u8> = bytes[at..]
                .iter()
                .copied()
                .take_while(u8::is_ascii_digit)
                .collect();
            std::str::from_utf8(&digits).ok()?.parse().ok()
        })
}

/// The plugin that the build of this driver made: cargo builds the
/// `sl1-pass` cdylib, a dependency, into `deps/` of the profile directory
/// (`build.rs` records which). `cargo install --path driver` copies the
/// driver out of the build tree and leaves the plugin there.
pub fn build_tree_plugin() -> PathBuf {
    Path::new(env!("SL1_BUILD_PROFILE_DIR")).join("deps/libsl1_pass.so")
}

/// The plugin for a clang of LLVM `major`: --plugin, $SL1_PLUGIN, else the
/// file named for that LLVM beside this program, in an installed prefix's
/// lib/, or in the build tree.
pub fn find_plugin(args: &ToolArgs, major: u32) -> Found {
    let mut candidates: Vec<PathBuf> = args.plugin.iter().cloned().collect();
    candidates.extend(env_path("SL1_PLUGIN"));
    if args.plugin.is_none() {
        candidates.extend(installed_plugins(major));
    }
    Found::first_existing(candidates, Path::is_file)
}

/// Where the plugin for LLVM `major` may be installed: beside this program,
/// in an installed prefix's lib/, or in the build tree.
pub fn installed_plugins(major: u32) -> Vec<PathBuf> {
    let name = plugin_file_name(major);
    let mut candidates = Vec::new();
    if let Some(dir) = env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        candidates.push(dir.join(&name));
        // `cargo test` runs the driver from target/<profile>/deps.
        candidates.push(dir.join("..").join(&name));
        // An installed prefix (ci/package's archive): bin/ and lib/.
        candidates.push(dir.join("../lib").join(&name));
    }
    let tree = build_tree_plugin();
    candidates.push(if major == sl1_pass::LLVM_MAJOR {
        tree
    } else {
        // ci/build-plugins puts the others beside the profile's own.
        tree.parent()
            .and_then(Path::parent)
            .map_or(tree.clone(), |profile| profile.join(&name))
    });
    candidates
}

/// clang++ of LLVM `major` as the distribution installs it.
pub fn installed_clang(major: u32) -> Option<PathBuf> {
    which::which(format!("clang++-{major}"))
        .ok()
        .or_else(|| Some(PathBuf::from(format!("/usr/lib/llvm-{major}/bin/clang++"))))
        .filter(|p| p.is_file())
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
    /// The LLVM major version of `clang`, which `plugin` is built for.
    pub llvm_major: u32,
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
    "apt-get install clang-22 (or clang-19; pass --clang / set SL1_CLANG)".to_string()
}

pub fn plugin_fix(major: u32) -> String {
    let name = plugin_file_name(major);
    let build = if major == sl1_pass::LLVM_MAJOR {
        "cargo build --release -p sl1-pass".to_string()
    } else {
        format!("bash ci/build-plugins (builds {name} against LLVM {major})")
    };
    format!(
        "{build}, or put {name} in lib/ beside this program's bin/ (as ci/package's archive has \
         it), or pass --plugin / set SL1_PLUGIN"
    )
}

pub fn cuda_fix() -> String {
    format!("{SETUP_FIX}, or pass --cuda-path / set CUDA_PATH to a CUDA toolkit")
}

/// Everything the CUDA path needs: a clang of a supported LLVM and the
/// plugin built for that LLVM.
pub fn resolve(args: &ToolArgs) -> Result<Toolchain, DriverError> {
    let cuda = resolve_cuda(args)?;
    let clang = find_clang(args).require("clang++ 22", clang_fix())?;
    let llvm_major = clang_llvm_major(&clang).unwrap_or(sl1_pass::LLVM_MAJOR);
    if !SUPPORTED_LLVM.contains(&llvm_major) {
        return Err(DriverError::UnsupportedClang {
            clang,
            llvm: llvm_major,
            supported: SUPPORTED_LLVM.map(|m| m.to_string()).join(" and "),
        });
    }
    let plugin = find_plugin(args, llvm_major).require("S-L1 plugin", plugin_fix(llvm_major))?;
    match plugin_llvm_major(&plugin) {
        Some(built) if built != llvm_major => Err(DriverError::PluginMismatch {
            plugin,
            plugin_llvm: built,
            clang,
            clang_llvm: llvm_major,
            fix: format!(
                "use {} ({})",
                plugin_file_name(llvm_major),
                plugin_fix(llvm_major)
            ),
        }),
        _ => Ok(Toolchain {
            clang,
            llvm_major,
            plugin,
            cuda,
        }),
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_llvm_major_is_read_from_either_spelling_of_the_library() {
        assert_eq!(
            llvm_major_named_in(b"\0libc.so.6\0libLLVM.so.22.1\0"),
            Some(22)
        );
        assert_eq!(llvm_major_named_in(b"\0libLLVM-19.so\0"), Some(19));
        assert_eq!(llvm_major_named_in(b"\0libc.so.6\0"), None);
        assert_eq!(llvm_major_named_in(b"libLLVM.so.\0"), None);
    }

    #[test]
    fn the_build_trees_plugin_names_its_llvm() {
        let plugin = build_tree_plugin();
        assert!(plugin.is_file(), "no plugin at {}", plugin.display());
        assert_eq!(plugin_llvm_major(&plugin), Some(22));
    }
}

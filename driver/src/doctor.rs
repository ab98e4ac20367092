//! `sl1-driver doctor`: what was found, and the command that fixes each gap.

use std::path::Path;

use crate::cli::ToolArgs;
use crate::toolchain::{self, Found};

struct Check {
    name: &'static str,
    found: Option<String>,
    fix: String,
    /// Builds cannot run without it.
    required: bool,
}

fn describe(found: &Found, version_flag: Option<&str>) -> Option<String> {
    let path = found.path.as_ref()?;
    let version = version_flag
        .and_then(|flag| toolchain::version_line(path, flag))
        .map(|v| format!(" ({v})"))
        .unwrap_or_default();
    Some(format!("{}{version}", path.display()))
}

fn tool_in_cuda(cuda: &Found, relative: &str) -> Found {
    let candidates: Vec<_> = cuda.path.iter().map(|c| c.join(relative)).collect();
    Found {
        path: candidates.iter().find(|p| p.is_file()).cloned(),
        searched: candidates,
    }
}

/// Prints the checks; returns whether everything a build needs is there.
pub fn run(args: &ToolArgs) -> bool {
    let cuda = toolchain::find_cuda(args);
    let clang = toolchain::find_clang(args);
    let major = clang.path.as_deref().and_then(toolchain::clang_llvm_major);
    let supported = major.filter(|m| toolchain::SUPPORTED_LLVM.contains(m));
    let llvm = supported.unwrap_or(sl1_pass::LLVM_MAJOR);
    let plugin = toolchain::find_plugin(args, llvm);
    let plugin_llvm = plugin
        .path
        .as_deref()
        .and_then(toolchain::plugin_llvm_major);
    let checks = [
        Check {
            name: "clang++",
            found: describe(&clang, Some("--version"))
                .filter(|_| supported.is_some())
                .map(|d| format!("{d}: LLVM {llvm}")),
            fix: toolchain::clang_fix(),
            required: true,
        },
        Check {
            name: "S-L1 plugin",
            found: describe(&plugin, None)
                .filter(|_| plugin_llvm.is_none_or(|p| p == llvm))
                .map(|d| format!("{d} (for LLVM {llvm})")),
            fix: toolchain::plugin_fix(llvm),
            required: true,
        },
        Check {
            name: "CUDA path",
            found: describe(&cuda, None),
            fix: toolchain::cuda_fix(),
            required: true,
        },
        Check {
            name: "ptxas",
            found: describe(&tool_in_cuda(&cuda, "bin/ptxas"), Some("--version"))
                .map(|v| v.replace("ptxas: NVIDIA (R) Ptx optimizing assembler", "ptxas")),
            fix: toolchain::cuda_fix(),
            required: true,
        },
        Check {
            name: "fatbinary",
            found: describe(&tool_in_cuda(&cuda, "bin/fatbinary"), None),
            fix: toolchain::cuda_fix(),
            required: true,
        },
        Check {
            name: "libdevice",
            found: describe(&tool_in_cuda(&cuda, "nvvm/libdevice/libdevice.10.bc"), None),
            fix: toolchain::cuda_fix(),
            required: true,
        },
        Check {
            name: "GPU driver",
            found: toolchain::find_gpu_driver()
                .map(|p: std::path::PathBuf| p.display().to_string()),
            fix: "none needed to build; to run the programs, use a machine with an NVIDIA \
                  driver (libcuda.so.1)"
                .to_string(),
            required: false,
        },
    ];
    let mut ok = true;
    for check in &checks {
        match &check.found {
            Some(what) => println!("ok       {:<12} {what}", check.name),
            None => {
                ok &= !check.required;
                let label = if check.required { "MISSING" } else { "absent" };
                println!("{label:<8} {:<12} fix: {}", check.name, check.fix);
            }
        }
    }
    println!("LLVM versions (each clang with the plugin built for it; --clang picks one):");
    for major in toolchain::SUPPORTED_LLVM {
        let clang = toolchain::installed_clang(major);
        let plugin = toolchain::installed_plugins(major)
            .into_iter()
            .find(|p| p.is_file() && toolchain::plugin_llvm_major(p).is_none_or(|m| m == major));
        let name = format!("LLVM {major}");
        match (clang, plugin) {
            (Some(c), Some(p)) => {
                println!("ok       {name:<12} {} with {}", c.display(), p.display())
            }
            (None, _) => println!(
                "absent   {name:<12} no clang++-{major}; fix: apt-get install clang-{major}"
            ),
            (Some(c), None) => println!(
                "absent   {name:<12} {} has no plugin; fix: {}",
                c.display(),
                toolchain::plugin_fix(major)
            ),
        }
    }
    if !Path::new("/proc/driver/nvidia/version").exists() && checks[6].found.is_none() {
        println!("note: no NVIDIA GPU here; builds work, GPU runs need another machine");
    }
    println!(
        "{}",
        if ok {
            "doctor: ready to build"
        } else {
            "doctor: not ready to build; apply the fixes above"
        }
    );
    ok
}

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
    let clang_version = describe(&clang, Some("--version"));
    let clang_is_22 = clang_version
        .as_deref()
        .is_some_and(|v| v.contains("version 22."));
    let checks = [
        Check {
            name: "clang++ 22",
            found: clang_version.filter(|_| clang_is_22),
            fix: toolchain::clang_fix(),
            required: true,
        },
        Check {
            name: "S-L1 plugin",
            found: describe(&toolchain::find_plugin(args), None),
            fix: toolchain::plugin_fix(),
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

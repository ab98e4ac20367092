//! Building a CUDA source: the device compile runs clang with the S-L1 plugin,
//! then ptxas, fatbinary, the host compile that embeds the fat binary, and the
//! link with the CUDA runtime. Each phase is a separate command (shown by -v).

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result};
use sl1_core::option_list::{PluginSettings, DEVICE_LLVM_OPTIONS};
use sl1_pass::Report;

use crate::block_limit;
use crate::build_ir::pass_options;
use crate::cli::{BuildArgs, Cudart, Emit};
use crate::error::DriverError;
use crate::runner::Runner;
use crate::toolchain::Toolchain;

/// LLVM options the device compilation gets unless `--no-device-tuning`
/// (`--clang-arg` comes after them, so it can override them): the plugin's
/// own (`sl1_core::option_list::DEVICE_LLVM_OPTIONS`, which it sets itself
/// where a command line does not), given on the command line too so that
/// what runs before the plugin's pass sees them.
fn device_tuning() -> Vec<String> {
    DEVICE_LLVM_OPTIONS
        .iter()
        .flat_map(|(name, value)| ["-mllvm".to_string(), format!("-{name}={value}")])
        .collect()
}

/// The plugin's options for the device compile: the pass's options of
/// `args` (`build_ir::pass_options`) in the plugin's spelling, and where the
/// report goes.
fn plugin_options(args: &BuildArgs, emit: Emit, report: &Path) -> Result<Vec<String>> {
    let settings = PluginSettings {
        options: pass_options(args, emit)?,
        report: Some(report.display().to_string()),
        ..PluginSettings::default()
    };
    Ok(mllvm(&settings.arguments()))
}

/// Each argument after `-mllvm`.
fn mllvm(arguments: &[String]) -> Vec<String> {
    arguments
        .iter()
        .flat_map(|a| ["-mllvm".to_string(), a.clone()])
        .collect()
}

/// Builds `args.input` (a .cu file) into `output`; returns the device report.
pub fn build(args: &BuildArgs, tools: &Toolchain, emit: Emit, output: &Path) -> Result<Report> {
    let runner = Runner {
        verbose: args.verbose,
    };
    let temp = tempfile::Builder::new().prefix("sl1-build-").tempdir()?;
    let prelude = crate::nvcc_prelude::clang_args(args, temp.path())?;
    let stem = args
        .input
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "app".into());
    // Device compilation of each architecture, with the plugin: PTX (or IR
    // for --emit ll|bc), then a cubin; the first architecture's report is
    // the build's (S-L1 decides the same for every architecture).
    let mut images = Vec::new();
    let mut primary: Option<(Report, PathBuf)> = None;
    for arch in &args.arch {
        let report_path = temp.path().join(format!("report-{arch}.json"));
        let device_out = match emit {
            Emit::Ll | Emit::Bc => output.to_path_buf(),
            _ => temp.path().join(format!("{stem}-{arch}.ptx")),
        };
        let mut device = clang_cuda(args, tools, arch, &prelude);
        device
            .arg("--cuda-device-only")
            .arg("-fno-discard-value-names")
            .args(load_plugin(tools))
            .args(plugin_options(args, emit, &report_path)?);
        if !args.jump_tables {
            device.arg("-fno-jump-tables");
        }
        if !args.no_device_tuning {
            device.args(device_tuning());
        }
        device.args(&args.clang_args);
        match emit {
            Emit::Ll => device.args(["-S", "-emit-llvm"]),
            Emit::Bc => device.args(["-c", "-emit-llvm"]),
            _ => device.arg("-S"),
        };
        device.arg("-o").arg(&device_out).arg(&args.input);
        runner.run(&mut device, &args.input)?;
        let mut report = read_report(&report_path)?;
        if matches!(emit, Emit::Ll | Emit::Bc) {
            return Ok(report);
        }
        let cubin = if emit == Emit::Cubin {
            output.to_path_buf()
        } else {
            temp.path().join(format!("{stem}-{arch}.cubin"))
        };
        let assembler = Assembler {
            args,
            tools,
            runner: &runner,
            arch,
            temp: temp.path(),
            prelude: &prelude,
        };
        assembler.assemble_keeping_block_sizes(
            &device_out,
            &cubin,
            emit == Emit::Ptx,
            &mut report,
        )?;
        if emit == Emit::Ptx {
            std::fs::copy(&device_out, output)
                .with_context(|| format!("cannot write {}", output.display()))?;
            return Ok(report);
        }
        if emit == Emit::Cubin {
            return Ok(report);
        }
        match &primary {
            None => primary = Some((report, report_path)),
            Some((first, _)) => same_launch_bytes(first, &report, arch)?,
        }
        // The fat binary carries each cubin and its PTX (for newer GPUs to
        // JIT).
        let sm = arch.trim_start_matches("sm_");
        images.push(format!(
            "--image3=kind=elf,sm={sm},file={}",
            cubin.display()
        ));
        images.push(format!(
            "--image3=kind=ptx,sm={sm},file={}",
            device_out.display()
        ));
    }
    let (report, report_path) = primary.context("no GPU architecture to build")?;
    let fatbin = temp.path().join(format!("{stem}.fatbin"));
    runner.run(
        Command::new(tools.fatbinary())
            .arg("-64")
            .arg("--create")
            .arg(&fatbin)
            .args(&images),
        &args.input,
    )?;

    let object = if emit == Emit::Obj {
        output.to_path_buf()
    } else {
        temp.path().join(format!("{stem}.o"))
    };
    let mut host = clang_cuda(args, tools, args.primary_arch(), &prelude);
    if report.kernels.iter().any(|k| k.transform.applied) {
        // The launches of kernels with lines ask for their carveout, and
        // give launch-sized line buffers their bytes.
        let settings = PluginSettings {
            launch_report: Some(report_path.display().to_string()),
            ..PluginSettings::default()
        };
        host.args(load_plugin(tools))
            .args(mllvm(&settings.arguments()));
    }
    // The dependency file names the final output, not the temporary object.
    host.args(args.dep_args(output))
        .args(&args.host_args)
        .arg("--cuda-host-only")
        .args(["-Xclang", "-fcuda-include-gpubinary", "-Xclang"])
        .arg(&fatbin)
        .arg("-c")
        .arg("-o")
        .arg(&object)
        .arg(&args.input);
    runner.run(&mut host, &args.input)?;
    if emit == Emit::Obj {
        return Ok(report);
    }
    link(args, tools, &[object], output)?;
    Ok(report)
}

/// Links `objects` into the executable `output` with the S-L1 runtime
/// (`launch_runtime`: every launch of a kernel with lines gets its buffer),
/// the CUDA runtime and `args`' libraries (`-L`, `-l`); the host compiler
/// (clang++ unless `--host-compiler`) as the linker, for C++ objects.
pub fn link(args: &BuildArgs, tools: &Toolchain, objects: &[PathBuf], output: &Path) -> Result<()> {
    let runner = Runner {
        verbose: args.verbose,
    };
    let temp = tempfile::Builder::new().prefix("sl1-runtime-").tempdir()?;
    let runtime = crate::launch_runtime::link_args(tools, &runner, temp.path(), &args.input)?;
    let mut link = Command::new(args.host_compiler(&tools.clang));
    link.args(objects)
        .args(&runtime)
        .arg("-o")
        .arg(output)
        .arg(format!("-L{}", tools.cuda_lib_dir().display()));
    for dir in &args.lib_dirs {
        link.arg("-L").arg(dir);
    }
    link.args(args.libs.iter().map(|l| format!("-l{l}")))
        .args(&args.host_args)
        .args(&args.link_args);
    // Static cudart (the default): the executable runs with any driver new
    // enough, without a CUDA runtime library installed beside it.
    match args.cudart {
        Cudart::Static => link.args(["-lcudart_static", "-ldl", "-lrt", "-lpthread"]),
        Cudart::Shared => link.args(["-lcudart", "-ldl", "-lrt", "-lpthread"]),
    };
    // A failure is the link's, not the first input's.
    runner.run(&mut link, output).map_err(|e| match e {
        DriverError::PhaseFailed { tool, status, .. } => DriverError::LinkFailed {
            output: output.to_path_buf(),
            tool,
            status,
        },
        other => other,
    })?;
    Ok(())
}

/// Compiles host code (a .c or C++ source) into `object` with `args`'
/// optimisation level, include directories and macros.
pub fn compile_host(
    args: &BuildArgs,
    tools: &Toolchain,
    source: &Path,
    object: &Path,
) -> Result<()> {
    let runner = Runner {
        verbose: args.verbose,
    };
    let mut cmd = Command::new(args.host_compiler(&tools.clang));
    if source.extension().is_some_and(|e| e == "c") {
        cmd.args(["-x", "c"]);
    } else {
        cmd.args(["-x", "c++", "-std=c++17"]);
    }
    cmd.arg(format!("-O{}", args.opt_level))
        .arg(format!("-I{}", tools.cuda.join("include").display()));
    for dir in &args.include {
        cmd.arg("-I").arg(dir);
    }
    for def in &args.define {
        cmd.arg(format!("-D{def}"));
    }
    cmd.args(args.dep_args(object))
        .args(&args.host_args)
        .arg("-c")
        .arg("-o")
        .arg(object)
        .arg(source);
    Ok(runner.run(&mut cmd, source)?)
}

/// ptxas for one architecture of a device compile.
struct Assembler<'a> {
    args: &'a BuildArgs,
    tools: &'a Toolchain,
    runner: &'a Runner,
    arch: &'a str,
    temp: &'a Path,
    /// The nvcc prelude's clang arguments (`nvcc_prelude`).
    prelude: &'a [OsString],
}

impl Assembler<'_> {
    /// Assembles `ptx` into `cubin`. Where a kernel without launch bounds
    /// would launch smaller blocks than its build without S-L1, its PTX
    /// (rewritten in place) gets that build's block size as `.maxntid`
    /// first (`block_limit`); the report's notes and the user say so.
    /// `only_ptx`: the PTX is the build's output, the cubin only a check.
    fn assemble_keeping_block_sizes(
        &self,
        ptx: &Path,
        cubin: &Path,
        only_ptx: bool,
        report: &mut Report,
    ) -> Result<()> {
        let text = std::fs::read_to_string(ptx)
            .with_context(|| format!("cannot read {}", ptx.display()))?;
        let unbounded = block_limit::unbounded_entries(&text);
        if only_ptx && unbounded.is_empty() {
            // Every kernel has its block size (S-L1's transformed kernels
            // carry the one their lines are sized for): nothing to assemble.
            return Ok(());
        }
        let mut verbose = match self.ptxas(ptx, cubin) {
            Ok(verbose) => verbose,
            // The PTX stands without the check (an architecture this
            // ptxas does not know, say): say so, keep it.
            Err(e) if only_ptx => {
                eprintln!("sl1-driver: warning: block sizes not checked: {e:#}");
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let registers = block_limit::registers_from_ptxas(&verbose);
        if block_limit::any_below_full_blocks(&unbounded, &registers, self.arch) {
            let untouched = self.untouched_registers();
            let caps = block_limit::caps(&unbounded, &registers, &untouched, self.arch);
            if !caps.is_empty() {
                let mut bounded = text;
                for cap in &caps {
                    bounded = block_limit::bound_entry(&bounded, &cap.kernel, cap.bound);
                    self.say(cap, report);
                }
                std::fs::write(ptx, bounded)
                    .with_context(|| format!("cannot write {}", ptx.display()))?;
                verbose = self.ptxas(ptx, cubin)?;
            }
        }
        // What ptxas says goes to the user: all of it under `-Xptxas -v`,
        // else its warnings.
        let asked = self
            .args
            .ptxas_args
            .iter()
            .any(|a| a == "-v" || a == "--verbose");
        for line in verbose.lines() {
            let info = line.starts_with("ptxas info") || line.starts_with(' ');
            if asked || !info {
                eprintln!("{line}");
            }
        }
        Ok(())
    }

    /// Runs ptxas (always with `-v`); returns what it wrote to stderr.
    fn ptxas(&self, ptx: &Path, cubin: &Path) -> Result<String> {
        let mut cmd = Command::new(self.tools.ptxas());
        cmd.arg("-m64")
            .arg(format!("-O{}", self.args.opt_level))
            .arg(format!("--gpu-name={}", self.arch))
            .args(&self.args.ptxas_args)
            .arg("-v")
            .arg("--output-file")
            .arg(cubin)
            .arg(ptx);
        Ok(self.runner.run_reading_stderr(&mut cmd, &self.args.input)?)
    }

    /// The registers of each kernel in the plain clang build: no plugin, no
    /// device tuning. Empty (with a warning) when that build fails.
    fn untouched_registers(&self) -> BTreeMap<String, u32> {
        let ptx = self.temp.join(format!("untouched-{}.ptx", self.arch));
        let mut device = clang_cuda(self.args, self.tools, self.arch, self.prelude);
        device.arg("--cuda-device-only");
        if !self.args.jump_tables {
            device.arg("-fno-jump-tables");
        }
        device
            .args(&self.args.clang_args)
            .arg("-S")
            .arg("-o")
            .arg(&ptx)
            .arg(&self.args.input);
        let built = self
            .runner
            .run_reading_stderr(&mut device, &self.args.input)
            .map_err(anyhow::Error::from)
            .and_then(|_| self.ptxas(&ptx, &self.temp.join("untouched.cubin")));
        match built {
            Ok(verbose) => block_limit::registers_from_ptxas(&verbose),
            Err(e) => {
                eprintln!(
                    "sl1-driver: warning: {}: the plain clang build, which tells the block \
                     sizes to keep, failed ({e:#}); kernels stay as ptxas made them",
                    self.args.input.display()
                );
                BTreeMap::new()
            }
        }
    }

    /// Tells the user and the report's notes about `cap`.
    fn say(&self, cap: &block_limit::Cap, report: &mut Report) {
        let kernel = report.kernels.iter_mut().find(|k| k.name == cap.kernel);
        let name = kernel
            .as_ref()
            .and_then(|k| k.demangled.clone())
            .unwrap_or_else(|| cap.kernel.clone());
        eprintln!(
            "sl1-driver: note: {}: kernel `{name}` ({}) {}",
            self.args.input.display(),
            self.arch,
            cap.describe()
        );
        if let Some(kernel) = kernel {
            kernel
                .notes
                .push(format!("{}: {}", self.arch, cap.describe()));
        }
    }
}

/// The arguments that load the plugin: `-fpass-plugin`; before LLVM 20
/// clang parses `-mllvm` before it loads pass plugins, so the plugin's
/// options are known only if `-Xclang -load` loads it first.
fn load_plugin(tools: &Toolchain) -> Vec<String> {
    let plugin = tools.plugin.display().to_string();
    let mut args = Vec::new();
    if tools.llvm_major < 20 {
        args.extend([
            "-Xclang".into(),
            "-load".into(),
            "-Xclang".into(),
            plugin.clone(),
        ]);
    }
    args.push(format!("-fpass-plugin={plugin}"));
    args
}

/// `clang++ -x cuda` with the options every phase shares, the nvcc
/// prelude's (`prelude`) among them.
fn clang_cuda(args: &BuildArgs, tools: &Toolchain, arch: &str, prelude: &[OsString]) -> Command {
    let mut cmd = Command::new(&tools.clang);
    cmd.args(["-x", "cuda"])
        .arg(format!("--cuda-path={}", tools.cuda.display()))
        .arg(format!("--cuda-gpu-arch={arch}"))
        .arg(format!("-O{}", args.opt_level))
        .arg("-std=c++17")
        // The host compile embeds our fat binary (-fcuda-include-gpubinary),
        // the classic offload path; newer clang 22 builds default to the new
        // driver, which needs clang-linker-wrapper and nvlink at link time.
        .arg("--no-offload-new-driver")
        // clang 22 knows CUDA up to 12.8 in full; 12.9 works for what we use.
        .arg("-Wno-unknown-cuda-version")
        .args(prelude);
    for dir in &args.include {
        cmd.arg("-I").arg(dir);
    }
    for def in &args.define {
        cmd.arg(format!("-D{def}"));
    }
    cmd
}

/// The host compile sizes launches from the first architecture's report:
/// another architecture's must give its kernels the same line buffers.
fn same_launch_bytes(first: &Report, other: &Report, arch: &str) -> Result<()> {
    let bytes = |r: &Report| sl1_pass::launch::launch_bytes(r);
    anyhow::ensure!(
        bytes(first) == bytes(other),
        "S-L1 sized the line buffers of {arch} differently from the first architecture's \
         ({:?} against {:?}); please report it, and build one architecture (--arch) meanwhile",
        bytes(other),
        bytes(first)
    );
    Ok(())
}

fn read_report(path: &PathBuf) -> Result<Report> {
    let text = std::fs::read_to_string(path).with_context(|| {
        format!(
            "the S-L1 plugin wrote no report ({}): was the plugin loaded by clang?",
            path.display()
        )
    })?;
    serde_json::from_str(&text).context("the S-L1 report is not valid JSON")
}

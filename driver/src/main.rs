//! `sl1-driver`: builds CUDA programs and device IR with the S-L1 software L1
//! cache, and checks the toolchain.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{CommandFactory, Parser};

use sl1_driver::cli::{BuildArgs, Cli, Command, Emit};
use sl1_driver::error::DriverError;
use sl1_driver::{arch, build_cu, build_ir, build_many, doctor, toolchain};

#[derive(Clone, Copy, PartialEq, Eq)]
enum InputKind {
    Cuda,
    Ir,
    /// A C or C++ source: host code, an object or a program of its own.
    Host,
}

fn input_kind(path: &Path, all_cuda: bool) -> Result<InputKind, DriverError> {
    if let Ok(part) = build_many::part_of(path, all_cuda) {
        return Ok(match part {
            build_many::Part::Cuda => InputKind::Cuda,
            _ => InputKind::Host,
        });
    }
    match path.extension().and_then(|e| e.to_str()) {
        Some("ll" | "bc") => Ok(InputKind::Ir),
        _ => Err(DriverError::UnsupportedInput {
            path: path.to_path_buf(),
        }),
    }
}

fn default_output(input: &Path, emit: Emit) -> PathBuf {
    let stem = input.file_stem().unwrap_or_default();
    let name = Path::new(stem).with_extension(emit.extension());
    PathBuf::from(name.file_name().unwrap_or(stem))
}

/// PTX, cubins and IR are one architecture's code.
fn check_archs(args: &BuildArgs, emit: Emit) -> Result<(), DriverError> {
    if args.arch.len() > 1 && !matches!(emit, Emit::Exe | Emit::Obj) {
        return Err(DriverError::SeveralArchs {
            emit: format!("{emit:?}").to_lowercase(),
            archs: args.arch.join(", "),
        });
    }
    Ok(())
}

fn build(args: &BuildArgs) -> Result<()> {
    let mut args = args.clone();
    args.arch = arch::resolve(&args.arch)?;
    let args = &args;
    // Bad option values and GPU profiles fail before anything is built
    // (an unsupported line size was found inside clang, which then also
    // failed to write its report).
    args.settings(Emit::Exe)?.options.validate()?;
    let inputs: Vec<PathBuf> = std::iter::once(args.input.clone())
        .chain(args.more_inputs.iter().cloned())
        .collect();
    if let Some(missing) = inputs.iter().find(|i| !i.is_file()) {
        return Err(DriverError::InputNotFound {
            path: missing.clone(),
        }
        .into());
    }
    let compile_only = args.compile_only.then_some(Emit::Obj);
    if inputs.len() > 1 && args.deps.is_some() {
        return Err(DriverError::DepsOfSeveral {
            count: inputs.len(),
        }
        .into());
    }
    if inputs.len() > 1 {
        let emit = args.emit.or(compile_only).unwrap_or(Emit::Exe);
        if emit != Emit::Exe {
            return Err(DriverError::SeveralInputs {
                count: inputs.len(),
                emit: format!("{emit:?}").to_lowercase(),
            }
            .into());
        }
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| PathBuf::from("a.out"));
        let tools = toolchain::resolve(&args.tools)?;
        let report = build_many::build(args, &tools, &inputs, &output)?;
        return finish(args, &report, &output);
    }
    let kind = input_kind(&args.input, args.all_cuda())?;
    let emit = args.emit.or(compile_only).unwrap_or(match kind {
        InputKind::Cuda | InputKind::Host => Emit::Exe,
        InputKind::Ir => Emit::Ptx,
    });
    if kind != InputKind::Host {
        check_archs(args, emit)?;
    }
    if kind == InputKind::Ir && emit == Emit::Obj {
        return Err(DriverError::ExeFromIr {
            path: args.input.clone(),
        }
        .into());
    }
    if kind == InputKind::Ir && emit == Emit::Exe {
        return Err(DriverError::ExeFromIr {
            path: args.input.clone(),
        }
        .into());
    }
    let output = args
        .output
        .clone()
        .unwrap_or_else(|| default_output(&args.input, emit));
    let report = match kind {
        InputKind::Cuda => build_cu::build(args, &toolchain::resolve(&args.tools)?, emit, &output)?,
        InputKind::Ir => build_ir::build(args, emit, &output)?,
        InputKind::Host => build_host(args, emit, &inputs, &output)?,
    };
    finish(args, &report, &output)
}

/// A lone C or C++ source, without device code: an object (nvcc -c
/// main.cpp), or a program linked as several inputs are.
fn build_host(
    args: &BuildArgs,
    emit: Emit,
    inputs: &[PathBuf],
    output: &Path,
) -> Result<sl1_pass::Report> {
    let tools = toolchain::resolve(&args.tools)?;
    match emit {
        Emit::Obj => {
            build_cu::compile_host(args, &tools, &args.input, output)?;
            build_many::empty_report(args, inputs)
        }
        Emit::Exe => build_many::build(args, &tools, inputs, output),
        _ => Err(DriverError::NoDeviceCode {
            path: args.input.clone(),
            emit: format!("{emit:?}").to_lowercase(),
        }
        .into()),
    }
}

/// Writes and prints the report as asked.
fn finish(args: &BuildArgs, report: &sl1_pass::Report, output: &Path) -> Result<()> {
    if let Some(path) = &args.report {
        let json = serde_json::to_string_pretty(&report)? + "\n";
        std::fs::write(path, json)
            .with_context(|| format!("cannot write report {}", path.display()))?;
    }
    if args.print_report {
        eprint!("{}", report.to_text(&sl1_driver::cli::build_flag));
    }
    if args.verbose {
        eprintln!("wrote {}", output.display());
    }
    Ok(())
}

/// Prints the completion script for `shell`; a reader that stops early
/// (`| head`) is no error.
fn completions(shell: clap_complete::Shell) -> Result<()> {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "sl1-driver", &mut script);
    match std::io::stdout().lock().write_all(&script) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            Err(e).context("cannot write the completion script")
        }
        _ => Ok(()),
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match &cli.command {
        Command::Build(args) => build(args),
        Command::Probe(args) => sl1_probe::cli::main(args),
        Command::Completions(args) => completions(args.shell),
        Command::Doctor(args) => {
            return if doctor::run(args) {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("sl1-driver: error: {err:#}");
            ExitCode::FAILURE
        }
    }
}

//! Building device IR (.ll or .bc) in process, without clang: parse, transform,
//! optimise and lower with the NVPTX target machine of the linked LLVM.

use std::path::Path;
use std::process::Command;

use anyhow::{Context as _, Result};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{
    CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple,
};
use inkwell::OptimizationLevel;
use sl1_pass::{Options, Report};

use crate::cli::{BuildArgs, Emit};
use crate::error::DriverError;
use crate::runner::Runner;
use crate::toolchain;

const NVPTX_TRIPLE: &str = "nvptx64-nvidia-cuda";

/// Clean-up that a frontend's unoptimised IR needs before loops can be read
/// (the clang path gets this from the pipeline before the extension point).
// `no-verify-fixpoint`: LLVM 22's instcombine otherwise aborts the process (an
// LLVM ERROR, not an error value) on modules it cannot finish in one round
// (testdata/fuzz/driver_instcombine_fixpoint.ll).
const PRE_CLEANUP: &str =
    "always-inline,function(sroa,early-cse,simplifycfg,instcombine<no-verify-fixpoint>)";

fn parse<'ctx>(context: &'ctx Context, path: &Path) -> Result<Module<'ctx>, DriverError> {
    let invalid = |message: String| DriverError::InvalidIr {
        path: path.to_path_buf(),
        message,
    };
    let buffer = MemoryBuffer::create_from_file(path).map_err(|e| invalid(e.to_string()))?;
    let is_bitcode = path.extension().is_some_and(|e| e == "bc");
    let module = if is_bitcode {
        Module::parse_bitcode_from_buffer(&buffer, context)
            .map_err(|e| invalid(format!("not valid LLVM bitcode: {e}")))?
    } else {
        context
            .create_module_from_ir(buffer)
            .map_err(|e| invalid(format!("not valid LLVM IR: {}", e.to_string().trim())))?
    };
    module.verify().map_err(|e| {
        invalid(format!(
            "the module fails the LLVM verifier: {}",
            e.to_string().trim()
        ))
    })?;
    let triple = module.get_triple();
    let triple = triple.as_str().to_string_lossy();
    if !triple.starts_with("nvptx64") {
        return Err(invalid(format!(
            "target triple is `{triple}`, not {NVPTX_TRIPLE}; S-L1 builds device code only \
             (compile the device side with --cuda-device-only or set the triple)"
        )));
    }
    Ok(module)
}

/// The NVPTX target machine for `arch` (`sm_90`) at optimisation `level`
/// (0 to 3), as the in-memory builds lower with.
pub fn target_machine(arch: &str, level: u8) -> Result<TargetMachine> {
    // LLVM's target registry is global: register NVPTX once, also when
    // several threads build at once.
    static NVPTX: std::sync::Once = std::sync::Once::new();
    NVPTX.call_once(|| Target::initialize_nvptx(&InitializationConfig::default()));
    let triple = TargetTriple::create(NVPTX_TRIPLE);
    let target = Target::from_triple(&triple).map_err(|e| anyhow::anyhow!("{e}"))?;
    let opt = match level {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    };
    target
        .create_target_machine(
            &triple,
            arch,
            "",
            opt,
            RelocMode::Default,
            CodeModel::Default,
        )
        .context("LLVM has no NVPTX target machine for this architecture")
}

/// What clang's `--cuda-gpu-arch` does: the architecture as `target-cpu` on
/// every function defined without one, so that IR inputs reach the device
/// tuning as clang's modules do (`tuning::aggregate_atomics` reads it).
fn name_target_cpu(context: &Context, module: &Module<'_>, arch: &str) {
    let attribute = context.create_string_attribute("target-cpu", arch);
    for function in module.get_functions() {
        let named = function
            .get_string_attribute(inkwell::attributes::AttributeLoc::Function, "target-cpu")
            .is_some();
        if function.count_basic_blocks() > 0 && !named {
            function.add_attribute(inkwell::attributes::AttributeLoc::Function, attribute);
        }
    }
}

/// The S-L1 options a build's arguments give (the pass's view of
/// `sl1-driver build`'s command line).
pub fn pass_options(args: &BuildArgs, emit: Emit) -> Result<Options> {
    Ok(args.settings(emit)?.options)
}

/// Cleans `module` up, runs S-L1 with `args`' options, optimises it at
/// `args`' level; returns the report. `name` names the input in errors.
fn compile(
    context: &Context,
    module: &Module<'_>,
    machine: &TargetMachine,
    args: &BuildArgs,
    name: &str,
) -> Result<Report> {
    if !args.jump_tables {
        sl1_pass::llvm::ir::forbid_jump_tables(module);
    }
    name_target_cpu(context, module, args.primary_arch());
    module.set_data_layout(&machine.get_target_data().get_data_layout());
    let run = |passes: &str| -> Result<()> {
        module
            .run_passes(passes, machine, PassBuilderOptions::create())
            .map_err(|e| anyhow::anyhow!("{name}: LLVM passes `{passes}` failed: {e}"))
    };
    // Every build alike, with S-L1 or without, so that they compare.
    sl1_pass::llvm::miscompiles::avoid_llvm_miscompiles();
    if args.opt_level > 0 {
        run(PRE_CLEANUP)?;
    }
    // IR inputs give PTX or IR, whose launches the driver does not see: the
    // line buffer is launch-sized only when asked (--line-buffer launch).
    let options = pass_options(args, Emit::Ptx)?;
    let mut report = sl1_pass::run_on_module(module, &options)
        .with_context(|| format!("{name}: S-L1 failed"))?;
    // What the pass wrote must be valid IR before LLVM optimises it: an
    // invalid module is S-L1's bug, reported as such rather than compiled.
    module.verify().map_err(|e| {
        anyhow::anyhow!(
            "{name}: the module fails the LLVM verifier after S-L1 (a bug in S-L1; \
             --no-sl1 builds it without): {}",
            e.to_string().trim()
        )
    })?;
    run(&format!("default<O{}>", args.opt_level))?;
    // The plugin's late stage: the late device rewrites, the ptxas
    // workaround.
    let mut late = sl1_pass::tuning::RewriteCounts::default();
    sl1_pass::run_late(module, &options, &mut late)
        .map_err(|e| anyhow::anyhow!("{name}: {}", e.message("--no-device-tuning")))?;
    if let Some(rewrites) = report.device_rewrites.as_mut() {
        rewrites.counts.absorb(&late);
    }
    Ok(report)
}

/// A module built in memory: its PTX, or its optimised IR, and the report.
pub struct Compiled {
    pub text: String,
    pub report: Report,
}

/// Builds the device IR `ir` (text) in memory with `args`' options (the
/// input, output and emit fields are ignored): PTX, or with `emit_ir` the
/// optimised IR. `name` names the module in errors. Safe to call from
/// several threads at once (each call has its own LLVM context).
pub fn compile_text(ir: &str, name: &str, args: &BuildArgs, emit_ir: bool) -> Result<Compiled> {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), name);
    let module = context
        .create_module_from_ir(buffer)
        .map_err(|e| anyhow::anyhow!("{name}: not valid LLVM IR: {}", e.to_string().trim()))?;
    module.verify().map_err(|e| {
        anyhow::anyhow!("{name}: fails the LLVM verifier: {}", e.to_string().trim())
    })?;
    let machine = target_machine(args.primary_arch(), args.opt_level)?;
    let report = compile(&context, &module, &machine, args, name)?;
    let text = if emit_ir {
        module.print_to_string().to_string()
    } else {
        let buffer = machine
            .write_to_memory_buffer(&module, FileType::Assembly)
            .map_err(|e| anyhow::anyhow!("{name}: cannot lower to PTX: {e}"))?;
        String::from_utf8_lossy(buffer.as_slice()).into_owned()
    };
    Ok(Compiled { text, report })
}

/// Builds `args.input` (IR) into `output`; returns the report.
pub fn build(args: &BuildArgs, emit: Emit, output: &Path) -> Result<Report> {
    anyhow::ensure!(
        args.clang_args.is_empty(),
        "{}: --clang-arg applies to CUDA sources; an IR input is not compiled by clang \
         (drop --clang-arg, or build the .cu)",
        args.input.display()
    );
    let context = Context::create();
    let module = parse(&context, &args.input)?;
    let machine = target_machine(args.primary_arch(), args.opt_level)?;
    let report = compile(
        &context,
        &module,
        &machine,
        args,
        &args.input.display().to_string(),
    )?;

    match emit {
        Emit::Ll => module
            .print_to_file(output)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", output.display()))?,
        Emit::Bc => {
            anyhow::ensure!(
                module.write_bitcode_to_path(output),
                "cannot write {}",
                output.display()
            )
        }
        Emit::Ptx => machine
            .write_to_file(&module, FileType::Assembly, output)
            .map_err(|e| anyhow::anyhow!("cannot write {}: {e}", output.display()))?,
        Emit::Cubin => {
            let cuda = toolchain::resolve_cuda(&args.tools)?;
            let temp = tempfile::Builder::new().prefix("sl1-build-").tempdir()?;
            let ptx = temp.path().join("module.ptx");
            machine
                .write_to_file(&module, FileType::Assembly, &ptx)
                .map_err(|e| anyhow::anyhow!("cannot write PTX: {e}"))?;
            Runner {
                verbose: args.verbose,
            }
            .run(
                Command::new(toolchain::ptxas(&cuda))
                    .arg("-m64")
                    .arg(format!("--gpu-name={}", args.primary_arch()))
                    .args(&args.ptxas_args)
                    .arg("--output-file")
                    .arg(output)
                    .arg(&ptx),
                &args.input,
            )?;
        }
        Emit::Exe | Emit::Obj => unreachable!("rejected before the build"),
    }
    Ok(report)
}

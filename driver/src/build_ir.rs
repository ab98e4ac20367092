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

fn target_machine(arch: &str, level: u8) -> Result<TargetMachine> {
    Target::initialize_nvptx(&InitializationConfig::default());
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

/// What clang's `-fno-jump-tables` does: the attribute on every function
/// (see `BuildArgs::jump_tables`).
fn forbid_jump_tables(context: &Context, module: &Module<'_>) {
    let attribute = context.create_string_attribute("no-jump-tables", "true");
    for function in module.get_functions() {
        function.add_attribute(inkwell::attributes::AttributeLoc::Function, attribute);
    }
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
    if !args.jump_tables {
        forbid_jump_tables(&context, &module);
    }
    let machine = target_machine(&args.arch, args.opt_level)?;
    module.set_data_layout(&machine.get_target_data().get_data_layout());

    let run = |passes: &str| -> Result<()> {
        module
            .run_passes(passes, &machine, PassBuilderOptions::create())
            .map_err(|e| {
                anyhow::anyhow!(
                    "{}: LLVM passes `{passes}` failed: {e}",
                    args.input.display()
                )
            })
    };
    if args.opt_level > 0 {
        run(PRE_CLEANUP)?;
    }
    let options = Options {
        threshold: args.threshold,
        line_size: args.line_sizes().0,
        max_line_size: args.line_sizes().1,
        read_only_max_line_size: args.read_only_max_line_size(),
        transform: !args.no_sl1,
        max_threads: args.max_threads,
        force_uncached: args.force_uncached,
        cache_read_only: args.cache_read_only,
        stats: args.stats,
        static_prediction: !args.no_static_prediction,
        prefetch: args.prefetch,
        line_runs: !args.no_line_runs,
        line_padding: !args.no_line_padding,
        line_staging: !args.no_line_staging,
        warp_copies: !args.no_warp_copies,
        full_runs: !args.no_full_runs,
        device_tuning: args.device_rewrites(),
        loop_merging: !args.no_loop_merging,
        shared_budget: args
            .shared_budget
            .unwrap_or(sl1_pass::options::STATIC_SHARED_LIMIT),
        dynamic_shared: args.dynamic_shared,
        gpu_profile: args.gpu_profile.as_ref().map(|p| p.display().to_string()),
        fail_kernel_for_testing: None,
    };
    let mut report = sl1_pass::run_on_module(&module, &options)
        .with_context(|| format!("{}: S-L1 failed", args.input.display()))?;
    run(&format!("default<O{}>", args.opt_level))?;
    if let Some(tuning) = report.device_tuning.as_mut() {
        tuning.frozen_divisions = sl1_pass::tuning::freeze_divisions(&module);
    }

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
                    .arg(format!("--gpu-name={}", args.arch))
                    .arg("--output-file")
                    .arg(output)
                    .arg(&ptx),
                &args.input,
            )?;
        }
        Emit::Exe => unreachable!("rejected before the build"),
    }
    Ok(report)
}

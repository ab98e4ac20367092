//! The S-L1 transformation of one kernel (paper section 3.2): every main loop is
//! sliced into a monitoring clone that simulates a one-line cache per data
//! structure and leaves after THRESHOLD accesses, a decision, and the original
//! loop with its accesses routed through the cache; coherence is kept at fences,
//! barriers, calls and atomics, and the cache is flushed on every loop exit.

use crate::llvm::build;
use std::collections::BTreeMap;

use inkwell::module::Module;
use inkwell::types::AnyTypeEnum;
use inkwell::values::FunctionValue;
use inkwell::AddressSpace;

use crate::analysis::accesses::Access;
use crate::analysis::analyse_kernel;
use crate::llvm::ir::{Function, Value};
use crate::options::Options;
use crate::runtime::{Runtime, ADDRSPACE_SHARED};

mod coherence;
pub mod cost;
mod decide;
mod lane_tests;
mod lanes;
mod line_runs;
mod local_nests;
mod monitor;
mod normal_form;
mod plan;
pub mod predict;
pub mod reasons;
mod reports;
mod sites;
mod slice;
mod slice_two;
mod slots;
mod sorted;
mod state;
pub mod stats;
mod warp_ranges;

pub use warp_ranges::add_warp_ranges;
mod versions;

use plan::{plan_kernel, ChosenLoop, KernelPlan, KernelShared};
pub use plan::{MAX_LOOPS_PER_KERNEL, MAX_LOOP_ACCESSES, MAX_LOOP_INSTRUCTIONS};
pub use predict::PredictionReport;
pub use reasons::Reason;
pub use reports::{
    DirectAccess, LaneTestReport, LaunchBytes, LineRunsReport, RereadReport, TransformReport,
};
use slice::LoopSlice;
use slots::{line_buffer_name, KernelSlots};
use state::State;

pub use crate::options::STATIC_SHARED_LIMIT;

/// Static shared memory `kernel` may use (our own buffers excluded), and
/// whether it may use dynamic shared memory: the shared globals used by the
/// kernel or by any function that is not a kernel (it may call them).
fn kernel_shared_memory(module: &Module<'_>, kernel: FunctionValue<'_>) -> (u64, bool) {
    let kernels: Vec<String> = crate::analysis::find_kernels(module)
        .iter()
        .map(|k| k.get_name().to_string_lossy().into_owned())
        .collect();
    let mine = kernel.get_name().to_string_lossy().into_owned();
    let mut bytes = 0;
    let mut dynamic = false;
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy().into_owned();
        if name.starts_with("sl1.lines.") {
            continue;
        }
        let ptr = global.as_pointer_value();
        if ptr.get_type().get_address_space() != AddressSpace::from(ADDRSPACE_SHARED) {
            continue;
        }
        let used_here = crate::llvm::ir::using_functions(global)
            .into_iter()
            .any(|f| f.is_none_or(|f| f == mine || !kernels.contains(&f)));
        if !used_here {
            continue;
        }
        let ty = global.get_value_type();
        let size = match ty {
            AnyTypeEnum::ArrayType(a) if a.is_empty() => {
                dynamic = true;
                0
            }
            _ => Function::of(module, kernel).global_store_size(global),
        };
        bytes += size;
    }
    (bytes, dynamic)
}

/// The most threads a block of `kernel` has: its launch bounds (the
/// `nvvm.maxntid` attribute, or `!nvvm.annotations` as LLVM 19's clang
/// writes them), else `options.max_threads`.
fn max_threads(module: &Module<'_>, kernel: FunctionValue<'_>, options: &Options) -> u32 {
    kernel
        .get_string_attribute(inkwell::attributes::AttributeLoc::Function, "nvvm.maxntid")
        .and_then(|a| {
            a.get_string_value()
                .to_string_lossy()
                .split(',')
                .map(|d| d.trim().parse::<u32>().ok())
                .try_fold(1u32, |acc, d| d.map(|d| acc.saturating_mul(d)))
        })
        .or_else(|| {
            crate::llvm::ir::annotated_max_threads(module, &kernel.get_name().to_string_lossy())
        })
        .unwrap_or(options.max_threads)
}

/// Transforms `kernel`; returns what was done.
pub fn transform_kernel(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    options: &Options,
) -> TransformReport {
    let mut report = TransformReport {
        max_threads: max_threads(module, kernel, options),
        ..TransformReport::default()
    };
    let Some(shared) = shared_beside_lines(module, kernel, options, &mut report) else {
        return report;
    };
    let first = analyse_kernel(module, kernel);
    let Some(plan) = plan_kernel(&first, options, shared, &mut report) else {
        return report;
    };
    let mut rt = Runtime::new(
        module,
        plan.lines.smallest,
        plan.lines.largest,
        options.prefetch,
        plan.pad,
        options.warp_copies,
    );
    let slots = KernelSlots::add(module, kernel, &first, &plan, &mut report);
    for chosen in &plan.loops {
        emit_loop(
            module,
            kernel,
            &mut rt,
            (&plan, &slots),
            chosen,
            &mut report,
        );
    }
    cleanup(module, kernel, &rt);
    report.applied = true;
    report
}

/// The shared memory the kernel takes itself, beside which its lines must
/// fit; `None`, with the reason in `report`, when the kernel is not to be
/// transformed at all (the transform is off, the kernel is transformed
/// already, or it uses dynamic shared memory of unknown size).
fn shared_beside_lines(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    options: &Options,
    report: &mut TransformReport,
) -> Option<KernelShared> {
    if !options.transform {
        report.reasons.push(Reason::Disabled);
        return None;
    }
    let loc = inkwell::attributes::AttributeLoc::Function;
    let optnone = inkwell::attributes::Attribute::get_named_enum_kind_id("optnone");
    if kernel.get_enum_attribute(loc, optnone).is_some() {
        report.reasons.push(Reason::Unoptimized);
        return None;
    }
    if let Some(buffer_name) = [false, true]
        .map(|launch| line_buffer_name(kernel, launch))
        .into_iter()
        .find(|name| module.get_global(name).is_some())
    {
        report.reasons.push(Reason::AlreadyTransformed {
            buffer: buffer_name,
        });
        return None;
    }
    let (mut bytes, dynamic) = kernel_shared_memory(module, kernel);
    report.kernel_shared_bytes = bytes;
    if dynamic {
        // The line buffer is static: beside dynamic shared memory it may
        // make a launch ask for more than a block gets, so it takes only
        // what the declared most leaves.
        let Some(declared) = options.dynamic_shared else {
            report.reasons.push(Reason::DynamicSharedUnknown);
            return None;
        };
        report.dynamic_shared_bytes = Some(declared);
        bytes += declared;
    }
    Some(KernelShared { bytes, dynamic })
}

/// Slices chosen loop `chosen` on a fresh analysis of the kernel (earlier
/// loops changed it) and adds what was done to `report`.
fn emit_loop<'m>(
    module: &'m Module<'_>,
    kernel: FunctionValue<'_>,
    rt: &mut Runtime<'_, '_>,
    (plan, slots): (&KernelPlan<'_, 'm>, &KernelSlots<'m>),
    chosen: &ChosenLoop<'m>,
    report: &mut TransformReport,
) {
    let fresh = analyse_kernel(module, kernel);
    // The arguments the loop's alias checks keep apart are restrict here,
    // as the plan took them.
    let k = if chosen.apart.is_empty() {
        fresh
    } else {
        fresh.with_restrict(&chosen.apart)
    };
    let Some(l) = k
        .loops
        .loops
        .iter()
        .find(|l| l.depth == 1 && k.blocks[l.header] == chosen.header)
    else {
        return;
    };
    let scope = crate::analysis::affine::LoopScope::new(k.function, &k.blocks, l);
    let lane_forms = if chosen.uniform {
        BTreeMap::new()
    } else {
        let in_loop: Vec<&Access<'_>> = k
            .accesses
            .iter()
            .filter(|a| l.blocks.contains(&a.block))
            .collect();
        let mut forms = lanes::lane_tested(&k, &scope, &in_loop);
        forms.retain(|id, _| chosen.hot.contains(id) && !chosen.lane_distances.contains_key(id));
        lanes::without_uniform_terms(&k, forms)
    };
    if !lane_forms.is_empty() {
        report.lane_tests.push(LaneTestReport {
            loop_header: chosen.label.clone(),
            arguments: lane_forms
                .keys()
                .map(|&id| k.data_structures[id as usize].name.clone())
                .collect(),
            min_bytes: lanes::HARDWARE_LINE_BYTES,
        });
    }
    // Structures cached in another loop but cold in this one go direct here.
    let loop_states: Vec<Option<State>> = slots
        .states
        .iter()
        .enumerate()
        .map(|(id, s)| {
            s.filter(|_| chosen.hot.contains(&(id as u32)))
                .map(|s| State {
                    restrict: s.restrict || chosen.apart.contains(&s.id),
                    ..s
                })
        })
        .collect();
    let slice = LoopSlice {
        k: &k,
        plan,
        chosen,
        slots,
        blocks: l.blocks.iter().map(|&b| k.blocks[b]).collect(),
        states: loop_states,
        exit: scope.counted_exit(),
        lane_forms,
    };
    let (cached, direct, mut runs) = slice.apply(rt, &chosen.label);
    if let Some(r) = runs.as_mut().filter(|_| chosen.read_only_in_runs) {
        r.detail.push_str(&format!(
            "; the loop only reads the structures it caches, and its read-only structures \
             are cached for these runs (checked lines of a read-only stream lose to the \
             hardware L1), in lines of up to {} B",
            plan.lines.largest
        ));
    }
    report.accesses_cached += cached;
    report.accesses_direct.extend(direct);
    report.line_runs.extend(runs);
    report.loops_sliced.push(chosen.label.clone());
}

/// A transformed kernel without launch bounds declares the block size its
/// line buffer is sized for (`nvvm.maxntid`, PTX `.maxntid`), so that
/// ptxas keeps its registers within what a block that large may use. The
/// cache's state took `soa` to 96 registers a thread and `scatter` to 72,
/// and their launches of 1024 threads a block failed (too many resources)
/// where the builds without S-L1 ran (H100, 2026-11-25). Declared once the
/// transform has succeeded (a kernel restored after a failure keeps its
/// attributes as they were).
pub(crate) fn declare_block_size<'ctx>(
    module: &Module<'ctx>,
    kernel: FunctionValue<'ctx>,
    threads: u32,
) {
    let loc = inkwell::attributes::AttributeLoc::Function;
    let name = kernel.get_name().to_string_lossy().into_owned();
    if kernel.get_string_attribute(loc, "nvvm.maxntid").is_some()
        || crate::llvm::ir::annotated_max_threads(module, &name).is_some()
    {
        return;
    }
    let context = kernel.get_type().get_context();
    if cfg!(feature = "llvm19") {
        // LLVM 19 reads launch bounds from `!nvvm.annotations` only.
        let node = context.metadata_node(&[
            kernel.as_global_value().as_pointer_value().into(),
            context.metadata_string("maxntidx").into(),
            context
                .i32_type()
                .const_int(u64::from(threads), false)
                .into(),
        ]);
        module
            .add_global_metadata("nvvm.annotations", &node)
            .expect("nvvm.annotations is a named metadata list");
    } else {
        let bound = context.create_string_attribute("nvvm.maxntid", &threads.to_string());
        kernel.add_attribute(loc, bound);
    }
}

/// Inlines the runtime and promotes the state slots back to registers.
fn cleanup(module: &Module<'_>, kernel: FunctionValue<'_>, rt: &Runtime<'_, '_>) {
    build::run_module_passes(module, c"always-inline");
    Function::of(module, kernel)
        .run_function_passes(c"sroa,early-cse,instcombine<no-verify-fixpoint>,simplifycfg");
    for name in rt.helper_names() {
        if let Some(f) = module.get_function(&name) {
            if !Value::of(f).has_uses() {
                build::delete_function(f);
            }
        }
    }
}

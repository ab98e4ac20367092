//! What every sliced loop of a kernel shares, added once per kernel: the
//! line buffer, each cached structure's state slots, the monitoring count,
//! the picked line size and the statistics counters.

use inkwell::llvm_sys::prelude::*;
use inkwell::module::{Linkage, Module};
use inkwell::values::{AsValueRef, FunctionValue};
use inkwell::AddressSpace;

use crate::llvm::{build, edit};
use crate::runtime::ADDRSPACE_SHARED;

use super::plan::KernelPlan;
use super::reports::TransformReport;
use super::state::{const_int, i32_type, new_state, store_before_entry_end, State};
use super::stats::{self, Stats};

/// What every sliced loop of a kernel shares: the line buffer, each cached
/// structure's state, the monitoring count, the picked line size and the
/// statistics counters.
pub(super) struct KernelSlots {
    pub(super) buffer: LLVMValueRef,
    pub(super) states: Vec<Option<State>>,
    pub(super) count: LLVMValueRef,
    /// The slot of the line size each loop's decision picks, when it picks
    /// one (`LineSizes::picked`); else the size is fixed.
    pub(super) line_bytes: Option<LLVMValueRef>,
    /// Counters of the statistics build.
    pub(super) stats: Option<Stats>,
}

impl KernelSlots {
    pub(super) fn add(
        module: &Module<'_>,
        kernel: FunctionValue<'_>,
        k: &crate::analysis::KernelAnalysis<'_>,
        plan: &KernelPlan<'_>,
        report: &mut TransformReport,
    ) -> KernelSlots {
        let line = plan.lines.smallest;
        let buffer = add_line_buffer(
            module,
            kernel,
            plan.launch_bytes.is_none().then_some(plan.buffer),
        );
        let function = kernel.as_value_ref();
        let kernel_name = kernel.get_name().to_string_lossy().into_owned();
        let stats = plan.options.stats.then(|| {
            report.stats_symbol = Some(stats::symbol(&kernel_name));
            Stats::add_global(module.as_mut_ptr(), &kernel_name, k.data_structures.len())
        });
        let states: Vec<Option<State>> = k
            .data_structures
            .iter()
            .map(|d| {
                plan.structures.contains(&d.id).then(|| {
                    new_state(
                        function,
                        buffer,
                        d,
                        (plan.options.stats, plan.lines.largest),
                    )
                })
            })
            .collect();
        let count = edit::entry_alloca(function, i32_type(function), "sl1.count");
        store_before_entry_end(function, count, const_int(i32_type(function), 0));
        let line_bytes = plan.lines.picked().then(|| {
            let i64t = build::i64_type(build::context_of(function));
            let slot = edit::entry_alloca(function, i64t, "sl1.line.bytes");
            store_before_entry_end(function, slot, const_int(i64t, i64::from(line)));
            slot
        });
        KernelSlots {
            buffer,
            states,
            count,
            line_bytes,
            stats,
        }
    }
}

/// The line buffer: a static array of `bytes`, or without them the
/// launch-sized one, an `extern __shared__` array (PTX `.extern .shared`)
/// that starts where the launch's dynamic shared memory does.
fn add_line_buffer(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    bytes: Option<u64>,
) -> LLVMValueRef {
    let ctx = module.get_context();
    let ty = ctx.i8_type().array_type(bytes.unwrap_or(0) as u32);
    let name = line_buffer_name(kernel, bytes.is_none());
    let global = module.add_global(ty, Some(AddressSpace::from(ADDRSPACE_SHARED)), &name);
    if bytes.is_some() {
        global.set_linkage(Linkage::Internal);
        global.set_initializer(&ty.get_poison());
    } else {
        global.set_linkage(Linkage::External);
    }
    global.set_alignment(crate::runtime::LINE_BUFFER_ALIGN);
    global.as_value_ref()
}

/// The buffer's global: a launch-sized one is external, and PTX keeps
/// external names as they are, so its name is a PTX identifier.
pub(super) fn line_buffer_name(kernel: FunctionValue<'_>, launch_sized: bool) -> String {
    let kernel = kernel.get_name().to_string_lossy();
    if launch_sized {
        format!("sl1_lines_{kernel}")
    } else {
        format!("sl1.lines.{kernel}")
    }
}

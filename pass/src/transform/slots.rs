//! What every sliced loop of a kernel shares, added once per kernel: the
//! line buffer, each cached structure's state slots, the monitoring count,
//! the picked line size and the statistics counters.

use inkwell::module::{Linkage, Module};
use inkwell::values::FunctionValue;
use inkwell::AddressSpace;

use crate::llvm::ir::Value;
use crate::runtime::ADDRSPACE_SHARED;

use super::plan::KernelPlan;
use super::reports::TransformReport;
use super::state::{new_state, store_before_entry_end, State};
use super::stats::{self, Stats};

/// What every sliced loop of a kernel shares: the line buffer, each cached
/// structure's state, the monitoring count, the picked line size and the
/// statistics counters.
pub(super) struct KernelSlots<'m> {
    pub(super) buffer: Value<'m>,
    pub(super) states: Vec<Option<State<'m>>>,
    pub(super) count: Value<'m>,
    /// The slot of the line size each loop's decision picks, when it picks
    /// one (`LineSizes::picked`); else the size is fixed.
    pub(super) line_bytes: Option<Value<'m>>,
    /// Counters of the statistics build.
    pub(super) stats: Option<Stats<'m>>,
}

impl<'m> KernelSlots<'m> {
    pub(super) fn add(
        module: &Module<'_>,
        kernel: FunctionValue<'_>,
        k: &crate::analysis::KernelAnalysis<'m>,
        plan: &KernelPlan<'_, 'm>,
        report: &mut TransformReport,
    ) -> KernelSlots<'m> {
        let line = plan.lines.smallest;
        let buffer = add_line_buffer(
            module,
            kernel,
            plan.launch_bytes.is_none().then_some(plan.buffer),
        );
        let function = k.function;
        let kernel_name = kernel.get_name().to_string_lossy().into_owned();
        let stats = plan.options.stats.then(|| {
            report.stats_symbol = Some(stats::symbol(&kernel_name));
            Stats::add_global(k.function, k.data_structures.len())
        });
        let states: Vec<Option<State<'m>>> = k
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
        let i32t = function.int_type(32);
        let count = function.entry_alloca(i32t, "sl1.count");
        store_before_entry_end(function, count, i32t.signed(0));
        let line_bytes = plan.lines.picked().then(|| {
            let i64t = function.int_type(64);
            let slot = function.entry_alloca(i64t, "sl1.line.bytes");
            store_before_entry_end(function, slot, i64t.signed(i64::from(line)));
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
fn add_line_buffer<'m>(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    bytes: Option<u64>,
) -> Value<'m> {
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
    Value::of(global)
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

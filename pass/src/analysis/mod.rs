//! What the transformation needs to know about each kernel: its data structures,
//! their accesses, its loops and its coherence points.

pub mod accesses;
pub mod affine;
mod kernel;
pub mod lane_step;
pub mod lone_lane;
pub mod loops;
pub mod reuse;
pub mod scopes;
pub mod source_names;
pub mod stride;
pub mod sync;
pub mod warp_uniform;

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::llvm::ir::{self, Function};
use accesses::collect_accesses;
pub use kernel::{DataStructure, KernelAnalysis, Mode};
use loops::{find_loops, LoopForest};
use sync::collect_sync_points;

/// Whether the module is compiled for the 64-bit NVPTX target.
pub fn is_device_module(module: &Module<'_>) -> bool {
    ir::target_triple(module).starts_with("nvptx64")
}

/// Kernels of the module: `ptx_kernel` functions, or those `!nvvm.annotations`
/// marks as kernels, in module order.
pub fn find_kernels<'ctx>(module: &Module<'ctx>) -> Vec<FunctionValue<'ctx>> {
    let annotated = ir::annotated_kernels(module);
    module
        .get_functions()
        .filter(|f| {
            let view = Function::of(module, *f);
            !view.is_declaration()
                && (view.call_conv() == ir::PTX_KERNEL_CALL_CONV
                    || annotated.contains(&view.name()))
        })
        .collect()
}

/// The blocks of `function` in layout order and its loops (block indices
/// into that order).
pub fn loop_forest(function: Function<'_>) -> (Vec<ir::Block<'_>>, LoopForest) {
    let blocks = function.blocks();
    let edges: Vec<(usize, usize)> = blocks
        .iter()
        .enumerate()
        .flat_map(|(i, b)| {
            let blocks = &blocks;
            b.successors()
                .into_iter()
                .filter_map(move |s| blocks.iter().position(|x| *x == s).map(|j| (i, j)))
        })
        .collect();
    let loops = find_loops(blocks.len(), &edges);
    (blocks, loops)
}

/// Analyses one kernel of `module`.
pub fn analyse_kernel<'m>(module: &'m Module<'_>, kernel: FunctionValue<'_>) -> KernelAnalysis<'m> {
    let function = Function::of(module, kernel);
    let (blocks, loops) = loop_forest(function);
    let accesses = collect_accesses(function, &blocks);
    let sync_points = collect_sync_points(&blocks);

    let params = function.params();
    // Names clang discarded, read from the source when it can be found.
    let source_names = params
        .iter()
        .any(|p| p.pointer_address_space().is_some() && p.name().is_empty())
        .then(|| {
            let symbol = function.name();
            let kernel =
                source_names::base_name(&symbol, source_names::demangle(&symbol).as_deref());
            let path = module.get_source_file_name().to_string_lossy().into_owned();
            source_names::parameter_names(std::path::Path::new(&path), &kernel, params.len())
        })
        .flatten()
        .unwrap_or_default();
    let data_structures = params
        .into_iter()
        .enumerate()
        .filter(|(_, p)| p.pointer_address_space().is_some())
        .enumerate()
        .map(|(id, (arg_index, param))| {
            let arg_index = arg_index as u32;
            let mine = || {
                accesses
                    .iter()
                    .filter(move |a| a.base.may_touch_argument(arg_index))
            };
            // Accesses that may go through this argument count, so that a
            // select between two arguments makes both read-write.
            let mode = if mine().any(|a| a.kind.writes()) {
                Mode::ReadWrite
            } else if mine().next().is_some() {
                Mode::ReadOnly
            } else {
                Mode::Unused
            };
            let name = Some(param.name())
                .filter(|n| !n.is_empty())
                .or_else(|| source_names.get(arg_index as usize).cloned().flatten())
                .unwrap_or_else(|| format!("arg{arg_index}"));
            DataStructure {
                id: id as u32,
                arg_index,
                name,
                restrict: function.param_has_attribute(arg_index, "noalias"),
                mode,
            }
        })
        .collect();

    KernelAnalysis {
        function,
        name: function.name(),
        blocks,
        data_structures,
        accesses,
        loops,
        sync_points,
    }
}

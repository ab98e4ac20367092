//! Atomic loads through `noalias readonly` kernel arguments (`nvptx_bugs`).

use std::collections::BTreeSet;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::module::Module;
use inkwell::values::{FunctionValue, InstructionOpcode, InstructionValue};
use inkwell::AtomicOrdering;

use crate::analysis;
use crate::analysis::accesses::{trace_base, Base};
use crate::llvm::ir::Value;

/// Takes `readonly` off every kernel argument that is also `noalias` and
/// that an atomic load reads through; returns how many arguments changed.
pub fn keep_atomic_loads_coherent(module: &Module<'_>) -> usize {
    let readonly = Attribute::get_named_enum_kind_id("readonly");
    let noalias = Attribute::get_named_enum_kind_id("noalias");
    let mut changed = 0;
    for kernel in analysis::find_kernels(module) {
        for index in atomically_read_arguments(kernel) {
            let at = AttributeLoc::Param(index);
            if kernel.get_enum_attribute(at, noalias).is_some()
                && kernel.get_enum_attribute(at, readonly).is_some()
            {
                kernel.remove_enum_attribute(at, readonly);
                changed += 1;
            }
        }
    }
    changed
}

/// The arguments some atomic load of `kernel` may read through.
fn atomically_read_arguments(kernel: FunctionValue<'_>) -> BTreeSet<u32> {
    let mut args = BTreeSet::new();
    for block in kernel.get_basic_blocks() {
        for inst in block.get_instructions() {
            if !is_atomic_load(inst) {
                continue;
            }
            let Some(pointer) = inst.get_operand(0).and_then(|o| o.value()) else {
                continue;
            };
            match trace_base(Value::of(pointer)) {
                Base::Argument(index) => {
                    args.insert(index);
                }
                Base::Mixed(indices) => args.extend(indices),
                _ => {}
            }
        }
    }
    args
}

fn is_atomic_load(inst: InstructionValue<'_>) -> bool {
    inst.get_opcode() == InstructionOpcode::Load
        && inst
            .get_atomic_ordering()
            .is_ok_and(|o| o != AtomicOrdering::NotAtomic)
}

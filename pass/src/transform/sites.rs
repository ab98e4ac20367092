//! Which accesses can go through the cache, and their operands.

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMTypeKind;

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::KernelAnalysis;

use super::reports::DirectReason;

/// Why an access cannot go through the cache, if it cannot.
pub(super) fn uncacheable_reason(
    k: &KernelAnalysis<'_>,
    a: &Access<'_>,
    line_size: u32,
) -> Option<DirectReason> {
    k.data_structure_of(a)?;
    match a.kind {
        AccessKind::Load | AccessKind::Store => {}
        AccessKind::AtomicRmw | AccessKind::CmpXchg => return Some(DirectReason::Atomic),
        AccessKind::RangeRead | AccessKind::RangeWrite => return Some(DirectReason::Range),
    }
    if a.volatile {
        return Some(DirectReason::Volatile);
    }
    // Dirty bits of one access are built from a u64 mask.
    if !a.size.is_power_of_two() || a.size > u64::from(line_size) || a.size > 64 {
        return Some(DirectReason::OddSize);
    }
    let ty = access_type(a.inst.as_raw(), a.kind);
    let kind = build::type_kind(ty);
    if matches!(
        kind,
        LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind
    ) {
        return Some(DirectReason::Aggregate);
    }
    None
}

/// The type a load produces or a store writes.
pub(super) fn access_type(inst: LLVMValueRef, kind: AccessKind) -> LLVMTypeRef {
    match kind {
        AccessKind::Store => build::type_of(build::operand(inst, 0)),
        _ => build::type_of(inst),
    }
}

pub(super) fn pointer_operand(inst: LLVMValueRef, kind: AccessKind) -> LLVMValueRef {
    build::operand(inst, if kind == AccessKind::Store { 1 } else { 0 })
}

//! Which accesses can go through the cache, and their operands.

use crate::llvm::ir::{Type, Value};

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
        AccessKind::AtomicLoad
        | AccessKind::AtomicStore
        | AccessKind::AtomicRmw
        | AccessKind::CmpXchg => return Some(DirectReason::Atomic),
        AccessKind::RangeRead | AccessKind::RangeWrite => return Some(DirectReason::Range),
    }
    if a.volatile {
        return Some(DirectReason::Volatile);
    }
    // Dirty bits of one access are built from a u64 mask.
    if !a.size.is_power_of_two() || a.size > u64::from(line_size) || a.size > 64 {
        return Some(DirectReason::OddSize);
    }
    if access_type(a.inst, a.kind).is_aggregate() {
        return Some(DirectReason::Aggregate);
    }
    None
}

/// The type a load produces or a store writes.
pub(super) fn access_type(inst: Value<'_>, kind: AccessKind) -> Type<'_> {
    match kind {
        AccessKind::Store | AccessKind::AtomicStore => stored_value(inst).ty(),
        _ => inst.ty(),
    }
}

/// The address a load or store accesses.
pub(super) fn pointer_operand(inst: Value<'_>, kind: AccessKind) -> Value<'_> {
    let index = if kind.address_is_second() { 1 } else { 0 };
    inst.operand(index).expect("an access has its address")
}

/// The value a store writes.
pub(super) fn stored_value(store: Value<'_>) -> Value<'_> {
    store.operand(0).expect("a store has its value")
}

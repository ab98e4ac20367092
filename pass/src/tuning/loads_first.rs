//! Device tuning: a load goes ahead of the stores before it in its block
//! that LLVM knows it cannot touch.
//!
//! ptxas keeps a global load behind a global store unless it can tell their
//! addresses apart, which it can for one base register and two offsets but
//! not for two pointers, and the NVPTX backend emits a block's memory
//! accesses in the IR's order. Where LLVM knows two pointers apart (the
//! scopes of the run-time alias checks' copy, `alias_checks`; the
//! inliner's scopes of `__restrict__` parameters; two `noalias` kernel
//! arguments), an unrolled loop still issued each iteration's loads after
//! the previous iteration's store: a row's tridiagonal sweep waited for
//! every load in turn. `__restrict__` arguments that are only read escape
//! through `ld.global.nc`, which ptxas moves freely, so the checked copy
//! without restrict ran 0.54x of the restrict kernel (back substitution,
//! H200, 2026-11-28).
//!
//! Each plain load moves in front of the stores it may pass: those after
//! the last instruction it must follow (a store LLVM cannot keep apart from
//! it, anything else that writes memory or orders it: calls, atomics,
//! fences, volatile or atomic loads), and after the definitions of its
//! operands that cannot move. Pure address arithmetic it depends on moves
//! up with it; moving an instruction earlier in its block keeps it ahead of
//! all its uses. A load that passes no store stays where it is.

use inkwell::module::Module;

use crate::llvm::ir::{defined_functions, Block, Function, Opcode, Value, ValueKind};
use crate::llvm::metadata;

/// Moves loads ahead of the stores they cannot touch in every function of
/// `module`; returns how many loads moved.
pub fn move_loads_first(module: &Module<'_>) -> usize {
    let mut moved = 0;
    for view in defined_functions(module) {
        for block in view.blocks() {
            moved += move_in_block(view, block);
        }
    }
    moved
}

fn move_in_block(function: Function<'_>, block: Block<'_>) -> usize {
    // Most blocks have no store a load could pass.
    let stores = |inst: &Value<'_>| inst.is_plain_store() && in_global_memory(*inst, 1);
    if !block.instructions().iter().any(stores) {
        return 0;
    }
    let mut moved = 0;
    for load in block.instructions() {
        if !load.is_plain_load() || !in_global_memory(load, 0) {
            continue;
        }
        let insts = block.instructions();
        let at = position(&insts, load);
        // After the last instruction before it that it must follow in
        // memory order, the first store it passes: the load goes in front
        // of that store, after the loads moved there before it, so that
        // loads keep their order and nothing else moves for nothing.
        let floor = insts[..at]
            .iter()
            .rposition(|&inst| must_follow(function, load, inst))
            .map_or(first_movable(&insts), |i| i + 1);
        let Some(store) = (floor..at).find(|&i| stores(&insts[i])) else {
            continue;
        };
        if hoist(block, load, store) < at {
            moved += 1;
        }
    }
    moved
}

/// Moves `inst` up to the earliest position at or after `floor` that its
/// operands allow, moving pure operands of its block first; returns its new
/// position.
fn hoist(block: Block<'_>, inst: Value<'_>, floor: usize) -> usize {
    let operands: Vec<Value<'_>> = inst
        .operands()
        .into_iter()
        .filter(|&op| op.opcode().is_some() && op.parent_block() == Some(block))
        .collect();
    for &op in &operands {
        let op_at = position(&block.instructions(), op);
        if op_at >= floor && is_pure(op) {
            hoist(block, op, floor);
        }
    }
    // Where the operands are now: each move above shifts those after it.
    let insts = block.instructions();
    let earliest = operands
        .iter()
        .map(|&op| position(&insts, op) + 1)
        .fold(floor, usize::max);
    let at = position(&insts, inst);
    if earliest < at {
        inst.move_before(insts[earliest]);
        earliest
    } else {
        at
    }
}

fn position(insts: &[Value<'_>], inst: Value<'_>) -> usize {
    insts
        .iter()
        .position(|&i| i == inst)
        .expect("the instruction is in the block")
}

/// The first position after the block's phis.
fn first_movable(insts: &[Value<'_>]) -> usize {
    insts.iter().take_while(|i| i.is_phi()).count()
}

/// Arithmetic without memory, traps or order: what address computations
/// are made of.
fn is_pure(inst: Value<'_>) -> bool {
    matches!(
        inst.opcode(),
        Some(
            Opcode::LLVMAdd
                | Opcode::LLVMSub
                | Opcode::LLVMMul
                | Opcode::LLVMShl
                | Opcode::LLVMLShr
                | Opcode::LLVMAShr
                | Opcode::LLVMOr
                | Opcode::LLVMAnd
                | Opcode::LLVMXor
                | Opcode::LLVMSExt
                | Opcode::LLVMZExt
                | Opcode::LLVMTrunc
                | Opcode::LLVMICmp
                | Opcode::LLVMSelect
                | Opcode::LLVMGetElementPtr
                | Opcode::LLVMAddrSpaceCast
        )
    )
}

/// Whether `load` must stay after `inst`.
fn must_follow(function: Function<'_>, load: Value<'_>, inst: Value<'_>) -> bool {
    match inst.opcode() {
        Some(Opcode::LLVMLoad) => !inst.is_plain_load(),
        Some(Opcode::LLVMStore) => !(inst.is_plain_store() && apart(function, load, inst)),
        _ => inst.may_write_memory(),
    }
}

/// Whether the pointer operand `pointer` of `access` is global or generic:
/// what ptxas cannot tell apart by its state space. Shared memory (S-L1's
/// lines) and local memory are left in the order they have.
pub(super) fn in_global_memory(access: Value<'_>, pointer: u32) -> bool {
    matches!(space(access, pointer), Some(0 | 1))
}

fn space(access: Value<'_>, pointer: u32) -> Option<u32> {
    access.operand(pointer)?.pointer_address_space()
}

/// Whether LLVM knows `load` and `store` to touch different bytes: two
/// state spaces other than the generic one, scopes that keep them apart, or
/// addresses based on two different `noalias` arguments of the function.
pub(super) fn apart(function: Function<'_>, load: Value<'_>, store: Value<'_>) -> bool {
    match (space(load, 0), space(store, 1)) {
        (Some(a), Some(b)) if a != 0 && b != 0 && a != b => return true,
        _ => {}
    }
    if metadata::scoped_apart(load, store) {
        return true;
    }
    let base =
        |access: Value<'_>, pointer: u32| noalias_argument(function, access.operand(pointer)?);
    matches!((base(load, 0), base(store, 1)), (Some(a), Some(b)) if a != b)
}

/// The index of the `noalias` argument `pointer` is based on, through
/// `getelementptr`s and casts.
fn noalias_argument(function: Function<'_>, pointer: Value<'_>) -> Option<u32> {
    match base_pointer(Some(pointer))?.kind() {
        ValueKind::Argument { index } => function
            .param_has_attribute(index, "noalias")
            .then_some(index),
        _ => None,
    }
}

/// The pointer `pointer` is based on, through `getelementptr`s and casts.
pub(super) fn base_pointer(pointer: Option<Value<'_>>) -> Option<Value<'_>> {
    let mut value = pointer?;
    loop {
        match value.kind() {
            ValueKind::Instruction(
                Opcode::LLVMGetElementPtr | Opcode::LLVMAddrSpaceCast | Opcode::LLVMBitCast,
            ) => value = value.operand(0)?,
            _ => return Some(value),
        }
    }
}

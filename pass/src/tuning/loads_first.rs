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

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode;
use inkwell::module::Module;

use crate::llvm::build;
use crate::llvm::edit;
use crate::llvm::ir::{Function, Value, ValueKind};
use crate::llvm::metadata;

/// Moves loads ahead of the stores they cannot touch in every function of
/// `module`; returns how many loads moved.
pub fn move_loads_first(module: &Module<'_>) -> usize {
    let mut moved = 0;
    for function in module.get_functions() {
        let view = Function::of(module, function);
        if view.is_declaration() {
            continue;
        }
        for block in view.blocks() {
            moved += move_in_block(view, block.as_raw_block());
        }
    }
    moved
}

fn move_in_block(function: Function<'_>, block: LLVMBasicBlockRef) -> usize {
    // Most blocks have no store a load could pass.
    let stores = |inst: &LLVMValueRef| build::is_plain_store(*inst) && in_global_memory(*inst, 1);
    if !edit::instructions(block).iter().any(stores) {
        return 0;
    }
    let mut moved = 0;
    for load in edit::instructions(block) {
        if !build::is_plain_load(load) || !in_global_memory(load, 0) {
            continue;
        }
        let insts = edit::instructions(block);
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
fn hoist(block: LLVMBasicBlockRef, inst: LLVMValueRef, floor: usize) -> usize {
    let operands: Vec<LLVMValueRef> = (0..build::num_operands(inst))
        .map(|i| build::operand(inst, i))
        .filter(|&op| build::is_instruction(op) && build::instruction_block(op) == block)
        .collect();
    for &op in &operands {
        let op_at = position(&edit::instructions(block), op);
        if op_at >= floor && is_pure(op) {
            hoist(block, op, floor);
        }
    }
    // Where the operands are now: each move above shifts those after it.
    let insts = edit::instructions(block);
    let earliest = operands
        .iter()
        .map(|&op| position(&insts, op) + 1)
        .fold(floor, usize::max);
    let at = position(&insts, inst);
    if earliest < at {
        edit::move_before(inst, insts[earliest]);
        earliest
    } else {
        at
    }
}

fn position(insts: &[LLVMValueRef], inst: LLVMValueRef) -> usize {
    insts
        .iter()
        .position(|&i| i == inst)
        .expect("the instruction is in the block")
}

/// The first position after the block's phis.
fn first_movable(insts: &[LLVMValueRef]) -> usize {
    insts.iter().take_while(|&&i| edit::is_phi(i)).count()
}

/// Arithmetic without memory, traps or order: what address computations
/// are made of.
fn is_pure(inst: LLVMValueRef) -> bool {
    matches!(
        build::opcode(inst),
        LLVMOpcode::LLVMAdd
            | LLVMOpcode::LLVMSub
            | LLVMOpcode::LLVMMul
            | LLVMOpcode::LLVMShl
            | LLVMOpcode::LLVMLShr
            | LLVMOpcode::LLVMAShr
            | LLVMOpcode::LLVMOr
            | LLVMOpcode::LLVMAnd
            | LLVMOpcode::LLVMXor
            | LLVMOpcode::LLVMSExt
            | LLVMOpcode::LLVMZExt
            | LLVMOpcode::LLVMTrunc
            | LLVMOpcode::LLVMICmp
            | LLVMOpcode::LLVMSelect
            | LLVMOpcode::LLVMGetElementPtr
            | LLVMOpcode::LLVMAddrSpaceCast
    )
}

/// Whether `load` must stay after `inst`.
fn must_follow(function: Function<'_>, load: LLVMValueRef, inst: LLVMValueRef) -> bool {
    let Some(view) = Value::from_raw(inst) else {
        return true;
    };
    match view.opcode() {
        Some(LLVMOpcode::LLVMLoad) => !build::is_plain_load(inst),
        Some(LLVMOpcode::LLVMStore) => {
            !(build::is_plain_store(inst) && apart(function, load, inst))
        }
        _ => view.may_write_memory(),
    }
}

/// Whether the pointer operand `pointer` of `access` is global or generic:
/// what ptxas cannot tell apart by its state space. Shared memory (S-L1's
/// lines) and local memory are left in the order they have.
fn in_global_memory(access: LLVMValueRef, pointer: u32) -> bool {
    matches!(space(access, pointer), Some(0 | 1))
}

fn space(access: LLVMValueRef, pointer: u32) -> Option<u32> {
    Value::from_raw(build::operand(access, pointer))?.pointer_address_space()
}

/// Whether LLVM knows `load` and `store` to touch different bytes: two
/// state spaces other than the generic one, scopes that keep them apart, or
/// addresses based on two different `noalias` arguments of the function.
fn apart(function: Function<'_>, load: LLVMValueRef, store: LLVMValueRef) -> bool {
    match (space(load, 0), space(store, 1)) {
        (Some(a), Some(b)) if a != 0 && b != 0 && a != b => return true,
        _ => {}
    }
    if metadata::scoped_apart(load, store) {
        return true;
    }
    let base = |access: LLVMValueRef, pointer: u32| {
        noalias_argument(function, build::operand(access, pointer))
    };
    matches!((base(load, 0), base(store, 1)), (Some(a), Some(b)) if a != b)
}

/// The index of the `noalias` argument `pointer` is based on, through
/// `getelementptr`s and casts.
fn noalias_argument(function: Function<'_>, pointer: LLVMValueRef) -> Option<u32> {
    let mut value = Value::from_raw(pointer)?;
    loop {
        match value.kind() {
            ValueKind::Argument { index } => {
                return function
                    .param_has_attribute(index, "noalias")
                    .then_some(index)
            }
            ValueKind::Instruction(
                LLVMOpcode::LLVMGetElementPtr
                | LLVMOpcode::LLVMAddrSpaceCast
                | LLVMOpcode::LLVMBitCast,
            ) => value = value.operand(0)?,
            _ => return None,
        }
    }
}

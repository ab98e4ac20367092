//! A run-time alias check (`alias_checks`) only where the loop runs long
//! enough to repay it: the check's arithmetic (each range's start and end
//! from the trip count and strides, 64-bit multiplies and an overflow test
//! per stride) runs every time the loop is entered, and the checked copy
//! saves its accesses per iteration. Entered for one to three iterations,
//! the check cost more than the copy saved: HeCBench's unfold backward
//! kernel (one iteration, a sum LICM keeps in a register in the copy) ran
//! 88 us with the check and 48 us without, vol2col (one and three
//! iterations at kernel sizes 1 and 3, nothing kept in a register) 12.0
//! and 51.1 us with, 8.7 and 35.1 us without (H200, 2026-11-30).
//!
//! The check's own arithmetic moves into a block of its own, entered only
//! when the loop's counted exit (`LoopScope::counted_exit`) has at least
//! `trips` iterations ahead; shorter loops take the original without it.
//! `trips` is the check's instruction count over the accesses per iteration
//! the copy saves once LICM has run (at least one): a check that lets LICM
//! keep a sum in a register is repaid in fewer iterations than one that
//! only gives S-L1 arguments apart.

use std::collections::HashMap;

use crate::analysis::affine::LoopScope;
use crate::analysis::loop_forest;
use crate::analysis::loops::LoopForest;
use crate::llvm::cfg::{clone_expression, insert_block_before};
use crate::llvm::ir::{Block, Function, IntPredicate as P, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// A check that got a trip guard, priced once LICM has run ([`price`]).
pub(super) struct TripGuard<'m> {
    /// The guard's branch: to the original when the loop is short.
    guard: Value<'m>,
    /// The iterations ahead times the step (a constant where the loop's
    /// start and end are), and the compare for "short" on it.
    distance: Value<'m>,
    predicate: P,
    /// `distance < 0`, which keeps `distance` in use until [`price`]
    /// compares it with the iterations that repay the check (a constant
    /// itself where `distance` is one).
    placeholder: Value<'m>,
    /// The distance the counted exit moves per iteration.
    step: u64,
    /// Instructions of the check itself, now behind the guard.
    check_instructions: usize,
    original_header: Block<'m>,
    copy_header: Block<'m>,
}

/// Puts each check's arithmetic behind a test of the loop's iterations
/// ahead; `checks`: (check block, checked copy's loop) of `forest`.
pub(super) fn guard<'m>(
    function: Function<'m>,
    blocks: &[Block<'m>],
    forest: &LoopForest,
    checks: &[(usize, usize)],
) -> Vec<TripGuard<'m>> {
    checks
        .iter()
        .filter_map(|&(check, copy)| guard_one(function, blocks, forest, blocks[check], copy))
        .collect()
}

fn guard_one<'m>(
    function: Function<'m>,
    blocks: &[Block<'m>],
    forest: &LoopForest,
    check: Block<'m>,
    copy: usize,
) -> Option<TripGuard<'m>> {
    let branch = check.terminator()?;
    let [original_entry, copy_entry] = check.successors()[..] else {
        return None;
    };
    let l = &forest.loops[copy];
    let copy_header = blocks[l.header];
    // Both paths are entered through preheaders without phis (those loop
    // versioning makes), which may gain a predecessor.
    let no_phis = |b: Block<'m>| !b.instructions().first().is_some_and(|i| i.is_phi());
    if copy_entry == copy_header || !no_phis(original_entry) || !no_phis(copy_entry) {
        return None;
    }
    let original_header = original_entry.only_branch_target()?;
    let exit = LoopScope::new(function, blocks, l).counted_exit().ok()?;
    let width = exit.x().ty().integer_width()?;
    let moved = check_arithmetic(check, branch);
    if moved.is_empty() {
        return None;
    }
    // The compared value on the first iteration: the header phis at their
    // values on entry.
    let on_entry: HashMap<Value<'m>, Value<'m>> = copy_header
        .instructions()
        .into_iter()
        .take_while(|i| i.is_phi())
        .filter_map(|phi| Some((phi, phi.incoming_from(copy_entry)?)))
        .collect();
    let in_loop: Vec<Block<'m>> = l.blocks.iter().map(|&i| blocks[i]).collect();
    let first = clone_expression(exit.x(), &in_loop, &on_entry, branch)?;
    let b = TypedBuilder::before(branch);
    let distance = if exit.step > 0 {
        b.sub(exit.bound(), first, c"sl1.check.trips")
    } else {
        b.sub(first, exit.bound(), c"sl1.check.trips")
    };
    let signed = matches!(
        exit.predicate,
        P::LLVMIntSLT | P::LLVMIntSLE | P::LLVMIntSGT | P::LLVMIntSGE
    );
    let predicate = if signed { P::LLVMIntSLT } else { P::LLVMIntULT };
    let placeholder = b.int_type(width).constant(0);
    let placeholder = b.icmp(predicate, distance, placeholder, c"");
    // The check's arithmetic and its branch move to a block the guard
    // enters; the check block ends in the guard.
    let checked = insert_block_before(copy_entry, c"sl1.check.ranges");
    let end = TypedBuilder::at_end(checked).br(copy_entry);
    for i in &moved {
        i.move_before(end);
    }
    branch.move_before(end);
    end.erase();
    // The original first, as the check's own branch has it (the blocks
    // are then laid out in the order they were without the guard).
    let guard = TypedBuilder::at_end(check).cond_br(placeholder, original_entry, checked);
    Some(TripGuard {
        guard,
        distance,
        predicate,
        placeholder,
        step: exit.step.unsigned_abs(),
        check_instructions: moved.len(),
        original_header,
        copy_header,
    })
}

/// The instructions of `check` that only compute its branch's condition,
/// in order: arithmetic whose every user is one of them or the branch.
fn check_arithmetic<'m>(check: Block<'m>, branch: Value<'m>) -> Vec<Value<'m>> {
    let mut moved: Vec<Value<'m>> = Vec::new();
    for i in check.instructions().into_iter().rev().skip(1) {
        let arithmetic = matches!(
            i.opcode(),
            Some(
                Opcode::LLVMAdd
                    | Opcode::LLVMSub
                    | Opcode::LLVMMul
                    | Opcode::LLVMUDiv
                    | Opcode::LLVMShl
                    | Opcode::LLVMLShr
                    | Opcode::LLVMAShr
                    | Opcode::LLVMAnd
                    | Opcode::LLVMOr
                    | Opcode::LLVMXor
                    | Opcode::LLVMICmp
                    | Opcode::LLVMSelect
                    | Opcode::LLVMZExt
                    | Opcode::LLVMSExt
                    | Opcode::LLVMTrunc
                    | Opcode::LLVMPtrToInt
                    | Opcode::LLVMIntToPtr
                    | Opcode::LLVMGetElementPtr
                    | Opcode::LLVMFreeze
                    | Opcode::LLVMCall
            )
        ) && (i.opcode() != Some(Opcode::LLVMCall) || is_pure_intrinsic(i));
        let users = i.users();
        if arithmetic
            && !users.is_empty()
            && users.iter().all(|u| *u == branch || moved.contains(u))
        {
            moved.push(i);
        }
    }
    moved.reverse();
    moved
}

/// The intrinsics loop versioning's checks call (`umin`/`umax` of the
/// ranges' ends, `umul.with.overflow` of a stride).
fn is_pure_intrinsic(call: Value<'_>) -> bool {
    call.called_function_name().is_some_and(|name| {
        [
            "llvm.umin.",
            "llvm.umax.",
            "llvm.smin.",
            "llvm.smax.",
            "llvm.umul.with.overflow.",
        ]
        .iter()
        .any(|p| name.starts_with(p))
    })
}

/// Sets each guard's iterations from the accesses per iteration LICM
/// removed from the copy (`function`'s loops as they are now).
pub(super) fn price(function: Function<'_>, guards: Vec<TripGuard<'_>>) {
    if guards.is_empty() {
        return;
    }
    let (blocks, forest) = loop_forest(function);
    let accesses = |header: Block<'_>| -> Option<usize> {
        let l = forest.loops.iter().find(|l| blocks[l.header] == header)?;
        Some(
            l.blocks
                .iter()
                .flat_map(|&b| blocks[b].instructions())
                .filter(|i| matches!(i.opcode(), Some(Opcode::LLVMLoad | Opcode::LLVMStore)))
                .count(),
        )
    };
    for g in guards {
        let saved = match (accesses(g.original_header), accesses(g.copy_header)) {
            (Some(original), Some(copy)) => original.saturating_sub(copy),
            _ => 0,
        };
        let trips = g.check_instructions.div_ceil(saved.max(1)) as u64;
        let b = TypedBuilder::before(g.guard);
        let enough = g.distance.ty().constant(trips.saturating_mul(g.step));
        let short = b.icmp(g.predicate, g.distance, enough, c"sl1.check.short");
        g.guard.set_operand(0, short);
        if g.placeholder.opcode() == Some(Opcode::LLVMICmp) {
            g.placeholder.erase();
        }
    }
}

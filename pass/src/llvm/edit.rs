//! Changes to the control-flow graph that the C API offers only piecemeal:
//! demoting values to stack slots, preheaders and single latches, and cloning
//! a loop's blocks.
//!
//! Values that cross a loop's boundary are demoted to allocas (as LLVM's
//! reg2mem does) so that the loop can be cloned and re-entered without phi
//! plumbing; SROA promotes them back to registers after the transform.

use std::collections::{BTreeSet, HashMap};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMOpcode;

pub use super::build::Builder;

/// Every block of `function`, in layout order.
pub fn blocks(function: LLVMValueRef) -> Vec<LLVMBasicBlockRef> {
    let mut out = Vec::new();
    // SAFETY: walks the block list of a live function.
    unsafe {
        let mut bb = LLVMGetFirstBasicBlock(function);
        while !bb.is_null() {
            out.push(bb);
            bb = LLVMGetNextBasicBlock(bb);
        }
    }
    out
}

/// The block after `block` in layout order (the first of `function` when
/// `block` is None), or None at the end: for walks that delete blocks behind
/// them, where a list taken before would hold deleted ones.
pub fn next_block(
    function: LLVMValueRef,
    block: Option<LLVMBasicBlockRef>,
) -> Option<LLVMBasicBlockRef> {
    // SAFETY: reads the block list of a live function.
    let next = unsafe {
        match block {
            None => LLVMGetFirstBasicBlock(function),
            Some(b) => LLVMGetNextBasicBlock(b),
        }
    };
    (!next.is_null()).then_some(next)
}

/// Instructions of `block`, in order.
pub fn instructions(block: LLVMBasicBlockRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: walks the instruction list of a live block.
    unsafe {
        let mut inst = LLVMGetFirstInstruction(block);
        while !inst.is_null() {
            out.push(inst);
            inst = LLVMGetNextInstruction(inst);
        }
    }
    out
}

pub fn terminator(block: LLVMBasicBlockRef) -> LLVMValueRef {
    // SAFETY: reads a live block.
    unsafe { LLVMGetBasicBlockTerminator(block) }
}

pub fn successors(block: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    let term = terminator(block);
    if term.is_null() {
        return Vec::new();
    }
    // SAFETY: `term` is a terminator; indices are in range.
    unsafe {
        (0..LLVMGetNumSuccessors(term))
            .map(|i| LLVMGetSuccessor(term, i))
            .collect()
    }
}

/// Points every edge from `from` to `old` at `new` instead.
pub fn retarget_edges(from: LLVMBasicBlockRef, old: LLVMBasicBlockRef, new: LLVMBasicBlockRef) {
    let term = terminator(from);
    // SAFETY: `term` is the terminator of a live block; indices are in range.
    unsafe {
        for i in 0..LLVMGetNumSuccessors(term) {
            if LLVMGetSuccessor(term, i) == old {
                LLVMSetSuccessor(term, i, new);
            }
        }
    }
}

/// The blocks that branch to `block`, each once, in the function's order.
/// Found from the block's users (the terminators that name it): scanning
/// every block's successors instead made rewrites that ask per block (the
/// switch selects) quadratic in the function's length.
pub fn predecessors(function: LLVMValueRef, block: LLVMBasicBlockRef) -> Vec<LLVMBasicBlockRef> {
    // SAFETY: `block` is a live block; its users are instructions or
    // constants (a block address), and an instruction's parent may be null.
    let found: Vec<LLVMBasicBlockRef> = unsafe {
        users(LLVMBasicBlockAsValue(block))
            .into_iter()
            .filter(|&u| !LLVMIsAInstruction(u).is_null())
            .map(|u| LLVMGetInstructionParent(u))
            .filter(|p| !p.is_null())
            .collect()
    };
    if found.len() < 2 {
        return found;
    }
    blocks(function)
        .into_iter()
        .filter(|b| found.contains(b))
        .collect()
}

pub fn is_phi(inst: LLVMValueRef) -> bool {
    // SAFETY: reads an instruction.
    unsafe { LLVMGetInstructionOpcode(inst) == LLVMOpcode::LLVMPHI }
}

/// The first instruction of `block` that is not a phi.
pub fn first_non_phi(block: LLVMBasicBlockRef) -> LLVMValueRef {
    instructions(block)
        .into_iter()
        .find(|i| !is_phi(*i))
        .expect("a block ends in a terminator")
}

/// Creates an alloca of `ty` at the start of the function's entry block.
pub fn entry_alloca(function: LLVMValueRef, ty: LLVMTypeRef, name: &str) -> LLVMValueRef {
    // SAFETY: the entry block exists in a function with a body.
    unsafe {
        let entry = LLVMGetEntryBasicBlock(function);
        let b = Builder::before(first_non_phi(entry));
        let name = std::ffi::CString::new(name).unwrap_or_default();
        LLVMBuildAlloca(b.raw(), ty, name.as_ptr())
    }
}

/// Replaces phi `phi` with a stack slot: each predecessor stores its incoming
/// value before branching, and the phi's uses read the slot. Returns the slot.
pub fn demote_phi(function: LLVMValueRef, phi: LLVMValueRef) -> LLVMValueRef {
    // SAFETY: `phi` is a live phi node of `function`.
    unsafe {
        let ty = LLVMTypeOf(phi);
        let slot = entry_alloca(function, ty, "sl1.phi");
        for i in 0..LLVMCountIncoming(phi) {
            let value = LLVMGetIncomingValue(phi, i);
            let pred = LLVMGetIncomingBlock(phi, i);
            Builder::before(terminator(pred)).store(value, slot);
        }
        let reload = Builder::before(first_non_phi(LLVMGetInstructionParent(phi))).load(ty, slot);
        LLVMReplaceAllUsesWith(phi, reload);
        LLVMInstructionEraseFromParent(phi);
        slot
    }
}

/// Users of `value` (instructions), each once.
pub fn users(value: LLVMValueRef) -> Vec<LLVMValueRef> {
    let mut out = Vec::new();
    // SAFETY: walks the use list of a live value.
    unsafe {
        let mut u = LLVMGetFirstUse(value);
        while !u.is_null() {
            let user = LLVMGetUser(u);
            if !out.contains(&user) {
                out.push(user);
            }
            u = LLVMGetNextUse(u);
        }
    }
    out
}

/// How many uses `value` has (an instruction using it twice counts twice).
pub fn use_count(value: LLVMValueRef) -> usize {
    let mut n = 0;
    // SAFETY: walks the use list of a live value.
    unsafe {
        let mut u = LLVMGetFirstUse(value);
        while !u.is_null() {
            n += 1;
            u = LLVMGetNextUse(u);
        }
    }
    n
}

/// Whether `v` is a constant (a global's address included).
pub fn is_constant(v: LLVMValueRef) -> bool {
    // SAFETY: only inspects `v`.
    unsafe { !LLVMIsAConstant(v).is_null() }
}

/// The value of integer constant `v` as unsigned, if it is one of at most
/// 64 bits.
pub fn const_unsigned(v: LLVMValueRef) -> Option<u64> {
    // SAFETY: only inspects `v`; reads it as a constant integer when it is one.
    unsafe {
        if LLVMIsAConstantInt(v).is_null() || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64 {
            return None;
        }
        Some(LLVMConstIntGetZExtValue(v))
    }
}

/// The calls whose callee is `function`, anywhere in its module: `call`
/// and `invoke` (a call in a function with objects to destroy on
/// unwinding); a use as an argument is not a call of it.
pub fn calls_to<'ctx>(
    function: inkwell::values::FunctionValue<'ctx>,
) -> Vec<inkwell::values::InstructionValue<'ctx>> {
    use inkwell::values::AsValueRef;
    let callee = function.as_value_ref();
    users(callee)
        .into_iter()
        .filter(|&user| {
            // SAFETY: `user` is a live user of `function`; only read.
            unsafe {
                let call_site =
                    !LLVMIsACallInst(user).is_null() || !LLVMIsAInvokeInst(user).is_null();
                call_site && LLVMGetCalledValue(user) == callee
            }
        })
        // SAFETY: `user` is a call or invoke instruction of the function's
        // context.
        .map(|user| unsafe { inkwell::values::InstructionValue::new(user) })
        .collect()
}

/// Sends the uses of `inst` outside `inside` through a stack slot, so that
/// the blocks of `inside` can be cloned without rewriting outside code.
pub fn demote_uses_outside(
    function: LLVMValueRef,
    inst: LLVMValueRef,
    inside: &BTreeSet<LLVMBasicBlockRef>,
) {
    // SAFETY: `inst` and its users are live instructions of `function`.
    unsafe {
        let outside: Vec<LLVMValueRef> = users(inst)
            .into_iter()
            .filter(|u| !inside.contains(&LLVMGetInstructionParent(*u)))
            .collect();
        if outside.is_empty() {
            return;
        }
        let ty = LLVMTypeOf(inst);
        let slot = entry_alloca(function, ty, "sl1.out");
        let after = if is_phi(inst) {
            first_non_phi(LLVMGetInstructionParent(inst))
        } else {
            LLVMGetNextInstruction(inst)
        };
        Builder::before(after).store(inst, slot);
        for user in outside {
            for op in 0..LLVMGetNumOperands(user) as u32 {
                if LLVMGetOperand(user, op) != inst {
                    continue;
                }
                let at = if is_phi(user) {
                    terminator(LLVMGetIncomingBlock(user, op))
                } else {
                    user
                };
                let reload = Builder::before(at).load(ty, slot);
                LLVMSetOperand(user, op, reload);
            }
        }
    }
}

/// A new empty block placed before `before`, ending in `br target`.
pub fn new_block_before(
    before: LLVMBasicBlockRef,
    target: LLVMBasicBlockRef,
    name: &str,
) -> LLVMBasicBlockRef {
    // SAFETY: inserts a block into a live function.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(before)));
        let name = std::ffi::CString::new(name).unwrap_or_default();
        let block = LLVMInsertBasicBlockInContext(ctx, before, name.as_ptr());
        Builder::at_end(block).br(target);
        block
    }
}

/// Puts a new block on every edge from `from` to `to` and returns it; phis in
/// `to` take their value for `from` from the new block instead.
pub fn split_edge(from: LLVMBasicBlockRef, to: LLVMBasicBlockRef, name: &str) -> LLVMBasicBlockRef {
    let middle = new_block_before(to, to, name);
    retarget_edges(from, to, middle);
    // SAFETY: rebuilds each phi of `to` with `middle` in place of `from` (the C
    // API cannot change an incoming block), then replaces and erases the old one.
    unsafe {
        for phi in instructions(to).into_iter().filter(|i| is_phi(*i)) {
            let b = Builder::before(phi);
            let new = LLVMBuildPhi(b.raw(), LLVMTypeOf(phi), c"".as_ptr());
            let mut seen_from = false;
            for i in 0..LLVMCountIncoming(phi) {
                let mut value = LLVMGetIncomingValue(phi, i);
                let mut block = LLVMGetIncomingBlock(phi, i);
                if block == from {
                    // Several edges from `from` are now one edge from `middle`.
                    if seen_from {
                        continue;
                    }
                    seen_from = true;
                    block = middle;
                }
                LLVMAddIncoming(new, &mut value, &mut block, 1);
            }
            LLVMReplaceAllUsesWith(phi, new);
            let mut len = 0;
            let name = LLVMGetValueName2(phi, &mut len);
            let name = std::ffi::CStr::from_ptr(name).to_owned();
            LLVMInstructionEraseFromParent(phi);
            LLVMSetValueName2(new, name.as_ptr(), len);
        }
    }
    middle
}

/// Copies of `blocks` (with their instructions) inserted before `before`.
/// Operands that refer to values or blocks of the set refer to the copies;
/// phis in `outside_successors` get the copies as new incoming blocks.
pub struct Clone {
    pub blocks: HashMap<LLVMBasicBlockRef, LLVMBasicBlockRef>,
    pub values: HashMap<LLVMValueRef, LLVMValueRef>,
}

pub fn clone_blocks(
    originals: &[LLVMBasicBlockRef],
    before: LLVMBasicBlockRef,
    suffix: &str,
) -> Clone {
    let set: BTreeSet<_> = originals.iter().copied().collect();
    let mut map = Clone {
        blocks: HashMap::new(),
        values: HashMap::new(),
    };
    // SAFETY: every handle is a live block or instruction of `function`; new
    // instructions are inserted into new blocks before their operands are fixed.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(before)));
        for &bb in originals {
            let name = format!(
                "{}{suffix}",
                std::ffi::CStr::from_ptr(LLVMGetBasicBlockName(bb)).to_string_lossy()
            );
            let name = std::ffi::CString::new(name).unwrap_or_default();
            let copy = LLVMInsertBasicBlockInContext(ctx, before, name.as_ptr());
            map.blocks.insert(bb, copy);
        }
        let mut phis = Vec::new();
        // Instructions in layout order: use lists, and so the printed IR,
        // depend on the order operands are rewritten.
        let mut ordered = Vec::new();
        for &bb in originals {
            let b = Builder::at_end(map.blocks[&bb]);
            for inst in instructions(bb) {
                let copy = if is_phi(inst) {
                    phis.push(inst);
                    LLVMBuildPhi(b.raw(), LLVMTypeOf(inst), c"".as_ptr())
                } else {
                    let copy = LLVMInstructionClone(inst);
                    LLVMInsertIntoBuilder(b.raw(), copy);
                    copy
                };
                map.values.insert(inst, copy);
                ordered.push((inst, copy));
            }
        }
        let remap = |v: LLVMValueRef| *map.values.get(&v).unwrap_or(&v);
        for &(orig, copy) in &ordered {
            if is_phi(orig) {
                continue;
            }
            for op in 0..LLVMGetNumOperands(copy) as u32 {
                let v = LLVMGetOperand(copy, op);
                if let Some(&m) = map.values.get(&v) {
                    LLVMSetOperand(copy, op, m);
                }
            }
            if LLVMIsATerminatorInst(copy).is_null() {
                continue;
            }
            for i in 0..LLVMGetNumSuccessors(copy) {
                if let Some(&m) = map.blocks.get(&LLVMGetSuccessor(copy, i)) {
                    LLVMSetSuccessor(copy, i, m);
                }
            }
        }
        for phi in phis {
            let copy = map.values[&phi];
            for i in 0..LLVMCountIncoming(phi) {
                let mut value = remap(LLVMGetIncomingValue(phi, i));
                let mut block = LLVMGetIncomingBlock(phi, i);
                block = *map.blocks.get(&block).unwrap_or(&block);
                LLVMAddIncoming(copy, &mut value, &mut block, 1);
            }
        }
        // Blocks outside the set that the copies branch to get the copies as
        // predecessors.
        let exits: BTreeSet<LLVMBasicBlockRef> = originals
            .iter()
            .flat_map(|b| successors(*b))
            .filter(|s| !set.contains(s))
            .collect();
        for exit in exits {
            for phi in instructions(exit).into_iter().filter(|i| is_phi(*i)) {
                let n = LLVMCountIncoming(phi);
                for i in 0..n {
                    let block = LLVMGetIncomingBlock(phi, i);
                    if let Some(&copy_block) = map.blocks.get(&block) {
                        let mut value = remap(LLVMGetIncomingValue(phi, i));
                        let mut block = copy_block;
                        LLVMAddIncoming(phi, &mut value, &mut block, 1);
                    }
                }
            }
        }
    }
    map
}

/// Copies before `before` of the arithmetic in `blocks` (a loop's, or one
/// block's) that `value` is computed from, with the values in `substitute`
/// (phis of theirs) for themselves: `value` as it is on entry.
/// None when that needs anything but arithmetic, casts and
/// getelementptrs (a load, a call, a phi not substituted).
pub fn clone_expression(
    value: LLVMValueRef,
    blocks: &[LLVMBasicBlockRef],
    substitute: &HashMap<LLVMValueRef, LLVMValueRef>,
    before: LLVMValueRef,
) -> Option<LLVMValueRef> {
    if let Some(&v) = substitute.get(&value) {
        return Some(v);
    }
    // SAFETY: reads live instructions; each copy is inserted before `before`
    // once its operands, copied first, are set.
    unsafe {
        if LLVMIsAInstruction(value).is_null() || !blocks.contains(&LLVMGetInstructionParent(value))
        {
            return Some(value);
        }
        let pure = matches!(
            LLVMGetInstructionOpcode(value),
            LLVMOpcode::LLVMAdd
                | LLVMOpcode::LLVMSub
                | LLVMOpcode::LLVMMul
                | LLVMOpcode::LLVMShl
                | LLVMOpcode::LLVMOr
                | LLVMOpcode::LLVMAnd
                | LLVMOpcode::LLVMSExt
                | LLVMOpcode::LLVMZExt
                | LLVMOpcode::LLVMTrunc
                | LLVMOpcode::LLVMGetElementPtr
        );
        if !pure {
            return None;
        }
        let mut operands = Vec::new();
        for i in 0..LLVMGetNumOperands(value) as u32 {
            operands.push(clone_expression(
                LLVMGetOperand(value, i),
                blocks,
                substitute,
                before,
            )?);
        }
        let copy = LLVMInstructionClone(value);
        for (i, op) in operands.into_iter().enumerate() {
            LLVMSetOperand(copy, i as u32, op);
        }
        let b = Builder::before(before);
        LLVMInsertIntoBuilder(b.raw(), copy);
        Some(copy)
    }
}

/// A copy of instruction `inst` placed just before `before`, with the
/// same operands (the caller remaps them).
pub fn clone_before(inst: LLVMValueRef, before: LLVMValueRef) -> LLVMValueRef {
    let b = Builder::before(before);
    // SAFETY: the copy is a new instruction without a parent, inserted at
    // the builder's position in a live block.
    unsafe {
        let copy = LLVMInstructionClone(inst);
        LLVMInsertIntoBuilder(b.raw(), copy);
        copy
    }
}

/// Moves live instruction `inst` to just before `before` (both of one
/// function; the caller keeps operands defined before their uses).
pub fn move_before(inst: LLVMValueRef, before: LLVMValueRef) {
    let b = Builder::before(before);
    // SAFETY: `inst` leaves its block and enters the builder's position in
    // the same function, under the name it had (inserting names it anew).
    unsafe {
        let mut len = 0usize;
        let name = LLVMGetValueName2(inst, &mut len);
        let name = std::ffi::CString::new(std::slice::from_raw_parts(name.cast::<u8>(), len))
            .unwrap_or_default();
        LLVMInstructionRemoveFromParent(inst);
        LLVMInsertIntoBuilderWithName(b.raw(), inst, name.as_ptr());
    }
}

/// Erases `inst`, whose uses must have been replaced.
pub fn erase(inst: LLVMValueRef) {
    // SAFETY: `inst` is a live instruction without uses.
    unsafe { LLVMInstructionEraseFromParent(inst) }
}

/// Replaces every use of `old` with `new`.
pub fn replace_uses(old: LLVMValueRef, new: LLVMValueRef) {
    // SAFETY: both are live values of the same type.
    unsafe { LLVMReplaceAllUsesWith(old, new) }
}

/// The parts of a `switch`: condition, default destination and
/// `(case value, destination)` pairs; `None` for any other instruction.
pub struct SwitchParts {
    pub condition: LLVMValueRef,
    pub default: LLVMBasicBlockRef,
    pub cases: Vec<(LLVMValueRef, LLVMBasicBlockRef)>,
}

pub fn switch_parts(inst: LLVMValueRef) -> Option<SwitchParts> {
    // SAFETY: reads a live switch: operand 0 is the condition, successor 0
    // the default destination, successor i > 0 goes with case value i.
    unsafe {
        if inst.is_null() || LLVMGetInstructionOpcode(inst) != LLVMOpcode::LLVMSwitch {
            return None;
        }
        let cases = (1..LLVMGetNumSuccessors(inst))
            .map(|i| (switch_case_value(inst, i), LLVMGetSuccessor(inst, i)))
            .collect();
        Some(SwitchParts {
            condition: LLVMGetOperand(inst, 0),
            default: LLVMGetSwitchDefaultDest(inst),
            cases,
        })
    }
}

/// `(value, block)` pairs of a phi node.
pub fn phi_incoming(phi: LLVMValueRef) -> Vec<(LLVMValueRef, LLVMBasicBlockRef)> {
    // SAFETY: `phi` is a live phi node.
    unsafe {
        (0..LLVMCountIncoming(phi))
            .map(|i| (LLVMGetIncomingValue(phi, i), LLVMGetIncomingBlock(phi, i)))
            .collect()
    }
}

/// Replaces phi `phi` with a new phi of the same name and type whose incoming
/// pairs are `incoming`.
pub fn rebuild_phi(phi: LLVMValueRef, incoming: &[(LLVMValueRef, LLVMBasicBlockRef)]) {
    // SAFETY: builds a phi before a live phi, moves its uses and name, erases it.
    unsafe {
        let b = Builder::before(phi);
        let new = LLVMBuildPhi(b.raw(), LLVMTypeOf(phi), c"".as_ptr());
        for &(value, block) in incoming {
            let (mut value, mut block) = (value, block);
            LLVMAddIncoming(new, &mut value, &mut block, 1);
        }
        LLVMReplaceAllUsesWith(phi, new);
        let mut len = 0;
        let name = std::ffi::CStr::from_ptr(LLVMGetValueName2(phi, &mut len)).to_owned();
        LLVMInstructionEraseFromParent(phi);
        LLVMSetValueName2(new, name.as_ptr(), len);
    }
}

/// Whether `block` holds nothing but an unconditional branch; its target.
pub fn only_branch_target(block: LLVMBasicBlockRef) -> Option<LLVMBasicBlockRef> {
    let insts = instructions(block);
    let [br] = insts.as_slice() else {
        return None;
    };
    // SAFETY: reads a live terminator.
    unsafe {
        (LLVMGetInstructionOpcode(*br) == LLVMOpcode::LLVMBr && LLVMGetNumSuccessors(*br) == 1)
            .then(|| LLVMGetSuccessor(*br, 0))
    }
}

/// Deletes `block`, which no edge reaches any more, with its instructions.
pub fn delete_block(block: LLVMBasicBlockRef) {
    // SAFETY: the block is unreachable and its values are unused.
    unsafe { LLVMDeleteBasicBlock(block) }
}

/// Makes straight lines of the chains `joins` form, each join a block whose
/// only predecessor branches to it alone (`merge_blocks.cpp`): the
/// instructions without effects sink to the block of the chain their users
/// are in, as InstCombine would sink them one block at a time, then each
/// join is merged into its predecessor (its phis replaced by their one
/// incoming value). Joins of another shape are left as they are.
pub fn sink_and_merge_joins(joins: &[LLVMBasicBlockRef]) {
    // SAFETY: `joins` are live blocks; LLVM checks each one's shape.
    unsafe { sl1_sink_and_merge_joins(joins.as_ptr(), joins.len() as u32) }
}

extern "C" {
    fn sl1_sink_and_merge_joins(joins: *const LLVMBasicBlockRef, count: u32);
}

/// Takes the first iteration of the loop headed by `header` (in `function`)
/// out in front of it, with LLVM's loop peeling; false when `header` heads
/// no loop LLVM can peel (then nothing changed).
pub fn peel_first_iteration(function: LLVMValueRef, header: LLVMBasicBlockRef) -> bool {
    // SAFETY: `header` is a live block of the live `function`.
    unsafe { sl1_peel_first_iteration(function, header) != 0 }
}

extern "C" {
    fn sl1_peel_first_iteration(function: LLVMValueRef, header: LLVMBasicBlockRef) -> i32;
}

/// Takes the conditional branch `branch` (of `function`) out of the
/// innermost loop holding it, when its condition is computed outside that
/// loop: the loop is copied, the original always goes to the branch's first
/// successor and the copy to its second, and the loop's preheader chooses.
/// False (nothing changed) when there is no such loop, the condition changes
/// in it, it has more than `max_instructions` instructions or a convergent
/// call. The blocks the folded branches no longer reach stay until
/// `remove_unreachable_blocks`.
pub fn unswitch_branch(
    function: LLVMValueRef,
    branch: LLVMValueRef,
    max_instructions: u32,
) -> bool {
    // SAFETY: `branch` is a live instruction of the live `function`.
    unsafe { sl1_unswitch_branch(function, branch, max_instructions) != 0 }
}

/// Takes the tests whose answer is the same in every iteration out of the
/// innermost loops holding `blocks` (conditional branches of the loop's
/// own blocks, both successors inside it, conditions computed outside it),
/// as `unswitch_branch` does, at most `max_copies` copies for each loop and
/// each copy of at most `max_instructions` instructions. Deletes the blocks
/// no path reaches, so `blocks` may be gone after; returns the copies made.
pub fn unswitch_invariant_tests(
    function: LLVMValueRef,
    blocks: &[LLVMBasicBlockRef],
    max_instructions: u32,
    max_copies: u32,
) -> u32 {
    let mut blocks = blocks.to_vec();
    // SAFETY: `blocks` are live blocks of the live `function`, read before
    // anything is deleted; the array outlives the call.
    unsafe {
        sl1_unswitch_invariant_tests(
            function,
            blocks.as_mut_ptr(),
            blocks.len() as u32,
            max_instructions,
            max_copies,
        )
    }
}

/// Makes conditional branch `branch` always go to its first successor.
pub fn always_take_first(branch: LLVMValueRef) {
    // SAFETY: `branch` is a live conditional branch; its condition becomes
    // the i1 constant true of its context.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMGetCondition(branch)));
        LLVMSetCondition(branch, LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0));
    }
}

/// Deletes the blocks of `function` that no path from its entry reaches.
pub fn remove_unreachable_blocks(function: LLVMValueRef) {
    // SAFETY: `function` is a live function with a body.
    unsafe { sl1_remove_unreachable_blocks(function) }
}

extern "C" {
    fn sl1_unswitch_branch(function: LLVMValueRef, branch: LLVMValueRef, max: u32) -> i32;
    fn sl1_remove_unreachable_blocks(function: LLVMValueRef);
    fn sl1_unswitch_invariant_tests(
        function: LLVMValueRef,
        blocks: *mut LLVMBasicBlockRef,
        count: u32,
        max_instructions: u32,
        max_copies: u32,
    ) -> u32;
}

/// Inserts `freeze inst` right after `inst` (not a phi or terminator) and
/// sends every other use of `inst` through it.
pub fn freeze_after(inst: LLVMValueRef) {
    // SAFETY: `inst` is a live non-terminator, so a next instruction exists.
    unsafe {
        let b = Builder::before(LLVMGetNextInstruction(inst));
        let frozen = LLVMBuildFreeze(b.raw(), inst, c"".as_ptr());
        LLVMReplaceAllUsesWith(inst, frozen);
        // RAUW also rewrote the freeze's own operand.
        LLVMSetOperand(frozen, 0, inst);
    }
}

/// The case value of successor `i > 0` of a live switch.
///
/// SAFETY (for callers): `switch` is a live switch with more than `i` successors.
#[cfg(feature = "llvm22")]
unsafe fn switch_case_value(switch: LLVMValueRef, i: u32) -> LLVMValueRef {
    LLVMGetSwitchCaseValue(switch, i)
}

/// The case value of successor `i > 0` of a live switch (LLVM 19's C API
/// has no call for it: `llvm_compat.cpp`).
///
/// SAFETY (for callers): `switch` is a live switch with more than `i` successors.
#[cfg(feature = "llvm19")]
unsafe fn switch_case_value(switch: LLVMValueRef, i: u32) -> LLVMValueRef {
    sl1_switch_case_value(switch, i)
}

/// Runs the function pass pipeline `passes` on live function `function`.
#[cfg(feature = "llvm22")]
pub fn run_function_passes(function: LLVMValueRef, passes: &std::ffi::CStr) {
    use inkwell::llvm_sys::transforms::pass_builder::*;
    // SAFETY: runs a pass pipeline on a live function with default options,
    // disposed of after.
    unsafe {
        let opts = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPassesOnFunction(function, passes.as_ptr(), std::ptr::null_mut(), opts);
        assert!(err.is_null(), "{passes:?} failed");
        LLVMDisposePassBuilderOptions(opts);
    }
}

/// Runs the function pass pipeline `passes` on live function `function`
/// (through `llvm_compat.cpp`: LLVM 19's C API runs whole modules only).
#[cfg(feature = "llvm19")]
pub fn run_function_passes(function: LLVMValueRef, passes: &std::ffi::CStr) {
    // SAFETY: the shim runs a pass pipeline on a live function.
    let parsed = unsafe { sl1_run_function_passes(function, passes.as_ptr()) };
    assert!(parsed, "{passes:?} failed");
}

#[cfg(feature = "llvm19")]
extern "C" {
    fn sl1_switch_case_value(switch: LLVMValueRef, i: u32) -> LLVMValueRef;
    fn sl1_run_function_passes(function: LLVMValueRef, passes: *const std::ffi::c_char) -> bool;
}

//! Device tuning: unrolled loops read adjacent elements 16 B at a time
//! where their addresses are aligned.
//!
//! An unrolled loop reading `a[k]`, `a[k+1]`, `a[k+2]`, `a[k+3]` of 4-byte
//! elements issues four loads an iteration: the backend merges them into
//! one 16-byte load only when it can prove the address 16-byte aligned,
//! which a row of a matrix (`a + row * n`) or a pointer argument rarely
//! lets it. Each load is an instruction of the memory pipe, which a loop
//! of loads and one multiply-add keeps full (matmul at 1024x1024: one load
//! of `a` and one of `b` per product). When the loop advances its address
//! by a multiple of 16 bytes an iteration, the address is aligned in every
//! iteration if it is in the first, so the loop gets a copy whose group of
//! loads is one vector load, entered when a check before the loop finds
//! the first address aligned; otherwise the loop runs as it was. The vector
//! load reads the bytes the scalar ones read, in the same iteration, and
//! only where nothing between them writes memory (H100: matmul 0.359 ->
//! 0.292 ms at its best launch written so by hand,
//! docs/results/2026-11-27-matmul-vector/).
//!
//! Loops of one block (what LLVM's unroller leaves of a loop without
//! branches), after the optimizer: the addresses are `gep T, base, i + c`
//! of a loop-invariant base and an induction variable `i`, or `gep T, p, c`
//! of a pointer induction variable `p`.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMOpcode, LLVMTypeKind};
use inkwell::module::Module;
use inkwell::values::AsValueRef;

use crate::llvm::build;
use crate::llvm::edit::{self, Builder};
use crate::llvm::ir::{Function, GepIndex, Value};

/// Bytes one vector load reads (`ld.v4.b32`, `ld.v2.b64`).
const VECTOR_BYTES: i64 = 16;

/// Gives every eligible loop of `module` a copy with vector loads; returns
/// how many loops got one.
pub fn vectorize_aligned_loads(module: &Module<'_>) -> usize {
    let mut versioned = 0;
    for function in module.get_functions() {
        let view = Function::of(module, function);
        if view.is_declaration() {
            continue;
        }
        for block in edit::blocks(function.as_value_ref()) {
            let Some(first) = LoopPlan::of(view, block) else {
                continue;
            };
            // The check gets a block of its own on the entry edge; the split
            // rebuilds the loop's phis, so the plan is made again after it.
            edit::split_edge(first.preheader, block, "sl1.vec.check");
            if let Some(plan) = LoopPlan::of(view, block) {
                plan.version();
                versioned += 1;
            }
        }
    }
    versioned
}

/// What an address moves with: the loop's induction variable.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Anchor {
    /// `gep T, base, i`: base + i * scale; the phi `i` steps by a constant.
    Indexed {
        base: LLVMValueRef,
        phi: LLVMValueRef,
        element: LLVMTypeRef,
    },
    /// A pointer phi stepping by a constant number of bytes.
    Pointer { phi: LLVMValueRef },
}

/// A load at `anchor + offset` bytes.
struct Access {
    load: LLVMValueRef,
    offset: i64,
}

/// Loads reading one aligned 16-byte piece together.
struct Group {
    anchor: Anchor,
    /// Offset of the piece's first byte from the anchor.
    start: i64,
    ty: LLVMTypeRef,
    lanes: u32,
    bytes_per_lane: i64,
    loads: Vec<Access>,
}

/// A one-block loop and the groups its copy reads with vector loads.
struct LoopPlan {
    block: LLVMBasicBlockRef,
    preheader: LLVMBasicBlockRef,
    exit: LLVMBasicBlockRef,
    groups: Vec<Group>,
}

/// The induction variables of a one-block loop: phis whose value on the
/// back edge is theirs plus a constant, that constant in the phi's units
/// (an integer's, or a pointer phi's getelementptr elements).
struct Phis {
    step: HashMap<LLVMValueRef, i64>,
}

impl LoopPlan {
    fn of(function: Function<'_>, block: LLVMBasicBlockRef) -> Option<LoopPlan> {
        let successors = edit::successors(block);
        if successors.len() != 2 || !successors.contains(&block) {
            return None;
        }
        let exit = *successors.iter().find(|s| **s != block)?;
        let raw = function.as_raw();
        let preds: BTreeSet<_> = edit::predecessors(raw, block).into_iter().collect();
        if preds.len() != 2 {
            return None;
        }
        let preheader = *preds.iter().find(|p| **p != block)?;
        // The copy's values reach code after the loop through phis in a
        // block only the loop enters.
        if edit::predecessors(raw, exit).iter().any(|p| *p != block) {
            return None;
        }
        let phis = Phis::of(block, preheader);
        let insts = edit::instructions(block);
        let mut by_anchor: BTreeMap<(Anchor, usize), Vec<Access>> = BTreeMap::new();
        let mut types: Vec<LLVMTypeRef> = Vec::new();
        for &inst in &insts {
            if !build::is_plain_load(inst) {
                continue;
            }
            let ty = build::type_of(inst);
            if !is_scalar_number(ty) {
                continue;
            }
            let Some((anchor, offset)) = address_of(function, build::operand(inst, 0), &phis)
            else {
                continue;
            };
            let ty_index = types.iter().position(|t| *t == ty).unwrap_or_else(|| {
                types.push(ty);
                types.len() - 1
            });
            by_anchor
                .entry((anchor, ty_index))
                .or_default()
                .push(Access { load: inst, offset });
        }
        let order: HashMap<LLVMValueRef, usize> =
            insts.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let writes: Vec<usize> = insts
            .iter()
            .enumerate()
            .filter(|(_, v)| Value::from_raw(**v).is_some_and(|v| v.may_write_memory()))
            .map(|(i, _)| i)
            .collect();
        let mut groups = Vec::new();
        for ((anchor, ty_index), accesses) in by_anchor {
            let ty = types[ty_index];
            let size = build::store_size(build::module_of(function.as_raw()), ty) as i64;
            let Some(stride) = stride_bytes(function, anchor, &phis) else {
                continue;
            };
            if size == 0 || VECTOR_BYTES % size != 0 || stride % VECTOR_BYTES != 0 {
                continue;
            }
            for group in groups_of(anchor, ty, size, accesses) {
                let span: Vec<usize> = group.loads.iter().map(|a| order[&a.load]).collect();
                let (first, last) = (*span.iter().min()?, *span.iter().max()?);
                if !writes.iter().any(|w| (first..=last).contains(w)) {
                    groups.push(group);
                }
            }
        }
        (!groups.is_empty()).then_some(LoopPlan {
            block,
            preheader,
            exit,
            groups,
        })
    }

    /// Puts the check on the entry edge, the vector copy beside the loop,
    /// and merges what both compute for the code after them.
    fn version(self) {
        // A block of its own (see vectorize_aligned_loads), ending in `br loop`.
        let check = self.preheader;
        let copy = edit::clone_blocks(&[self.block], self.exit, ".vec");
        let vector_block = copy.blocks[&self.block];
        merge_values_after(self.block, vector_block, self.exit, &copy.values);
        // The check: every group's first address aligned.
        let entry_of = |phi: LLVMValueRef| {
            edit::phi_incoming(phi)
                .into_iter()
                .find(|(_, b)| *b == check)
                .map(|(v, _)| v)
        };
        edit::erase(edit::terminator(check));
        let b = Builder::at_end(check);
        let ctx = build::context_of(edit::terminator(self.block));
        let i64t = build::i64_type(ctx);
        let mut all = None;
        let mut seen = BTreeSet::new();
        for g in &self.groups {
            let phase = g.start.rem_euclid(VECTOR_BYTES);
            if !seen.insert((g.anchor, phase)) {
                continue;
            }
            let Some(first) = first_address(&b, g.anchor, g.start, &entry_of) else {
                continue;
            };
            let bits = b.ptr_to_int(first, i64t, c"sl1.vec.addr");
            let low = b.and(
                bits,
                build::const_int(i64t, (VECTOR_BYTES - 1) as u64, false),
                c"sl1.vec.low",
            );
            let aligned = b.icmp_eq(low, build::const_int(i64t, 0, false));
            all = Some(match all {
                None => aligned,
                Some(prev) => b.and(prev, aligned, c"sl1.vec.aligned"),
            });
        }
        let cond = all.unwrap_or_else(|| build::const_int(build::i1_type(ctx), 0, false));
        b.cond_br(cond, vector_block, self.block);
        for g in &self.groups {
            let loads: Vec<LLVMValueRef> = g.loads.iter().map(|a| copy.values[&a.load]).collect();
            let first = *edit::instructions(vector_block)
                .iter()
                .find(|i| loads.contains(i))
                .expect("the group's loads are in the copy");
            let at = Builder::before(first);
            let remap = |v: LLVMValueRef| *copy.values.get(&v).unwrap_or(&v);
            let address = match g.anchor {
                Anchor::Indexed { base, phi, element } => {
                    at.gep(element, base, &mut [remap(phi)], c"sl1.vec.row")
                }
                Anchor::Pointer { phi } => remap(phi),
            };
            let i8t = build::i8_type(ctx);
            let address = if g.start == 0 {
                address
            } else {
                at.gep(
                    i8t,
                    address,
                    &mut [build::const_int(i64t, g.start as u64, true)],
                    c"sl1.vec.at",
                )
            };
            let vector_type = build::vector_type(g.ty, g.lanes);
            let vector = at.load(vector_type, address);
            build::set_alignment(vector, VECTOR_BYTES as u32);
            // The builder stays before the first scalar load: erase them after.
            for access in &g.loads {
                let lane = ((access.offset - g.start) / g.bytes_per_lane) as u32;
                let value = at.extract_element(vector, lane);
                edit::replace_uses(copy.values[&access.load], value);
            }
            drop(at);
            loads.into_iter().for_each(edit::erase);
        }
    }
}

impl Phis {
    fn of(block: LLVMBasicBlockRef, preheader: LLVMBasicBlockRef) -> Phis {
        let mut phis = Phis {
            step: HashMap::new(),
        };
        for inst in edit::instructions(block) {
            if !edit::is_phi(inst) {
                break;
            }
            let incoming = edit::phi_incoming(inst);
            let entry = incoming.iter().find(|(_, b)| *b == preheader);
            let back = incoming.iter().find(|(_, b)| *b == block);
            let (Some(_), Some(&(next, _))) = (entry, back) else {
                continue;
            };
            if let Some(step) = constant_step(inst, next) {
                phis.step.insert(inst, step);
            }
        }
        phis
    }
}

/// `next` as `phi + step` (an add of a constant, or for a pointer phi a
/// one-index getelementptr of a constant, in bytes).
fn constant_step(phi: LLVMValueRef, next: LLVMValueRef) -> Option<i64> {
    if !build::is_instruction(next) {
        return None;
    }
    match build::opcode(next) {
        _ if build::is_add(next) => {
            let (a, b) = (build::operand(next, 0), build::operand(next, 1));
            let other = if a == phi {
                b
            } else if b == phi {
                a
            } else {
                return None;
            };
            Value::from_raw(other)?.const_int()
        }
        LLVMOpcode::LLVMGetElementPtr if build::operand(next, 0) == phi => {
            // In elements of the source type: scaled by stride_bytes.
            (build::num_operands(next) == 2)
                .then(|| Value::from_raw(build::operand(next, 1))?.const_int())?
        }
        _ => None,
    }
}

/// Bytes the anchor advances an iteration.
fn stride_bytes(function: Function<'_>, anchor: Anchor, phis: &Phis) -> Option<i64> {
    match anchor {
        Anchor::Indexed { phi, element, .. } => {
            let module = build::module_of(function.as_raw());
            Some(phis.step.get(&phi)? * build::store_size(module, element) as i64)
        }
        Anchor::Pointer { phi } => {
            let next = edit::phi_incoming(phi)
                .into_iter()
                .find(|(_, b)| *b == build::instruction_block(phi))?
                .0;
            match phis.step.get(&phi)? {
                // An add of a constant to an integer-typed phi is not a pointer.
                _ if build::opcode(next) != LLVMOpcode::LLVMGetElementPtr => None,
                step => match function.gep_indices(Value::from_raw(next)?)?.first()? {
                    GepIndex::Scaled(bytes) => Some(step * *bytes as i64),
                    GepIndex::Field(_) => None,
                },
            }
        }
    }
}

/// The anchor and byte offset of the address `ptr`, if it moves with one of
/// the loop's induction variables.
fn address_of(function: Function<'_>, ptr: LLVMValueRef, phis: &Phis) -> Option<(Anchor, i64)> {
    if phis.step.contains_key(&ptr) {
        return Some((Anchor::Pointer { phi: ptr }, 0));
    }
    let gep = Value::from_raw(ptr)?;
    if gep.opcode() != Some(LLVMOpcode::LLVMGetElementPtr) || gep.num_operands() != 2 {
        return None;
    }
    let scale = match function.gep_indices(gep)?.first()? {
        GepIndex::Scaled(bytes) => *bytes as i64,
        GepIndex::Field(_) => return None,
    };
    let (base, index) = (build::operand(ptr, 0), build::operand(ptr, 1));
    if phis.step.contains_key(&base) {
        // `gep T, p, c`, a constant from the pointer phi.
        let c = Value::from_raw(index)?.const_int()?;
        return Some((Anchor::Pointer { phi: base }, c * scale));
    }
    // A base the loop does not compute, and a 64-bit index `i` or `i + c`.
    if (build::is_instruction(base)
        && build::instruction_block(base) == build::instruction_block(ptr))
        || build::integer_bits(index) != Some(64)
    {
        return None;
    }
    let (phi, c) = if phis.step.contains_key(&index) {
        (index, 0)
    } else if build::is_add(index) {
        let (a, b) = (build::operand(index, 0), build::operand(index, 1));
        if phis.step.contains_key(&a) {
            (a, Value::from_raw(b)?.const_int()?)
        } else if phis.step.contains_key(&b) {
            (b, Value::from_raw(a)?.const_int()?)
        } else {
            return None;
        }
    } else {
        return None;
    };
    let element = build::gep_source_type(ptr);
    Some((Anchor::Indexed { base, phi, element }, c * scale))
}

/// Runs of loads that cover whole aligned 16-byte pieces, all in the phase
/// (offset modulo 16) that covers the most loads.
fn groups_of(anchor: Anchor, ty: LLVMTypeRef, size: i64, accesses: Vec<Access>) -> Vec<Group> {
    let lanes = VECTOR_BYTES / size;
    let offsets: BTreeSet<i64> = accesses.iter().map(|a| a.offset).collect();
    let mut by_phase: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for &start in &offsets {
        if (0..lanes).all(|l| offsets.contains(&(start + l * size))) {
            by_phase
                .entry(start.rem_euclid(VECTOR_BYTES))
                .or_default()
                .push(start);
        }
    }
    // Starts of one phase are 16 B apart, so their pieces do not overlap.
    let Some(starts) = by_phase.into_values().max_by_key(|s| s.len()) else {
        return Vec::new();
    };
    let mut accesses = accesses;
    starts
        .into_iter()
        .map(|start| {
            let (inside, rest): (Vec<Access>, Vec<Access>) = accesses
                .drain(..)
                .partition(|a| (start..start + VECTOR_BYTES).contains(&a.offset));
            accesses = rest;
            Group {
                anchor,
                start,
                ty,
                lanes: lanes as u32,
                bytes_per_lane: size,
                loads: inside,
            }
        })
        .collect()
}

/// The address of byte `start` from `anchor` on the loop's entry, built by `b`.
fn first_address(
    b: &Builder,
    anchor: Anchor,
    start: i64,
    entry_of: &dyn Fn(LLVMValueRef) -> Option<LLVMValueRef>,
) -> Option<LLVMValueRef> {
    let base = match anchor {
        Anchor::Indexed { base, phi, element } => {
            b.gep(element, base, &mut [entry_of(phi)?], c"sl1.vec.row")
        }
        Anchor::Pointer { phi } => entry_of(phi)?,
    };
    let ctx = build::context_of(base);
    Some(b.gep(
        build::i8_type(ctx),
        base,
        &mut [build::const_int(build::i64_type(ctx), start as u64, true)],
        c"sl1.vec.first",
    ))
}

/// Integers and floating-point values of one register.
fn is_scalar_number(ty: LLVMTypeRef) -> bool {
    match build::type_kind(ty) {
        LLVMTypeKind::LLVMIntegerTypeKind => matches!(build::int_width(ty), 32 | 64),
        LLVMTypeKind::LLVMFloatTypeKind | LLVMTypeKind::LLVMDoubleTypeKind => true,
        _ => false,
    }
}

/// Values of `loop_block` used after the loop now come from it or from its
/// copy `copy_block`: each gets a phi in `exit`, which only the two enter.
/// (Phis of `exit` already got the copy's values from `clone_blocks`.)
fn merge_values_after(
    loop_block: LLVMBasicBlockRef,
    copy_block: LLVMBasicBlockRef,
    exit: LLVMBasicBlockRef,
    copies: &HashMap<LLVMValueRef, LLVMValueRef>,
) {
    let exit_phis: BTreeSet<LLVMValueRef> = edit::instructions(exit)
        .into_iter()
        .filter(|i| edit::is_phi(*i))
        .collect();
    for inst in edit::instructions(loop_block) {
        let outside: Vec<LLVMValueRef> = edit::users(inst)
            .into_iter()
            .filter(|u| {
                let at = build::instruction_block(*u);
                at != loop_block && at != copy_block && !exit_phis.contains(u)
            })
            .collect();
        if outside.is_empty() {
            continue;
        }
        let merged = Builder::before(edit::first_non_phi(exit)).phi(build::type_of(inst), c"");
        build::add_incoming(merged, &[(inst, loop_block), (copies[&inst], copy_block)]);
        for user in outside {
            for op in 0..build::num_operands(user) {
                if build::operand(user, op) == inst {
                    build::set_operand(user, op, merged);
                }
            }
        }
    }
}

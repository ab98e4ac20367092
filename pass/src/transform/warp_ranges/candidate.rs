//! Which loops a warp may run over its lanes' chunks: a kernel's top-level
//! loop of one block whose iterations are independent (each reads and
//! writes only the elements at its own index, through arguments that do
//! not alias, and computes from nothing that differs between lanes but
//! them), counted by a unit step to a bound, every access one element of
//! one size per iteration.

use std::collections::HashSet;

use crate::analysis::affine::{AffineAddress, CountedExit, LoopScope};
use crate::analysis::loops::Loop;
use crate::analysis::scopes::versioned_apart;
use crate::analysis::warp_uniform::is_warp_uniform;
use crate::llvm::ir::{Block, Function, IntPredicate, Opcode, Type, Value, ValueKind};

/// Elements a warp's lane moves at once: 16 bytes.
pub(super) const PIECE_BYTES: u32 = 16;

/// Most instructions the copies of one piece may add (a byte loop copies
/// its body sixteen times).
const MOST_PIECE_INSTRUCTIONS: usize = 1024;

/// A load or store of the loop: one element at its iteration's index.
#[derive(Clone, Copy)]
pub(super) struct Access<'m> {
    pub inst: Value<'m>,
    pub is_load: bool,
    /// The element's type.
    pub ty: Type<'m>,
    /// The address, in the loop.
    pub address: Value<'m>,
}

/// A loop a warp may run over the union of its lanes' chunks.
pub(super) struct Candidate<'m> {
    /// The loop's only block.
    pub body: Block<'m>,
    /// The one block before the loop that enters it.
    pub entering: Block<'m>,
    pub exit: Block<'m>,
    /// The induction variable, moving by 1.
    pub index: Value<'m>,
    /// The exit test: `x pred bound` stays, `pred` strict upward.
    pub x: Value<'m>,
    pub bound: Value<'m>,
    pub predicate: IntPredicate,
    pub accesses: Vec<Access<'m>>,
    /// Bytes of every access's element, the bytes its address moves per
    /// iteration.
    pub size: u32,
    /// The instructions the stores' values come from, in block order.
    pub live: Vec<Value<'m>>,
    /// Whether a stored value depends on the index itself (not only on
    /// what the iteration loads).
    pub index_used: bool,
}

/// Why a loop gets no copy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refusal {
    /// Not a loop over a per-thread chunk counted up by one: not what
    /// warp ranges are for (the report does not list it).
    NotAChunkLoop,
    /// A chunk loop whose iterations a warp may not share, and why.
    Because(&'static str),
}

/// A top-level loop of one block counted up by one to a strict bound.
struct ChunkLoop<'a, 'm> {
    body: Block<'m>,
    entering: Block<'m>,
    exit: Block<'m>,
    scope: LoopScope<'a, 'm>,
    counted: CountedExit<'m>,
}

/// `l` as a candidate, or why it is none.
pub(super) fn candidate<'m>(
    function: Function<'m>,
    blocks: &[Block<'m>],
    l: &Loop,
) -> Result<Candidate<'m>, Refusal> {
    let shape = chunk_loop(function, blocks, l).map_err(|_| Refusal::NotAChunkLoop)?;
    shared_iterations(function, shape).map_err(Refusal::Because)
}

/// `l` when it is a chunk loop, or why not.
fn chunk_loop<'a, 'm>(
    function: Function<'m>,
    blocks: &'a [Block<'m>],
    l: &'a Loop,
) -> Result<ChunkLoop<'a, 'm>, &'static str> {
    if l.depth != 1 || l.blocks.len() != 1 || l.latches != [l.header] {
        return Err("not a top-level loop of one block");
    }
    let body = blocks[l.header];
    // The blocks on the other end of the loop's edges from and to outside.
    let outside = |ends: Vec<Block<'m>>| -> Vec<Block<'m>> {
        ends.into_iter().filter(|&b| b != body).collect()
    };
    let [entering] = outside(body.predecessors())[..] else {
        return Err("entered from several blocks");
    };
    let [exit] = outside(body.successors())[..] else {
        return Err("not one exit");
    };
    let scope = LoopScope::new(function, blocks, l);
    let counted: CountedExit<'m> = scope.counted_exit()?;
    if counted.step != 1 || !counted.strict {
        return Err("not counted up by one to a strict bound");
    }
    if !matches!(
        counted.predicate,
        IntPredicate::LLVMIntULT | IntPredicate::LLVMIntSLT | IntPredicate::LLVMIntNE
    ) {
        return Err("an exit test other than <, != of the index");
    }
    if counted.compare().users() != [counted.branch] {
        return Err("the exit test is used beyond the branch");
    }
    Ok(ChunkLoop {
        body,
        entering,
        exit,
        scope,
        counted,
    })
}

/// A chunk loop as a candidate, when a warp may run its iterations in any
/// lane; else why not.
fn shared_iterations<'m>(
    function: Function<'m>,
    shape: ChunkLoop<'_, 'm>,
) -> Result<Candidate<'m>, &'static str> {
    let ChunkLoop {
        body,
        entering,
        exit,
        scope,
        counted,
    } = shape;
    let (branch, compare) = (counted.branch, counted.compare());
    let instructions = body.instructions();
    let phis: Vec<Value<'m>> = instructions
        .iter()
        .copied()
        .filter(|i| i.is_phi())
        .collect();
    let [index] = phis[..] else {
        return Err("values carried between iterations");
    };
    if scope.affine(index).map(|a| a.stride) != Ok(1) {
        return Err("an index that does not move by one");
    }
    for &inst in &instructions {
        if inst.users().iter().any(|u| u.parent_block() != Some(body)) {
            return Err("a value of the loop used after it");
        }
    }
    let mut accesses = Vec::new();
    for &inst in &instructions {
        if inst == branch || inst == compare || inst == index {
            continue;
        }
        match inst.opcode() {
            Some(Opcode::LLVMLoad) | Some(Opcode::LLVMStore) => {
                accesses.push(access(function, inst)?);
            }
            Some(Opcode::LLVMCall) => {
                let name = inst.called_function_name().unwrap_or_default();
                if !PURE_INTRINSICS.iter().any(|p| name.starts_with(p)) {
                    return Err("a call");
                }
            }
            Some(op) if PURE.contains(&op) => {}
            Some(Opcode::LLVMFence) => return Err("a fence"),
            Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => return Err("an atomic"),
            _ => return Err("an instruction other than arithmetic, loads and stores"),
        }
    }
    if !accesses.iter().any(|a| !a.access.is_load) {
        return Err("no store (a loop that only reads keeps its lines)");
    }
    let size = accesses[0].size;
    if accesses.iter().any(|a| a.size != size) {
        return Err("elements of several sizes");
    }
    let forms = accesses
        .iter()
        .map(|a| {
            let form = scope.affine(a.access.address)?;
            if form.stride != i64::from(size) {
                return Err("an address that does not move by its element");
            }
            Ok(form)
        })
        .collect::<Result<Vec<AffineAddress>, &'static str>>()?;
    let accesses: Vec<Access<'m>> = accesses.into_iter().map(|a| a.access).collect();
    independent(function, &accesses, &forms)?;
    let (live, index_used) = live_values(body, index, &accesses)?;
    if live.len().saturating_mul((PIECE_BYTES / size) as usize) > MOST_PIECE_INSTRUCTIONS {
        return Err("a body too large to copy per element of a piece");
    }
    Ok(Candidate {
        body,
        entering,
        exit,
        index,
        x: counted.x(),
        bound: counted.bound(),
        predicate: counted.predicate,
        accesses,
        size,
        live,
        index_used,
    })
}

/// Arithmetic a copied iteration may do.
const PURE: &[Opcode] = &[
    Opcode::LLVMAdd,
    Opcode::LLVMSub,
    Opcode::LLVMMul,
    Opcode::LLVMShl,
    Opcode::LLVMLShr,
    Opcode::LLVMAShr,
    Opcode::LLVMAnd,
    Opcode::LLVMOr,
    Opcode::LLVMXor,
    Opcode::LLVMFAdd,
    Opcode::LLVMFSub,
    Opcode::LLVMFMul,
    Opcode::LLVMFDiv,
    Opcode::LLVMFNeg,
    Opcode::LLVMTrunc,
    Opcode::LLVMZExt,
    Opcode::LLVMSExt,
    Opcode::LLVMFPToUI,
    Opcode::LLVMFPToSI,
    Opcode::LLVMUIToFP,
    Opcode::LLVMSIToFP,
    Opcode::LLVMFPTrunc,
    Opcode::LLVMFPExt,
    Opcode::LLVMBitCast,
    Opcode::LLVMICmp,
    Opcode::LLVMFCmp,
    Opcode::LLVMSelect,
    Opcode::LLVMGetElementPtr,
    Opcode::LLVMFreeze,
];

/// Intrinsics without memory effects a copied iteration may call.
const PURE_INTRINSICS: &[&str] = &[
    "llvm.smin.",
    "llvm.smax.",
    "llvm.umin.",
    "llvm.umax.",
    "llvm.abs.",
    "llvm.fabs.",
    "llvm.fma.",
    "llvm.fmuladd.",
    "llvm.minnum.",
    "llvm.maxnum.",
    "llvm.copysign.",
    "llvm.ctpop.",
    "llvm.bswap.",
    "llvm.fshl.",
    "llvm.fshr.",
    "llvm.sqrt.",
];

/// An access with its element's size.
struct Sized<'m> {
    access: Access<'m>,
    size: u32,
}

/// `inst`, a load or store, as an access of one scalar element through a
/// generic or global pointer.
fn access<'m>(function: Function<'m>, inst: Value<'m>) -> Result<Sized<'m>, &'static str> {
    let is_load = inst.opcode() == Some(Opcode::LLVMLoad);
    if !(inst.is_plain_load() || inst.is_plain_store()) {
        return Err("a volatile or atomic access");
    }
    let (value, address) = if is_load {
        (inst, inst.operand(0))
    } else {
        (inst.operand(0).ok_or("malformed store")?, inst.operand(1))
    };
    let address = address.ok_or("malformed access")?;
    if !matches!(address.pointer_address_space(), Some(0 | 1)) {
        return Err("an access outside global memory");
    }
    let ty = value.ty();
    let scalar = ty.integer_width().is_some() || ty.float_width().is_some();
    let size = function.store_size(value);
    if !scalar
        || !matches!(size, 1 | 2 | 4 | 8)
        || u64::from(ty.integer_width().unwrap_or(8)) % 8 != 0
    {
        return Err("an element that is not a scalar of 1, 2, 4 or 8 bytes");
    }
    Ok(Sized {
        access: Access {
            inst,
            is_load,
            ty,
            address,
        },
        size: size as u32,
    })
}

/// Iterations are independent when every store's element is touched by no
/// other access but those at the very same address in the same iteration
/// (and none of those loads after the store: a piece loads first): every
/// other access goes through another argument, one of the two `noalias`
/// (`__restrict__`), or loop versioning's run-time check found the two
/// ranges apart (the checked copy of `tuning::alias_checks`). Either holds
/// for one thread; between lanes, a race-free kernel touches no element
/// another lane writes in the loop, as the thread-private lines assume.
fn independent(
    function: Function<'_>,
    accesses: &[Access<'_>],
    forms: &[AffineAddress],
) -> Result<(), &'static str> {
    // The argument an address starts from, and whether it is `noalias`.
    let base = |form: &AffineAddress| -> Option<(u32, bool)> {
        let pointers: Vec<u32> = form
            .terms
            .iter()
            .filter_map(|(&symbol, &c)| {
                let v = Value::of_symbol(symbol)?;
                match v.kind() {
                    ValueKind::Argument { index } if v.ty().is_pointer() && c == 1 => Some(index),
                    _ => None,
                }
            })
            .collect();
        match pointers[..] {
            [index] => Some((index, function.param_has_attribute(index, "noalias"))),
            _ => None,
        }
    };
    for (s, _) in accesses.iter().enumerate().filter(|(_, a)| !a.is_load) {
        for (o, other) in accesses.iter().enumerate().filter(|&(o, _)| o != s) {
            if forms[s] == forms[o] {
                if o > s && other.is_load {
                    return Err("a load of what the iteration stored");
                }
                continue;
            }
            let apart = match (base(&forms[s]), base(&forms[o])) {
                (Some((a, a_noalias)), Some((b, b_noalias))) => a != b && (a_noalias || b_noalias),
                _ => false,
            };
            if !apart && !versioned_apart(accesses[s].inst, other.inst) {
                return Err(
                    "a stored element other iterations may touch (another index of its argument, \
                     or a pointer without __restrict__ that may alias)",
                );
            }
        }
    }
    Ok(())
}

/// The body's instructions the stores' values come from (loads end the
/// walk: the copies take their element from elsewhere), in block order,
/// and whether the index is among what they use. A value from before the
/// loop that they use must be the same in every lane of a warp.
fn live_values<'m>(
    body: Block<'m>,
    index: Value<'m>,
    accesses: &[Access<'m>],
) -> Result<(Vec<Value<'m>>, bool), &'static str> {
    let mut live: HashSet<Value<'m>> = HashSet::new();
    let mut work: Vec<Value<'m>> = accesses
        .iter()
        .filter(|a| !a.is_load)
        .filter_map(|a| a.inst.operand(0))
        .collect();
    let mut index_used = false;
    while let Some(v) = work.pop() {
        if v == index {
            index_used = true;
            continue;
        }
        if v.parent_block() != Some(body) {
            if !is_warp_uniform(v) {
                return Err("a value from before the loop that may differ between lanes");
            }
            continue;
        }
        if !live.insert(v) || v.opcode() == Some(Opcode::LLVMLoad) {
            continue;
        }
        work.extend(v.operands().into_iter().filter(|o| o.as_block().is_none()));
    }
    let ordered = body
        .instructions()
        .into_iter()
        .filter(|i| live.contains(i))
        .collect();
    Ok((ordered, index_used))
}

//! Re-reads across an inner loop: an access inside an inner loop of a main
//! loop whose address does not change from one iteration of that inner loop
//! to the next reads the same bytes again on every one of them (k-means
//! reads a point once per centroid). Between two reads each thread touches
//! other memory, so the hardware L1, shared by every thread of the SM,
//! loses the line unless few threads run; a private line keeps it.
//!
//! Only counted inner loops (a known number of re-reads, not a search that
//! may stop at once) and addresses that move with the main loop (a thread's
//! own data, not a table every thread reads) qualify.

use std::collections::{BTreeSet, HashSet};

use super::accesses::{Access, AccessKind};
use super::affine::LoopScope;
use super::kernel::KernelAnalysis;
use super::loops::Loop;
use crate::llvm::ir::{BlockIndex, Opcode, Value};

/// The header label of the innermost counted loop inside `main` (and
/// containing `access`) whose iterations all read the bytes `access` reads,
/// if any, when `access` moves with `main`.
pub fn reread_across(k: &KernelAnalysis<'_>, main: &Loop, access: &Access<'_>) -> Option<String> {
    if access.kind != AccessKind::Load {
        return None;
    }
    let address = access.inst.operand(0)?;
    let index = crate::llvm::ir::block_indices(&k.blocks);
    let invariant = |l: &Loop| {
        let inner_headers: BTreeSet<usize> = k.loops.nested_in(l).map(|i| i.header).collect();
        invariant_in(l, &inner_headers, address, &index)
    };
    if invariant(main) {
        return None;
    }
    let mut around: Vec<&Loop> = k
        .loops
        .nested_in(main)
        .filter(|l| l.blocks.contains(&access.block))
        .collect();
    // Innermost first: an address may move in the innermost loop and stay
    // put in the one around it.
    around.sort_by_key(|l| std::cmp::Reverse(l.depth));
    around
        .into_iter()
        .find(|l| {
            invariant(l)
                && LoopScope::new(k.function, &k.blocks, l)
                    .counted_exit()
                    .is_ok()
        })
        .map(|l| k.block_label(l.header))
}

/// Whether the late device rewrite (`tuning::vectorize_aligned_loads`) is
/// expected to read `access` 16 bytes at a time: a load of 4 or 8 bytes in
/// an innermost loop of one block whose address moves by its own width
/// each iteration, which LLVM's unroller leaves as adjacent loads, and
/// which writes nothing (the rewrite leaves loads with a write between
/// them apart, and unrolled, each iteration's write is between).
pub fn read_in_vector_pieces(k: &KernelAnalysis<'_>, access: &Access<'_>) -> bool {
    if access.kind != AccessKind::Load || !matches!(access.size, 4 | 8) {
        return false;
    }
    let Some(address) = access.inst.operand(0) else {
        return false;
    };
    let innermost = k.loops.innermost_loop_of(access.block);
    innermost.map(|i| &k.loops.loops[i]).is_some_and(|l| {
        l.blocks.len() == 1
            && l.blocks.iter().all(|&b| {
                k.blocks[b]
                    .instructions()
                    .into_iter()
                    .all(|i| !i.may_write_memory())
            })
            && LoopScope::new(k.function, &k.blocks, l)
                .affine(address)
                .is_ok_and(|a| a.stride == access.size as i64)
    })
}

/// Whether `v` takes the same value on every iteration of `l`: what it is
/// computed from inside `l` is arithmetic on values from outside, and phis
/// of inner loops' headers (which restart from such values); a phi of
/// `l`'s header, a phi joining branches (which may go either way), a load
/// or a call may differ between iterations.
fn invariant_in(
    l: &Loop,
    inner_headers: &BTreeSet<usize>,
    v: Value<'_>,
    index: &BlockIndex<'_>,
) -> bool {
    let inside = |v: Value<'_>| {
        v.parent_block()
            .and_then(|b| index.get(&b))
            .filter(|b| l.blocks.contains(b))
            .copied()
    };
    let mut seen: HashSet<Value<'_>> = HashSet::new();
    let mut work = vec![v];
    while let Some(v) = work.pop() {
        if !seen.insert(v) {
            continue;
        }
        let Some(op) = v.opcode() else {
            continue;
        };
        let Some(block) = inside(v) else {
            continue;
        };
        use Opcode::*;
        match op {
            LLVMPHI if inner_headers.contains(&block) => work.extend(v.incoming()),
            LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMOr | LLVMAnd | LLVMXor | LLVMLShr
            | LLVMAShr | LLVMUDiv | LLVMSDiv | LLVMURem | LLVMSRem | LLVMZExt | LLVMSExt
            | LLVMTrunc | LLVMBitCast | LLVMAddrSpaceCast | LLVMPtrToInt | LLVMIntToPtr
            | LLVMGetElementPtr | LLVMSelect | LLVMICmp | LLVMFreeze => {
                work.extend((0..v.num_operands()).filter_map(|i| v.operand(i)));
            }
            _ => return false,
        }
    }
    true
}

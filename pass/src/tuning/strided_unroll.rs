//! Device tuning: grid-stride loops get an unroll count of 4, as nvcc
//! unrolls them.
//!
//! `for (i = tid; i < n; i += blockDim.x * gridDim.x) sum += in[i];` steps
//! by a value known only at run time, so its trip count is a division,
//! `(n - tid + stride - 1) / stride`. LLVM's runtime unroller (on for
//! NVPTX) expands a trip count before the loop only when scalar evolution
//! prices it within `-scev-cheap-expansion-budget`, and a division never
//! is: clang's loop keeps one load in flight per thread where nvcc's
//! computes the count with one `div.u32` and has four. Where few threads
//! walk much memory (a merge of per-block histograms: 2,048 threads over
//! 4 MiB) the loop waits a memory latency per element; HeCBench `tpacf`'s
//! `mergeKernel` ran 4.8 times nvcc's time on the H200.
//!
//! An unroll count on the loop (`llvm.loop.unroll.count`, what `#pragma
//! unroll 4` gives) lets the unroller take the expensive trip count; the
//! unroller keeps the loop's meaning (the remainder loop runs the last
//! iterations), and declines where scalar evolution finds no trip count.
//! The unrolled loop is left without `.pragma "nounroll"`, as nvcc leaves
//! it, so that ptxas may unroll it further (which takes the exit layout of
//! `exit_layout.rs` too): the do-no-harm kernel of that merge, `merge_bins`,
//! ran 12.0 ms rolled, 3.7 ms unrolled with the pragma or without it alone,
//! 1.9 ms with both, against nvcc's 1.2 ms.
//! Only small innermost loops that read memory and leave from their latch
//! get one; user pragmas stand.

use inkwell::module::Module;

use crate::analysis::loop_forest;
use crate::analysis::loops::LoopForest;
use crate::llvm::ir::{
    defined_functions, inverse_predicate, swapped_predicate, Block, IntPredicate as P, Opcode,
    Value,
};
use crate::llvm::metadata;

/// The unroll count nvcc gives such loops.
pub const UNROLL_COUNT: u32 = 4;

/// The property the unrolled loop gets in place of LLVM's
/// `llvm.loop.unroll.disable` (which NVPTX prints as `.pragma "nounroll"`):
/// ptxas may then unroll it further, as it does nvcc's, which leaves the
/// pragma on the remainder loop only.
const UNROLLED: &str = "sl1.strided.unrolled";

/// The most instructions (phis left out) a loop body may have: four
/// copies and the remainder loop then add at most about 130 instructions.
const MOST_INSTRUCTIONS: usize = 32;

/// Gives every eligible loop of `module` an unroll count; returns how many.
pub fn unroll_strided_loops(module: &Module<'_>) -> usize {
    let mut marked = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        for l in 0..forest.loops.len() {
            if let Some(latch_branch) = eligible(&forest, l, &blocks) {
                metadata::set_unroll_count(latch_branch, UNROLL_COUNT, UNROLLED);
                marked += 1;
            }
        }
    }
    marked
}

/// The latch's branch of loop `l` when the loop is a small innermost loop
/// that reads memory, leaves only from its latch, and steps its induction
/// variable by a value fixed in the loop but not a constant.
fn eligible<'m>(forest: &LoopForest, l: usize, blocks: &[Block<'m>]) -> Option<Value<'m>> {
    let lp = &forest.loops[l];
    if !forest.is_innermost(l) || lp.latches.len() != 1 {
        return None;
    }
    let inside = |b: &Block<'m>| {
        blocks
            .iter()
            .position(|x| x == b)
            .is_some_and(|i| lp.blocks.contains(&i))
    };
    let latch = blocks[lp.latches[0]];
    let header = blocks[lp.header];
    // Entered from one block, left from the latch alone.
    if header.predecessors().iter().filter(|p| !inside(p)).count() != 1 {
        return None;
    }
    let leaves = |b: usize| blocks[b].successors().iter().any(|s| !inside(s));
    if lp.blocks.iter().any(|&b| b != lp.latches[0] && leaves(b)) {
        return None;
    }
    let branch = latch.terminator()?;
    if branch.opcode() != Some(Opcode::LLVMBr)
        || branch.num_operands() != 3
        || metadata::has_unroll_property(branch)
    {
        return None;
    }
    let defined_inside = |v: Value<'m>| v.parent_block().is_some_and(|b| inside(&b));
    let compare = branch.operand(0)?;
    if compare.opcode() != Some(Opcode::LLVMICmp) {
        return None;
    }
    let (a, b) = (compare.operand(0)?, compare.operand(1)?);
    let mut predicate = compare.icmp_predicate()?;
    let next = match (defined_inside(a), defined_inside(b)) {
        (true, false) => a,
        (false, true) => {
            predicate = swapped_predicate(predicate);
            b
        }
        _ => return None,
    };
    // The branch's first successor is taken on true.
    let stays_on_true = branch
        .operand(2)
        .and_then(|target| target.as_block())
        .is_some_and(|target| inside(&target));
    if !stays_on_true {
        predicate = inverse_predicate(predicate);
    }
    // Stays while `next < bound`, `next` never wrapping in the compare's
    // sense: scalar evolution then has a trip count (else the unroller
    // keeps a test in every copy, and no load moves ahead of one).
    let signed = match predicate {
        P::LLVMIntSLT => true,
        P::LLVMIntULT => false,
        _ => return None,
    };
    // `next` is a header phi (taking it from the latch) plus a value from
    // outside the loop that is not a constant (a constant step gives a trip
    // count LLVM affords already).
    let steps_at_run_time = header
        .instructions()
        .into_iter()
        .take_while(|v| v.is_phi())
        .filter(|phi| phi.incoming_from(latch) == Some(next))
        .filter_map(|phi| next.step_from(phi))
        .any(|step| !step.is_constant() && !defined_inside(step));
    if !steps_at_run_time || !next.has_no_wrap(signed) {
        return None;
    }
    let body: Vec<Value<'m>> = lp
        .blocks
        .iter()
        .flat_map(|&b| blocks[b].instructions())
        .filter(|v| !v.is_phi())
        .collect();
    // Loads of shared (3) or local (5) memory have no latency to hide.
    let reads_memory = body.iter().any(|v| {
        v.is_plain_load()
            && v.operand(0)
                .and_then(|p| p.pointer_address_space())
                .is_some_and(|space| space != 3 && space != 5)
    });
    let calls = body.iter().any(|v| {
        v.opcode() == Some(Opcode::LLVMCall)
            && (v.is_convergent_call()
                || v.inline_asm().is_some()
                || !v
                    .called_function_name()
                    .is_some_and(|name| name.starts_with("llvm.")))
    });
    (reads_memory && !calls && body.len() <= MOST_INSTRUCTIONS).then_some(branch)
}

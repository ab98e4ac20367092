//! Loops that at most one lane of each warp runs: those reached only
//! through the taken side of `a == b` where `a` and `b` step differently
//! from lane to lane (`if (threadIdx.x == 0)`, `if (i == n - 1)` for
//! `i = blockIdx.x * blockDim.x + threadIdx.x`), or the other side of
//! `a != b`. Such a thread's stream is one line among many that the L1
//! holds without thrashing, and the cache's tag checks only lengthen its
//! serial path (HeCBench `chacha20`, one thread writing a byte stream: 0.60x
//! of the build without S-L1 cached, 0.83x declined at run time, H100,
//! 2026-11-25).
//!
//! Like `lane_step`, whose steps it compares, the answer guides performance
//! only, never correctness.

use super::kernel::KernelAnalysis;
use super::lane_step::LaneSteps;
use crate::llvm::ir::{IntPredicate, Opcode};

/// The block whose branch lets at most one lane of a warp reach block
/// `header`, if there is one: among the blocks that dominate `header`, one
/// entered from a single branch that only one lane takes.
pub fn lone_lane_guard(k: &KernelAnalysis<'_>, header: usize) -> Option<usize> {
    let mut steps = LaneSteps::new(k);
    k.loops.dominators(header).into_iter().find_map(|block| {
        let [guard] = k.loops.predecessors[block].as_slice() else {
            return None;
        };
        lets_one_lane_in(k, &mut steps, *guard, block).then_some(*guard)
    })
}

/// Whether `guard` ends in a conditional branch to `target` that at most
/// one lane of a warp takes.
fn lets_one_lane_in<'m>(
    k: &KernelAnalysis<'m>,
    steps: &mut LaneSteps<'m>,
    guard: usize,
    target: usize,
) -> bool {
    let Some(branch) = k.blocks[guard].instructions().last().copied() else {
        return false;
    };
    if branch.opcode() != Some(Opcode::LLVMBr) || branch.num_operands() != 3 {
        return false;
    }
    let successors = k.blocks[guard].successors();
    if successors.len() != 2 || successors[0] == successors[1] {
        return false;
    }
    let target = k.blocks[target];
    let Some(compare) = branch.operand(0) else {
        return false;
    };
    let taken_side = match compare.icmp_predicate() {
        Some(IntPredicate::LLVMIntEQ) => successors[0],
        Some(IntPredicate::LLVMIntNE) => successors[1],
        _ => return false,
    };
    if taken_side != target {
        return false;
    }
    let (Some(a), Some(b)) = (compare.operand(0), compare.operand(1)) else {
        return false;
    };
    // Two values whose difference steps by a non-zero constant are equal
    // in at most one lane of a warp.
    matches!((steps.of(a), steps.of(b)), (Some(x), Some(y)) if x != y)
}

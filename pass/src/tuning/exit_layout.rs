//! Device tuning: the block a loop of one block leaves to comes right after
//! it in the function's block order, so that the loop ends in a
//! conditional branch back to itself, as nvcc's loops do.
//!
//! Instruction selection falls through to the next block in the IR's order
//! where it can, and NVPTX cannot reverse a branch afterwards: a latch
//! `br i1 %done, label %exit, label %header` whose exit block comes earlier
//! in the order (where LLVM's unroller puts the unrolled loop: last) ends
//! in `@%p bra exit; bra.uni header`. ptxas does not unroll a loop of that
//! shape; with the exit next, the same latch is `@%p bra header` after the
//! counter's update, nvcc's shape, and ptxas unrolls it as it unrolls
//! nvcc's (a grid-stride sum LLVM unrolled 4 times: 22 registers and
//! 4,536 B of SASS rolled, 32 registers and 6,592 B unrolled further, the
//! size of nvcc's own). Block order means nothing else: no instruction
//! changes.

use inkwell::module::Module;

use crate::analysis::loop_forest;
use crate::llvm::ir::{defined_functions, Opcode};

/// Moves the exit block of every loop of one block after the loop's block;
/// returns how many moved.
pub fn lay_out_exits_after_latches(module: &Module<'_>) -> usize {
    let mut moved = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        // Inner loops first: an inner loop's exit is often its enclosing
        // loop's latch, whose own exit then follows it.
        let mut loops: Vec<usize> = (0..forest.loops.len()).collect();
        loops.sort_by_key(|&l| std::cmp::Reverse(forest.loops[l].depth));
        for l in loops {
            let lp = &forest.loops[l];
            // Loops of one block (what LLVM's unroller leaves): a longer
            // loop's latch can fall through into its header, where block
            // placement puts it.
            let [latch] = lp.latches[..] else {
                continue;
            };
            if lp.blocks.len() != 1 {
                continue;
            }
            let Some(branch) = blocks[latch].terminator() else {
                continue;
            };
            if branch.opcode() != Some(Opcode::LLVMBr) || branch.num_operands() != 3 {
                continue;
            }
            let successors = blocks[latch].successors();
            let inside = |b| {
                blocks
                    .iter()
                    .position(|x| *x == b)
                    .is_some_and(|i| lp.blocks.contains(&i))
            };
            let exits: Vec<_> = successors.iter().copied().filter(|&s| !inside(s)).collect();
            let [exit] = exits[..] else {
                continue;
            };
            if function.next_block(Some(blocks[latch])) == Some(exit) {
                continue;
            }
            exit.move_after(blocks[latch]);
            moved += 1;
        }
    }
    moved
}

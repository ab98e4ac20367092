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
//! nvcc's (ptxas 12.9 -O3 for sm_90 on `merge_bins`, which LLVM unrolled 4
//! times: 22 registers and a 4,416 B cubin, 32 registers and 6,592 B with
//! the exit next; tpacf's `mergeKernel` likewise 22 and 32 registers, nvcc's
//! own 32). Block order means nothing else: no instruction changes.

use inkwell::module::Module;

use crate::llvm::ir::defined_functions;

/// Moves the exit block of every loop of one block (`Block::is_own_loop`:
/// what LLVM's unroller leaves; a longer loop's latch can fall through into
/// its header, where block placement puts it) after the loop's block;
/// returns how many moved.
pub fn lay_out_exits_after_latches(module: &Module<'_>) -> usize {
    let mut moved = 0;
    for function in defined_functions(module) {
        for block in function.blocks() {
            if !block.is_own_loop() {
                continue;
            }
            let Some(exit) = block.successors().into_iter().find(|&s| s != block) else {
                continue;
            };
            if function.next_block(Some(block)) != Some(exit) {
                exit.move_after(block);
                moved += 1;
            }
        }
    }
    moved
}

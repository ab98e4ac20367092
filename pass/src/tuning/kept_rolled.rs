//! Device tuning: a loop whose loads wait for stores through another
//! pointer stays as LLVM unrolled it (`.pragma "nounroll"` for ptxas).
//!
//! Where a load in a loop's body may read what a store before it wrote
//! through another pointer (arguments without `__restrict__`, the aliased
//! copy of the run-time alias checks), each such load waits for the store,
//! and ptxas's own unrolling (4 times more, for a runtime trip count) adds
//! no loads that could overlap: it only moves the loads of the stores'
//! own pointer, which it can tell apart by offset, far ahead of the stores
//! into the same lines. The forward sweep of a row launched with
//! overlapping arguments (`tri_forward_overlap`) ran 1.229 ms so, against
//! 0.540 ms both for nvcc, whose loop ptxas leaves rolled, and for the same
//! PTX with the pragma (H200, 2026-11-29; Nsight Compute: L1 hit rate 88%
//! against 93%, twice the stall on memory per warp,
//! `docs/results/2026-11-29-h200-kept-rolled.txt`).
//!
//! Loops of one block (what LLVM's unroller leaves), after the optimizer,
//! without a loop property of `llvm.loop.unroll*` already (a user's pragma,
//! the vector loads' short copy). A loop where LLVM knows each load apart
//! from the stores before it (`loads_first::apart`), or where load and
//! store share their base pointer, is left to ptxas.

use inkwell::module::Module;

use super::loads_first::{apart, base_pointer, in_global_memory};
use crate::llvm::ir::{defined_functions, Block, Function};
use crate::llvm::metadata;

/// Marks the loops whose loads wait for another pointer's stores in every
/// function of `module` `llvm.loop.unroll.disable`; returns how many.
pub fn keep_ordered_loops_rolled(module: &Module<'_>) -> usize {
    let mut kept = 0;
    for function in defined_functions(module) {
        for block in function.blocks() {
            let Some(latch) = block.terminator() else {
                continue;
            };
            if !block.is_own_loop()
                || metadata::has_unroll_property(latch)
                || !loads_wait_for_other_stores(function, block)
            {
                continue;
            }
            metadata::mark_loop(latch, "llvm.loop.unroll.disable");
            kept += 1;
        }
    }
    kept
}

/// Whether a load of `block` follows a store of it, through another base
/// pointer, that LLVM cannot keep apart from it.
fn loads_wait_for_other_stores(function: Function<'_>, block: Block<'_>) -> bool {
    let mut stores = Vec::new();
    for inst in block.instructions() {
        if inst.is_plain_store() && in_global_memory(inst, 1) {
            stores.push(inst);
        } else if inst.is_plain_load() && in_global_memory(inst, 0) {
            let waits = stores.iter().any(|&store| {
                !apart(function, inst, store)
                    && base_pointer(inst.operand(0)) != base_pointer(store.operand(1))
            });
            if waits {
                return true;
            }
        }
    }
    false
}

//! The normal form of a sliced loop: no header phis (each demoted to a
//! stack slot), a preheader, one latch, and a block of its own on every
//! exit edge.

use crate::llvm::build;
use std::collections::HashMap;

use inkwell::llvm_sys::prelude::*;

use crate::llvm::edit;

use super::slice::LoopSlice;

/// Stack slots of the header's demoted phis, by phi, with their types.
pub(super) type PhiSlots = HashMap<usize, (LLVMValueRef, LLVMTypeRef)>;

impl LoopSlice<'_, '_> {
    /// Normal form: no header phis (each demoted to a stack slot, kept by
    /// phi for the decision's lane test), a preheader, one latch.
    pub(super) fn normal_form(&self) -> (PhiSlots, LLVMBasicBlockRef, LLVMBasicBlockRef) {
        let function = self.k.function.as_raw();
        let mut slots = HashMap::new();
        for phi in edit::instructions(self.header())
            .into_iter()
            .filter(|i| edit::is_phi(*i))
        {
            let ty = build::type_of(phi);
            slots.insert(phi as usize, (edit::demote_phi(function, phi), ty));
        }
        let header = self.header();
        let preds = edit::predecessors(function, header);
        let preheader = edit::new_block_before(header, header, "sl1.preheader");
        let latch = edit::new_block_before(header, header, "sl1.latch");
        for p in preds {
            let target = if self.blocks.contains(&p) {
                latch
            } else {
                preheader
            };
            edit::retarget_edges(p, header, target);
        }
        (slots, preheader, latch)
    }

    /// Every exit edge gets a block of its own for the flush: an exit block
    /// may be entered from elsewhere too, or be the next loop's header.
    /// Splitting comes before demotion so that values leaving the loop are
    /// reloaded in these blocks, which the clones' exits share; then no value
    /// is used outside the loop except through a stack slot.
    pub(super) fn split_exits(&self) -> Vec<LLVMBasicBlockRef> {
        let function = self.k.function.as_raw();
        let mut exit_edges: Vec<(LLVMBasicBlockRef, LLVMBasicBlockRef)> = Vec::new();
        for b in edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
        {
            for s in edit::successors(b) {
                if !self.blocks.contains(&s) && !exit_edges.contains(&(b, s)) {
                    exit_edges.push((b, s));
                }
            }
        }
        let exits: Vec<LLVMBasicBlockRef> = exit_edges
            .into_iter()
            .map(|(from, to)| edit::split_edge(from, to, "sl1.exit"))
            .collect();
        // Layout order, not the set's (pointer) order: the output must not
        // depend on addresses.
        let all: Vec<LLVMValueRef> = edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .flat_map(edit::instructions)
            .collect();
        for inst in all {
            edit::demote_uses_outside(function, inst, &self.blocks);
        }
        exits
    }
}

//! The normal form of a sliced loop: no header phis (each demoted to a
//! stack slot), a preheader, one latch, and a block of its own on every
//! exit edge.

use std::collections::HashMap;

use crate::llvm::cfg::{new_block_before, retarget_edges, split_edge};
use crate::llvm::ir::{Block, Type, Value};

use super::slice::LoopSlice;

/// Stack slots of the header's demoted phis, by phi, with their types.
pub(super) type PhiSlots<'m> = HashMap<usize, (Value<'m>, Type<'m>)>;

impl<'m> LoopSlice<'_, 'm> {
    /// Normal form: no header phis (each demoted to a stack slot, kept by
    /// phi for the decision's lane test), a preheader, one latch.
    pub(super) fn normal_form(&self) -> (PhiSlots<'m>, Block<'m>, Block<'m>) {
        let function = self.k.function;
        let mut slots = HashMap::new();
        let header = self.header();
        for phi in header.instructions().into_iter().filter(|i| i.is_phi()) {
            let ty = phi.ty();
            slots.insert(phi.symbol(), (function.demote_phi(phi), ty));
        }
        let preds = header.predecessors();
        let preheader = new_block_before(header, header, "sl1.preheader");
        let latch = new_block_before(header, header, "sl1.latch");
        for p in preds {
            let target = if self.blocks.contains(&p) {
                latch
            } else {
                preheader
            };
            retarget_edges(p, header, target);
        }
        (slots, preheader, latch)
    }

    /// Every exit edge gets a block of its own for the flush: an exit block
    /// may be entered from elsewhere too, or be the next loop's header.
    /// Splitting comes before demotion so that values leaving the loop are
    /// reloaded in these blocks, which the clones' exits share; then no value
    /// is used outside the loop except through a stack slot.
    pub(super) fn split_exits(&self) -> Vec<Block<'m>> {
        let function = self.k.function;
        let mut exit_edges: Vec<(Block<'m>, Block<'m>)> = Vec::new();
        for b in function
            .blocks()
            .into_iter()
            .filter(|b| self.blocks.contains(b))
        {
            for s in b.successors() {
                if !self.blocks.contains(&s) && !exit_edges.contains(&(b, s)) {
                    exit_edges.push((b, s));
                }
            }
        }
        let exits: Vec<Block<'m>> = exit_edges
            .into_iter()
            .map(|(from, to)| split_edge(from, to, "sl1.exit"))
            .collect();
        // Layout order, not the set's (pointer) order: the output must not
        // depend on addresses.
        let all: Vec<Value<'m>> = function
            .blocks()
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .flat_map(Block::instructions)
            .collect();
        for inst in all {
            function.demote_uses_outside(inst, &self.blocks);
        }
        exits
    }
}

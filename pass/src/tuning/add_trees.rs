//! Trees of integer adds in one block, each add but the root used only by
//! the next: a sum the optimizer unrolled, which the device rewrites add up
//! again in another order (`narrow_sums`, `byte_lane_counts`); integer
//! addition wraps, so the order does not change the result.

use std::collections::HashMap;

use crate::llvm::ir::{Opcode, Value};

/// A sum: its adds and its terms.
pub(super) struct AddTree<'m> {
    /// The adds in block order, the root (the last) included.
    pub(super) adds: Vec<Value<'m>>,
    /// The operands of the adds that are not adds of the tree, each with
    /// the index in `adds` of the add that takes it; in the order a walk
    /// from the root meets them (the last add's first, each add's in
    /// operand order).
    pub(super) terms: Vec<(usize, Value<'m>)>,
}

impl<'m> AddTree<'m> {
    /// The tree's last add, whose value is the sum.
    pub(super) fn root(&self) -> Value<'m> {
        *self.adds.last().expect("a tree has its root")
    }
}

/// Whether add `v` feeds only one add, of its own block: an inner add of
/// that add's tree.
pub(super) fn is_inner(v: Value<'_>) -> bool {
    if v.opcode() != Some(Opcode::LLVMAdd) || v.use_count() != 1 {
        return false;
    }
    let user = v.users()[0];
    user.opcode() == Some(Opcode::LLVMAdd) && user.parent_block() == v.parent_block()
}

/// The tree whose root is the add `root` (`order`: the block's
/// instructions numbered in order).
pub(super) fn add_tree<'m>(root: Value<'m>, order: &HashMap<Value<'m>, usize>) -> AddTree<'m> {
    let mut adds = Vec::new();
    let mut terms = Vec::new();
    let mut work = vec![root];
    while let Some(add) = work.pop() {
        adds.push(add);
        for addend in add.operands() {
            if addend != add && is_inner(addend) {
                work.push(addend);
            } else {
                terms.push((add, addend));
            }
        }
    }
    adds.sort_by_key(|a| order.get(a).copied().unwrap_or(usize::MAX));
    let terms = terms
        .into_iter()
        .map(|(add, t)| {
            (
                adds.iter()
                    .position(|&a| a == add)
                    .expect("an add of the tree"),
                t,
            )
        })
        .collect();
    AddTree { adds, terms }
}

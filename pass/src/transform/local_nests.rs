//! Loop nests that work on local memory beside the loops the cache takes.
//!
//! A private array the compiler cannot keep in registers (one indexed by a
//! value known only at run time, as a search's stack is) lives in local
//! memory, and the hardware L1 serves it. The line buffer takes its shared
//! memory out of the same on-chip store: the larger shared carve-out it asks
//! for leaves the L1 less room. Where the kernel's deepest work is such a
//! nest and the cache would serve only shallower loops (a prologue copying a
//! few bytes per thread), the cache cannot gain what it takes. HeCBench
//! `nqueen` (a per-thread depth-first search on a 20-byte local board, after
//! a loop reading each thread's prefix) ran 0.97x-0.98x of the build without
//! S-L1 in every run with its prologue cached (H100, 2026-11-25).

use super::reasons::Reason;
use std::collections::BTreeSet;

use crate::analysis::accesses::Base;
use crate::analysis::loops::Loop;
use crate::analysis::KernelAnalysis;

/// A top-level loop nest, not cached, that accesses local memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalNest {
    /// Label of the nest's outermost loop header.
    pub label: String,
    /// Local-memory loads and stores in the nest.
    pub accesses: usize,
    /// Loop levels the nest has (1: a single loop).
    pub levels: u32,
}

/// Loop levels of the nest whose outermost loop is `outer`.
fn levels(k: &KernelAnalysis<'_>, outer: &Loop) -> u32 {
    k.loops
        .nested_in(outer)
        .map(|l| l.depth - outer.depth + 1)
        .max()
        .unwrap_or(1)
}

/// The deepest top-level nest outside `cached` (header block indices of the
/// top-level loops the cache takes) that works on local memory and has more
/// loop levels than every cached nest, if any.
pub fn deeper_local_nest(k: &KernelAnalysis<'_>, cached: &BTreeSet<usize>) -> Option<LocalNest> {
    let top = || k.loops.loops.iter().filter(|l| l.depth == 1);
    let cached_levels = top()
        .filter(|l| cached.contains(&l.header))
        .map(|l| levels(k, l))
        .max()?;
    top()
        .filter(|l| !cached.contains(&l.header))
        .map(|l| LocalNest {
            label: k.block_label(l.header),
            accesses: k
                .accesses
                .iter()
                .filter(|a| matches!(a.base, Base::Local) && l.blocks.contains(&a.block))
                .count(),
            levels: levels(k, l),
        })
        .filter(|n| n.accesses > 0 && n.levels > cached_levels)
        .max_by_key(|n| (n.levels, n.accesses))
}

impl LocalNest {
    /// Why the kernel is left as it is.
    pub fn reason(&self) -> Reason {
        Reason::LocalNest {
            loop_at: self.label.clone(),
            levels: self.levels,
            accesses: self.accesses,
        }
    }
}

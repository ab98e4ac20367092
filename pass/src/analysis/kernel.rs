//! What the analyses found in one kernel: its data structures (pointer
//! arguments), their accesses, its loops and its coherence points.

use crate::llvm::ir::{Block, Function};

use super::accesses::{Access, Base};
use super::loops::LoopForest;
use super::sync::SyncPoint;

pub use sl1_core::report::Mode;

/// A pointer argument of a kernel (the paper's "data structure").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataStructure {
    /// Dense id among the kernel's pointer arguments, in argument order.
    pub id: u32,
    /// Position among all the kernel's arguments.
    pub arg_index: u32,
    /// The argument's name, or `arg<N>` when the IR has no names.
    pub name: String,
    /// `noalias` in IR (`__restrict__` in CUDA).
    pub restrict: bool,
    pub mode: Mode,
}

/// Everything the analyses found in one kernel.
#[derive(Clone)]
pub struct KernelAnalysis<'m> {
    pub function: Function<'m>,
    pub name: String,
    pub blocks: Vec<Block<'m>>,
    pub data_structures: Vec<DataStructure>,
    pub accesses: Vec<Access<'m>>,
    pub loops: LoopForest,
    pub sync_points: Vec<SyncPoint<'m>>,
}

impl<'m> KernelAnalysis<'m> {
    /// The data structure an access goes through, if any.
    pub fn data_structure_of(&self, access: &Access<'m>) -> Option<&DataStructure> {
        match access.base {
            Base::Argument(index) => self.data_structures.iter().find(|d| d.arg_index == index),
            _ => None,
        }
    }

    /// The kernel as one of its loops sees it: the structures of `apart`
    /// (`scopes::apart_in_loop`) restrict there.
    pub fn with_restrict(&self, apart: &std::collections::BTreeSet<u32>) -> KernelAnalysis<'m> {
        let mut view = self.clone();
        for ds in view.data_structures.iter_mut() {
            ds.restrict |= apart.contains(&ds.id);
        }
        view
    }

    /// A readable label for block `index`.
    pub fn block_label(&self, index: usize) -> String {
        let name = self.blocks[index].name();
        if name.is_empty() {
            format!("bb{index}")
        } else {
            name
        }
    }
}

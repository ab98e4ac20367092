//! One loop as the affine analysis sees it: the function, its blocks and
//! the loop. Its methods are the analysis itself (`affine`, `exit`).

use crate::analysis::loops::Loop;
use crate::llvm::ir::{Block, BlockIndex, Function};

/// One loop, as the analysis sees it.
pub struct LoopScope<'a, 'm> {
    pub(super) function: Function<'m>,
    pub(super) blocks: &'a [Block<'m>],
    pub(super) index: BlockIndex<'m>,
    pub(super) l: &'a Loop,
}

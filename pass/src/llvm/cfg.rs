//! Control-flow edits on `ir`'s typed blocks: splitting edges, copying
//! blocks and the arithmetic of an address, peeling and unswitching loops,
//! through the raw functions of `edit`.

use std::collections::{BTreeSet, HashMap};
use std::ffi::CStr;

use inkwell::llvm_sys::prelude::LLVMBasicBlockRef;

use super::ir::{Block, Function, Type, Value};
use super::{build, edit};

/// Blocks copied by `clone_blocks`: each original's copy, and each
/// original instruction's.
pub struct Copied<'m> {
    pub blocks: HashMap<Block<'m>, Block<'m>>,
    pub values: HashMap<Value<'m>, Value<'m>>,
}

fn block<'m>(raw: LLVMBasicBlockRef) -> Block<'m> {
    Block::new(raw).expect("LLVM returns the block it made")
}

/// A new block on the edge from `from` to `to`, ending in a branch to `to`
/// (`to`'s phis take their values from it).
pub fn split_edge<'m>(from: Block<'m>, to: Block<'m>, name: &str) -> Block<'m> {
    block(edit::split_edge(
        from.as_raw_block(),
        to.as_raw_block(),
        name,
    ))
}

/// A new block before `before`, ending in `br target`.
pub fn new_block_before<'m>(before: Block<'m>, target: Block<'m>, name: &str) -> Block<'m> {
    block(edit::new_block_before(
        before.as_raw_block(),
        target.as_raw_block(),
        name,
    ))
}

/// A new empty block before `before` (the caller ends it).
pub fn insert_block_before<'m>(before: Block<'m>, name: &CStr) -> Block<'m> {
    block(build::insert_block_before(before.as_raw_block(), name))
}

/// Points every edge from `from` to `old` at `new` instead.
pub fn retarget_edges<'m>(from: Block<'m>, old: Block<'m>, new: Block<'m>) {
    edit::retarget_edges(from.as_raw_block(), old.as_raw_block(), new.as_raw_block());
}

/// Copies of `originals` placed before `before`, their names suffixed with
/// `suffix`: edges between the originals lead between the copies, edges
/// out of them lead where the originals' do (the targets' phis get the
/// copies' values).
pub fn clone_blocks<'m>(originals: &[Block<'m>], before: Block<'m>, suffix: &str) -> Copied<'m> {
    let raw: Vec<_> = originals.iter().map(|b| b.as_raw_block()).collect();
    let copied = edit::clone_blocks(&raw, before.as_raw_block(), suffix);
    Copied {
        blocks: copied
            .blocks
            .into_iter()
            .map(|(original, copy)| (block(original), block(copy)))
            .collect(),
        values: copied
            .values
            .into_iter()
            .filter_map(|(original, copy)| Some((Value::new(original)?, Value::new(copy)?)))
            .collect(),
    }
}

/// `edit::clone_expression` on typed values: `value` as it is on entry to
/// `blocks` (one block, or a loop's), its arithmetic in
/// them copied before `before` with the values of `substitute` for the
/// phis it names.
pub fn clone_expression<'m>(
    value: Value<'m>,
    blocks: &[Block<'m>],
    substitute: &HashMap<Value<'m>, Value<'m>>,
    before: Value<'m>,
) -> Option<Value<'m>> {
    let raw: HashMap<_, _> = substitute
        .iter()
        .map(|(k, v)| (k.as_raw(), v.as_raw()))
        .collect();
    let blocks: Vec<_> = blocks.iter().map(|b| b.as_raw_block()).collect();
    let copy = edit::clone_expression(value.as_raw(), &blocks, &raw, before.as_raw())?;
    Value::new(copy)
}

impl<'m> Block<'m> {
    /// Moves the block to right after `after` in the function's block
    /// order (which only code generation reads: it falls through to the
    /// next block where it can).
    pub fn move_after(self, after: Block<'m>) {
        build::move_block_after(self.as_raw_block(), after.as_raw_block());
    }

    /// The first instruction that is not a phi.
    pub fn first_non_phi(self) -> Value<'m> {
        Value::new(edit::first_non_phi(self.as_raw_block())).expect("a block ends in a terminator")
    }
}

impl<'m> Function<'m> {
    /// `edit::peel_first_iteration`: the first iteration of the loop headed
    /// by `header` in front of it; false when nothing changed.
    pub fn peel_first_iteration(self, header: Block<'m>) -> bool {
        edit::peel_first_iteration(self.as_raw(), header.as_raw_block())
    }

    /// `edit::unswitch_branch`: `branch` taken out of the innermost loop
    /// holding it; false when nothing changed.
    pub fn unswitch_branch(self, branch: Value<'m>, max_instructions: u32) -> bool {
        edit::unswitch_branch(self.as_raw(), branch.as_raw(), max_instructions)
    }

    /// `edit::unswitch_invariant_tests` for the loops holding `blocks`;
    /// returns the copies made.
    pub fn unswitch_invariant_tests(
        self,
        blocks: &[Block<'m>],
        max_instructions: u32,
        max_copies: u32,
    ) -> u32 {
        let raw: Vec<_> = blocks.iter().map(|b| b.as_raw_block()).collect();
        edit::unswitch_invariant_tests(self.as_raw(), &raw, max_instructions, max_copies)
    }

    /// Replaces `phi` by a stack slot its incoming values are stored to
    /// and its uses load from; returns the slot.
    pub fn demote_phi(self, phi: Value<'m>) -> Value<'m> {
        Value::new(edit::demote_phi(self.as_raw(), phi.as_raw())).expect("the phi's stack slot")
    }

    /// Sends the uses of `inst` outside the blocks `inside` through a
    /// stack slot.
    pub fn demote_uses_outside(self, inst: Value<'m>, inside: &BTreeSet<Block<'m>>) {
        let raw = inside.iter().map(|b| b.as_raw_block()).collect();
        edit::demote_uses_outside(self.as_raw(), inst.as_raw(), &raw);
    }

    /// The entry block.
    pub fn entry_block(self) -> Block<'m> {
        block(build::entry_block(self.as_raw()))
    }

    /// The integer type of `bits` bits in this function's context.
    pub fn int_type(self, bits: u32) -> Type<'m> {
        Type::new(build::int_type(build::context_of(self.as_raw()), bits))
    }

    /// The pointer type of `address_space` in this function's context.
    pub fn pointer_type(self, address_space: u32) -> Type<'m> {
        Type::new(build::pointer_type(
            build::context_of(self.as_raw()),
            address_space,
        ))
    }

    /// A zero-initialised, externally visible global of `ty` in
    /// `address_space`, added to this function's module.
    pub fn add_zeroed_global(
        self,
        ty: Type<'m>,
        name: &CStr,
        address_space: u32,
        align: u32,
    ) -> Value<'m> {
        let module = build::module_of(self.as_raw());
        Value::new(build::add_zeroed_global(
            module,
            ty.as_raw(),
            name,
            address_space,
            align,
        ))
        .expect("LLVM returns the global it added")
    }

    /// A stack slot of `ty` at the start of the entry block.
    pub fn entry_alloca(self, ty: Type<'m>, name: &str) -> Value<'m> {
        Value::new(edit::entry_alloca(self.as_raw(), ty.as_raw(), name))
            .expect("LLVM returns the alloca it built")
    }

    /// Runs LLVM's function passes `passes` (a pipeline text) on this
    /// function.
    pub fn run_function_passes(self, passes: &CStr) {
        edit::run_function_passes(self.as_raw(), passes);
    }

    /// Deletes the blocks no path from the entry reaches.
    pub fn remove_unreachable_blocks(self) {
        edit::remove_unreachable_blocks(self.as_raw());
    }
}

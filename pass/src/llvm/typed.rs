//! Building and editing IR on `ir`'s typed values: what the device
//! rewrites change, through the raw functions of `build` and `edit`, so
//! that code outside this module holds no llvm-sys handle. `ir` itself
//! stays a read-only view.

use std::ffi::CStr;
use std::marker::PhantomData;

use inkwell::llvm_sys::prelude::*;

use super::build::{self, Builder};
use super::edit;
use super::ir::{Block, IntPredicate, Value};

/// An instruction builder at a position in the module `'m`, taking and
/// giving typed values.
pub struct TypedBuilder<'m> {
    builder: Builder,
    context: LLVMContextRef,
    _module: PhantomData<&'m ()>,
}

/// A value LLVM has just built (never null).
fn built<'m>(raw: LLVMValueRef) -> Value<'m> {
    Value::new(raw).expect("LLVM returns the value it built")
}

impl<'m> TypedBuilder<'m> {
    /// A builder positioned before `inst`.
    pub fn before(inst: Value<'m>) -> Self {
        TypedBuilder {
            builder: Builder::before(inst.as_raw()),
            context: build::context_of(inst.as_raw()),
            _module: PhantomData,
        }
    }

    /// A builder positioned at the end of `block`.
    pub fn at_end(block: Block<'m>) -> Self {
        let function = build::block_function(block.as_raw_block());
        TypedBuilder {
            builder: Builder::at_end(block.as_raw_block()),
            context: build::context_of(function),
            _module: PhantomData,
        }
    }

    /// The integer constant `value` of `bits` bits.
    pub fn const_int(&self, bits: u32, value: u64) -> Value<'m> {
        built(build::const_int(
            build::int_type(self.context, bits),
            value,
            false,
        ))
    }

    /// `v` zero-extended to an integer of `bits` bits.
    pub fn zext(&self, v: Value<'m>, bits: u32, name: &CStr) -> Value<'m> {
        let ty = build::int_type(self.context, bits);
        built(self.builder.zext(v.as_raw(), ty, name))
    }

    pub fn add(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.add(a.as_raw(), b.as_raw(), name))
    }

    pub fn sub(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.sub(a.as_raw(), b.as_raw(), name))
    }

    pub fn or(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.or(a.as_raw(), b.as_raw(), name))
    }

    pub fn icmp(
        &self,
        predicate: IntPredicate,
        a: Value<'m>,
        b: Value<'m>,
        name: &CStr,
    ) -> Value<'m> {
        built(self.builder.icmp(predicate, a.as_raw(), b.as_raw(), name))
    }

    pub fn icmp_eq(&self, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        built(self.builder.icmp_eq(a.as_raw(), b.as_raw()))
    }

    pub fn select(
        &self,
        cond: Value<'m>,
        then: Value<'m>,
        otherwise: Value<'m>,
        name: &CStr,
    ) -> Value<'m> {
        built(
            self.builder
                .select(cond.as_raw(), then.as_raw(), otherwise.as_raw(), name),
        )
    }

    pub fn br(&self, dest: Block<'m>) -> Value<'m> {
        built(self.builder.br(dest.as_raw_block()))
    }
}

impl<'m> Value<'m> {
    /// Replaces every use of this value with `new`, of the same type.
    pub fn replace_all_uses_with(self, new: Value<'m>) {
        edit::replace_uses(self.as_raw(), new.as_raw());
    }

    /// Erases this instruction, whose uses must have been replaced.
    pub fn erase(self) {
        edit::erase(self.as_raw());
    }
    /// Moves this instruction to just before `before`, of the same
    /// function (the caller keeps operands defined before their uses).
    pub fn move_before(self, before: Value<'m>) {
        edit::move_before(self.as_raw(), before.as_raw());
    }

    /// Replaces this phi with one of the same name and type whose incoming
    /// pairs are `incoming`.
    pub fn rebuild_phi(self, incoming: &[(Value<'m>, Block<'m>)]) {
        let raw: Vec<_> = incoming
            .iter()
            .map(|(value, block)| (value.as_raw(), block.as_raw_block()))
            .collect();
        edit::rebuild_phi(self.as_raw(), &raw);
    }
}

impl Block<'_> {
    /// Deletes this block, which no edge reaches any more, with its
    /// instructions.
    pub fn delete(self) {
        edit::delete_block(self.as_raw_block());
    }
}

/// `edit::sink_and_merge_joins` on typed blocks: straight lines of the
/// chains `joins` form.
pub fn sink_and_merge_joins(joins: &[Block<'_>]) {
    let raw: Vec<_> = joins.iter().map(|b| b.as_raw_block()).collect();
    edit::sink_and_merge_joins(&raw);
}

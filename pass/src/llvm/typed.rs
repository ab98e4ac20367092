//! Building and editing IR on `ir`'s typed values: what the device
//! rewrites change, through the raw functions of `build` and `edit`, so
//! that code outside this module holds no llvm-sys handle. `ir` itself
//! stays a read-only view.

use std::ffi::CStr;
use std::marker::PhantomData;

use inkwell::llvm_sys::prelude::*;

use super::build::{self, Builder};
use super::edit;
use super::ir::{IntPredicate, Value};

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

    pub fn icmp(
        &self,
        predicate: IntPredicate,
        a: Value<'m>,
        b: Value<'m>,
        name: &CStr,
    ) -> Value<'m> {
        built(self.builder.icmp(predicate, a.as_raw(), b.as_raw(), name))
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
}

//! Building and editing IR on `ir`'s typed values: what the device
//! rewrites change, through the raw functions of `build` and `edit`, so
//! that code outside this module holds no llvm-sys handle. `ir` itself
//! stays a read-only view.

use std::ffi::CStr;
use std::marker::PhantomData;

use inkwell::llvm_sys::prelude::*;
use inkwell::types::AsTypeRef;
use inkwell::values::{AsValueRef, FunctionValue};

use super::build::{self, Builder};
use super::edit;
use super::intrinsics;
use super::ir::{Block, Function, IntPredicate, Type, Value};

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
        self.int_type(bits).constant(value)
    }

    /// The integer type of `bits` bits.
    pub fn int_type(&self, bits: u32) -> Type<'m> {
        Type::new(build::int_type(self.context, bits))
    }

    /// `v` zero-extended to an integer of `bits` bits.
    pub fn zext(&self, v: Value<'m>, bits: u32, name: &CStr) -> Value<'m> {
        self.zext_to(v, self.int_type(bits), name)
    }

    /// `v` zero-extended to `ty` (lane by lane for vectors).
    pub fn zext_to(&self, v: Value<'m>, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.zext(v.as_raw(), ty.as_raw(), name))
    }

    /// `v`'s bits as a value of `ty`, of the same size.
    pub fn bitcast(&self, v: Value<'m>, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.bitcast(v.as_raw(), ty.as_raw(), name))
    }

    pub fn add(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.add(a.as_raw(), b.as_raw(), name))
    }

    pub fn sub(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.sub(a.as_raw(), b.as_raw(), name))
    }

    /// `v` truncated to `ty`.
    pub fn trunc(&self, v: Value<'m>, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.trunc(v.as_raw(), ty.as_raw(), name))
    }

    pub fn neg(&self, v: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.neg(v.as_raw(), name))
    }

    pub fn mul(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.mul(a.as_raw(), b.as_raw(), name))
    }

    pub fn sdiv(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.sdiv(a.as_raw(), b.as_raw(), name))
    }

    /// `v` zero-extended or truncated to the integer type `ty`.
    pub fn unsigned_cast(&self, v: Value<'m>, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.unsigned_cast(v.as_raw(), ty.as_raw(), name))
    }

    pub fn udiv(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.udiv(a.as_raw(), b.as_raw(), name))
    }

    pub fn or(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.or(a.as_raw(), b.as_raw(), name))
    }

    pub fn and(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.and(a.as_raw(), b.as_raw(), name))
    }

    pub fn xor(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.xor(a.as_raw(), b.as_raw(), name))
    }

    pub fn shl(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.shl(a.as_raw(), b.as_raw(), name))
    }

    pub fn lshr(&self, a: Value<'m>, b: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.lshr(a.as_raw(), b.as_raw(), name))
    }

    pub fn not(&self, v: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.not(v.as_raw(), name))
    }

    /// `freeze v` (`Builder::freeze`).
    pub fn freeze(&self, v: Value<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.freeze(v.as_raw(), name))
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

    pub fn cond_br(&self, cond: Value<'m>, then: Block<'m>, otherwise: Block<'m>) -> Value<'m> {
        built(
            self.builder
                .cond_br(cond.as_raw(), then.as_raw_block(), otherwise.as_raw_block()),
        )
    }

    pub fn ptr_to_int(&self, v: Value<'m>, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.ptr_to_int(v.as_raw(), ty.as_raw(), name))
    }

    /// A store of `value` to `ptr`.
    pub fn store(&self, value: Value<'m>, ptr: Value<'m>) -> Value<'m> {
        built(self.builder.store(value.as_raw(), ptr.as_raw()))
    }

    /// A call of LLVM's (not overloaded) intrinsic `name` in `function`,
    /// where this builder builds (`intrinsics::call_intrinsic`).
    pub fn call_intrinsic(
        &self,
        function: Function<'m>,
        name: &str,
        args: &[Value<'m>],
        result: &CStr,
    ) -> Value<'m> {
        let mut raw: Vec<_> = args.iter().map(|a| a.as_raw()).collect();
        built(intrinsics::call_intrinsic(
            &self.builder,
            function.as_raw(),
            name,
            &mut raw,
            result,
        ))
    }

    /// `llvm.ctpop` of integer `v`: how many of its bits are set.
    pub fn count_ones(&self, v: Value<'m>, function: Function<'m>, name: &CStr) -> Value<'m> {
        let mut raw = [v.as_raw()];
        built(intrinsics::call_overloaded_intrinsic(
            &self.builder,
            function.as_raw(),
            ("llvm.ctpop", &mut [v.ty().as_raw()]),
            &mut raw,
            name,
        ))
    }

    /// A load of `ty` from `ptr`.
    pub fn load(&self, ty: Type<'m>, ptr: Value<'m>) -> Value<'m> {
        built(self.builder.load(ty.as_raw(), ptr.as_raw()))
    }

    /// `ptr` moved by `bytes` (`getelementptr i8`); the caller keeps the
    /// address inside the object `ptr` points into.
    pub fn byte_offset(&self, ptr: Value<'m>, bytes: i64, name: &CStr) -> Value<'m> {
        let i8t = build::int_type(self.context, 8);
        let offset = build::const_int(build::int_type(self.context, 64), bytes as u64, true);
        built(self.builder.gep(i8t, ptr.as_raw(), &mut [offset], name))
    }

    /// Vector `v` with element `index` replaced by `element`.
    pub fn insert_element(&self, v: Value<'m>, element: Value<'m>, index: u32) -> Value<'m> {
        built(
            self.builder
                .insert_element(v.as_raw(), element.as_raw(), index),
        )
    }

    /// `shufflevector a, b, mask` (`mask[i]` picks lane `i` from `a` and
    /// `b` side by side).
    pub fn shuffle_vector(
        &self,
        a: Value<'m>,
        b: Value<'m>,
        mask: &[u32],
        name: &CStr,
    ) -> Value<'m> {
        built(
            self.builder
                .shuffle_vector(a.as_raw(), b.as_raw(), mask, name),
        )
    }

    /// Element `index` of vector `v`.
    pub fn extract_element(&self, v: Value<'m>, index: u32) -> Value<'m> {
        built(self.builder.extract_element(v.as_raw(), index))
    }

    /// A call of `callee`, a function of this module, with `args` of its
    /// parameter types.
    pub fn call(&self, callee: FunctionValue<'_>, args: &[Value<'m>]) -> Value<'m> {
        let mut raw: Vec<_> = args.iter().map(|a| a.as_raw()).collect();
        let fty = callee.get_type().as_type_ref();
        built(self.builder.call(fty, callee.as_value_ref(), &mut raw, c""))
    }

    /// The pointer type of `address_space`.
    pub fn pointer_type(&self, address_space: u32) -> Type<'m> {
        Type::new(build::pointer_type(self.context, address_space))
    }

    /// The address of element `indices` of `ty` from `ptr`.
    pub fn gep(
        &self,
        ty: Type<'m>,
        ptr: Value<'m>,
        indices: &[Value<'m>],
        name: &CStr,
    ) -> Value<'m> {
        let mut raw: Vec<_> = indices.iter().map(|i| i.as_raw()).collect();
        built(self.builder.gep(ty.as_raw(), ptr.as_raw(), &mut raw, name))
    }

    /// A call of `name`, a function of `function`'s module without
    /// parameters returning `ret` (declared when the module lacks it).
    pub fn call_nullary(&self, function: Function<'m>, name: &CStr, ret: Type<'m>) -> Value<'m> {
        let fty = build::function_type(ret.as_raw(), &mut []);
        let module = build::module_of(function.as_raw());
        let callee = build::get_or_declare_function(module, name, fty);
        built(self.builder.call(fty, callee, &mut [], c""))
    }

    /// The result of inline PTX `asm` (constraints `constraints`) without
    /// operands, of type `ret`.
    pub fn inline_asm_nullary(&self, ret: Type<'m>, asm: &str, constraints: &str) -> Value<'m> {
        let fty = build::function_type(ret.as_raw(), &mut []);
        let read = build::inline_asm(fty, asm, constraints, false);
        built(self.builder.call(fty, read, &mut [], c""))
    }

    /// The result, named `name`, of inline PTX `asm` (constraints
    /// `constraints`) of one operand, `value`, of type `ret`.
    pub fn inline_asm_unary(
        &self,
        ret: Type<'m>,
        asm: &str,
        constraints: &str,
        value: Value<'m>,
        name: &CStr,
    ) -> Value<'m> {
        let fty = build::function_type(ret.as_raw(), &mut [value.ty().as_raw()]);
        let callee = build::inline_asm(fty, asm, constraints, false);
        built(self.builder.call(fty, callee, &mut [value.as_raw()], name))
    }

    /// A relaxed (monotonic) `atomicrmw add` of `value` to `*ptr`.
    pub fn atomic_add(&self, ptr: Value<'m>, value: Value<'m>) -> Value<'m> {
        built(self.builder.atomic_add(ptr.as_raw(), value.as_raw()))
    }

    /// An empty phi of `ty`; `Value::add_incoming` fills it.
    pub fn phi(&self, ty: Type<'m>, name: &CStr) -> Value<'m> {
        built(self.builder.phi(ty.as_raw(), name))
    }
}

impl<'m> Type<'m> {
    /// The vector of `count` elements of this scalar type.
    pub fn vector(self, count: u32) -> Type<'m> {
        Type::new(build::vector_type(self.as_raw(), count))
    }

    /// The constant `value` of this integer type (zero-extended).
    pub fn constant(self, value: u64) -> Value<'m> {
        built(build::const_int(self.as_raw(), value, false))
    }

    /// The array of `count` elements of this type.
    pub fn array(self, count: u64) -> Type<'m> {
        Type::new(build::array_type(self.as_raw(), count))
    }

    /// The constant `value` of this integer type, sign-extended to its width.
    pub fn signed(self, value: i64) -> Value<'m> {
        built(build::const_int(self.as_raw(), value as u64, true))
    }

    /// A type inkwell made (the runtime builds its helpers with inkwell).
    pub fn of(ty: impl AsTypeRef) -> Type<'m> {
        Type::new(ty.as_type_ref())
    }

    /// This type as inkwell's (the runtime's helpers take inkwell types).
    pub fn basic<'ctx>(self) -> inkwell::types::BasicTypeEnum<'ctx> {
        build::basic_type(self.as_raw())
    }

    /// The all-ones constant of this integer type.
    pub fn all_ones(self) -> Value<'m> {
        built(build::const_all_ones(self.as_raw()))
    }

    /// The poison value of this type.
    pub fn poison(self) -> Value<'m> {
        built(build::poison(self.as_raw()))
    }

    /// The all-zero constant of this type.
    pub fn null(self) -> Value<'m> {
        built(build::const_null(self.as_raw()))
    }
}

/// The constant vector of `elements`, constants of one scalar type.
pub fn const_vector<'m>(elements: &[Value<'m>]) -> Value<'m> {
    let mut raw: Vec<_> = elements.iter().map(|e| e.as_raw()).collect();
    built(build::const_vector(&mut raw))
}

impl<'m> Value<'m> {
    /// The instruction after this one in its block, if any.
    pub fn next_instruction(self) -> Option<Value<'m>> {
        build::next_instruction(self.as_raw()).and_then(Value::new)
    }

    /// A value inkwell made (a global, a runtime helper).
    pub fn of(value: impl AsValueRef) -> Value<'m> {
        built(value.as_value_ref())
    }

    /// Replaces every use of this value with `new`, of the same type.
    pub fn replace_all_uses_with(self, new: Value<'m>) {
        edit::replace_uses(self.as_raw(), new.as_raw());
    }

    /// Erases this instruction, whose uses must have been replaced.
    pub fn erase(self) {
        edit::erase(self.as_raw());
    }
    /// A copy of this instruction just before `before`, its operands the
    /// same until the caller sets them (`set_operand`).
    pub fn clone_before(self, before: Value<'m>) -> Value<'m> {
        built(edit::clone_before(self.as_raw(), before.as_raw()))
    }

    /// Moves this instruction to just before `before`, of the same
    /// function (the caller keeps operands defined before their uses).
    pub fn move_before(self, before: Value<'m>) {
        edit::move_before(self.as_raw(), before.as_raw());
    }

    /// Adds `(value, block)` pairs to this phi.
    pub fn add_incoming(self, incoming: &[(Value<'m>, Block<'m>)]) {
        let raw: Vec<_> = incoming
            .iter()
            .map(|(value, block)| (value.as_raw(), block.as_raw_block()))
            .collect();
        build::add_incoming(self.as_raw(), &raw);
    }

    /// Makes operand `index` of this instruction `value`.
    pub fn set_operand(self, index: u32, value: Value<'m>) {
        build::set_operand(self.as_raw(), index, value.as_raw());
    }

    /// Sets the alignment of this load or store, in bytes.
    /// The alignment of a load, store, alloca or global, in bytes.
    pub fn alignment(self) -> u32 {
        build::alignment(self.as_raw())
    }

    pub fn set_alignment(self, bytes: u32) {
        build::set_alignment(self.as_raw(), bytes);
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

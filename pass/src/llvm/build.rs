//! Instructions, constants, types and globals, built through LLVM's C API
//! for the parts of the transform that work on raw handles (the slices, the
//! decision, line runs, merged loops), and the few inkwell calls that inkwell
//! marks unsafe.
//!
//! Every handle passed in is live and of the kind its name says (LLVM gave
//! it to the caller from the module being transformed); names are C strings
//! because LLVM copies them.

use std::ffi::{c_char, CStr};

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{
    LLVMAtomicOrdering, LLVMAtomicRMWBinOp, LLVMInlineAsmDialect, LLVMIntPredicate, LLVMLinkage,
    LLVMOpcode, LLVMTypeKind,
};

/// An instruction builder of its own, disposed of when dropped.
pub struct Builder(LLVMBuilderRef);

impl Builder {
    /// A builder positioned before `inst`.
    pub fn before(inst: LLVMValueRef) -> Builder {
        // SAFETY: creates a builder in the instruction's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
            let b = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderBefore(b, inst);
            Builder(b)
        }
    }

    /// A builder positioned at the end of `block`.
    pub fn at_end(block: LLVMBasicBlockRef) -> Builder {
        // SAFETY: creates a builder in the block's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(block)));
            let b = LLVMCreateBuilderInContext(ctx);
            LLVMPositionBuilderAtEnd(b, block);
            Builder(b)
        }
    }

    pub(super) fn raw(&self) -> LLVMBuilderRef {
        self.0
    }

    pub fn load(&self, ty: LLVMTypeRef, ptr: LLVMValueRef) -> LLVMValueRef {
        // SAFETY (this and every builder call below): builds one instruction
        // of live operands at the builder's position.
        unsafe { LLVMBuildLoad2(self.0, ty, ptr, c"".as_ptr()) }
    }

    pub fn store(&self, value: LLVMValueRef, ptr: LLVMValueRef) -> LLVMValueRef {
        unsafe { LLVMBuildStore(self.0, value, ptr) }
    }

    pub fn br(&self, dest: LLVMBasicBlockRef) -> LLVMValueRef {
        unsafe { LLVMBuildBr(self.0, dest) }
    }

    pub fn cond_br(
        &self,
        cond: LLVMValueRef,
        then: LLVMBasicBlockRef,
        otherwise: LLVMBasicBlockRef,
    ) -> LLVMValueRef {
        unsafe { LLVMBuildCondBr(self.0, cond, then, otherwise) }
    }

    pub fn icmp(
        &self,
        pred: LLVMIntPredicate,
        a: LLVMValueRef,
        b: LLVMValueRef,
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe { LLVMBuildICmp(self.0, pred, a, b, name.as_ptr()) }
    }

    pub fn icmp_eq(&self, a: LLVMValueRef, b: LLVMValueRef) -> LLVMValueRef {
        self.icmp(LLVMIntPredicate::LLVMIntEQ, a, b, c"")
    }

    /// The binary operation `op` (`add`, `and`, `udiv`, ...) of two integers.
    fn binary(
        &self,
        op: LLVMOpcode,
        a: LLVMValueRef,
        b: LLVMValueRef,
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe { LLVMBuildBinOp(self.0, op, a, b, name.as_ptr()) }
    }

    pub fn add(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildAdd(self.0, a, b, name.as_ptr()) }
    }

    pub fn sub(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildSub(self.0, a, b, name.as_ptr()) }
    }

    pub fn mul(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildMul(self.0, a, b, name.as_ptr()) }
    }

    pub fn udiv(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMUDiv, a, b, name)
    }

    pub fn sdiv(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMSDiv, a, b, name)
    }

    pub fn and(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMAnd, a, b, name)
    }

    pub fn or(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMOr, a, b, name)
    }

    pub fn xor(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMXor, a, b, name)
    }

    pub fn shl(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMShl, a, b, name)
    }

    pub fn lshr(&self, a: LLVMValueRef, b: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        self.binary(LLVMOpcode::LLVMLShr, a, b, name)
    }

    pub fn not(&self, v: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildNot(self.0, v, name.as_ptr()) }
    }

    /// `freeze v`: `v` itself where it is defined, opaque to LLVM's analyses.
    pub fn freeze(&self, v: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildFreeze(self.0, v, name.as_ptr()) }
    }

    /// `v` reinterpreted as `ty`, a type of the same size.
    pub fn bitcast(&self, v: LLVMValueRef, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildBitCast(self.0, v, ty, name.as_ptr()) }
    }

    pub fn neg(&self, v: LLVMValueRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildNeg(self.0, v, name.as_ptr()) }
    }

    pub fn select(
        &self,
        cond: LLVMValueRef,
        then: LLVMValueRef,
        otherwise: LLVMValueRef,
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe { LLVMBuildSelect(self.0, cond, then, otherwise, name.as_ptr()) }
    }

    pub fn zext(&self, v: LLVMValueRef, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildZExt(self.0, v, ty, name.as_ptr()) }
    }

    pub fn trunc(&self, v: LLVMValueRef, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildTrunc(self.0, v, ty, name.as_ptr()) }
    }

    /// `v` as the integer type `ty`: truncated, zero-extended, or as it is.
    pub fn unsigned_cast(&self, v: LLVMValueRef, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildIntCast2(self.0, v, ty, 0, name.as_ptr()) }
    }

    pub fn ptr_to_int(&self, v: LLVMValueRef, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildPtrToInt(self.0, v, ty, name.as_ptr()) }
    }

    /// Element `index` of vector `v`.
    pub fn extract_element(&self, v: LLVMValueRef, index: u32) -> LLVMValueRef {
        let i = const_int(i32_type(context_of(v)), u64::from(index), false);
        unsafe { LLVMBuildExtractElement(self.0, v, i, c"".as_ptr()) }
    }

    /// Vector `v` with element `index` replaced by `element` (of `v`'s
    /// element type).
    pub fn insert_element(
        &self,
        v: LLVMValueRef,
        element: LLVMValueRef,
        index: u32,
    ) -> LLVMValueRef {
        let i = const_int(i32_type(context_of(v)), u64::from(index), false);
        unsafe { LLVMBuildInsertElement(self.0, v, element, i, c"".as_ptr()) }
    }

    /// `shufflevector a, b, mask`: lane `i` of the result is lane
    /// `mask[i]` of `a` and `b` side by side.
    pub fn shuffle_vector(
        &self,
        a: LLVMValueRef,
        b: LLVMValueRef,
        mask: &[u32],
        name: &CStr,
    ) -> LLVMValueRef {
        let i32t = i32_type(context_of(a));
        let mut lanes: Vec<_> = mask
            .iter()
            .map(|&m| const_int(i32t, u64::from(m), false))
            .collect();
        let mask = const_vector(&mut lanes);
        unsafe { LLVMBuildShuffleVector(self.0, a, b, mask, name.as_ptr()) }
    }

    /// An empty phi of `ty`; `add_incoming` fills it.
    pub fn phi(&self, ty: LLVMTypeRef, name: &CStr) -> LLVMValueRef {
        unsafe { LLVMBuildPhi(self.0, ty, name.as_ptr()) }
    }

    /// `getelementptr ty, ptr, indices`; the caller keeps the address inside
    /// the object `ptr` points into.
    pub fn gep(
        &self,
        ty: LLVMTypeRef,
        ptr: LLVMValueRef,
        indices: &mut [LLVMValueRef],
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe {
            LLVMBuildGEP2(
                self.0,
                ty,
                ptr,
                indices.as_mut_ptr(),
                indices.len() as u32,
                name.as_ptr(),
            )
        }
    }

    /// Calls `f`, of function type `fty`, with `args` of its parameter types.
    pub fn call(
        &self,
        fty: LLVMTypeRef,
        f: LLVMValueRef,
        args: &mut [LLVMValueRef],
        name: &CStr,
    ) -> LLVMValueRef {
        unsafe {
            LLVMBuildCall2(
                self.0,
                fty,
                f,
                args.as_mut_ptr(),
                args.len() as u32,
                name.as_ptr(),
            )
        }
    }

    /// A relaxed (monotonic) `atomicrmw add` of `value` to `*ptr`.
    pub fn atomic_add(&self, ptr: LLVMValueRef, value: LLVMValueRef) -> LLVMValueRef {
        unsafe {
            LLVMBuildAtomicRMW(
                self.0,
                LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd,
                ptr,
                value,
                LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            )
        }
    }
}

impl Drop for Builder {
    fn drop(&mut self) {
        // SAFETY: the builder was created by us and is disposed of once.
        unsafe { LLVMDisposeBuilder(self.0) }
    }
}

// SAFETY (every function below): reads or changes live handles of the kinds
// named, as LLVM's C API documents them.

pub fn type_of(v: LLVMValueRef) -> LLVMTypeRef {
    unsafe { LLVMTypeOf(v) }
}

pub fn type_context(ty: LLVMTypeRef) -> LLVMContextRef {
    unsafe { LLVMGetTypeContext(ty) }
}

/// The context of value `v`.
pub fn context_of(v: LLVMValueRef) -> LLVMContextRef {
    type_context(type_of(v))
}

pub fn int_type(ctx: LLVMContextRef, bits: u32) -> LLVMTypeRef {
    unsafe { LLVMIntTypeInContext(ctx, bits) }
}

pub fn i32_type(ctx: LLVMContextRef) -> LLVMTypeRef {
    unsafe { LLVMInt32TypeInContext(ctx) }
}

pub fn pointer_type(ctx: LLVMContextRef, address_space: u32) -> LLVMTypeRef {
    unsafe { LLVMPointerTypeInContext(ctx, address_space) }
}

/// A vector of `count` elements of `element`, a scalar type.
pub fn vector_type(element: LLVMTypeRef, count: u32) -> LLVMTypeRef {
    unsafe { LLVMVectorType(element, count) }
}

/// The element type and length of `ty` when it is a fixed vector.
pub fn vector_shape(ty: LLVMTypeRef) -> Option<(LLVMTypeRef, u32)> {
    (type_kind(ty) == LLVMTypeKind::LLVMVectorTypeKind)
        .then(|| unsafe { (LLVMGetElementType(ty), LLVMGetVectorSize(ty)) })
}

/// The constant vector of `elements` (constants of one scalar type).
pub fn const_vector(elements: &mut [LLVMValueRef]) -> LLVMValueRef {
    unsafe { LLVMConstVector(elements.as_mut_ptr(), elements.len() as u32) }
}

/// Element `index` of `v` when `v` is a constant vector whose elements can
/// be read one by one (not a constant expression).
pub fn constant_element(v: LLVMValueRef, index: u32) -> Option<LLVMValueRef> {
    unsafe {
        if LLVMIsAConstant(v).is_null() || !LLVMIsAConstantExpr(v).is_null() {
            return None;
        }
        let e = LLVMGetAggregateElement(v, index);
        (!e.is_null()).then_some(e)
    }
}

/// The poison value of `ty`.
pub fn poison(ty: LLVMTypeRef) -> LLVMValueRef {
    unsafe { LLVMGetPoison(ty) }
}

pub fn array_type(element: LLVMTypeRef, count: u64) -> LLVMTypeRef {
    unsafe { LLVMArrayType2(element, count) }
}

/// A function type returning `ret` with parameters `params`, not variadic.
pub fn function_type(ret: LLVMTypeRef, params: &mut [LLVMTypeRef]) -> LLVMTypeRef {
    unsafe { LLVMFunctionType(ret, params.as_mut_ptr(), params.len() as u32, 0) }
}

pub fn type_kind(ty: LLVMTypeRef) -> LLVMTypeKind {
    unsafe { LLVMGetTypeKind(ty) }
}

/// The width of integer type `ty` in bits.
pub fn int_width(ty: LLVMTypeRef) -> u32 {
    unsafe { LLVMGetIntTypeWidth(ty) }
}

/// The width of `v`'s type when it is a scalar integer.
pub fn integer_bits(v: LLVMValueRef) -> Option<u32> {
    let ty = type_of(v);
    (type_kind(ty) == LLVMTypeKind::LLVMIntegerTypeKind).then(|| int_width(ty))
}

/// An integer constant of `ty` (`sign_extend`: `v` is read as signed).
pub fn const_int(ty: LLVMTypeRef, v: u64, sign_extend: bool) -> LLVMValueRef {
    unsafe { LLVMConstInt(ty, v, i32::from(sign_extend)) }
}

pub fn const_null(ty: LLVMTypeRef) -> LLVMValueRef {
    unsafe { LLVMConstNull(ty) }
}

pub fn const_all_ones(ty: LLVMTypeRef) -> LLVMValueRef {
    unsafe { LLVMConstAllOnes(ty) }
}

pub fn is_instruction(v: LLVMValueRef) -> bool {
    unsafe { !LLVMIsAInstruction(v).is_null() }
}

/// The opcode of instruction `inst`.
pub fn opcode(inst: LLVMValueRef) -> LLVMOpcode {
    unsafe { LLVMGetInstructionOpcode(inst) }
}

/// The instruction after `inst` in its block, if any.
pub fn next_instruction(inst: LLVMValueRef) -> Option<LLVMValueRef> {
    let next = unsafe { LLVMGetNextInstruction(inst) };
    (!next.is_null()).then_some(next)
}

/// The function `block` belongs to.
pub fn block_function(block: LLVMBasicBlockRef) -> LLVMValueRef {
    unsafe { LLVMGetBasicBlockParent(block) }
}

pub fn entry_block(function: LLVMValueRef) -> LLVMBasicBlockRef {
    unsafe { LLVMGetEntryBasicBlock(function) }
}

/// A new empty block named `name`, placed before `before`.
pub fn insert_block_before(before: LLVMBasicBlockRef, name: &CStr) -> LLVMBasicBlockRef {
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(LLVMBasicBlockAsValue(before)));
        LLVMInsertBasicBlockInContext(ctx, before, name.as_ptr())
    }
}

/// Moves `block` to right after `after` in their function's block order.
pub fn move_block_after(block: LLVMBasicBlockRef, after: LLVMBasicBlockRef) {
    unsafe { LLVMMoveBasicBlockAfter(block, after) }
}

/// The module of global `global` (a function included).
pub fn module_of(global: LLVMValueRef) -> LLVMModuleRef {
    unsafe { LLVMGetGlobalParent(global) }
}

/// The function `name` of `module`, declared with `fty` when missing.
pub fn get_or_declare_function(
    module: LLVMModuleRef,
    name: &CStr,
    fty: LLVMTypeRef,
) -> LLVMValueRef {
    unsafe {
        let f = LLVMGetNamedFunction(module, name.as_ptr());
        if f.is_null() {
            LLVMAddFunction(module, name.as_ptr(), fty)
        } else {
            f
        }
    }
}

/// A zero-initialised, externally visible global of `ty` in `address_space`.
pub fn add_zeroed_global(
    module: LLVMModuleRef,
    ty: LLVMTypeRef,
    name: &CStr,
    address_space: u32,
    align: u32,
) -> LLVMValueRef {
    unsafe {
        let global = LLVMAddGlobalInAddressSpace(module, ty, name.as_ptr(), address_space);
        LLVMSetInitializer(global, LLVMConstNull(ty));
        LLVMSetLinkage(global, LLVMLinkage::LLVMExternalLinkage);
        LLVMSetAlignment(global, align);
        global
    }
}

/// The alignment of a load, store, alloca or global.
pub fn alignment(v: LLVMValueRef) -> u32 {
    unsafe { LLVMGetAlignment(v) }
}

pub fn set_alignment(v: LLVMValueRef, align: u32) {
    unsafe { LLVMSetAlignment(v, align) }
}

/// Whether `v` is a load that is neither volatile nor atomic.
pub fn is_plain_load(v: LLVMValueRef) -> bool {
    is_instruction(v)
        && opcode(v) == LLVMOpcode::LLVMLoad
        && unsafe {
            LLVMGetVolatile(v) == 0
                && LLVMGetOrdering(v) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
        }
}

/// Whether `v` is a store that is neither volatile nor atomic.
pub fn is_plain_store(v: LLVMValueRef) -> bool {
    is_instruction(v)
        && opcode(v) == LLVMOpcode::LLVMStore
        && unsafe {
            LLVMGetVolatile(v) == 0
                && LLVMGetOrdering(v) == LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
        }
}

/// Whether `v` is a strong `cmpxchg`, sequentially consistent on success
/// and on failure, of system scope: the form clang gives CUDA's
/// `atomicCAS` (its `_block` and `_system` forms are NVVM intrinsics).
pub fn is_seq_cst_system_cmpxchg(v: LLVMValueRef) -> bool {
    const SEQ_CST: LLVMAtomicOrdering =
        LLVMAtomicOrdering::LLVMAtomicOrderingSequentiallyConsistent;
    is_instruction(v)
        && opcode(v) == LLVMOpcode::LLVMAtomicCmpXchg
        // SAFETY: a cmpxchg instruction.
        && unsafe {
            LLVMGetWeak(v) == 0
                && LLVMIsAtomicSingleThread(v) == 0
                && LLVMGetCmpXchgSuccessOrdering(v) == SEQ_CST
                && LLVMGetCmpXchgFailureOrdering(v) == SEQ_CST
                && has_system_scope(v)
        }
}

/// Whether atomic `v` has the system scope (no `syncscope`).
#[cfg(feature = "llvm22")]
unsafe fn has_system_scope(v: LLVMValueRef) -> bool {
    let context = LLVMGetTypeContext(LLVMTypeOf(v));
    LLVMGetAtomicSyncScopeID(v) == LLVMGetSyncScopeID(context, c"".as_ptr(), 0)
}

/// LLVM 19's C API cannot read a scope: any scope passes (its NVPTX lowers
/// every cmpxchg relaxed, so only the IR's orderings change).
#[cfg(feature = "llvm19")]
unsafe fn has_system_scope(_v: LLVMValueRef) -> bool {
    true
}

/// Makes `cmpxchg` `v` monotonic on success and on failure, of device
/// scope (`syncscope("device")`) where the LLVM can name one (LLVM 20 on).
pub fn relax_cmpxchg_to_device_scope(v: LLVMValueRef) {
    const MONOTONIC: LLVMAtomicOrdering = LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic;
    // SAFETY: a cmpxchg instruction (`is_seq_cst_system_cmpxchg`).
    unsafe {
        LLVMSetCmpXchgSuccessOrdering(v, MONOTONIC);
        LLVMSetCmpXchgFailureOrdering(v, MONOTONIC);
        set_device_scope(v);
    }
}

#[cfg(feature = "llvm22")]
unsafe fn set_device_scope(v: LLVMValueRef) {
    let context = LLVMGetTypeContext(LLVMTypeOf(v));
    let device = LLVMGetSyncScopeID(context, c"device".as_ptr(), "device".len());
    LLVMSetAtomicSyncScopeID(v, device);
}

#[cfg(feature = "llvm19")]
unsafe fn set_device_scope(_v: LLVMValueRef) {}

/// Whether `v` is an add, or an `or disjoint` (an add without carries).
pub fn is_add(v: LLVMValueRef) -> bool {
    is_instruction(v)
        && match opcode(v) {
            LLVMOpcode::LLVMAdd => true,
            LLVMOpcode::LLVMOr => unsafe { LLVMGetIsDisjoint(v) != 0 },
            _ => false,
        }
}

/// Replaces operand `index` of `user` with `value`.
pub fn set_operand(user: LLVMValueRef, index: u32, value: LLVMValueRef) {
    unsafe { LLVMSetOperand(user, index, value) }
}

/// Whether `v` has a use.
pub fn has_uses(v: LLVMValueRef) -> bool {
    unsafe { !LLVMGetFirstUse(v).is_null() }
}

/// Adds the (value, block) pairs to `phi`.
pub fn add_incoming(phi: LLVMValueRef, incoming: &[(LLVMValueRef, LLVMBasicBlockRef)]) {
    let (mut values, mut blocks): (Vec<_>, Vec<_>) = incoming.iter().copied().unzip();
    unsafe {
        LLVMAddIncoming(
            phi,
            values.as_mut_ptr(),
            blocks.as_mut_ptr(),
            values.len() as u32,
        )
    }
}

/// An inline-assembly callee of type `fty` (no side effects unless
/// `side_effects`; AT&T dialect, as NVPTX reads it).
pub fn inline_asm(
    fty: LLVMTypeRef,
    asm: &str,
    constraints: &str,
    side_effects: bool,
) -> LLVMValueRef {
    unsafe {
        LLVMGetInlineAsm(
            fty,
            asm.as_ptr() as *const c_char,
            asm.len(),
            constraints.as_ptr() as *const c_char,
            constraints.len(),
            i32::from(side_effects),
            0,
            LLVMInlineAsmDialect::LLVMInlineAsmDialectATT,
            0,
        )
    }
}

/// Runs the module pass pipeline `passes` on `module` with default options.
pub fn run_module_passes(module: &inkwell::module::Module<'_>, passes: &CStr) {
    use inkwell::llvm_sys::transforms::pass_builder::*;
    let module = module.as_mut_ptr();
    // SAFETY: runs a pass pipeline on a live module with default options,
    // disposed of after.
    unsafe {
        let opts = LLVMCreatePassBuilderOptions();
        let err = LLVMRunPasses(module, passes.as_ptr(), std::ptr::null_mut(), opts);
        assert!(err.is_null(), "{passes:?} failed");
        LLVMDisposePassBuilderOptions(opts);
    }
}

/// inkwell's view of type `ty`, which is a first-class type.
pub fn basic_type<'ctx>(ty: LLVMTypeRef) -> inkwell::types::BasicTypeEnum<'ctx> {
    unsafe { inkwell::types::BasicTypeEnum::new(ty) }
}

/// inkwell's `getelementptr`; the caller keeps the address inside the
/// object `ptr` points into.
pub fn inkwell_gep<'ctx>(
    b: &inkwell::builder::Builder<'ctx>,
    ty: impl inkwell::types::BasicType<'ctx>,
    ptr: inkwell::values::PointerValue<'ctx>,
    indices: &[inkwell::values::IntValue<'ctx>],
    name: &str,
) -> Result<inkwell::values::PointerValue<'ctx>, inkwell::builder::BuilderError> {
    unsafe { b.build_gep(ty, ptr, indices, name) }
}

/// Deletes `global`, which nothing uses.
pub fn delete_global(global: inkwell::values::GlobalValue<'_>) {
    unsafe { global.delete() }
}

/// Deletes `function`, which nothing calls.
pub fn delete_function(function: inkwell::values::FunctionValue<'_>) {
    unsafe { function.delete() }
}

extern "C" {
    fn sl1_append_global_ctor(module: LLVMModuleRef, function: LLVMValueRef, priority: i32);
}

/// Runs `function` (of type `void ()`) when the program starts, after the
/// constructors of lower `priority`.
pub fn append_global_ctor(
    module: &inkwell::module::Module<'_>,
    function: inkwell::values::FunctionValue<'_>,
    priority: i32,
) {
    use inkwell::values::AsValueRef;
    // SAFETY: a live function of the live module.
    unsafe { sl1_append_global_ctor(module.as_mut_ptr(), function.as_value_ref(), priority) }
}

//! A thin, read-only view of LLVM IR for the analyses.
//!
//! inkwell covers modules, functions and code generation, but not everything the
//! analyses read (successor lists, value kinds, phi operands, call targets, store
//! sizes). This module is the one audited place that calls llvm-sys directly for
//! reading IR. Every handle borrows the module (`'m`), so no handle outlives it.

use std::ffi::{c_char, CStr};
use std::marker::PhantomData;

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::target::{
    LLVMABISizeOfType, LLVMGetModuleDataLayout, LLVMOffsetOfElement, LLVMStoreSizeOfType,
};
use inkwell::llvm_sys::{
    LLVMAtomicOrdering, LLVMIntPredicate, LLVMOpcode, LLVMTypeKind, LLVMValueKind,
};
use inkwell::module::Module;
use inkwell::values::{AsValueRef, FunctionValue};

/// Instruction kinds and integer compares, as LLVM names them: plain enums
/// the code outside this module matches on without naming llvm-sys.
pub use inkwell::llvm_sys::{LLVMIntPredicate as IntPredicate, LLVMOpcode as Opcode};

/// Each block's position in a function's layout order (`block_indices`).
pub type BlockIndex<'m> = std::collections::HashMap<Block<'m>, usize>;

/// Makes `context` drop the names of values and blocks other than globals,
/// as clang's context does unless given `-fno-discard-value-names`: what
/// the pass finds must not depend on names.
pub fn discard_value_names(context: &inkwell::context::Context) {
    use inkwell::context::AsContextRef;
    // SAFETY: sets a flag of a live context.
    unsafe { LLVMContextSetDiscardValueNames(context.as_ctx_ref(), 1) }
}

/// What clang's `-fno-jump-tables` does: the attribute on every function
/// (`-sl1-jump-tables` and the driver's `--jump-tables` keep them).
pub fn forbid_jump_tables(module: &Module<'_>) {
    let attribute = module
        .get_context()
        .create_string_attribute("no-jump-tables", "true");
    for function in module.get_functions() {
        function.add_attribute(inkwell::attributes::AttributeLoc::Function, attribute);
    }
}

/// The calling convention number LLVM gives `ptx_kernel` functions.
pub const PTX_KERNEL_CALL_CONV: u32 = 71;

/// An instruction or other value of the module being read.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Value<'m> {
    raw: LLVMValueRef,
    _module: PhantomData<&'m ()>,
}

/// A basic block of the module being read. Ordered by address: an order
/// that holds within one run, for sets of blocks.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct Block<'m> {
    raw: LLVMBasicBlockRef,
    _module: PhantomData<&'m ()>,
}

/// A type of the module being read.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Type<'m> {
    raw: LLVMTypeRef,
    _module: PhantomData<&'m ()>,
}

/// A function of the module being read.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Function<'m> {
    raw: LLVMValueRef,
    module: LLVMModuleRef,
    _module: PhantomData<&'m ()>,
}

pub use sl1_core::report::SourceLocation;

/// What a value is, as far as the analyses care.
#[derive(Clone, Copy, PartialEq, Debug)]
pub enum ValueKind {
    Argument { index: u32 },
    Instruction(LLVMOpcode),
    GlobalVariable { address_space: u32 },
    ConstantExpr(LLVMOpcode),
    Function,
    ConstantNull,
    Other,
}

fn c_str_to_string(ptr: *const c_char, len: usize) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: LLVM returns a pointer to `len` bytes owned by the value.
    let bytes = unsafe { std::slice::from_raw_parts(ptr as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

impl<'m> Value<'m> {
    /// Where an instruction came from in the source, when the module has
    /// debug information (None for other values).
    pub fn debug_location(self) -> Option<SourceLocation> {
        // SAFETY: the debug-location getters accept instructions and answer
        // 0 or an empty name where one has no location; the name is owned
        // by the module's metadata. Other values are never passed.
        unsafe {
            if LLVMIsAInstruction(self.raw).is_null() {
                return None;
            }
            let line = LLVMGetDebugLocLine(self.raw);
            if line == 0 {
                return None;
            }
            let mut len = 0u32;
            let name = LLVMGetDebugLocFilename(self.raw, &mut len);
            Some(SourceLocation {
                file: c_str_to_string(name, len as usize),
                line,
                column: LLVMGetDebugLocColumn(self.raw),
            })
        }
    }

    pub(super) fn new(raw: LLVMValueRef) -> Option<Self> {
        (!raw.is_null()).then_some(Value {
            raw,
            _module: PhantomData,
        })
    }

    /// A value of the module being read, by the raw handle the affine
    /// analysis keys its symbols with.
    pub fn from_raw(raw: LLVMValueRef) -> Option<Self> {
        Value::new(raw)
    }

    /// The value an affine symbol stands for: `analysis::affine` keys its
    /// symbols by their value's address.
    pub fn of_symbol(symbol: usize) -> Option<Self> {
        Value::new(symbol as LLVMValueRef)
    }

    /// The affine symbol this value stands for (`of_symbol`'s inverse).
    pub fn symbol(self) -> usize {
        self.raw as usize
    }

    pub fn name(self) -> String {
        let mut len = 0usize;
        // SAFETY: `raw` is a live value of the borrowed module.
        let ptr = unsafe { LLVMGetValueName2(self.raw, &mut len) };
        c_str_to_string(ptr, len)
    }

    pub fn kind(self) -> ValueKind {
        // SAFETY: `raw` is a live value; the queries only read it.
        unsafe {
            match LLVMGetValueKind(self.raw) {
                LLVMValueKind::LLVMArgumentValueKind => {
                    let func = LLVMGetParamParent(self.raw);
                    let count = LLVMCountParams(func);
                    let index = (0..count)
                        .find(|&i| LLVMGetParam(func, i) == self.raw)
                        .expect("an argument is a parameter of its function");
                    ValueKind::Argument { index }
                }
                LLVMValueKind::LLVMInstructionValueKind => {
                    ValueKind::Instruction(LLVMGetInstructionOpcode(self.raw))
                }
                LLVMValueKind::LLVMGlobalVariableValueKind => ValueKind::GlobalVariable {
                    address_space: LLVMGetPointerAddressSpace(LLVMTypeOf(self.raw)),
                },
                LLVMValueKind::LLVMConstantExprValueKind => {
                    ValueKind::ConstantExpr(LLVMGetConstOpcode(self.raw))
                }
                LLVMValueKind::LLVMFunctionValueKind => ValueKind::Function,
                LLVMValueKind::LLVMConstantPointerNullValueKind => ValueKind::ConstantNull,
                _ => ValueKind::Other,
            }
        }
    }

    /// The opcode when this is an instruction.
    pub fn opcode(self) -> Option<LLVMOpcode> {
        match self.kind() {
            ValueKind::Instruction(op) => Some(op),
            _ => None,
        }
    }

    /// The predicate of an integer compare (`None` for anything else).
    pub fn icmp_predicate(self) -> Option<LLVMIntPredicate> {
        if self.opcode() != Some(LLVMOpcode::LLVMICmp) {
            return None;
        }
        // SAFETY: `raw` is an icmp instruction.
        Some(unsafe { LLVMGetICmpPredicate(self.raw) })
    }

    /// The lanes a `shufflevector` picks (`None` for an undefined lane),
    /// or `None` when this is not one.
    pub fn shuffle_mask(self) -> Option<Vec<Option<u32>>> {
        if self.opcode() != Some(LLVMOpcode::LLVMShuffleVector) {
            return None;
        }
        // SAFETY: `raw` is a shufflevector instruction.
        let n = unsafe { LLVMGetNumMaskElements(self.raw) };
        let undef = unsafe { LLVMGetUndefMaskElem() };
        Some(
            (0..n)
                .map(|i| {
                    // SAFETY: `i` is below the mask's length.
                    let m = unsafe { LLVMGetMaskValue(self.raw, i) };
                    (m != undef).then_some(m as u32)
                })
                .collect(),
        )
    }

    pub fn num_operands(self) -> u32 {
        // SAFETY: `raw` is a user (instruction or constant expression) or has 0 operands.
        let n = unsafe { LLVMGetNumOperands(self.raw) };
        n.max(0) as u32
    }

    pub fn operand(self, index: u32) -> Option<Value<'m>> {
        if index >= self.num_operands() {
            return None;
        }
        // SAFETY: index is in range.
        Value::new(unsafe { LLVMGetOperand(self.raw, index) })
    }

    /// Incoming values of a phi node.
    pub fn incoming(self) -> Vec<Value<'m>> {
        debug_assert_eq!(self.opcode(), Some(LLVMOpcode::LLVMPHI));
        // SAFETY: `raw` is a phi node.
        unsafe {
            (0..LLVMCountIncoming(self.raw))
                .filter_map(|i| Value::new(LLVMGetIncomingValue(self.raw, i)))
                .collect()
        }
    }

    /// Incoming blocks of a phi node, in the order of `incoming`.
    pub fn incoming_blocks(self) -> Vec<Block<'m>> {
        debug_assert_eq!(self.opcode(), Some(LLVMOpcode::LLVMPHI));
        // SAFETY: `raw` is a phi node.
        unsafe {
            (0..LLVMCountIncoming(self.raw))
                .filter_map(|i| Block::new(LLVMGetIncomingBlock(self.raw, i)))
                .collect()
        }
    }

    /// The callee of a call instruction, when it is a known function.
    pub fn called_function_name(self) -> Option<String> {
        if self.opcode() != Some(LLVMOpcode::LLVMCall) {
            return None;
        }
        // SAFETY: `raw` is a call instruction.
        let callee = Value::new(unsafe { LLVMGetCalledValue(self.raw) })?;
        (callee.kind() == ValueKind::Function).then(|| callee.name())
    }

    /// The text and constraints of the inline assembly a call runs, if it
    /// calls some.
    pub fn inline_asm(self) -> Option<(String, String)> {
        if self.opcode() != Some(LLVMOpcode::LLVMCall) {
            return None;
        }
        // SAFETY: `raw` is a call; its callee is read as inline assembly
        // only when it is some, and the strings are copied at once.
        unsafe {
            let callee = LLVMGetCalledValue(self.raw);
            if callee.is_null() || LLVMIsAInlineAsm(callee).is_null() {
                return None;
            }
            let mut len = 0usize;
            let text = LLVMGetInlineAsmAsmString(callee, &mut len);
            let text = c_str_to_string(text, len);
            let mut len = 0usize;
            let constraints = LLVMGetInlineAsmConstraintString(callee, &mut len);
            Some((text, c_str_to_string(constraints, len)))
        }
    }

    /// Whether a call is `convergent` (warp or block collectives: barriers,
    /// shuffles, votes), on the call or on its callee.
    pub fn is_convergent_call(self) -> bool {
        self.opcode() == Some(LLVMOpcode::LLVMCall) && self.call_attribute("convergent").is_some()
    }

    /// A call's function attribute `name`, on the call site or else on its
    /// callee (a function, not a pointer).
    fn call_attribute(self, name: &str) -> Option<LLVMAttributeRef> {
        // SAFETY: `raw` is a call; attribute index u32::MAX names the function.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const c_char, name.len());
            let index = inkwell::llvm_sys::LLVMAttributeFunctionIndex;
            let on_call = LLVMGetCallSiteEnumAttribute(self.raw, index, kind);
            if !on_call.is_null() {
                return Some(on_call);
            }
            let callee = LLVMGetCalledValue(self.raw);
            if LLVMGetValueKind(callee) != LLVMValueKind::LLVMFunctionValueKind {
                return None;
            }
            let on_callee = LLVMGetEnumAttributeAtIndex(callee, index, kind);
            (!on_callee.is_null()).then_some(on_callee)
        }
    }

    /// Whether the instruction may write memory or synchronise: stores,
    /// atomics, fences, acquire loads, and calls whose callee or call site
    /// does not say `memory(none)` or `memory(read)` (intrinsics such as
    /// `llvm.fmuladd` do).
    pub fn may_write_memory(self) -> bool {
        match self.opcode() {
            Some(LLVMOpcode::LLVMLoad) => self.is_ordering_load_or_store(),
            Some(
                LLVMOpcode::LLVMStore
                | LLVMOpcode::LLVMAtomicRMW
                | LLVMOpcode::LLVMAtomicCmpXchg
                | LLVMOpcode::LLVMFence
                | LLVMOpcode::LLVMInvoke
                | LLVMOpcode::LLVMCallBr
                | LLVMOpcode::LLVMVAArg,
            ) => true,
            Some(LLVMOpcode::LLVMCall) => !self.call_only_reads(),
            _ => false,
        }
    }

    /// Whether a call's `memory` attribute (on the call or its callee)
    /// allows no writes to any location.
    fn call_only_reads(self) -> bool {
        // Two bits per location; the high one of each is "may modify".
        const MODIFIES: u64 = 0xAAAA_AAAA_AAAA_AAAA;
        self.call_attribute("memory").is_some_and(|memory| {
            // SAFETY: an enum attribute of a live call or function.
            unsafe { LLVMGetEnumAttributeValue(memory) & MODIFIES == 0 }
        })
    }

    /// Whether a load or store is volatile.
    pub fn is_volatile(self) -> bool {
        match self.opcode() {
            // SAFETY: only asked of memory instructions.
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore) => unsafe {
                LLVMGetVolatile(self.raw) != 0
            },
            _ => false,
        }
    }

    /// Address space of a pointer-typed value.
    pub fn pointer_address_space(self) -> Option<u32> {
        // SAFETY: only reads the value's type.
        unsafe {
            let ty = LLVMTypeOf(self.raw);
            (LLVMGetTypeKind(ty) == LLVMTypeKind::LLVMPointerTypeKind)
                .then(|| LLVMGetPointerAddressSpace(ty))
        }
    }

    /// The instructions that use this value, each once.
    pub fn users(self) -> Vec<Value<'m>> {
        super::edit::users(self.raw)
            .into_iter()
            .filter_map(Value::new)
            .collect()
    }

    /// Whether this is a constant (a number, a global's address, undef).
    pub fn is_constant(self) -> bool {
        super::edit::is_constant(self.raw)
    }

    /// Inserts `freeze` of this instruction (not a phi or terminator) right
    /// after it and sends every other use through the freeze.
    pub fn freeze_after(self) {
        super::edit::freeze_after(self.raw);
    }

    /// Makes this conditional branch always go to its first successor.
    pub fn always_take_first(self) {
        super::edit::always_take_first(self.raw);
    }

    /// The block an instruction belongs to; `None` for anything else (an
    /// argument, a constant), of which LLVM's call would read a field
    /// those do not have.
    pub fn parent_block(self) -> Option<Block<'m>> {
        // SAFETY: `LLVMIsAInstruction` only inspects the value; the parent
        // is asked of instructions alone.
        unsafe {
            if LLVMIsAInstruction(self.raw).is_null() {
                return None;
            }
            Block::new(LLVMGetInstructionParent(self.raw))
        }
    }

    /// The value of an integer constant (sign-extended), if this is one.
    pub fn const_int(self) -> Option<i64> {
        // SAFETY: `LLVMIsAConstantInt` only inspects the value; the value is
        // read only when it is a constant integer of at most 64 bits.
        unsafe {
            if LLVMIsAConstantInt(self.raw).is_null() {
                return None;
            }
            let bits = LLVMGetIntTypeWidth(LLVMTypeOf(self.raw));
            (bits <= 64).then(|| LLVMConstIntGetSExtValue(self.raw))
        }
    }

    /// The value of an integer constant of at most 64 bits, read unsigned.
    pub fn const_unsigned(self) -> Option<u64> {
        super::edit::const_unsigned(self.raw)
    }

    /// The width of this value's type when it is a scalar integer.
    pub fn integer_bits(self) -> Option<u32> {
        super::build::integer_bits(self.raw)
    }

    /// Every operand, in order.
    pub fn operands(self) -> Vec<Value<'m>> {
        (0..self.num_operands())
            .filter_map(|i| self.operand(i))
            .collect()
    }

    pub fn has_uses(self) -> bool {
        super::build::has_uses(self.raw)
    }

    /// How many uses this value has (a user using it twice counts twice).
    pub fn use_count(self) -> usize {
        super::edit::use_count(self.raw)
    }

    /// The ordering of a load or store: `NotAtomic` for plain ones, `None`
    /// for any other instruction.
    fn load_store_ordering(self) -> Option<LLVMAtomicOrdering> {
        match self.opcode() {
            // SAFETY: only asked of loads and stores.
            Some(LLVMOpcode::LLVMLoad | LLVMOpcode::LLVMStore) => {
                Some(unsafe { LLVMGetOrdering(self.raw) })
            }
            _ => None,
        }
    }

    /// Whether this is an atomic load or store (`__atomic_load_n`,
    /// `__atomic_store_n`, nvcc's `__nv_atomic_load_n`).
    pub fn is_atomic_load_or_store(self) -> bool {
        self.load_store_ordering()
            .is_some_and(|o| o != LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic)
    }

    /// Whether this is an atomic load or store that orders the thread's
    /// other accesses around it (acquire, release or sequentially
    /// consistent), as a fence does.
    pub fn is_ordering_load_or_store(self) -> bool {
        self.load_store_ordering().is_some_and(|o| {
            !matches!(
                o,
                LLVMAtomicOrdering::LLVMAtomicOrderingNotAtomic
                    | LLVMAtomicOrdering::LLVMAtomicOrderingUnordered
                    | LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic
            )
        })
    }

    /// Whether this is a strong `cmpxchg`, sequentially consistent, of
    /// system scope: clang's `atomicCAS` (`build::is_seq_cst_system_cmpxchg`).
    pub fn is_seq_cst_system_cmpxchg(self) -> bool {
        super::build::is_seq_cst_system_cmpxchg(self.raw)
    }

    /// Makes this `cmpxchg` monotonic of device scope
    /// (`build::relax_cmpxchg_to_device_scope`).
    pub fn relax_cmpxchg_to_device_scope(self) {
        super::build::relax_cmpxchg_to_device_scope(self.raw)
    }

    /// Whether this is a load that is neither volatile nor atomic.
    pub fn is_plain_load(self) -> bool {
        super::build::is_plain_load(self.raw)
    }

    /// Whether this is a store that is neither volatile nor atomic.
    pub fn is_plain_store(self) -> bool {
        super::build::is_plain_store(self.raw)
    }

    /// The (value, block) pairs of a phi node.
    pub fn phi_incoming(self) -> Vec<(Value<'m>, Block<'m>)> {
        super::edit::phi_incoming(self.raw)
            .into_iter()
            .filter_map(|(value, block)| Some((Value::new(value)?, Block::new(block)?)))
            .collect()
    }

    /// The value a phi node takes when entered from `block`.
    pub fn incoming_from(self, block: Block<'m>) -> Option<Value<'m>> {
        self.phi_incoming()
            .into_iter()
            .find(|(_, b)| *b == block)
            .map(|(value, _)| value)
    }

    /// The parts of a `switch` (`None` for any other instruction).
    pub fn switch_parts(self) -> Option<Switch<'m>> {
        let parts = super::edit::switch_parts(self.raw)?;
        let cases = parts
            .cases
            .into_iter()
            .filter_map(|(value, dest)| Some((Value::new(value)?, Block::new(dest)?)))
            .collect();
        Some(Switch {
            condition: Value::new(parts.condition)?,
            default: Block::new(parts.default)?,
            cases,
        })
    }

    /// The block a block operand (of a branch) stands for (`None` for any
    /// other value).
    pub fn as_block(self) -> Option<Block<'m>> {
        // SAFETY: the value is read as a block only when it is one.
        unsafe {
            if LLVMValueIsBasicBlock(self.raw) == 0 {
                return None;
            }
            Block::new(LLVMValueAsBasicBlock(self.raw))
        }
    }

    /// Whether an add instruction is `nsw` (`signed`) or `nuw`.
    pub fn has_no_wrap(self, signed: bool) -> bool {
        // SAFETY: `self` is a live add instruction (callers check the opcode).
        unsafe {
            if signed {
                LLVMGetNSW(self.raw) != 0
            } else {
                LLVMGetNUW(self.raw) != 0
            }
        }
    }

    pub fn as_raw(self) -> LLVMValueRef {
        self.raw
    }

    pub fn is_phi(self) -> bool {
        self.opcode() == Some(LLVMOpcode::LLVMPHI)
    }

    /// Whether this is an add, or an `or disjoint` (an add without carries).
    pub fn is_add(self) -> bool {
        super::build::is_add(self.raw)
    }

    /// `step` when this is an integer `add` of `x` and `step` (either
    /// order): what a recurrence `x` moves by.
    pub fn step_from(self, x: Value<'m>) -> Option<Value<'m>> {
        if self.opcode() != Some(LLVMOpcode::LLVMAdd) {
            return None;
        }
        match (self.operand(0)?, self.operand(1)?) {
            (a, step) if a == x => Some(step),
            (step, b) if b == x => Some(step),
            _ => None,
        }
    }

    /// This value's type.
    pub fn ty(self) -> Type<'m> {
        Type::new(super::build::type_of(self.raw))
    }

    /// Element `index` of a constant vector whose elements can be read one
    /// by one (`None` for anything else, a constant expression included).
    pub fn constant_element(self, index: u32) -> Option<Value<'m>> {
        super::build::constant_element(self.raw, index).and_then(Value::new)
    }
}

impl<'m> Type<'m> {
    pub(super) fn new(raw: LLVMTypeRef) -> Self {
        Type {
            raw,
            _module: PhantomData,
        }
    }

    /// The element type and length when this is a fixed vector.
    pub fn vector_shape(self) -> Option<(Type<'m>, u32)> {
        super::build::vector_shape(self.raw).map(|(element, n)| (Type::new(element), n))
    }

    /// The width in bits when this is a scalar integer.
    pub fn integer_width(self) -> Option<u32> {
        (super::build::type_kind(self.raw) == LLVMTypeKind::LLVMIntegerTypeKind)
            .then(|| super::build::int_width(self.raw))
    }

    /// The width in bits when this is a floating-point type of IEEE
    /// layout (`half`, `float`, `double`, `fp128`) or `bfloat`.
    pub fn float_width(self) -> Option<u32> {
        match super::build::type_kind(self.raw) {
            LLVMTypeKind::LLVMHalfTypeKind | LLVMTypeKind::LLVMBFloatTypeKind => Some(16),
            LLVMTypeKind::LLVMFloatTypeKind => Some(32),
            LLVMTypeKind::LLVMDoubleTypeKind => Some(64),
            LLVMTypeKind::LLVMFP128TypeKind => Some(128),
            _ => None,
        }
    }

    pub fn is_void(self) -> bool {
        super::build::type_kind(self.raw) == LLVMTypeKind::LLVMVoidTypeKind
    }

    /// Whether this is `token`, a type no memory can hold.
    pub fn is_token(self) -> bool {
        super::build::type_kind(self.raw) == LLVMTypeKind::LLVMTokenTypeKind
    }

    pub fn is_pointer(self) -> bool {
        super::build::type_kind(self.raw) == LLVMTypeKind::LLVMPointerTypeKind
    }

    /// Whether this is a struct or an array.
    pub fn is_aggregate(self) -> bool {
        matches!(
            super::build::type_kind(self.raw),
            LLVMTypeKind::LLVMStructTypeKind | LLVMTypeKind::LLVMArrayTypeKind
        )
    }

    pub fn as_raw(self) -> LLVMTypeRef {
        self.raw
    }
}

/// A `switch`: its condition, default destination and `(case value,
/// destination)` pairs in the switch's order.
pub struct Switch<'m> {
    pub condition: Value<'m>,
    pub default: Block<'m>,
    pub cases: Vec<(Value<'m>, Block<'m>)>,
}

/// What one index of a `getelementptr` contributes to the address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GepIndex {
    /// The index times this many bytes (the indexed type's allocation size).
    Scaled(u64),
    /// A struct field at this byte offset (the index is a constant).
    Field(u64),
}

impl<'m> Block<'m> {
    pub(super) fn new(raw: LLVMBasicBlockRef) -> Option<Self> {
        (!raw.is_null()).then_some(Block {
            raw,
            _module: PhantomData,
        })
    }

    pub fn name(self) -> String {
        // SAFETY: a block's name is a NUL-terminated string owned by the block.
        unsafe {
            let ptr = LLVMGetBasicBlockName(self.raw);
            if ptr.is_null() {
                String::new()
            } else {
                CStr::from_ptr(ptr).to_string_lossy().into_owned()
            }
        }
    }

    pub fn instructions(self) -> Vec<Value<'m>> {
        let mut out = Vec::new();
        // SAFETY: walks the block's instruction list without changing it.
        unsafe {
            let mut inst = LLVMGetFirstInstruction(self.raw);
            while !inst.is_null() {
                out.push(Value::new(inst).expect("non-null"));
                inst = LLVMGetNextInstruction(inst);
            }
        }
        out
    }

    pub fn as_raw_block(self) -> LLVMBasicBlockRef {
        self.raw
    }

    /// Where the loop whose latch is this block starts in the source: the
    /// start location clang records in the latch's `llvm.loop` metadata
    /// (the `for`/`while` keyword) when compiling with debug information.
    pub fn loop_start_location(self) -> Option<SourceLocation> {
        use inkwell::llvm_sys::debuginfo::{
            LLVMDIFileGetFilename, LLVMDILocationGetColumn, LLVMDILocationGetLine,
            LLVMDILocationGetScope, LLVMDIScopeGetFile, LLVMGetMetadataKind, LLVMMetadataKind,
        };
        // SAFETY: reads the terminator's metadata; every node is checked to
        // be what it is read as (an MDNode with operands, a DILocation, a
        // scope with a file) before it is read, and names are owned by the
        // module's metadata.
        unsafe {
            let term = LLVMGetBasicBlockTerminator(self.raw);
            if term.is_null() {
                return None;
            }
            let ctx = LLVMGetTypeContext(LLVMTypeOf(term));
            let name = c"llvm.loop";
            let kind = LLVMGetMDKindIDInContext(ctx, name.as_ptr(), name.count_bytes() as u32);
            let node = LLVMGetMetadata(term, kind);
            if node.is_null() {
                return None;
            }
            let count = LLVMGetMDNodeNumOperands(node) as usize;
            let mut operands = vec![std::ptr::null_mut(); count];
            LLVMGetMDNodeOperands(node, operands.as_mut_ptr());
            operands.into_iter().filter(|o| !o.is_null()).find_map(|o| {
                let md = LLVMValueAsMetadata(o);
                if !matches!(
                    LLVMGetMetadataKind(md),
                    LLVMMetadataKind::LLVMDILocationMetadataKind
                ) {
                    return None;
                }
                let line = LLVMDILocationGetLine(md);
                let scope = LLVMDILocationGetScope(md);
                let file = if scope.is_null() {
                    std::ptr::null_mut()
                } else {
                    LLVMDIScopeGetFile(scope)
                };
                let name = if file.is_null() {
                    String::new()
                } else {
                    let mut len = 0u32;
                    let ptr = LLVMDIFileGetFilename(file, &mut len);
                    c_str_to_string(ptr, len as usize)
                };
                (line > 0).then(|| SourceLocation {
                    file: name,
                    line,
                    column: LLVMDILocationGetColumn(md),
                })
            })
        }
    }

    /// The source location of the block's first instruction that has one
    /// (modules compiled with `-g` or `-gline-tables-only`).
    pub fn debug_location(self) -> Option<SourceLocation> {
        self.instructions()
            .into_iter()
            .find_map(Value::debug_location)
    }

    /// The block's terminator (`None` only in unfinished IR).
    pub fn terminator(self) -> Option<Value<'m>> {
        Value::new(super::edit::terminator(self.raw))
    }

    /// The block this one branches to when it holds nothing but an
    /// unconditional branch.
    pub fn only_branch_target(self) -> Option<Block<'m>> {
        Block::new(super::edit::only_branch_target(self.raw)?)
    }

    /// The blocks that branch to this one, each once, in layout order.
    pub fn predecessors(self) -> Vec<Block<'m>> {
        let function = super::build::block_function(self.raw);
        super::edit::predecessors(function, self.raw)
            .into_iter()
            .filter_map(Block::new)
            .collect()
    }

    /// Whether the block is a loop of its own: its terminator branches back
    /// to it or out (what LLVM's unroller leaves of a loop without branches).
    pub fn is_own_loop(self) -> bool {
        let successors = self.successors();
        successors.len() == 2 && successors.contains(&self)
    }

    pub fn successors(self) -> Vec<Block<'m>> {
        // SAFETY: a well-formed block ends in a terminator; a block without one
        // (possible only in unverified IR) has no successors.
        unsafe {
            let term = LLVMGetBasicBlockTerminator(self.raw);
            if term.is_null() {
                return Vec::new();
            }
            (0..LLVMGetNumSuccessors(term))
                .filter_map(|i| Block::new(LLVMGetSuccessor(term, i)))
                .collect()
        }
    }
}

impl<'m> Function<'m> {
    /// Views an inkwell function of `module`.
    pub fn of(module: &'m Module<'_>, function: FunctionValue<'_>) -> Self {
        Function {
            raw: function.as_value_ref(),
            module: module.as_mut_ptr(),
            _module: PhantomData,
        }
    }

    /// Another function of this one's module, by its raw handle.
    pub(super) fn sibling(self, raw: LLVMValueRef) -> Self {
        Function { raw, ..self }
    }

    pub fn name(self) -> String {
        Value::new(self.raw).expect("non-null").name()
    }

    pub fn as_raw(self) -> LLVMValueRef {
        self.raw
    }

    pub fn is_declaration(self) -> bool {
        // SAFETY: `raw` is a function.
        unsafe { LLVMIsDeclaration(self.raw) != 0 }
    }

    pub fn call_conv(self) -> u32 {
        // SAFETY: `raw` is a function.
        unsafe { LLVMGetFunctionCallConv(self.raw) }
    }

    pub fn params(self) -> Vec<Value<'m>> {
        // SAFETY: `raw` is a function; indices are in range.
        unsafe {
            (0..LLVMCountParams(self.raw))
                .filter_map(|i| Value::new(LLVMGetParam(self.raw, i)))
                .collect()
        }
    }

    /// Whether parameter `index` carries the enum attribute `name` (e.g. `noalias`).
    pub fn param_has_attribute(self, index: u32, name: &str) -> bool {
        // SAFETY: attribute index 1 + i names parameter i.
        unsafe {
            let kind = LLVMGetEnumAttributeKindForName(name.as_ptr() as *const c_char, name.len());
            !LLVMGetEnumAttributeAtIndex(self.raw, index + 1, kind).is_null()
        }
    }

    pub fn blocks(self) -> Vec<Block<'m>> {
        let mut out = Vec::new();
        // SAFETY: walks the function's block list without changing it.
        unsafe {
            let mut bb = LLVMGetFirstBasicBlock(self.raw);
            while !bb.is_null() {
                out.push(Block::new(bb).expect("non-null"));
                bb = LLVMGetNextBasicBlock(bb);
            }
        }
        out
    }

    /// The block after `block` in layout order (the first when `block` is
    /// None): for walks that delete blocks behind them, where a list taken
    /// before would hold deleted ones.
    pub fn next_block(self, block: Option<Block<'m>>) -> Option<Block<'m>> {
        Block::new(super::edit::next_block(self.raw, block.map(|b| b.raw))?)
    }

    /// How each index operand of the `getelementptr` instruction `gep` moves
    /// its address (operand `i + 1` is index `i`), by the module's layout.
    /// `None` for other instructions or a struct indexed by a variable.
    pub fn gep_indices(self, gep: Value<'m>) -> Option<Vec<GepIndex>> {
        if gep.opcode() != Some(LLVMOpcode::LLVMGetElementPtr) {
            return None;
        }
        // SAFETY: `gep` is a GEP of this module; types are walked as its
        // indices say (the verifier guarantees they index those types).
        unsafe {
            let layout = LLVMGetModuleDataLayout(self.module);
            let mut ty = LLVMGetGEPSourceElementType(gep.raw);
            let mut out = vec![GepIndex::Scaled(LLVMABISizeOfType(layout, ty))];
            for i in 2..gep.num_operands() {
                match LLVMGetTypeKind(ty) {
                    LLVMTypeKind::LLVMStructTypeKind => {
                        let field = u32::try_from(gep.operand(i)?.const_int()?).ok()?;
                        out.push(GepIndex::Field(LLVMOffsetOfElement(layout, ty, field)));
                        ty = LLVMStructGetTypeAtIndex(ty, field);
                    }
                    LLVMTypeKind::LLVMArrayTypeKind | LLVMTypeKind::LLVMVectorTypeKind => {
                        ty = LLVMGetElementType(ty);
                        out.push(GepIndex::Scaled(LLVMABISizeOfType(layout, ty)));
                    }
                    _ => return None,
                }
            }
            Some(out)
        }
    }

    /// `c` when `next` is `phi + c`: an integer add (or `or disjoint`) or
    /// sub of a constant, or a getelementptr of constant indices on a
    /// pointer phi, `c` then in bytes.
    pub fn recurrence_step(self, phi: Value<'m>, next: Value<'m>) -> Option<i64> {
        let is_phi = |x: Option<Value<'m>>| x.is_some_and(|x| x.raw == phi.raw);
        match next.opcode()? {
            LLVMOpcode::LLVMAdd | LLVMOpcode::LLVMOr if crate::llvm::build::is_add(next.raw) => {
                if is_phi(next.operand(0)) {
                    next.operand(1)?.const_int()
                } else if is_phi(next.operand(1)) {
                    next.operand(0)?.const_int()
                } else {
                    None
                }
            }
            LLVMOpcode::LLVMSub if is_phi(next.operand(0)) => {
                next.operand(1)?.const_int()?.checked_neg()
            }
            LLVMOpcode::LLVMGetElementPtr if is_phi(next.operand(0)) => {
                let mut step = 0i64;
                for (i, index) in self.gep_indices(next)?.into_iter().enumerate() {
                    let c = next.operand(i as u32 + 1)?.const_int()?;
                    let bytes = match index {
                        GepIndex::Field(offset) => offset as i64,
                        GepIndex::Scaled(size) => c.checked_mul(size as i64)?,
                    };
                    step = step.checked_add(bytes)?;
                }
                Some(step)
            }
            _ => None,
        }
    }

    /// Bytes written or read by a value of this type (the data layout's store size).
    pub fn store_size(self, value_type_of: Value<'m>) -> u64 {
        // SAFETY: the module owns its data layout; the type belongs to its context.
        unsafe {
            let layout = LLVMGetModuleDataLayout(self.module);
            LLVMStoreSizeOfType(layout, LLVMTypeOf(value_type_of.raw))
        }
    }

    /// Bytes of what `global` holds (the data layout's store size of its
    /// value type).
    pub fn global_store_size(self, global: inkwell::values::GlobalValue<'_>) -> u64 {
        // SAFETY: a live global of this module; its value type belongs to
        // the module's context.
        unsafe {
            let layout = LLVMGetModuleDataLayout(self.module);
            LLVMStoreSizeOfType(layout, LLVMGlobalGetValueType(global.as_value_ref()))
        }
    }
}

/// The functions of `module` that have a body (declarations left out).
pub fn defined_functions<'m, 'ctx>(
    module: &'m Module<'ctx>,
) -> impl Iterator<Item = Function<'m>> + use<'m, 'ctx> {
    module
        .get_functions()
        .map(move |f| Function::of(module, f))
        .filter(|f| !f.is_declaration())
}

/// The predicate that compares the same values with the operands swapped
/// (`a < b` is `b > a`).
pub fn swapped_predicate(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        LLVMIntULT => LLVMIntUGT,
        LLVMIntUGT => LLVMIntULT,
        LLVMIntULE => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULE,
        LLVMIntSLT => LLVMIntSGT,
        LLVMIntSGT => LLVMIntSLT,
        LLVMIntSLE => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLE,
        other => other,
    }
}

/// The predicate true exactly where `p` is false.
pub fn inverse_predicate(p: IntPredicate) -> IntPredicate {
    use IntPredicate::*;
    match p {
        LLVMIntEQ => LLVMIntNE,
        LLVMIntNE => LLVMIntEQ,
        LLVMIntULT => LLVMIntUGE,
        LLVMIntUGE => LLVMIntULT,
        LLVMIntULE => LLVMIntUGT,
        LLVMIntUGT => LLVMIntULE,
        LLVMIntSLT => LLVMIntSGE,
        LLVMIntSGE => LLVMIntSLT,
        LLVMIntSLE => LLVMIntSGT,
        LLVMIntSGT => LLVMIntSLE,
    }
}

/// Each block's position in `blocks` (the analyses' block indices).
pub fn block_indices<'m>(blocks: &[Block<'m>]) -> BlockIndex<'m> {
    blocks.iter().enumerate().map(|(i, b)| (*b, i)).collect()
}

/// The `!nvvm.annotations` entries of each function: (function name, key,
/// value node) for every key/value pair (`kernel`, `maxntidx`, ...), the
/// older way of marking kernels and launch bounds (LLVM 19's clang writes it).
fn annotations(module: &Module<'_>) -> Vec<(String, String, LLVMValueRef)> {
    let key = c"nvvm.annotations";
    let m = module.as_mut_ptr();
    let mut entries = Vec::new();
    // SAFETY: reads named metadata of the borrowed module; buffers are sized by
    // the counts LLVM reports.
    unsafe {
        let count = LLVMGetNamedMetadataNumOperands(m, key.as_ptr());
        let mut nodes = vec![std::ptr::null_mut(); count as usize];
        LLVMGetNamedMetadataOperands(m, key.as_ptr(), nodes.as_mut_ptr());
        for node in nodes {
            let n = LLVMGetMDNodeNumOperands(node);
            let mut ops = vec![std::ptr::null_mut(); n as usize];
            LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
            let Some(function) = ops
                .first()
                .and_then(|&f| Value::new(f))
                .filter(|v| v.kind() == ValueKind::Function)
            else {
                continue;
            };
            for pair in ops[1..].chunks_exact(2) {
                let mut len = 0u32;
                let s = if pair[0].is_null() {
                    std::ptr::null()
                } else {
                    LLVMGetMDString(pair[0], &mut len)
                };
                if !s.is_null() {
                    entries.push((function.name(), c_str_to_string(s, len as usize), pair[1]));
                }
            }
        }
    }
    entries
}

/// The launch bounds `!nvvm.annotations` gives function `name`: the product
/// of its `maxntidx`, `maxntidy` and `maxntidz`, if it has any.
pub fn annotated_max_threads(module: &Module<'_>, name: &str) -> Option<u32> {
    let dims: Vec<u32> = annotations(module)
        .into_iter()
        .filter(|(f, key, _)| f == name && key.starts_with("maxntid"))
        .map(|(_, _, value)| {
            // SAFETY: a maxntid annotation's value is an integer constant.
            unsafe { LLVMConstIntGetZExtValue(value) as u32 }
        })
        .collect();
    (!dims.is_empty()).then(|| dims.iter().product())
}

/// Names of the functions that `!nvvm.annotations` marks as kernels (the older
/// way of marking kernels, still written by some frontends).
pub fn annotated_kernels(module: &Module<'_>) -> Vec<String> {
    let mut names: Vec<String> = annotations(module)
        .into_iter()
        .filter(|(_, key, _)| key == "kernel")
        .map(|(name, _, _)| name)
        .collect();
    names.dedup();
    names
}

/// The target triple of a module.
pub fn target_triple(module: &Module<'_>) -> String {
    module.get_triple().as_str().to_string_lossy().into_owned()
}

/// The names of the functions whose instructions use `global`, directly or
/// through constant expressions; `None` for a use outside any function
/// (another global's initializer).
pub fn using_functions(global: inkwell::values::GlobalValue<'_>) -> Vec<Option<String>> {
    let mut out = Vec::new();
    let mut stack = vec![global.as_value_ref()];
    let mut seen = std::collections::HashSet::new();
    // SAFETY: walks the use lists of live values without changing them.
    unsafe {
        while let Some(v) = stack.pop() {
            if !seen.insert(v) {
                continue;
            }
            let mut used = LLVMGetFirstUse(v);
            while !used.is_null() {
                let user = LLVMGetUser(used);
                if !LLVMIsAInstruction(user).is_null() {
                    let function = LLVMGetBasicBlockParent(LLVMGetInstructionParent(user));
                    out.push(Value::new(function).map(Value::name));
                } else if !LLVMIsAConstantExpr(user).is_null() {
                    stack.push(user);
                } else {
                    out.push(None);
                }
                used = LLVMGetNextUse(used);
            }
        }
    }
    out
}

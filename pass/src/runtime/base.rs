//! The runtime's state: the module its helpers go into, the line sizes
//! and options they are built for, and the helpers made so far. Its
//! methods here are what every helper builds with: types, the helper
//! table, where a line and an address lie; the helpers themselves are
//! built by the sibling modules, one job each.

use std::collections::HashMap;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;
use inkwell::context::ContextRef;
use inkwell::module::{Linkage, Module};
use inkwell::types::{BasicType, BasicTypeEnum, IntType, PointerType};
use inkwell::values::{BasicValue, FunctionValue, IntValue, PointerValue};
use inkwell::{AddressSpace, IntPredicate};

use crate::llvm::build;
use crate::llvm::ir::Type;

pub const ADDRSPACE_GLOBAL: u16 = 1;
pub const ADDRSPACE_SHARED: u16 = 3;
/// The alignment of the line buffer in shared memory: no line is aligned
/// more than it is, whatever its size and padding.
pub const LINE_BUFFER_ALIGN: u32 = 16;

/// How far ahead a fill prefetches (`Options::prefetch`): one 128-byte L2 line.
pub(super) const PREFETCH_AHEAD: u64 = 128;

/// Bits of a dirty mask, one per byte of the largest line: 32 while lines
/// stay within 32 bytes (32-bit arithmetic is cheaper than 64 on the GPU),
/// then 64 or 128.
pub fn dirty_mask_bits(max_line: u32) -> u32 {
    max_line.max(32)
}

/// How a missed line gets its contents.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Fill<'ctx> {
    /// Not at all: a store to a structure the loop does not read, whose
    /// unwritten bytes are never read or written back.
    Nothing,
    /// Loaded from memory.
    Memory,
    /// From the stage when it holds the line, else from memory.
    Staged(Staged<'ctx>),
}

/// A line staged in registers ahead of its fill: the line address it holds
/// (-1: none) and its words.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Staged<'ctx> {
    pub(super) tag: PointerValue<'ctx>,
    pub(super) words: PointerValue<'ctx>,
}

/// What a load or store site needs from the runtime.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SiteKind {
    /// Bytes accessed (a power of two, at most the line size).
    pub size: u32,
    /// The access's alignment; below `size` the access may straddle a line.
    pub align: u32,
    /// Stores: fill the line before writing (the structure is also read in
    /// the loop). Without, only written bytes are ever valid or written back.
    pub fetch_on_write: bool,
}

/// A whole line to move between its place in shared memory and memory.
#[derive(Clone, Copy)]
pub(super) struct LineCopy<'ctx> {
    /// The line in shared memory.
    pub(super) line: PointerValue<'ctx>,
    /// The line's address in memory.
    pub(super) addr: IntValue<'ctx>,
    /// Memory to shared memory (a fill), or back (a write-back).
    pub(super) to_shared: bool,
    /// The line's size, in bytes.
    pub(super) bytes: IntValue<'ctx>,
}

pub struct Runtime<'ctx, 'm> {
    pub(super) module: &'m Module<'ctx>,
    pub(super) ctx: ContextRef<'ctx>,
    /// Smallest line size: what alignments and straddling are judged by,
    /// and what the monitoring slice simulates.
    pub(super) min_line: u32,
    /// Largest line size a launch may pick.
    pub(super) max_line: u32,
    /// Fills also prefetch the memory `PREFETCH_AHEAD` bytes further on.
    pub(super) prefetch: bool,
    /// Bytes of padding after each line in shared memory (0: packed).
    pub(super) pad: u32,
    /// Whole lines of 32 B and more move a warp at a time when every lane
    /// of the warp copies one (`warp_copy`).
    pub(super) warp_copies: bool,
    pub(super) helpers: HashMap<String, FunctionValue<'ctx>>,
}

pub(super) type BuildResult<T> = Result<T, inkwell::builder::BuilderError>;

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// A runtime for lines of `min_line` to `max_line` bytes (powers of two),
    /// each followed by `pad` bytes in shared memory (0 or a power of two).
    pub fn new(
        module: &'m Module<'ctx>,
        min_line: u32,
        max_line: u32,
        prefetch: bool,
        pad: u32,
        warp_copies: bool,
    ) -> Self {
        debug_assert!(min_line.is_power_of_two() && max_line.is_power_of_two());
        debug_assert!(min_line <= max_line && max_line <= 128);
        debug_assert!(pad == 0 || pad.is_power_of_two());
        Runtime {
            module,
            ctx: module.get_context(),
            min_line,
            max_line,
            prefetch,
            pad,
            warp_copies,
            helpers: HashMap::new(),
        }
    }

    pub(super) fn i1(&self) -> IntType<'ctx> {
        self.ctx.bool_type()
    }

    pub(super) fn i32(&self) -> IntType<'ctx> {
        self.ctx.i32_type()
    }

    pub(super) fn i64(&self) -> IntType<'ctx> {
        self.ctx.i64_type()
    }

    pub(super) fn ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::default())
    }

    pub fn shared_ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::from(ADDRSPACE_SHARED))
    }

    pub(super) fn global_ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::from(ADDRSPACE_GLOBAL))
    }

    /// The dirty mask's type, for code that builds masks outside the helpers.
    pub fn dirty_type<'v>(&self) -> Type<'v> {
        Type::of(self.dirty())
    }

    pub(super) fn dirty(&self) -> IntType<'ctx> {
        match dirty_mask_bits(self.max_line) {
            32 => self.ctx.i32_type(),
            64 => self.ctx.i64_type(),
            _ => self.ctx.i128_type(),
        }
    }

    /// `off` (an i64 offset in a line) as a dirty-mask shift amount.
    pub(super) fn dirty_shift(
        &self,
        b: &Builder<'ctx>,
        off: IntValue<'ctx>,
    ) -> BuildResult<IntValue<'ctx>> {
        b.build_int_cast_sign_flag(off, self.dirty(), false, "")
    }

    /// Mask with one bit per byte of a full line of `bytes` bytes.
    pub(super) fn full_mask(
        &self,
        b: &Builder<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> BuildResult<IntValue<'ctx>> {
        let ty = self.dirty();
        let one = ty.const_int(1, false);
        let shift = self.dirty_shift(b, bytes)?;
        let below = b.build_int_sub(b.build_left_shift(one, shift, "")?, one, "")?;
        // A shift by the mask's width is poison: such lines take every bit.
        let width = self.i64().const_int(u64::from(ty.get_bit_width()), false);
        let is_all = b.build_int_compare(IntPredicate::EQ, bytes, width, "")?;
        Ok(b.build_select(is_all, ty.const_all_ones(), below, "full")?
            .into_int_value())
    }

    /// A new internal always-inline function, or the existing one.
    pub(super) fn helper(
        &mut self,
        name: String,
        ty: inkwell::types::FunctionType<'ctx>,
        body: impl FnOnce(&Self, FunctionValue<'ctx>, &Builder<'ctx>) -> BuildResult<()>,
    ) -> FunctionValue<'ctx> {
        if let Some(f) = self.helpers.get(&name) {
            return *f;
        }
        let f = self.module.add_function(&name, ty, Some(Linkage::Internal));
        let kind = Attribute::get_named_enum_kind_id("alwaysinline");
        f.add_attribute(
            AttributeLoc::Function,
            self.ctx.create_enum_attribute(kind, 0),
        );
        let builder = self.ctx.create_builder();
        let entry = self.ctx.append_basic_block(f, "entry");
        builder.position_at_end(entry);
        body(self, f, &builder).expect("the runtime's IR is well formed");
        self.helpers.insert(name, f);
        f
    }

    /// The helpers' names, to delete those left once they are inlined (the
    /// always-inliner deletes the ones it inlined everywhere itself).
    pub fn helper_names(&self) -> Vec<String> {
        self.helpers.keys().cloned().collect()
    }

    /// Address of the line of `bytes` bytes holding `addr`, and the offset
    /// of `addr` in it.
    pub(super) fn line_of(
        &self,
        b: &Builder<'ctx>,
        addr: PointerValue<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> BuildResult<(IntValue<'ctx>, IntValue<'ctx>)> {
        let a = b.build_ptr_to_int(addr, self.i64(), "a")?;
        let mask = b.build_int_sub(bytes, self.i64().const_int(1, false), "")?;
        let line = b.build_and(a, b.build_not(mask, "")?, "line")?;
        let off = b.build_and(a, mask, "off")?;
        Ok((line, off))
    }

    /// The words the largest line moves in: 16-byte vectors when the smallest
    /// line size is a multiple of 16 (lines are then 16-byte aligned), else
    /// 8-byte words.
    pub(super) fn line_words(&self) -> Vec<(u64, BasicTypeEnum<'ctx>, u32)> {
        let (step, ty) = if self.min_line % 16 == 0 {
            (16, self.v4i32())
        } else {
            (8, self.i64().as_basic_type_enum())
        };
        (0..self.max_line / step)
            .map(|k| (u64::from(k * step), ty, step))
            .collect()
    }

    /// The alignment every line in memory has.
    pub(super) fn line_align(&self) -> u32 {
        1 << self.min_line.trailing_zeros()
    }

    /// The alignment every line in shared memory has: lines lie a line and
    /// its padding apart from the buffer's start.
    pub fn shared_line_align(&self) -> u32 {
        let apart = if self.pad == 0 {
            self.line_align()
        } else {
            self.line_align().min(self.pad)
        };
        apart.min(LINE_BUFFER_ALIGN)
    }

    /// Whether an access of this kind can cross the end of its line.
    pub fn may_straddle(&self, site: SiteKind) -> bool {
        site.align < site.size || self.min_line % site.size != 0
    }

    /// The alignment of an access inside its line in shared memory.
    pub fn in_line_align(&self, site: SiteKind) -> u32 {
        site.align.min(site.size).min(self.shared_line_align())
    }

    /// Goes on in a new block `name` when `value < bound` (unsigned), else
    /// branches to `done`.
    pub(super) fn continue_if_below(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        (value, bound): (IntValue<'ctx>, IntValue<'ctx>),
        done: inkwell::basic_block::BasicBlock<'ctx>,
        name: &str,
    ) -> BuildResult<()> {
        let below = b.build_int_compare(IntPredicate::ULT, value, bound, "")?;
        let next = self.ctx.append_basic_block(f, name);
        b.build_conditional_branch(below, next, done)?;
        b.position_at_end(next);
        Ok(())
    }

    /// The index of the lowest set bit of `v` (`v` is not zero).
    pub(super) fn count_trailing_zeros(
        &self,
        b: &Builder<'ctx>,
        v: IntValue<'ctx>,
        name: &str,
    ) -> BuildResult<IntValue<'ctx>> {
        let f = self.intrinsic("llvm.cttz", &[v.get_type().as_basic_type_enum()]);
        let r = b.build_call(f, &[v.into(), self.i1().const_int(1, false).into()], name)?;
        Ok(r.try_as_basic_value()
            .basic()
            .expect("cttz returns a value")
            .into_int_value())
    }

    /// The declaration of an intrinsic, with the attributes LLVM gives it
    /// (convergent for the warp operations).
    pub(super) fn intrinsic(
        &self,
        name: &str,
        overloads: &[BasicTypeEnum<'ctx>],
    ) -> FunctionValue<'ctx> {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.module, overloads))
            .unwrap_or_else(|| panic!("LLVM knows {name}"))
    }

    /// The line size parameter of a helper (its last).
    pub(super) fn bytes_param(f: FunctionValue<'ctx>) -> IntValue<'ctx> {
        f.get_last_param()
            .expect("helpers take the line size last")
            .into_int_value()
    }

    pub(super) fn global_at(
        &self,
        b: &Builder<'ctx>,
        addr: IntValue<'ctx>,
    ) -> BuildResult<PointerValue<'ctx>> {
        b.build_int_to_ptr(addr, self.global_ptr(), "g")
    }

    pub(super) fn v4i32(&self) -> BasicTypeEnum<'ctx> {
        self.i32().vec_type(4).as_basic_type_enum()
    }

    pub(super) fn shared_at(
        &self,
        b: &Builder<'ctx>,
        line: PointerValue<'ctx>,
        off: IntValue<'ctx>,
    ) -> BuildResult<PointerValue<'ctx>> {
        build::inkwell_gep(b, self.ctx.i8_type(), line, &[off], "s")
    }
}

/// Alignment of a load (a value) or a store (an instruction).
pub(super) trait Aligned {
    fn instruction(&self) -> Option<inkwell::values::InstructionValue<'_>>;
}

impl<'ctx> Aligned for inkwell::values::BasicValueEnum<'ctx> {
    fn instruction(&self) -> Option<inkwell::values::InstructionValue<'_>> {
        self.as_instruction_value()
    }
}

impl<'ctx> Aligned for inkwell::values::InstructionValue<'ctx> {
    fn instruction(&self) -> Option<inkwell::values::InstructionValue<'_>> {
        Some(*self)
    }
}

pub(super) fn set_align(value: impl Aligned, align: u32) {
    if let Some(inst) = value.instruction() {
        let _ = inst.set_alignment(align.max(1));
    }
}

/// A name-safe spelling of a type for helper names.
pub(super) fn type_tag(ty: BasicTypeEnum<'_>) -> String {
    ty.print_to_string()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

//! The device-side cache runtime, written once as small internal
//! `alwaysinline` functions in the module being transformed. Each site calls
//! them with its data structure's state (stack slots that SROA turns back into
//! registers once the calls are inlined), so the code at a site is specialised
//! to its type, alignment and structure.
//!
//! Per data structure and thread the state is: `tag` (address of the line held,
//! -1 when none), `dirty` (a byte mask of the line), `cached` (decided after
//! monitoring) and `line` (the thread's line in shared memory). Every helper
//! but `simulate` also takes the line size in bytes, a power of two between
//! the runtime's smallest and largest: a constant that folds away when the
//! two are equal, else the size the decision picked for the launch.

use std::collections::HashMap;

use inkwell::attributes::{Attribute, AttributeLoc};
use inkwell::builder::Builder;

use inkwell::llvm_sys::prelude::LLVMTypeRef;
use inkwell::module::{Linkage, Module};
use inkwell::types::{AsTypeRef, BasicType, BasicTypeEnum, IntType, PointerType};
use inkwell::values::{BasicValue, FunctionValue, IntValue, PointerValue};

use inkwell::{AddressSpace, IntPredicate};

mod base;
mod warp_copy;

pub use base::Runtime;
use base::{BuildResult, LineCopy};

pub const ADDRSPACE_GLOBAL: u16 = 1;
pub const ADDRSPACE_SHARED: u16 = 3;

/// How far ahead a fill prefetches (`Options::prefetch`): one 128-byte L2 line.
const PREFETCH_AHEAD: u64 = 128;

/// Bits of a dirty mask, one per byte of the largest line: 32 while lines
/// stay within 32 bytes (32-bit arithmetic is cheaper than 64 on the GPU).
pub fn dirty_mask_bits(max_line: u32) -> u32 {
    if max_line <= 32 {
        32
    } else {
        64
    }
}

/// How a missed line gets its contents.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fill<'ctx> {
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
struct Staged<'ctx> {
    tag: PointerValue<'ctx>,
    words: PointerValue<'ctx>,
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
        debug_assert!(min_line <= max_line && max_line <= 64);
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

    fn i1(&self) -> IntType<'ctx> {
        self.ctx.bool_type()
    }
    fn i32(&self) -> IntType<'ctx> {
        self.ctx.i32_type()
    }
    fn i64(&self) -> IntType<'ctx> {
        self.ctx.i64_type()
    }
    fn ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::default())
    }
    pub fn shared_ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::from(ADDRSPACE_SHARED))
    }
    fn global_ptr(&self) -> PointerType<'ctx> {
        self.ctx.ptr_type(AddressSpace::from(ADDRSPACE_GLOBAL))
    }
    /// The dirty mask's type, for code that builds masks outside the helpers.
    pub fn dirty_type(&self) -> LLVMTypeRef {
        self.dirty().as_type_ref()
    }

    fn dirty(&self) -> IntType<'ctx> {
        if dirty_mask_bits(self.max_line) == 32 {
            self.ctx.i32_type()
        } else {
            self.ctx.i64_type()
        }
    }

    /// `off` (an i64 offset in a line) as a dirty-mask shift amount.
    fn dirty_shift(&self, b: &Builder<'ctx>, off: IntValue<'ctx>) -> BuildResult<IntValue<'ctx>> {
        b.build_int_truncate_or_bit_cast(off, self.dirty(), "")
    }

    /// Mask with one bit per byte of a full line of `bytes` bytes.
    fn full_mask(&self, b: &Builder<'ctx>, bytes: IntValue<'ctx>) -> BuildResult<IntValue<'ctx>> {
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
    fn helper(
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
    fn line_of(
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
    fn line_words(&self) -> Vec<(u64, BasicTypeEnum<'ctx>, u32)> {
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
    fn line_align(&self) -> u32 {
        1 << self.min_line.trailing_zeros()
    }

    /// The alignment every line in shared memory has: lines lie a line and
    /// its padding apart.
    pub fn shared_line_align(&self) -> u32 {
        if self.pad == 0 {
            self.line_align()
        } else {
            self.line_align().min(self.pad)
        }
    }

    /// Whether an access of this kind can cross the end of its line.
    pub fn may_straddle(&self, site: SiteKind) -> bool {
        site.align < site.size || self.min_line % site.size != 0
    }

    /// The alignment of an access inside its line in shared memory.
    pub fn in_line_align(&self, site: SiteKind) -> u32 {
        site.align.min(site.size).min(self.shared_line_align())
    }

    /// Copies a whole line between shared memory and memory. When the
    /// lanes of a whole warp copy a line of at least 32 B at once (a miss
    /// they share, as in line runs), they move the warp's lines together
    /// (`warp_copy`); else each thread copies its own.
    fn copy_line(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        copy: LineCopy<'ctx>,
    ) -> BuildResult<()> {
        let copied = self.ctx.append_basic_block(f, "copied");
        if self.warp_copies_possible() {
            let together = self.ctx.append_basic_block(f, "warp.copy");
            let alone = self.ctx.append_basic_block(f, "thread.copy");
            self.branch_on_whole_warp(f, b, copy.bytes, (together, alone))?;
            b.position_at_end(together);
            self.warp_copy(f, b, copy)?;
            b.build_unconditional_branch(copied)?;
            b.position_at_end(alone);
        }
        self.thread_copy(f, b, copy, copied)?;
        b.position_at_end(copied);
        Ok(())
    }

    /// One thread copies its line: the words of the smallest line always,
    /// the others while they are inside the line; then branches to `copied`.
    fn thread_copy(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        copy: LineCopy<'ctx>,
        copied: inkwell::basic_block::BasicBlock<'ctx>,
    ) -> BuildResult<()> {
        for (off, ty, align) in self.line_words() {
            let beyond_smallest = off >= u64::from(self.min_line);
            let off = self.i64().const_int(off, false);
            if beyond_smallest {
                self.continue_if_below(f, b, (off, copy.bytes), copied, "word")?;
            }
            let shared = self.shared_at(b, copy.line, off)?;
            let global = self.global_at(b, b.build_int_add(copy.addr, off, "")?)?;
            self.copy_word(
                b,
                ty,
                (shared, align.min(self.shared_line_align())),
                (global, align),
                copy.to_shared,
            )?;
        }
        b.build_unconditional_branch(copied)?;
        Ok(())
    }

    /// Moves one word between shared memory and memory.
    fn copy_word(
        &self,
        b: &Builder<'ctx>,
        ty: BasicTypeEnum<'ctx>,
        shared: (PointerValue<'ctx>, u32),
        global: (PointerValue<'ctx>, u32),
        to_shared: bool,
    ) -> BuildResult<()> {
        let (src, dst) = if to_shared {
            (global, shared)
        } else {
            (shared, global)
        };
        let v = b.build_load(ty, src.0, "")?;
        set_align(v, src.1);
        set_align(b.build_store(dst.0, v)?, dst.1);
        Ok(())
    }

    /// Asks L2 for the memory `PREFETCH_AHEAD` bytes after `line_addr` (a
    /// hint: it never faults, past the end of an allocation included). Inline
    /// PTX: LLVM's prefetch intrinsic selects only for sm_90 with PTX 8.0,
    /// while the instruction exists on every architecture we target.
    fn prefetch_ahead(&self, b: &Builder<'ctx>, line_addr: IntValue<'ctx>) -> BuildResult<()> {
        let ahead = self.i64().const_int(PREFETCH_AHEAD, false);
        let at = b.build_int_add(line_addr, ahead, "")?;
        let ty = self.ctx.void_type().fn_type(&[self.i64().into()], false);
        let asm = self.ctx.create_inline_asm(
            ty,
            "prefetch.global.L2 [$0];".to_string(),
            "l".to_string(),
            true,
            false,
            None,
            false,
        );
        b.build_indirect_call(ty, asm, &[at.into()], "")?;
        Ok(())
    }

    /// Goes on in a new block `name` when `value < bound` (unsigned), else
    /// branches to `done`.
    fn continue_if_below(
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
    fn count_trailing_zeros(
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
    fn intrinsic(&self, name: &str, overloads: &[BasicTypeEnum<'ctx>]) -> FunctionValue<'ctx> {
        inkwell::intrinsics::Intrinsic::find(name)
            .and_then(|i| i.get_declaration(self.module, overloads))
            .unwrap_or_else(|| panic!("LLVM knows {name}"))
    }

    /// The line size parameter of a helper (its last).
    fn bytes_param(f: FunctionValue<'ctx>) -> IntValue<'ctx> {
        f.get_last_param()
            .expect("helpers take the line size last")
            .into_int_value()
    }

    fn global_at(
        &self,
        b: &Builder<'ctx>,
        addr: IntValue<'ctx>,
    ) -> BuildResult<PointerValue<'ctx>> {
        b.build_int_to_ptr(addr, self.global_ptr(), "g")
    }

    fn v4i32(&self) -> BasicTypeEnum<'ctx> {
        self.i32().vec_type(4).as_basic_type_enum()
    }

    fn shared_at(
        &self,
        b: &Builder<'ctx>,
        line: PointerValue<'ctx>,
        off: IntValue<'ctx>,
    ) -> BuildResult<PointerValue<'ctx>> {
        // SAFETY of the IR: offsets stay inside the thread's line.
        unsafe { b.build_gep(self.ctx.i8_type(), line, &[off], "s") }
    }

    /// `sl1.simulate(addr, sim_tag, sim_hits, sim_accesses, count)`: one access
    /// of the monitoring slice against a simulated one-line cache.
    pub fn simulate(&mut self) -> FunctionValue<'ctx> {
        let p = self.ptr().into();
        let ty = self.ctx.void_type().fn_type(&[p, p, p, p, p], false);
        self.helper("sl1.simulate".into(), ty, |rt, f, b| {
            let param = |i| f.get_nth_param(i).unwrap().into_pointer_value();
            let min_line = rt.i64().const_int(u64::from(rt.min_line), false);
            let (line, _) = rt.line_of(b, param(0), min_line)?;
            let tag = b.build_load(rt.i64(), param(1), "tag")?.into_int_value();
            let hit = b.build_int_compare(IntPredicate::EQ, tag, line, "hit")?;
            let hits = b.build_load(rt.i32(), param(2), "hits")?.into_int_value();
            let hit32 = b.build_int_z_extend(hit, rt.i32(), "")?;
            b.build_store(param(2), b.build_int_add(hits, hit32, "")?)?;
            let one = rt.i32().const_int(1, false);
            let acc = b.build_load(rt.i32(), param(3), "acc")?.into_int_value();
            b.build_store(param(3), b.build_int_add(acc, one, "")?)?;
            let count = b.build_load(rt.i32(), param(4), "count")?.into_int_value();
            b.build_store(param(4), b.build_int_add(count, one, "")?)?;
            b.build_store(param(1), line)?;
            b.build_return(None)?;
            Ok(())
        })
    }

    /// `sl1.writeback(line_addr, dirty, line, bytes)`: writes the dirty bytes
    /// of a line back, and nothing else, so that bytes other threads wrote in
    /// the same memory line survive. A full line goes with 16-byte stores.
    fn writeback(&mut self) -> FunctionValue<'ctx> {
        let ty = self.ctx.void_type().fn_type(
            &[
                self.i64().into(),
                self.dirty().into(),
                self.shared_ptr().into(),
                self.i64().into(),
            ],
            false,
        );
        self.helper("sl1.writeback".into(), ty, move |rt, f, b| {
            let line_addr = f.get_nth_param(0).unwrap().into_int_value();
            let dirty = f.get_nth_param(1).unwrap().into_int_value();
            let line = f.get_nth_param(2).unwrap().into_pointer_value();
            let line_bytes = Self::bytes_param(f);
            let full = rt.ctx.append_basic_block(f, "full");
            let bytes = rt.ctx.append_basic_block(f, "bytes");
            let done = rt.ctx.append_basic_block(f, "done");
            let full_mask = rt.full_mask(b, line_bytes)?;
            let is_full = b.build_int_compare(IntPredicate::EQ, dirty, full_mask, "")?;
            b.build_conditional_branch(is_full, full, bytes)?;

            b.position_at_end(full);
            let copy = LineCopy {
                line,
                addr: line_addr,
                to_shared: false,
                bytes: line_bytes,
            };
            rt.copy_line(f, b, copy)?;
            b.build_unconditional_branch(done)?;

            // One byte per set bit, lowest first.
            b.position_at_end(bytes);
            let has_any =
                b.build_int_compare(IntPredicate::NE, dirty, rt.dirty().const_zero(), "")?;
            let loop_ = rt.ctx.append_basic_block(f, "byte");
            b.build_conditional_branch(has_any, loop_, done)?;
            b.position_at_end(loop_);
            let m = b.build_phi(rt.dirty(), "m")?;
            let mv = m.as_basic_value().into_int_value();
            let bit = rt.count_trailing_zeros(b, mv, "bit")?;
            let bit = b.build_int_z_extend_or_bit_cast(bit, rt.i64(), "")?;
            let byte = b.build_load(rt.ctx.i8_type(), rt.shared_at(b, line, bit)?, "")?;
            let dst = rt.global_at(b, b.build_int_add(line_addr, bit, "")?)?;
            b.build_store(dst, byte)?;
            let rest = b.build_and(
                mv,
                b.build_int_sub(mv, rt.dirty().const_int(1, false), "")?,
                "",
            )?;
            m.add_incoming(&[(&dirty, bytes), (&rest, loop_)]);
            let more = b.build_int_compare(IntPredicate::NE, rest, rt.dirty().const_zero(), "")?;
            b.build_conditional_branch(more, loop_, done)?;

            b.position_at_end(done);
            b.build_return(None)?;
            Ok(())
        })
    }

    /// `sl1.flush(tag, dirty, line, bytes)`: writes the line back and
    /// invalidates it.
    pub fn flush(&mut self) -> FunctionValue<'ctx> {
        let writeback = self.writeback();
        let p = self.ptr().into();
        let ty = self
            .ctx
            .void_type()
            .fn_type(&[p, p, self.shared_ptr().into(), self.i64().into()], false);
        self.helper("sl1.flush".into(), ty, move |rt, f, b| {
            let tag_slot = f.get_nth_param(0).unwrap().into_pointer_value();
            let dirty_slot = f.get_nth_param(1).unwrap().into_pointer_value();
            let line = f.get_nth_param(2).unwrap();
            let dirty = b
                .build_load(rt.dirty(), dirty_slot, "dirty")?
                .into_int_value();
            let tag = b.build_load(rt.i64(), tag_slot, "tag")?.into_int_value();
            let wb = rt.ctx.append_basic_block(f, "wb");
            let done = rt.ctx.append_basic_block(f, "done");
            let any = b.build_int_compare(IntPredicate::NE, dirty, rt.dirty().const_zero(), "")?;
            b.build_conditional_branch(any, wb, done)?;
            b.position_at_end(wb);
            let bytes = Self::bytes_param(f);
            b.build_call(
                writeback,
                &[tag.into(), dirty.into(), line.into(), bytes.into()],
                "",
            )?;
            b.build_unconditional_branch(done)?;
            b.position_at_end(done);
            b.build_store(dirty_slot, rt.dirty().const_zero())?;
            b.build_store(tag_slot, rt.i64().const_all_ones())?;
            b.build_return(None)?;
            Ok(())
        })
    }

    /// `sl1.evict(addr, tag, dirty, line, bytes)`: flushes the line only if
    /// it holds `addr` (before an atomic on `addr`).
    pub fn evict(&mut self) -> FunctionValue<'ctx> {
        let flush = self.flush();
        let p = self.ptr().into();
        let ty = self.ctx.void_type().fn_type(
            &[p, p, p, self.shared_ptr().into(), self.i64().into()],
            false,
        );
        self.helper("sl1.evict".into(), ty, move |rt, f, b| {
            let addr = f.get_nth_param(0).unwrap().into_pointer_value();
            let tag_slot = f.get_nth_param(1).unwrap();
            let (line_addr, _) = rt.line_of(b, addr, Self::bytes_param(f))?;
            let tag = b
                .build_load(rt.i64(), tag_slot.into_pointer_value(), "tag")?
                .into_int_value();
            let holds = b.build_int_compare(IntPredicate::EQ, tag, line_addr, "")?;
            let go = rt.ctx.append_basic_block(f, "evict");
            let done = rt.ctx.append_basic_block(f, "done");
            b.build_conditional_branch(holds, go, done)?;
            b.position_at_end(go);
            let args: Vec<_> = (1..5).map(|i| f.get_nth_param(i).unwrap().into()).collect();
            b.build_call(flush, &args, "")?;
            b.build_unconditional_branch(done)?;
            b.position_at_end(done);
            b.build_return(None)?;
            Ok(())
        })
    }

    /// Makes the line hold `line_addr` (writing back what it held), filling it
    /// from memory when `fill`. Leaves the builder in a block where the line
    /// holds it.
    fn ensure_line(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        line_addr: IntValue<'ctx>,
        slots: (PointerValue<'ctx>, PointerValue<'ctx>, PointerValue<'ctx>),
        fill: Fill<'ctx>,
        writeback: FunctionValue<'ctx>,
    ) -> BuildResult<()> {
        let (tag_slot, dirty_slot, line) = slots;
        let bytes = Self::bytes_param(f);
        let tag = b.build_load(self.i64(), tag_slot, "tag")?.into_int_value();
        let hit = b.build_int_compare(IntPredicate::EQ, tag, line_addr, "hit")?;
        let miss = self.ctx.append_basic_block(f, "miss");
        let wb = self.ctx.append_basic_block(f, "wb");
        let load = self.ctx.append_basic_block(f, "fill");
        let ready = self.ctx.append_basic_block(f, "ready");
        b.build_conditional_branch(hit, ready, miss)?;

        b.position_at_end(miss);
        let dirty = b
            .build_load(self.dirty(), dirty_slot, "dirty")?
            .into_int_value();
        let any = b.build_int_compare(IntPredicate::NE, dirty, self.dirty().const_zero(), "")?;
        b.build_conditional_branch(any, wb, load)?;
        b.position_at_end(wb);
        b.build_call(
            writeback,
            &[tag.into(), dirty.into(), line.into(), bytes.into()],
            "",
        )?;
        b.build_unconditional_branch(load)?;

        b.position_at_end(load);
        if let Fill::Staged(staged) = fill {
            // The line staged in registers when it is the one wanted.
            let staged_tag = b
                .build_load(self.i64(), staged.tag, "staged")?
                .into_int_value();
            let is_staged = b.build_int_compare(IntPredicate::EQ, staged_tag, line_addr, "")?;
            let from_stage = self.ctx.append_basic_block(f, "from.stage");
            let from_memory = self.ctx.append_basic_block(f, "from.memory");
            let filled = self.ctx.append_basic_block(f, "filled");
            b.build_conditional_branch(is_staged, from_stage, from_memory)?;
            b.position_at_end(from_stage);
            self.unstage(f, b, line, staged.words, bytes)?;
            b.build_unconditional_branch(filled)?;
            b.position_at_end(from_memory);
            self.copy_line(
                f,
                b,
                LineCopy {
                    line,
                    addr: line_addr,
                    to_shared: true,
                    bytes,
                },
            )?;
            b.build_unconditional_branch(filled)?;
            b.position_at_end(filled);
        } else if fill == Fill::Memory {
            self.copy_line(
                f,
                b,
                LineCopy {
                    line,
                    addr: line_addr,
                    to_shared: true,
                    bytes,
                },
            )?;
        }
        if fill != Fill::Nothing && self.prefetch {
            self.prefetch_ahead(b, line_addr)?;
        }
        b.build_store(tag_slot, line_addr)?;
        b.build_store(dirty_slot, self.dirty().const_zero())?;
        b.build_unconditional_branch(ready)?;
        b.position_at_end(ready);
        Ok(())
    }

    /// Branches to a block that flushes the line and makes the access directly
    /// when the access straddles two lines; continues in the cached path.
    fn guard_straddle(
        &mut self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        site: SiteKind,
        off: IntValue<'ctx>,
        flush_args: [inkwell::values::BasicMetadataValueEnum<'ctx>; 4],
        direct: inkwell::basic_block::BasicBlock<'ctx>,
    ) -> BuildResult<()> {
        if !self.may_straddle(site) {
            return Ok(());
        }
        let flush = self.flush();
        let end = b.build_int_add(off, self.i64().const_int(u64::from(site.size), false), "")?;
        let straddles = b.build_int_compare(IntPredicate::UGT, end, Self::bytes_param(f), "")?;
        let evict = self.ctx.append_basic_block(f, "straddle");
        let cached = self.ctx.append_basic_block(f, "inline");
        b.build_conditional_branch(straddles, evict, cached)?;
        b.position_at_end(evict);
        b.build_call(flush, &flush_args, "")?;
        b.build_unconditional_branch(direct)?;
        b.position_at_end(cached);
        Ok(())
    }

    /// `T sl1.load.<T>.a<align>(addr, cached, tag, dirty, line, bytes)`, or
    /// with `staged`, `T sl1.load.<T>.a<align>.staged(addr, cached, tag,
    /// dirty, line, stage_tag, stage_words, bytes)`, whose fill takes the
    /// line from the stage (`stage`) when the stage holds it.
    pub fn load(
        &mut self,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        staged: bool,
    ) -> FunctionValue<'ctx> {
        let name = format!(
            "sl1.load.{}.a{}{}",
            type_tag(ty),
            site.align,
            if staged { ".staged" } else { "" }
        );
        let p = self.ptr().into();
        let mut params = vec![p, self.i1().into(), p, p, self.shared_ptr().into()];
        if staged {
            params.extend([p, p]);
        }
        params.push(self.i64().into());
        let fn_ty = ty.fn_type(&params, false);
        if let Some(f) = self.helpers.get(&name) {
            return *f;
        }
        let writeback = self.writeback();
        let f = self.helper(name, fn_ty, |_, _, _| Ok(()));
        self.build_access_body(f, ty, site, writeback, true, staged)
            .expect("well formed");
        f
    }

    /// The type of a stage: the words of the largest line, in registers once
    /// promoted.
    pub fn stage_type(&self) -> LLVMTypeRef {
        let words = self.line_words();
        words[0].1.array_type(words.len() as u32).as_type_ref()
    }

    /// `void sl1.stage(from, tag, stage_tag, stage_words, bytes)`: loads the
    /// line of `bytes` bytes at `from` into the stage and records `tag` as
    /// what it holds (-1: nothing usable). Issued a run ahead of the fill
    /// that takes it, so the load's latency passes during the run.
    pub fn stage(&mut self) -> FunctionValue<'ctx> {
        let i64t = self.i64();
        let p = self.ptr();
        let fn_ty = self.ctx.void_type().fn_type(
            &[i64t.into(), i64t.into(), p.into(), p.into(), i64t.into()],
            false,
        );
        self.helper("sl1.stage".to_string(), fn_ty, |rt, f, b| {
            let param = |i: u32| f.get_nth_param(i).unwrap();
            let from = param(0).into_int_value();
            let words = param(3).into_pointer_value();
            let bytes = param(4).into_int_value();
            let done = rt.ctx.append_basic_block(f, "staged");
            for (k, (off, ty, align)) in rt.line_words().into_iter().enumerate() {
                let at = rt.i64().const_int(off, false);
                if off >= u64::from(rt.min_line) {
                    rt.continue_if_below(f, b, (at, bytes), done, "word")?;
                }
                let v = b.build_load(ty, rt.global_at(b, b.build_int_add(from, at, "")?)?, "")?;
                set_align(v, align);
                b.build_store(rt.stage_word(b, words, k)?, v)?;
            }
            b.build_unconditional_branch(done)?;
            b.position_at_end(done);
            b.build_store(param(2).into_pointer_value(), param(1).into_int_value())?;
            b.build_return(None)?;
            Ok(())
        })
    }

    fn stage_word(
        &self,
        b: &Builder<'ctx>,
        words: PointerValue<'ctx>,
        k: usize,
    ) -> BuildResult<PointerValue<'ctx>> {
        let ty = self.line_words()[0].1;
        // SAFETY of the IR: `k` is below the stage's word count.
        unsafe { b.build_gep(ty, words, &[self.i64().const_int(k as u64, false)], "w") }
    }

    /// Copies the staged words of a line of `bytes` bytes into the line.
    fn unstage(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        line: PointerValue<'ctx>,
        words: PointerValue<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> BuildResult<()> {
        let copied = self.ctx.append_basic_block(f, "unstaged");
        for (k, (off, ty, align)) in self.line_words().into_iter().enumerate() {
            let at = self.i64().const_int(off, false);
            if off >= u64::from(self.min_line) {
                self.continue_if_below(f, b, (at, bytes), copied, "word")?;
            }
            let v = b.build_load(ty, self.stage_word(b, words, k)?, "")?;
            let shared = self.shared_at(b, line, at)?;
            set_align(
                b.build_store(shared, v)?,
                align.min(self.shared_line_align()),
            );
        }
        b.build_unconditional_branch(copied)?;
        b.position_at_end(copied);
        Ok(())
    }

    /// `void sl1.store.<T>.a<align>[.fetch](addr, value, cached, tag, dirty, line, bytes)`.
    pub fn store(&mut self, ty: BasicTypeEnum<'ctx>, site: SiteKind) -> FunctionValue<'ctx> {
        let name = format!(
            "sl1.store.{}.a{}{}",
            type_tag(ty),
            site.align,
            if site.fetch_on_write { ".fetch" } else { "" }
        );
        let p = self.ptr().into();
        let fn_ty = self.ctx.void_type().fn_type(
            &[
                p,
                ty.into(),
                self.i1().into(),
                p,
                p,
                self.shared_ptr().into(),
                self.i64().into(),
            ],
            false,
        );
        if let Some(f) = self.helpers.get(&name) {
            return *f;
        }
        let writeback = self.writeback();
        let f = self.helper(name, fn_ty, |_, _, _| Ok(()));
        self.build_access_body(f, ty, site, writeback, false, false)
            .expect("well formed");
        f
    }

    /// `sl1.aload.<T>.a<align>.g<k>.o<own>(addr, cached, tag_0.., dirty_0.., line_0..,
    /// cached_0.., bytes)` and `sl1.astore...(addr, value, cached, ...)`: an
    /// access to a member of a group of arguments that may alias (no
    /// restrict), the paper's aliased mode. Every line of the group is looked
    /// up; at most one holds a given memory line, because a miss fills a line
    /// only after the lookup failed. Stores update the holder (and so are seen
    /// by loads through every member); lines are always filled before a write,
    /// since another member may read the same line.
    ///
    /// A miss fills the member's own line, unless that line is partly
    /// written and another cached member's line is free (never filled) or
    /// wholly written: then that one. Two pointers into one buffer a few
    /// bytes apart (`dst[i] = src[i] + 1` with `src = dst + 1`) share each
    /// memory line: the leading one misses on the next line while the
    /// trailing one still writes the current one, and evicting it there
    /// would write it back byte by byte and fetch it again for the last
    /// writes (0.39x of the build without S-L1 on the H100, 2026-11-25).
    pub fn aliased(
        &mut self,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        group: u32,
        own: u32,
        is_load: bool,
    ) -> FunctionValue<'ctx> {
        let name = format!(
            "sl1.a{}.{}.a{}.g{group}.o{own}",
            if is_load { "load" } else { "store" },
            type_tag(ty),
            site.align
        );
        if let Some(f) = self.helpers.get(&name) {
            return *f;
        }
        let p = self.ptr().into();
        let mut params = vec![p];
        if !is_load {
            params.push(ty.into());
        }
        params.push(self.i1().into());
        params.extend(std::iter::repeat_n(p, 2 * group as usize));
        let shared: inkwell::types::BasicMetadataTypeEnum = self.shared_ptr().into();
        params.extend(std::iter::repeat_n(shared, group as usize));
        let flag: inkwell::types::BasicMetadataTypeEnum = self.i1().into();
        params.extend(std::iter::repeat_n(flag, group as usize));
        params.push(self.i64().into());
        let fn_ty = if is_load {
            ty.fn_type(&params, false)
        } else {
            self.ctx.void_type().fn_type(&params, false)
        };
        let writeback = self.writeback();
        let flush = self.flush();
        let f = self.helper(name, fn_ty, |_, _, _| Ok(()));
        self.build_aliased_body(f, ty, site, group, own, is_load, writeback, flush)
            .expect("well formed");
        f
    }

    #[allow(clippy::too_many_arguments)]
    fn build_aliased_body(
        &mut self,
        f: FunctionValue<'ctx>,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        group: u32,
        own: u32,
        is_load: bool,
        writeback: FunctionValue<'ctx>,
        flush: FunctionValue<'ctx>,
    ) -> BuildResult<()> {
        let b = self.ctx.create_builder();
        b.position_at_end(f.get_first_basic_block().unwrap());
        let param = |i: u32| f.get_nth_param(i).unwrap();
        let addr = param(0).into_pointer_value();
        let value = (!is_load).then(|| param(1));
        let first = if is_load { 1 } else { 2 };
        let cached = param(first).into_int_value();
        let tag = |e: u32| param(first + 1 + e).into_pointer_value();
        let dirty = |e: u32| param(first + 1 + group + e).into_pointer_value();
        let line = |e: u32| param(first + 1 + 2 * group + e).into_pointer_value();
        let member_cached = |e: u32| param(first + 1 + 3 * group + e).into_int_value();
        let bytes = Self::bytes_param(f);
        let align = self.in_line_align(site);
        let mask_bits = if site.size == 64 {
            u64::MAX
        } else {
            (1u64 << site.size) - 1
        };

        let (line_addr, off) = self.line_of(&b, addr, bytes)?;
        let direct = self.ctx.append_basic_block(f, "direct");
        if self.may_straddle(site) {
            // A straddling access goes direct after every line of the group
            // is written back.
            let end =
                b.build_int_add(off, self.i64().const_int(u64::from(site.size), false), "")?;
            let straddles = b.build_int_compare(IntPredicate::UGT, end, bytes, "")?;
            let spill = self.ctx.append_basic_block(f, "straddle");
            let inline = self.ctx.append_basic_block(f, "inline");
            b.build_conditional_branch(straddles, spill, inline)?;
            b.position_at_end(spill);
            for e in 0..group {
                b.build_call(
                    flush,
                    &[tag(e).into(), dirty(e).into(), line(e).into(), bytes.into()],
                    "",
                )?;
            }
            b.build_unconditional_branch(direct)?;
            b.position_at_end(inline);
        }

        // The access on line `e`, once it holds the address.
        let access_line = |b: &Builder<'ctx>, e: u32| -> BuildResult<()> {
            let at = self.shared_at(b, line(e), off)?;
            if let Some(v) = value {
                set_align(b.build_store(at, v)?, align);
                let mask = b.build_left_shift(
                    self.dirty().const_int(mask_bits, false),
                    self.dirty_shift(b, off)?,
                    "",
                )?;
                let d = b
                    .build_load(self.dirty(), dirty(e), "dirty")?
                    .into_int_value();
                b.build_store(dirty(e), b.build_or(d, mask, "")?)?;
                b.build_return(None)?;
            } else {
                let v = b.build_load(ty, at, "v")?;
                set_align(v, align);
                b.build_return(Some(&v))?;
            }
            Ok(())
        };
        for e in 0..group {
            let t = b.build_load(self.i64(), tag(e), "tag")?.into_int_value();
            let holds = b.build_int_compare(IntPredicate::EQ, t, line_addr, "holds")?;
            let hit = self.ctx.append_basic_block(f, "hit");
            let next = self.ctx.append_basic_block(f, "lookup");
            b.build_conditional_branch(holds, hit, next)?;
            b.position_at_end(hit);
            access_line(&b, e)?;
            b.position_at_end(next);
        }
        let miss = self.ctx.append_basic_block(f, "miss");
        b.build_conditional_branch(cached, miss, direct)?;
        b.position_at_end(miss);
        // Which line the miss fills (see `aliased`).
        let full = self.full_mask(&b, bytes)?;
        let zero = self.dirty().const_zero();
        let own_dirty = b
            .build_load(self.dirty(), dirty(own), "own.dirty")?
            .into_int_value();
        let partly = b.build_and(
            b.build_int_compare(IntPredicate::NE, own_dirty, zero, "")?,
            b.build_int_compare(IntPredicate::NE, own_dirty, full, "")?,
            "own.partly",
        )?;
        let fill_own = self.ctx.append_basic_block(f, "fill.own");
        for e in (0..group).filter(|&e| e != own) {
            let t = b.build_load(self.i64(), tag(e), "")?.into_int_value();
            let d = b.build_load(self.dirty(), dirty(e), "")?.into_int_value();
            let free = b.build_int_compare(IntPredicate::EQ, t, self.i64().const_all_ones(), "")?;
            let done = b.build_int_compare(IntPredicate::EQ, d, full, "")?;
            let spare = b.build_and(member_cached(e), b.build_or(free, done, "")?, "")?;
            let take = b.build_and(partly, spare, "take")?;
            let fill_other = self.ctx.append_basic_block(f, "fill.other");
            let next = self.ctx.append_basic_block(f, "victim");
            b.build_conditional_branch(take, fill_other, next)?;
            b.position_at_end(fill_other);
            self.ensure_line(
                f,
                &b,
                line_addr,
                (tag(e), dirty(e), line(e)),
                Fill::Memory,
                writeback,
            )?;
            access_line(&b, e)?;
            b.position_at_end(next);
        }
        b.build_unconditional_branch(fill_own)?;
        b.position_at_end(fill_own);
        self.ensure_line(
            f,
            &b,
            line_addr,
            (tag(own), dirty(own), line(own)),
            Fill::Memory,
            writeback,
        )?;
        access_line(&b, own)?;

        b.position_at_end(direct);
        match value {
            Some(v) => {
                set_align(b.build_store(addr, v)?, site.align);
                b.build_return(None)?;
            }
            None => {
                let v = b.build_load(ty, addr, "v")?;
                set_align(v, site.align);
                b.build_return(Some(&v))?;
            }
        }
        Ok(())
    }

    fn build_access_body(
        &mut self,
        f: FunctionValue<'ctx>,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        writeback: FunctionValue<'ctx>,
        is_load: bool,
        staged: bool,
    ) -> BuildResult<()> {
        let entry = f.get_first_basic_block().unwrap();
        let b = self.ctx.create_builder();
        b.position_at_end(entry);
        let param = |i: u32| f.get_nth_param(i).unwrap();
        let addr = param(0).into_pointer_value();
        let first_state = if is_load { 1 } else { 2 };
        let cached = param(first_state).into_int_value();
        let tag_slot = param(first_state + 1).into_pointer_value();
        let dirty_slot = param(first_state + 2).into_pointer_value();
        let line = param(first_state + 3).into_pointer_value();
        // Staged loads take the stage's slots before the line size.
        let staged = staged.then(|| Staged {
            tag: param(first_state + 4).into_pointer_value(),
            words: param(first_state + 5).into_pointer_value(),
        });

        let direct = self.ctx.append_basic_block(f, "direct");
        let via_cache = self.ctx.append_basic_block(f, "cached");
        b.build_conditional_branch(cached, via_cache, direct)?;

        b.position_at_end(direct);
        if is_load {
            let v = b.build_load(ty, addr, "v")?;
            set_align(v, site.align);
            b.build_return(Some(&v))?;
        } else {
            set_align(b.build_store(addr, param(1))?, site.align);
            b.build_return(None)?;
        }

        b.position_at_end(via_cache);
        let bytes = Self::bytes_param(f);
        let (line_addr, off) = self.line_of(&b, addr, bytes)?;
        self.guard_straddle(
            f,
            &b,
            site,
            off,
            [
                tag_slot.into(),
                dirty_slot.into(),
                line.into(),
                bytes.into(),
            ],
            direct,
        )?;
        self.ensure_line(
            f,
            &b,
            line_addr,
            (tag_slot, dirty_slot, line),
            // Stores to a structure the loop also reads fill first.
            match (is_load || site.fetch_on_write, staged) {
                (false, _) => Fill::Nothing,
                (true, None) => Fill::Memory,
                (true, Some(s)) => Fill::Staged(s),
            },
            writeback,
        )?;
        let at = self.shared_at(&b, line, off)?;
        let align = self.in_line_align(site);
        if is_load {
            let v = b.build_load(ty, at, "v")?;
            set_align(v, align);
            b.build_return(Some(&v))?;
        } else {
            set_align(b.build_store(at, param(1))?, align);
            self.mark_dirty(&b, dirty_slot, off, site.size)?;
            b.build_return(None)?;
        }
        Ok(())
    }

    /// Sets the dirty bits of `size` bytes at `off` in the line.
    fn mark_dirty(
        &self,
        b: &Builder<'ctx>,
        dirty_slot: PointerValue<'ctx>,
        off: IntValue<'ctx>,
        size: u32,
    ) -> BuildResult<()> {
        let bits = if size == 64 {
            u64::MAX
        } else {
            (1u64 << size) - 1
        };
        let mask = b.build_left_shift(
            self.dirty().const_int(bits, false),
            self.dirty_shift(b, off)?,
            "",
        )?;
        let dirty = b
            .build_load(self.dirty(), dirty_slot, "dirty")?
            .into_int_value();
        b.build_store(dirty_slot, b.build_or(dirty, mask, "")?)?;
        Ok(())
    }

    /// `T sl1.hit.load.<T>.a<align>(addr, tag, line)`: a load of a line run
    /// (`transform::line_runs`), where the line is known to hold `addr`: no
    /// tag check, the offset is the distance from the line's address.
    pub fn hit_load(&mut self, ty: BasicTypeEnum<'ctx>, site: SiteKind) -> FunctionValue<'ctx> {
        let name = format!("sl1.hit.load.{}.a{}", type_tag(ty), site.align);
        let p = self.ptr().into();
        let fn_ty = ty.fn_type(&[p, p, self.shared_ptr().into()], false);
        let align = self.in_line_align(site);
        self.helper(name, fn_ty, |rt, f, b| {
            let param = |i: u32| f.get_nth_param(i).unwrap();
            let at = rt.hit_at(b, param(0), param(1), param(2))?.0;
            let v = b.build_load(ty, at, "v")?;
            set_align(v, align);
            b.build_return(Some(&v))?;
            Ok(())
        })
    }

    /// `void sl1.hit.store.<T>.a<align>[.premarked](addr, value, tag, dirty,
    /// line)`: a store of a line run, which hits (see `hit_load`). It sets
    /// its dirty bits unless the run set them all before it started (`mark`).
    pub fn hit_store(
        &mut self,
        ty: BasicTypeEnum<'ctx>,
        site: SiteKind,
        mark: bool,
    ) -> FunctionValue<'ctx> {
        let name = format!(
            "sl1.hit.store.{}.a{}{}",
            type_tag(ty),
            site.align,
            if mark { "" } else { ".premarked" }
        );
        let p = self.ptr().into();
        let fn_ty = self
            .ctx
            .void_type()
            .fn_type(&[p, ty.into(), p, p, self.shared_ptr().into()], false);
        let align = self.in_line_align(site);
        self.helper(name, fn_ty, |rt, f, b| {
            let param = |i: u32| f.get_nth_param(i).unwrap();
            let (at, off) = rt.hit_at(b, param(0), param(2), param(4))?;
            set_align(b.build_store(at, param(1))?, align);
            if mark {
                rt.mark_dirty(b, param(3).into_pointer_value(), off, site.size)?;
            }
            b.build_return(None)?;
            Ok(())
        })
    }

    /// Where a hit's `addr` sits in the line, and its offset there: the
    /// distance from the line's address, which a line run does not change
    /// (so the offset moves with the loop, unlike `addr & (bytes - 1)`).
    fn hit_at(
        &self,
        b: &Builder<'ctx>,
        addr: inkwell::values::BasicValueEnum<'ctx>,
        tag_slot: inkwell::values::BasicValueEnum<'ctx>,
        line: inkwell::values::BasicValueEnum<'ctx>,
    ) -> BuildResult<(PointerValue<'ctx>, IntValue<'ctx>)> {
        let a = b.build_ptr_to_int(addr.into_pointer_value(), self.i64(), "a")?;
        let tag = b
            .build_load(self.i64(), tag_slot.into_pointer_value(), "tag")?
            .into_int_value();
        let off = b.build_int_sub(a, tag, "off")?;
        Ok((self.shared_at(b, line.into_pointer_value(), off)?, off))
    }
}

/// Alignment of a load (a value) or a store (an instruction).
trait Aligned {
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

fn set_align(value: impl Aligned, align: u32) {
    if let Some(inst) = value.instruction() {
        let _ = inst.set_alignment(align.max(1));
    }
}

/// A name-safe spelling of a type for helper names.
fn type_tag(ty: BasicTypeEnum<'_>) -> String {
    ty.print_to_string()
        .to_string()
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

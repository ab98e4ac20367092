//! Lines between memory and shared memory: a thread's own copies, the
//! write-back of dirty bytes, `sl1.flush` and `sl1.evict`, and the fill
//! that makes a line hold an address (`ensure_line`).

use inkwell::builder::Builder;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use super::base::{set_align, BuildResult, Fill, LineCopy, Runtime, PREFETCH_AHEAD};
use super::warp_copy::SMALLEST_WARP_LINE;

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// Copies a whole line between shared memory and memory. When the
    /// lanes of a whole warp copy a line of at least 32 B at once (a miss
    /// they share, as in line runs), they move the warp's lines together
    /// (`warp_copy`); else each thread copies its own.
    pub(super) fn copy_line(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        copy: LineCopy<'ctx>,
    ) -> BuildResult<()> {
        let copied = self.ctx.append_basic_block(f, "copied");
        if self.warp_copies_possible() {
            let together = self.ctx.append_basic_block(f, "warp.copy");
            let alone = self.ctx.append_basic_block(f, "thread.copy");
            let size = (copy.bytes, SMALLEST_WARP_LINE);
            self.branch_on_whole_warp(f, b, size, (together, alone))?;
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
    pub(super) fn thread_copy(
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
    pub(super) fn copy_word(
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
    pub(super) fn prefetch_ahead(
        &self,
        b: &Builder<'ctx>,
        line_addr: IntValue<'ctx>,
    ) -> BuildResult<()> {
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

    /// `sl1.writeback(line_addr, dirty, line, bytes)`: writes the dirty bytes
    /// of a line back, and nothing else, so that bytes other threads wrote in
    /// the same memory line survive. A full line goes with 16-byte stores,
    /// a partly written one in the widest pieces it has whole
    /// (`write_back_pieces`).
    pub(super) fn writeback(&mut self) -> FunctionValue<'ctx> {
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

            b.position_at_end(bytes);
            rt.write_back_pieces(f, b, (line_addr, dirty, line), done)?;

            b.position_at_end(done);
            b.build_return(None)?;
            Ok(())
        })
    }

    /// Bytes of the groups a partly dirty line goes back in: 16 where lines
    /// in memory are aligned to it (a group's store is then one 16-byte
    /// store), else 4 where they are aligned to that, else single bytes.
    fn write_back_group(&self) -> u32 {
        [16, 4]
            .into_iter()
            .find(|&w| w <= self.line_align() && w < self.max_line)
            .unwrap_or(1)
    }

    /// Writes back the dirty bytes of `dirty` (not zero), then branches to
    /// `done`. The line goes by aligned groups (`write_back_group`), from
    /// the one holding the lowest dirty byte while dirty bytes remain
    /// (`write_back_units`): a group whose bytes are all dirty in one store
    /// (a thread that wrote a run of bytes left such groups, at its chunk's
    /// ends too), else each of its 4-byte words whose bytes are all dirty in
    /// one store, else its dirty bytes one by one. A lane takes at most a
    /// line's groups (8 for 128 B lines) whatever its bytes; one store per
    /// piece through a loop on the lowest dirty byte took `upper`'s partly
    /// written lines, at its threads' chunk ends, 30 passes of some 60
    /// instructions a warp (H100 source counters, 2026-11-28).
    fn write_back_pieces(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        (line_addr, dirty, line): (IntValue<'ctx>, IntValue<'ctx>, PointerValue<'ctx>),
        done: inkwell::basic_block::BasicBlock<'ctx>,
    ) -> BuildResult<()> {
        let group = self.write_back_group();
        let dirty_ty = self.dirty();
        let has_any = b.build_int_compare(IntPredicate::NE, dirty, dirty_ty.const_zero(), "")?;
        let first = self.ctx.append_basic_block(f, "pieces");
        b.build_conditional_branch(has_any, first, done)?;
        b.position_at_end(first);
        let lowest = self.count_trailing_zeros(b, dirty, "lowest")?;
        let start = b.build_and(lowest, dirty_ty.const_int(!u64::from(group - 1), true), "")?;
        let rest = b.build_right_shift(dirty, start, false, "")?;
        let start = b.build_int_cast_sign_flag(start, self.i64(), false, "")?;
        self.write_back_units(f, b, (line_addr, line), (rest, start), group, done)
    }

    /// Stores `width` bytes (1, 4 or 16) of `line` at offset `at` to the
    /// same offset from `line_addr`.
    fn write_back_piece(
        &self,
        b: &Builder<'ctx>,
        (line_addr, line): (IntValue<'ctx>, PointerValue<'ctx>),
        at: IntValue<'ctx>,
        width: u32,
    ) -> BuildResult<()> {
        let ty = match width {
            16 => self.v4i32(),
            4 => self.i32().as_basic_type_enum(),
            _ => self.ctx.i8_type().as_basic_type_enum(),
        };
        self.copy_word(
            b,
            ty,
            (
                self.shared_at(b, line, at)?,
                width.min(self.shared_line_align()),
            ),
            (
                self.global_at(b, b.build_int_add(line_addr, at, "")?)?,
                width,
            ),
            false,
        )
    }

    /// Stores, lowest first, each `unit`-byte piece (16, 4 or 1) from offset
    /// `at` whose bits in `mask` (one per byte) are all set; a piece with only
    /// some set goes by the next smaller unit (16 B by 4 B words, words by
    /// bytes). Loops, not unrolled: `sl1.writeback` is inlined at every
    /// access that may evict a line, and unrolled words and bytes took the
    /// do-no-harm `inplace_shift` from 2622 to 6124 PTX lines and into
    /// spills (0.62x on the H100). Then branches to `after`.
    fn write_back_units(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        (line_addr, line): (IntValue<'ctx>, PointerValue<'ctx>),
        (mask, at): (IntValue<'ctx>, IntValue<'ctx>),
        unit: u32,
        after: inkwell::basic_block::BasicBlock<'ctx>,
    ) -> BuildResult<()> {
        let ty = mask.get_type();
        let from = b.get_insert_block().expect("the builder is in a block");
        let loop_ = self.ctx.append_basic_block(f, "unit");
        b.build_unconditional_branch(loop_)?;
        b.position_at_end(loop_);
        let m = b.build_phi(ty, "m")?;
        let here = b.build_phi(self.i64(), "at")?;
        let m_v = m.as_basic_value().into_int_value();
        let here_v = here.as_basic_value().into_int_value();
        let ones = ty.const_int((1u64 << unit) - 1, false);
        let bits = b.build_and(m_v, ones, "")?;
        let whole = b.build_int_compare(IntPredicate::EQ, bits, ones, "")?;
        let store = self.ctx.append_basic_block(f, "unit.whole");
        let other = self.ctx.append_basic_block(f, "unit.other");
        let next = self.ctx.append_basic_block(f, "unit.next");
        b.build_conditional_branch(whole, store, other)?;
        b.position_at_end(store);
        self.write_back_piece(b, (line_addr, line), here_v, unit)?;
        b.build_unconditional_branch(next)?;
        b.position_at_end(other);
        if unit > 1 {
            let some = b.build_int_compare(IntPredicate::NE, bits, ty.const_zero(), "")?;
            let parts = self.ctx.append_basic_block(f, "unit.parts");
            b.build_conditional_branch(some, parts, next)?;
            b.position_at_end(parts);
            let smaller = if unit > 4 { 4 } else { 1 };
            self.write_back_units(f, b, (line_addr, line), (bits, here_v), smaller, next)?;
        } else {
            b.build_unconditional_branch(next)?;
        }
        b.position_at_end(next);
        let m_next = b.build_right_shift(m_v, ty.const_int(u64::from(unit), false), false, "")?;
        let at_next = b.build_int_add(here_v, self.i64().const_int(u64::from(unit), false), "")?;
        m.add_incoming(&[(&mask, from), (&m_next, next)]);
        here.add_incoming(&[(&at, from), (&at_next, next)]);
        let more = b.build_int_compare(IntPredicate::NE, m_next, ty.const_zero(), "")?;
        b.build_conditional_branch(more, loop_, after)?;
        Ok(())
    }

    /// `sl1.flush(tag, dirty, line, bytes)`: writes the line back and
    /// invalidates it.
    pub(super) fn flush(&mut self) -> FunctionValue<'ctx> {
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
    pub(super) fn evict(&mut self) -> FunctionValue<'ctx> {
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
    pub(super) fn ensure_line(
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
            let copy = LineCopy {
                line,
                addr: line_addr,
                to_shared: true,
                bytes,
            };
            self.fill_past_stage(f, b, copy, (staged_tag, staged.words))?;
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
}

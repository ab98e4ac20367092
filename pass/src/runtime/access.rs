//! Loads and stores through the cache (`sl1.load.*`, `sl1.store.*`), and
//! through an aliased group's lines (`sl1.aload.*`, `sl1.astore.*`).

use inkwell::builder::Builder;
use inkwell::types::{BasicType, BasicTypeEnum};
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use super::base::{set_align, type_tag, BuildResult, Fill, Runtime, SiteKind, Staged};

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// Branches to a block that flushes the line and makes the access directly
    /// when the access straddles two lines; continues in the cached path.
    pub(super) fn guard_straddle(
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
    pub(super) fn load(
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

    /// `void sl1.store.<T>.a<align>[.fetch](addr, value, cached, tag, dirty, line, bytes)`.
    pub(super) fn store(&mut self, ty: BasicTypeEnum<'ctx>, site: SiteKind) -> FunctionValue<'ctx> {
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
    /// cached_0.., mru, bytes)` and `sl1.astore...(addr, value, cached, ...)`: an
    /// access to a member of a group of arguments that may alias (no
    /// restrict), the paper's aliased mode. Every line of the group is looked
    /// up; at most one holds a given memory line, because a miss fills a line
    /// only after the lookup failed. Stores update the holder (and so are seen
    /// by loads through every member); lines are always filled before a write,
    /// since another member may read the same line.
    ///
    /// A miss fills the member's own line, unless that line is partly
    /// written and another cached member's line is free (never filled),
    /// wholly written, or, in a group of two, not the line the group used
    /// last (`mru`, a slot of the member's index): then that one. Two pointers into one buffer a
    /// few bytes apart (`dst[i] = src[i] + 1` with `src = dst + 1`) share
    /// each memory line: the leading one misses on the next line while the
    /// trailing one still writes the current one, and evicting it there
    /// would write it back byte by byte and fetch it again for the last
    /// writes (0.39x of the build without S-L1 on the H100, 2026-11-25).
    /// The other line then holds the line before, done with unless a row's
    /// first bytes were never written: without the last-used test, rows
    /// that start mid-line (a tridiagonal sweep with `l = d + 1`, rows
    /// `cols + 1` words apart) kept evicting the line still written and
    /// fetching it again (`tri_forward_overlap`, with the alias checks: 0.982
    /// to 0.813 ms on the H200, docs/benchmarks.md).
    pub(super) fn aliased(
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
        params.push(p);
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
    pub(super) fn build_aliased_body(
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
        let mru = param(first + 1 + 4 * group).into_pointer_value();
        let bytes = Self::bytes_param(f);
        let i32t = self.ctx.i32_type();
        // Only a group of two reads it (below).
        let used = |b: &Builder<'ctx>, e: u32| -> BuildResult<()> {
            if group == 2 {
                b.build_store(mru, i32t.const_int(u64::from(e), false))?;
            }
            Ok(())
        };
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
            used(&b, e)?;
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
        let last = if group == 2 {
            Some(b.build_load(i32t, mru, "mru")?.into_int_value())
        } else {
            None
        };
        for e in (0..group).filter(|&e| e != own) {
            let t = b.build_load(self.i64(), tag(e), "")?.into_int_value();
            let d = b.build_load(self.dirty(), dirty(e), "")?.into_int_value();
            let free = b.build_int_compare(IntPredicate::EQ, t, self.i64().const_all_ones(), "")?;
            let done = b.build_int_compare(IntPredicate::EQ, d, full, "")?;
            // Only in a group of two: with more, the line of a member that
            // merely was not the last would be taken from a stream of its own.
            let idle = match last {
                Some(last) => b.build_int_compare(
                    IntPredicate::NE,
                    last,
                    i32t.const_int(u64::from(e), false),
                    "",
                )?,
                None => self.i1().const_zero(),
            };
            let free_or_done = b.build_or(free, done, "")?;
            let spare = b.build_and(member_cached(e), b.build_or(free_or_done, idle, "")?, "")?;
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
            used(&b, e)?;
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
        used(&b, own)?;
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

    pub(super) fn build_access_body(
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
    pub(super) fn mark_dirty(
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
}

//! Stages the warp loads together. A stage is the next line of a read
//! stream, loaded into registers a run ahead of its fill (`stage.rs`).
//! Loaded by each thread alone, the 32 lanes' 16 B loads touch 32 lines
//! at once, half a sector each. When the whole warp stages at once (line
//! runs keep the lanes in step), each lane instead loads the pieces of the
//! warp's lines in warp-copy order (`warp_copy`), so that each request
//! covers whole sectors, and keeps them: its words then hold pieces of
//! other lanes' lines. Such a stage is taken only by a fill the whole warp
//! makes at once, and only when every lane's stage is a warp stage: a warp
//! stage has all 32 lanes, so their words then come from the same one. The
//! lanes write their pieces into the owners' lines; a lane whose own line
//! was not the one staged copies it after them.
//!
//! Only lines of 128 B or more are staged so: the longer a line, the more
//! a thread's lone copy of it costs (docs/benchmarks.md), while a warp
//! stage's shuffles, vote and barriers cost the same per piece. On the H100
//! with 128 B lines, `upper` took 0.254 against 0.275 ms; with 32 and 64 B
//! lines `upper` gained at most 3% and `wc` lost 10%.
//!
//! A warp stage's tag has bit 0 set (line addresses are aligned): the line
//! it holds plus one, or 1 when it holds nothing usable.

use inkwell::builder::Builder;
use inkwell::values::{FunctionValue, IntValue, PointerValue};
use inkwell::IntPredicate;

use super::base::{set_align, BuildResult, LineCopy, Runtime};
use super::warp_copy::{FULL_MASK, PIECE};

/// The smallest line the warp stages together.
pub(super) const SMALLEST_WARP_STAGE: u32 = 128;

impl<'ctx> Runtime<'ctx, '_> {
    /// Whether lines can be large enough for warp stages to be built.
    pub(super) fn warp_stages_possible(&self) -> bool {
        self.warp_copies_possible() && self.max_line >= SMALLEST_WARP_STAGE
    }

    /// The whole warp loads its lanes' lines at `from` (each lane's own) in
    /// warp-copy order into `words`, step `q` into word `q`.
    pub(super) fn warp_stage(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        from: IntValue<'ctx>,
        words: PointerValue<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> BuildResult<()> {
        let addr = self.shuffled_addr(b, from)?;
        self.each_step(f, b, bytes, |q, owner, off| {
            let global = self.global_at(b, b.build_int_add(addr(owner)?, off, "")?)?;
            let v = b.build_load(self.v4i32(), global, "")?;
            set_align(v, PIECE);
            b.build_store(self.stage_word(b, words, q)?, v)?;
            Ok(())
        })
    }

    /// The tag of a warp stage that holds `holds` (-1: nothing usable).
    pub(super) fn warp_stage_tag(
        &self,
        b: &Builder<'ctx>,
        holds: IntValue<'ctx>,
    ) -> BuildResult<IntValue<'ctx>> {
        let i64t = self.i64();
        let nothing = b.build_int_compare(IntPredicate::EQ, holds, i64t.const_all_ones(), "")?;
        let marked = b.build_or(holds, i64t.const_int(1, false), "")?;
        let tag = b.build_select(nothing, i64t.const_int(1, false), marked, "sl1.warp.staged")?;
        Ok(tag.into_int_value())
    }

    /// Fills `copy`'s line, which the stage (tag `staged_tag`, `words`) does
    /// not hold as a thread's own stage: from the warp's stages when the
    /// whole warp fills a line of 128 B or more at once and every lane's
    /// stage is a warp stage; else, and for the lanes whose own line was not
    /// the one staged, as `copy_line`.
    pub(super) fn fill_past_stage(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        copy: LineCopy<'ctx>,
        (staged_tag, words): (IntValue<'ctx>, PointerValue<'ctx>),
    ) -> BuildResult<()> {
        if !self.warp_stages_possible() {
            return self.copy_line(f, b, copy);
        }
        let copied = self.ctx.append_basic_block(f, "copied");
        let together = self.ctx.append_basic_block(f, "warp.fill");
        let from_memory = self.ctx.append_basic_block(f, "own.copy");
        let size = (copy.bytes, SMALLEST_WARP_STAGE);
        self.branch_on_whole_warp(f, b, size, (together, from_memory))?;

        b.position_at_end(together);
        let i64t = self.i64();
        let one = i64t.const_int(1, false);
        let marked = b.build_and(staged_tag, one, "")?;
        let is_warp = b.build_and(
            b.build_int_compare(IntPredicate::NE, marked, i64t.const_zero(), "")?,
            b.build_int_compare(IntPredicate::NE, staged_tag, i64t.const_all_ones(), "")?,
            "",
        )?;
        let warp_stages = self.ballot(b, is_warp)?;
        let all = b.build_int_compare(
            IntPredicate::EQ,
            warp_stages,
            self.i32().const_int(FULL_MASK, false),
            "sl1.all.warp.staged",
        )?;
        let unstage = self.ctx.append_basic_block(f, "warp.unstage");
        b.build_conditional_branch(all, unstage, from_memory)?;

        b.position_at_end(unstage);
        let mine = b.build_int_compare(
            IntPredicate::EQ,
            staged_tag,
            b.build_or(copy.addr, one, "")?,
            "sl1.own.staged",
        )?;
        self.warp_unstage(f, b, copy.line, words, copy.bytes)?;
        b.build_conditional_branch(mine, copied, from_memory)?;

        b.position_at_end(from_memory);
        self.copy_line(f, b, copy)?;
        b.build_unconditional_branch(copied)?;
        b.position_at_end(copied);
        Ok(())
    }

    /// Each lane writes the pieces its warp stage holds into their owners'
    /// lines (`line`: each lane's own). A line whose owner did not want
    /// what was staged gets pieces too, which its owner's own copy then
    /// overwrites (after the closing barrier).
    fn warp_unstage(
        &self,
        f: FunctionValue<'ctx>,
        b: &Builder<'ctx>,
        line: PointerValue<'ctx>,
        words: PointerValue<'ctx>,
        bytes: IntValue<'ctx>,
    ) -> BuildResult<()> {
        self.warp_barrier(b)?;
        let shared = b.build_ptr_to_int(line, self.i32(), "")?;
        self.each_step(f, b, bytes, |q, owner, off| {
            let v = b.build_load(self.v4i32(), self.stage_word(b, words, q)?, "")?;
            let at = self.owner_line(b, shared, owner, off)?;
            set_align(b.build_store(at, v)?, PIECE.min(self.shared_line_align()));
            Ok(())
        })?;
        self.warp_barrier(b)
    }

    /// `vote.sync.ballot` over the whole warp: the lanes where `pred` holds.
    fn ballot(&self, b: &Builder<'ctx>, pred: IntValue<'ctx>) -> BuildResult<IntValue<'ctx>> {
        let f = self.intrinsic("llvm.nvvm.vote.ballot.sync", &[]);
        let all = self.i32().const_int(FULL_MASK, false);
        let r = b.build_call(f, &[all.into(), pred.into()], "")?;
        Ok(r.try_as_basic_value()
            .basic()
            .expect("a ballot returns its mask")
            .into_int_value())
    }
}

//! Stages: the next line of a read stream, loaded into registers a run
//! ahead of the fill that takes it (`sl1.stage`).

use inkwell::builder::Builder;
use inkwell::types::BasicType;
use inkwell::values::{FunctionValue, IntValue, PointerValue};

use super::base::{set_align, BuildResult, Runtime};
use super::warp_stage::SMALLEST_WARP_STAGE;
use crate::llvm::build;
use crate::llvm::ir::Type;

impl<'ctx, 'm> Runtime<'ctx, 'm> {
    /// The type of a stage: the words of the largest line, in registers once
    /// promoted.
    pub fn stage_type<'v>(&self) -> Type<'v> {
        let words = self.line_words();
        Type::of(words[0].1.array_type(words.len() as u32))
    }

    /// `void sl1.stage(from, tag, stage_tag, stage_words, bytes)`: loads the
    /// line of `bytes` bytes at `from` into the stage and records `tag` as
    /// what it holds (-1: nothing usable). Issued a run ahead of the fill
    /// that takes it, so the load's latency passes during the run. The
    /// whole warp at once loads lines of 128 B or more together
    /// (`warp_stage`).
    pub(super) fn stage(&mut self) -> FunctionValue<'ctx> {
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
            if rt.warp_stages_possible() {
                let together = rt.ctx.append_basic_block(f, "warp.stage");
                let alone = rt.ctx.append_basic_block(f, "thread.stage");
                let size = (bytes, SMALLEST_WARP_STAGE);
                rt.branch_on_whole_warp(f, b, size, (together, alone))?;
                b.position_at_end(together);
                rt.warp_stage(f, b, from, words, bytes)?;
                let tag = rt.warp_stage_tag(b, param(1).into_int_value())?;
                b.build_store(param(2).into_pointer_value(), tag)?;
                b.build_return(None)?;
                b.position_at_end(alone);
            }
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

    pub(super) fn stage_word(
        &self,
        b: &Builder<'ctx>,
        words: PointerValue<'ctx>,
        k: usize,
    ) -> BuildResult<PointerValue<'ctx>> {
        let ty = self.line_words()[0].1;
        build::inkwell_gep(b, ty, words, &[self.i64().const_int(k as u64, false)], "w")
    }

    /// Copies the staged words of a line of `bytes` bytes into the line.
    pub(super) fn unstage(
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
}

//! The versions of a sliced loop the decision sends each thread to: the
//! copy for threads that cache every structure (with its line runs), slice 2
//! for threads that cache some, the plain loop for those that cache none;
//! one copy per line size where a launch may pick it.

use crate::llvm::build;

use inkwell::llvm_sys::prelude::*;

use crate::llvm::edit::{self, Builder};
use crate::llvm::ir::Block;
use crate::llvm::typed::TypedBuilder;
use crate::runtime::Runtime;

use super::line_runs::{self, RunSite};
use super::slice::{block_reduce, BlockReduction, LoopSlice};
use super::state::{const_int, typed, CachedLine, State};

impl<'m> LoopSlice<'_, 'm> {
    /// Adds a copy of slice 2 for threads that cache every structure of the
    /// loop, in which the cached flags are constants: the per-access branch on
    /// the flag disappears (a loop unswitch that LLVM does not do on GPUs,
    /// where the flag may differ between threads). When a launch may pick its
    /// line size, both that copy and slice 2 come once per size, with the
    /// size a constant. The decision then sends each thread to the all-cached
    /// copy of its size, to the plain loop (`plain`, nothing cached) or to
    /// slice 2 of its size, with its per-access flags (some cached).
    pub(super) fn dispatch_versions(
        &self,
        rt: &mut Runtime<'_, '_>,
        decide: Block<'m>,
        (slice2, latch): (&[Block<'m>], Block<'m>),
        (loop_states, cached_lines): (&[State<'m>], &[CachedLine<'m>]),
        plain: Block<'m>,
        run_sites: Option<&[RunSite<'m>]>,
    ) -> Vec<u32> {
        let decide_block = decide;
        let decide = decide.as_raw_block();
        let slice2: Vec<LLVMBasicBlockRef> = slice2.iter().map(|b| b.as_raw_block()).collect();
        let slice2 = slice2.as_slice();
        let (latch, plain) = (latch.as_raw_block(), plain.as_raw_block());
        let header = self.header().as_raw_block();
        let function = self.k.function.as_raw();
        // Structures whose next line the runs stage (the same for every size).
        let mut staged = Vec::new();
        let flags: Vec<LLVMValueRef> = loop_states.iter().map(|s| s.cached.as_raw()).collect();
        let sizes: Vec<u32> = self.plan.lines.all();
        let suffix = |what: &str, size: u32| {
            if sizes.len() > 1 {
                format!(".sl1.{what}{size}")
            } else {
                format!(".sl1.{what}")
            }
        };
        // Clones first, while slice 2 still reads the slots.
        let mut fast = Vec::new();
        let at = TypedBuilder::before(decide_block.terminator().expect("a new block ends"));
        for &size in &sizes {
            let copy = edit::clone_blocks(slice2, decide, &suffix("cached", size));
            let lines: Vec<(LLVMValueRef, LLVMValueRef)> = cached_lines
                .iter()
                .map(|c| {
                    (
                        c.slot.as_raw(),
                        c.at_size(&at, self.slots.buffer, size, self.plan.pad)
                            .as_raw(),
                    )
                })
                .collect();
            self.fold_slots(copy.values.values().copied(), (&flags, &lines), size);
            if let Some(sites) = run_sites {
                let i64t = build::i64_type(build::context_of(function));
                let run = edit::entry_alloca(function, i64t, "sl1.run");
                let exit = self.exit.as_ref().ok();
                let blocks = (slice2, header, latch);
                let extras = line_runs::RunExtras {
                    stage: self.options().line_staging,
                    full: self.options().full_runs,
                };
                let kernel = &self.k.name;
                staged = line_runs::add(rt, kernel, &copy, blocks, sites, exit, size, run, extras);
            }
            fast.push(copy.blocks[&header]);
        }
        let mut some_cached = vec![header];
        for &size in sizes.iter().skip(1) {
            let copy = edit::clone_blocks(slice2, decide, &suffix("some", size));
            self.fold_slots(copy.values.values().copied(), (&[], &[]), size);
            some_cached.push(copy.blocks[&header]);
        }
        if sizes.len() > 1 {
            let originals: Vec<LLVMValueRef> =
                slice2.iter().flat_map(|&b| edit::instructions(b)).collect();
            self.fold_slots(originals.into_iter(), (&[], &[]), sizes[0]);
        }
        let fast_entry = self.pick_line_size(&sizes, &fast);
        let some_entry = self.pick_line_size(&sizes, &some_cached);
        let ctx = build::context_of(function);
        let i1t = build::i1_type(ctx);
        let old = edit::terminator(decide);
        let b = Builder::before(old);
        let mut all = build::const_int(i1t, 1, false);
        let mut any = build::const_int(i1t, 0, false);
        for slot in &flags {
            let flag = b.load(i1t, *slot);
            all = b.and(all, flag, c"sl1.all.cached");
            any = b.or(any, flag, c"sl1.any.cached");
        }
        let mut none = b.not(any, c"sl1.none.cached");
        // A static decision is the same for the whole block already.
        if self.uniform() && self.static_rates().is_none() {
            let typed_b = TypedBuilder::before(typed(old));
            let reduce = |v| block_reduce(&typed_b, self.k.function, BlockReduction::And, typed(v));
            all = reduce(all).as_raw();
            none = reduce(none).as_raw();
        }
        let some = edit::new_block_before(header, header, "sl1.some.cached");
        b.cond_br(all, fast_entry, some);
        edit::erase(old);
        let old = edit::terminator(some);
        Builder::before(old).cond_br(none, plain, some_entry);
        edit::erase(old);
        staged
    }

    /// Replaces, among `instructions`, the loads of the cached `flags` by
    /// true, the loads of the line slots of `lines` (slot, line) by their
    /// lines and the loads of the line size slot by `size`.
    fn fold_slots(
        &self,
        instructions: impl Iterator<Item = LLVMValueRef>,
        (flags, lines): (&[LLVMValueRef], &[(LLVMValueRef, LLVMValueRef)]),
        size: u32,
    ) {
        let ctx = build::context_of(self.k.function.as_raw());
        let known = |slot: LLVMValueRef| {
            if flags.contains(&slot) {
                Some(build::const_int(build::i1_type(ctx), 1, false))
            } else if let Some(&(_, line)) = lines.iter().find(|(s, _)| *s == slot) {
                Some(line)
            } else if self.slots.line_bytes.map(|b| b.as_raw()) == Some(slot) {
                Some(const_int(build::i64_type(ctx), i64::from(size)))
            } else {
                None
            }
        };
        let loads: Vec<(LLVMValueRef, LLVMValueRef)> = instructions
            .filter(|&i| build::opcode(i) == inkwell::llvm_sys::LLVMOpcode::LLVMLoad)
            .filter_map(|i| known(build::operand(i, 0)).map(|v| (i, v)))
            .collect();
        for &(load, value) in &loads {
            edit::replace_uses(load, value);
        }
        for (load, _) in loads {
            edit::erase(load);
        }
    }

    /// A chain of blocks that enters `headers[i]` when the decision picked
    /// line size `sizes[i]` (the last when nothing else matches); its entry.
    fn pick_line_size(&self, sizes: &[u32], headers: &[LLVMBasicBlockRef]) -> LLVMBasicBlockRef {
        let loop_header = self.header().as_raw_block();
        let mut entry = *headers.last().expect("one size at least");
        let Some(slot) = self.slots.line_bytes else {
            return entry;
        };
        let i64t = build::i64_type(build::context_of(slot.as_raw()));
        for (&size, &header) in sizes.iter().zip(headers).rev().skip(1) {
            let pick = edit::new_block_before(loop_header, loop_header, "sl1.pick.line");
            let old = edit::terminator(pick);
            let b = Builder::before(old);
            let bytes = b.load(i64t, slot.as_raw());
            let is = b.icmp(
                inkwell::llvm_sys::LLVMIntPredicate::LLVMIntEQ,
                bytes,
                const_int(i64t, i64::from(size)),
                c"",
            );
            b.cond_br(is, header, entry);
            edit::erase(old);
            entry = pick;
        }
        entry
    }
}

//! The versions of a sliced loop the decision sends each thread to: the
//! copy for threads that cache every structure (with its line runs), slice 2
//! for threads that cache some, the plain loop for those that cache none;
//! one copy per line size where a launch may pick it.

use crate::llvm::cfg::{clone_blocks, new_block_before};
use crate::llvm::ir::{Block, IntPredicate, Opcode, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::Runtime;

use super::line_runs::{self, RunSite};
use super::slice::{block_reduce, BlockReduction, LoopSlice};
use super::state::{CachedLine, State};

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
        let header = self.header();
        let function = self.k.function;
        // Structures whose next line the runs stage (the same for every size).
        let mut staged = Vec::new();
        let flags: Vec<Value<'m>> = loop_states.iter().map(|s| s.cached).collect();
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
        let at = TypedBuilder::before(decide.terminator().expect("a new block ends"));
        for &size in &sizes {
            let copy = clone_blocks(slice2, decide, &suffix("cached", size));
            let lines: Vec<(Value<'m>, Value<'m>)> = cached_lines
                .iter()
                .map(|c| {
                    let line = c.at_size(&at, self.slots.buffer, size, self.plan.pad);
                    (c.slot, line)
                })
                .collect();
            self.fold_slots(copy.values.values().copied(), (&flags, &lines), size);
            if let Some(sites) = run_sites {
                let run = function.entry_alloca(function.int_type(64), "sl1.run");
                let exit = self.exit.as_ref().ok();
                let blocks = (slice2, header, latch);
                let extras = line_runs::RunExtras {
                    stage: self.options().line_staging,
                    full: self.options().full_runs,
                };
                let kernel = (function, self.k.name.as_str());
                staged = line_runs::add(rt, kernel, &copy, blocks, sites, exit, size, run, extras);
            }
            fast.push(copy.blocks[&header]);
        }
        let mut some_cached = vec![header];
        for &size in sizes.iter().skip(1) {
            let copy = clone_blocks(slice2, decide, &suffix("some", size));
            self.fold_slots(copy.values.values().copied(), (&[], &[]), size);
            some_cached.push(copy.blocks[&header]);
        }
        if sizes.len() > 1 {
            let originals: Vec<Value<'m>> = slice2.iter().flat_map(|b| b.instructions()).collect();
            self.fold_slots(originals.into_iter(), (&[], &[]), sizes[0]);
        }
        let fast_entry = self.pick_line_size(&sizes, &fast);
        let some_entry = self.pick_line_size(&sizes, &some_cached);
        let i1t = function.int_type(1);
        let old = decide.terminator().expect("a new block ends");
        let b = TypedBuilder::before(old);
        let mut all = i1t.constant(1);
        let mut any = i1t.constant(0);
        for &slot in &flags {
            let flag = b.load(i1t, slot);
            all = b.and(all, flag, c"sl1.all.cached");
            any = b.or(any, flag, c"sl1.any.cached");
        }
        let mut none = b.not(any, c"sl1.none.cached");
        // A static decision is the same for the whole block already.
        if self.uniform() && self.static_rates().is_none() {
            all = block_reduce(&b, function, BlockReduction::And, all);
            none = block_reduce(&b, function, BlockReduction::And, none);
        }
        let some = new_block_before(header, header, "sl1.some.cached");
        b.cond_br(all, fast_entry, some);
        old.erase();
        let old = some.terminator().expect("a new block ends");
        TypedBuilder::before(old).cond_br(none, plain, some_entry);
        old.erase();
        staged
    }

    /// Replaces, among `instructions`, the loads of the cached `flags` by
    /// true, the loads of the line slots of `lines` (slot, line) by their
    /// lines and the loads of the line size slot by `size`.
    fn fold_slots(
        &self,
        instructions: impl Iterator<Item = Value<'m>>,
        (flags, lines): (&[Value<'m>], &[(Value<'m>, Value<'m>)]),
        size: u32,
    ) {
        let function = self.k.function;
        let known = |slot: Value<'m>| {
            if flags.contains(&slot) {
                Some(function.int_type(1).constant(1))
            } else if let Some(&(_, line)) = lines.iter().find(|(s, _)| *s == slot) {
                Some(line)
            } else if self.slots.line_bytes == Some(slot) {
                Some(function.int_type(64).signed(i64::from(size)))
            } else {
                None
            }
        };
        let loads: Vec<(Value<'m>, Value<'m>)> = instructions
            .filter(|i| i.opcode() == Some(Opcode::LLVMLoad))
            .filter_map(|i| known(i.operand(0)?).map(|v| (i, v)))
            .collect();
        for &(load, value) in &loads {
            load.replace_all_uses_with(value);
        }
        for (load, _) in loads {
            load.erase();
        }
    }

    /// A chain of blocks that enters `headers[i]` when the decision picked
    /// line size `sizes[i]` (the last when nothing else matches); its entry.
    fn pick_line_size(&self, sizes: &[u32], headers: &[Block<'m>]) -> Block<'m> {
        let loop_header = self.header();
        let mut entry = *headers.last().expect("one size at least");
        let Some(slot) = self.slots.line_bytes else {
            return entry;
        };
        let i64t = self.k.function.int_type(64);
        for (&size, &header) in sizes.iter().zip(headers).rev().skip(1) {
            let pick = new_block_before(loop_header, loop_header, "sl1.pick.line");
            let old = pick.terminator().expect("a new block ends");
            let b = TypedBuilder::before(old);
            let bytes = b.load(i64t, slot);
            let is = b.icmp(
                IntPredicate::LLVMIntEQ,
                bytes,
                i64t.signed(i64::from(size)),
                c"",
            );
            b.cond_br(is, header, entry);
            old.erase();
            entry = pick;
        }
        entry
    }
}

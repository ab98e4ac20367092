//! Slicing one main loop: normal form, the monitoring clone, the cached loop,
//! coherence around it and the all-cached version.

use crate::llvm::build;
use std::collections::{BTreeMap, BTreeSet, HashMap};

use inkwell::llvm_sys::prelude::*;

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::affine::{AffineAddress, CountedExit};
use crate::analysis::{KernelAnalysis, Mode};
use crate::llvm::edit::{self, Builder};
use crate::options::Options;
use crate::runtime::{
    AccessOperands, GroupMember, LineOperands, Runtime, SiteKind, ADDRSPACE_SHARED,
};

use super::line_runs::{self, RunSite};
use super::plan::{ChosenLoop, KernelPlan};
use super::reports::{DirectAccess, DirectReason, LineRunsReport};
use super::sites::access_type;
use super::sites::{pointer_operand, uncacheable_reason};
use super::slots::KernelSlots;
use super::state::{const_int, i32_type, store_before_entry_end, CachedLine, State, StaticRate};

/// Stack slots of the header's demoted phis, by phi, with their types.
type PhiSlots = HashMap<usize, (LLVMValueRef, LLVMTypeRef)>;

/// A loop's accesses, sorted before the loop changes (`sort_accesses`).
pub(super) struct SortedAccesses<'m> {
    /// Accesses through the cache, with their structure's state and mode.
    pub(super) cached: Vec<(Access<'m>, State, Mode)>,
    /// States of the structures cached in the loop, by id.
    pub(super) loop_states: Vec<State>,
    /// The cached structures without restrict, looked up together.
    pub(super) group: Vec<State>,
    pub(super) direct: Vec<DirectAccess>,
    /// Instructions before which these structures are written back.
    pub(super) flush_before: Vec<(LLVMValueRef, Vec<State>)>,
    /// Atomics and plain direct accesses before which the line holding
    /// their address is evicted (written back and invalidated).
    pub(super) evict_before: Vec<(LLVMValueRef, LLVMValueRef, State)>,
}

/// Whether direct access `a` is a plain load or store whose bytes lie in
/// one line of any size from `line` up: a power of two no wider than the
/// line, aligned to its size. The line holding its address then holds all
/// of it, and evicting that line alone keeps it coherent.
fn in_one_line(a: &Access<'_>, line: u32) -> bool {
    matches!(a.kind, AccessKind::Load | AccessKind::Store)
        && !a.volatile
        && a.size.is_power_of_two()
        && a.size <= u64::from(line)
        && u64::from(build::alignment(a.inst.as_raw())) >= a.size
}

/// One main loop being sliced: the kernel's plan and the loop's part of
/// it, the slots every loop shares, and what the loop's own analysis adds.
pub(super) struct LoopSlice<'a, 'm> {
    pub(super) k: &'a KernelAnalysis<'m>,
    /// The kernel's plan: its options, line sizes, padding and buffer.
    pub(super) plan: &'a KernelPlan<'a>,
    /// The loop's part of the plan: its header, its structures and how
    /// each is decided.
    pub(super) chosen: &'a ChosenLoop,
    /// The line buffer, the state slots, the count, the line size slot and
    /// the statistics counters.
    pub(super) slots: &'a KernelSlots,
    /// The loop's blocks (with its latch once it has one).
    pub(super) blocks: BTreeSet<LLVMBasicBlockRef>,
    /// Each structure's state where this loop caches it.
    pub(super) states: Vec<Option<State>>,
    /// The loop's exit test as a count, or why it is not one (line runs).
    pub(super) exit: Result<CountedExit, &'static str>,
    /// Structures under the lane test (`lanes`), with the affine address
    /// of their first access.
    pub(super) lane_forms: BTreeMap<u32, AffineAddress>,
}

impl LoopSlice<'_, '_> {
    pub(super) fn header(&self) -> LLVMBasicBlockRef {
        self.chosen.header
    }

    /// The loop has a block barrier: leave monitoring, and pick the version
    /// of slice 2, for the whole block at once.
    pub(super) fn uniform(&self) -> bool {
        self.chosen.uniform
    }

    /// Predicted rates of every cached structure: no monitoring slice, the
    /// decision uses these.
    pub(super) fn static_rates(&self) -> Option<&BTreeMap<u32, StaticRate>> {
        self.chosen.static_rates.as_ref()
    }

    pub(super) fn options(&self) -> &Options {
        self.plan.options
    }

    /// Read-only structures are cached on their own merit: where asked, or
    /// in a loop that only reads, in counted line runs.
    pub(super) fn cache_read_only(&self) -> bool {
        self.plan.options.cache_read_only || self.chosen.read_only_in_runs
    }

    /// When the kernel slices several loops: the structures the line size
    /// must fit for every thread, the same in every loop. Threads of one
    /// block run different loops at once, and lines of two sizes would lie
    /// at different pitches and overlap.
    pub(super) fn kernel_structures(&self) -> Option<usize> {
        (self.plan.loops.len() > 1).then_some(self.plan.structures.len())
    }
}

impl<'m> LoopSlice<'_, 'm> {
    /// The line size in bytes, as an i64 value before `before`.
    pub(super) fn bytes_at(&self, before: LLVMValueRef) -> LLVMValueRef {
        let i64t = build::i64_type(build::context_of(self.k.function.as_raw()));
        match self.slots.line_bytes {
            Some(slot) => Builder::before(before).load(i64t, slot),
            None => const_int(i64t, i64::from(self.plan.lines.smallest)),
        }
    }

    fn state_of(&self, a: &Access<'_>) -> Option<(usize, State)> {
        let ds = self.k.data_structure_of(a)?;
        self.states[ds.id as usize].map(|s| (ds.id as usize, s))
    }

    /// Slices the loop; returns the number of cached accesses, the direct
    /// ones, and whether the loop got line runs (predicted loops only).
    pub(super) fn apply(
        mut self,
        rt: &mut Runtime<'_, '_>,
        label: &str,
    ) -> (usize, Vec<DirectAccess>, Option<LineRunsReport>) {
        // Sort the loop's accesses and coherence points before changing anything.
        let sorted = self.sort_accesses();
        let (slots, preheader, latch) = self.normal_form();
        // The lane test, once per entry to the loop: the preheader dominates
        // both the monitoring slice and the decision.
        let lanes = self.emit_lane_tests(preheader, &sorted.loop_states, &slots);
        self.blocks.insert(latch);
        let exits = self.split_exits();
        let function = self.k.function.as_raw();
        let order: Vec<LLVMBasicBlockRef> = edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .collect();
        let decide = edit::new_block_before(self.header(), self.header(), "sl1.decide");
        if self.static_rates().is_some() {
            // Every structure's hit rate is predicted: straight to the decision.
            edit::retarget_edges(preheader, self.header(), decide);
        } else {
            self.emit_monitoring(
                rt,
                &order,
                (preheader, latch, decide),
                &sorted.cached,
                &sorted.loop_states,
                &lanes,
            );
        }
        let cached_lines = self.emit_decide(decide, &sorted.cached, &lanes);
        // The loop as it was, for threads that cache nothing: they pay for
        // the monitoring and the decision only.
        let plain = edit::clone_blocks(&order, self.header(), ".sl1.plain");
        let runs = self.emit_slice_two(rt, &sorted, &exits);
        let run_sites = runs.as_ref().and_then(|r| r.as_ref().ok());
        let staged = self.dispatch_versions(
            rt,
            decide,
            (&order, latch),
            (&sorted.loop_states, &cached_lines),
            plain.blocks[&self.header()],
            run_sites.map(Vec::as_slice),
        );
        let report = runs.map(|r| self.runs_report(label, r, &staged));
        (sorted.cached.len(), sorted.direct, report)
    }

    /// The loop's accesses sorted before anything changes: those that go
    /// through the cache, those left direct (with the reason), and what must
    /// be written back or evicted before which instruction.
    fn sort_accesses(&self) -> SortedAccesses<'m> {
        let line = self.plan.lines.smallest;
        let in_loop: Vec<(&Access<'m>, &crate::analysis::DataStructure)> = self
            .k
            .accesses
            .iter()
            .filter(|a| self.blocks.contains(&block_of(a.inst.as_raw())))
            .filter_map(|a| self.k.data_structure_of(a).map(|ds| (a, ds)))
            .collect();
        let cached: Vec<(Access<'m>, State, Mode)> = in_loop
            .iter()
            .filter(|(a, _)| uncacheable_reason(self.k, a, line).is_none())
            .filter_map(|(a, ds)| self.state_of(a).map(|(_, s)| ((*a).clone(), s, ds.mode)))
            .collect();
        let loop_states: Vec<State> = {
            let mut ids: Vec<usize> = cached
                .iter()
                .filter_map(|(a, _, _)| self.state_of(a).map(|(id, _)| id))
                .collect();
            ids.sort_unstable();
            ids.dedup();
            ids.into_iter().filter_map(|i| self.states[i]).collect()
        };
        // Arguments without restrict may alias one another: their lines form
        // one group, looked up together (the paper's aliased mode).
        let group: Vec<State> = loop_states
            .iter()
            .filter(|s| !s.restrict)
            .copied()
            .collect();
        let mut direct = Vec::new();
        let mut flush_before = Vec::new();
        let mut evict_before = Vec::new();
        for (a, ds) in &in_loop {
            let reason = match (uncacheable_reason(self.k, a, line), self.state_of(a)) {
                (None, Some(_)) => continue,
                (Some(reason), _) => reason,
                (None, None) if self.chosen.direct.contains_key(&ds.id) => {
                    self.chosen.direct[&ds.id].clone()
                }
                (None, None) if ds.restrict && ds.mode == Mode::ReadOnly => DirectReason::ReadOnly,
                (None, None) => DirectReason::NotCached,
            };
            direct.push(DirectAccess {
                argument: ds.name.clone(),
                kind: a.kind,
                reason,
                location: a.inst.debug_location(),
            });
            // What the direct access may see or overwrite must be in memory.
            let holders: Vec<State> = if ds.restrict {
                self.state_of(a).map(|(_, s)| s).into_iter().collect()
            } else {
                group.clone()
            };
            let inst = a.inst.as_raw();
            if a.kind.is_atomic() || in_one_line(a, line) {
                // Only a line holding the access's bytes matters to it: an
                // address check, not a write-back of every line per access
                // (a broadcast vector read direct beside a group's rows).
                let addr = pointer_operand(inst, a.kind);
                evict_before.extend(holders.into_iter().map(|s| (inst, addr, s)));
            } else if !holders.is_empty() {
                flush_before.push((inst, holders));
            }
        }
        // Fences, barriers and calls alike: everything cached goes back first.
        for s in self
            .k
            .sync_points
            .iter()
            .filter(|s| self.blocks.contains(&block_of(s.inst.as_raw())))
        {
            flush_before.push((s.inst.as_raw(), loop_states.clone()));
        }
        SortedAccesses {
            cached,
            loop_states,
            group,
            direct,
            flush_before,
            evict_before,
        }
    }

    /// Normal form: no header phis (each demoted to a stack slot, kept by
    /// phi for the decision's lane test), a preheader, one latch.
    fn normal_form(&self) -> (PhiSlots, LLVMBasicBlockRef, LLVMBasicBlockRef) {
        let function = self.k.function.as_raw();
        let mut slots = HashMap::new();
        for phi in edit::instructions(self.header())
            .into_iter()
            .filter(|i| edit::is_phi(*i))
        {
            let ty = build::type_of(phi);
            slots.insert(phi as usize, (edit::demote_phi(function, phi), ty));
        }
        let header = self.header();
        let preds = edit::predecessors(function, header);
        let preheader = edit::new_block_before(header, header, "sl1.preheader");
        let latch = edit::new_block_before(header, header, "sl1.latch");
        for p in preds {
            let target = if self.blocks.contains(&p) {
                latch
            } else {
                preheader
            };
            edit::retarget_edges(p, header, target);
        }
        (slots, preheader, latch)
    }

    /// Every exit edge gets a block of its own for the flush: an exit block
    /// may be entered from elsewhere too, or be the next loop's header.
    /// Splitting comes before demotion so that values leaving the loop are
    /// reloaded in these blocks, which the clones' exits share; then no value
    /// is used outside the loop except through a stack slot.
    fn split_exits(&self) -> Vec<LLVMBasicBlockRef> {
        let function = self.k.function.as_raw();
        let mut exit_edges: Vec<(LLVMBasicBlockRef, LLVMBasicBlockRef)> = Vec::new();
        for b in edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
        {
            for s in edit::successors(b) {
                if !self.blocks.contains(&s) && !exit_edges.contains(&(b, s)) {
                    exit_edges.push((b, s));
                }
            }
        }
        let exits: Vec<LLVMBasicBlockRef> = exit_edges
            .into_iter()
            .map(|(from, to)| edit::split_edge(from, to, "sl1.exit"))
            .collect();
        // Layout order, not the set's (pointer) order: the output must not
        // depend on addresses.
        let all: Vec<LLVMValueRef> = edit::blocks(function)
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .flat_map(edit::instructions)
            .collect();
        for inst in all {
            edit::demote_uses_outside(function, inst, &self.blocks);
        }
        exits
    }

    /// Slice 2: accesses through the cache, coherence, flush on exit; the
    /// loop's line runs, or why it gets none (`line_runs_plan`).
    fn emit_slice_two(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'_>,
        exits: &[LLVMBasicBlockRef],
    ) -> Option<Result<Vec<RunSite>, String>> {
        self.emit_coherence_points(rt, sorted);
        let mut run_sites = Vec::new();
        // The aliased group's last used member (its fills' victim choice).
        let function = self.k.function.as_raw();
        let mru = (sorted.group.len() > 1).then(|| {
            let i32t = i32_type(function);
            let slot = edit::entry_alloca(function, i32t, "sl1.group.mru");
            store_before_entry_end(function, slot, const_int(i32t, -1));
            slot
        });
        for (a, state, _) in &sorted.cached {
            run_sites.extend(self.route_through_cache(
                rt,
                a,
                *state,
                &sorted.cached,
                (&sorted.group, mru),
            ));
        }
        let runs = self.line_runs_plan(
            rt,
            &sorted.cached,
            run_sites,
            !sorted.flush_before.is_empty() || !sorted.evict_before.is_empty(),
        );
        self.emit_exit_flushes(rt, sorted, exits);
        runs
    }

    /// What the report says of the loop's line runs.
    fn runs_report(
        &self,
        label: &str,
        runs: Result<Vec<RunSite>, String>,
        staged: &[u32],
    ) -> LineRunsReport {
        let staged_names: Vec<String> = staged
            .iter()
            .map(|&id| format!("`{}`", self.k.data_structures[id as usize].name))
            .collect();
        LineRunsReport {
            loop_header: label.to_string(),
            applied: runs.is_ok(),
            detail: match (runs, self.exit) {
                (Ok(_), Ok(_)) if !staged_names.is_empty() => format!(
                    "iterations that stay in the resident lines and in the loop's count run \
                     without tag checks or exit test; the next line of {} is loaded a run ahead",
                    staged_names.join(", ")
                ),
                (Ok(_), Ok(_)) => "iterations that stay in the resident lines and in the loop's \
                                   count run without tag checks or exit test"
                    .to_string(),
                (Ok(_), Err(why)) => format!(
                    "iterations that stay in the resident lines run without tag checks; they \
                     keep the exit test ({why})"
                ),
                (Err(why), _) => why,
            },
        }
    }

    /// The sites of the loop's line runs, or why it gets none; `None` where
    /// they do not apply (monitored loops, or `--no-line-runs`).
    fn line_runs_plan(
        &self,
        rt: &Runtime<'_, '_>,
        cached: &[(Access<'_>, State, Mode)],
        mut sites: Vec<RunSite>,
        flushes: bool,
    ) -> Option<Result<Vec<RunSite>, String>> {
        let rates = self.static_rates().filter(|_| self.options().line_runs)?;
        let name = |a: &Access<'_>| {
            self.k
                .data_structure_of(a)
                .map_or_else(String::new, |d| d.name.clone())
        };
        let mut check = || {
            if self.slots.stats.is_some() {
                return Err("the statistics build counts every access".to_string());
            }
            if sites.len() != cached.len() {
                return Err("arguments without restrict share their lines".to_string());
            }
            if flushes {
                return Err(
                    "a fence, barrier, call, atomic or direct access in the loop writes lines \
                     back"
                        .to_string(),
                );
            }
            for ((a, state, _), site) in cached.iter().zip(sites.iter_mut()) {
                let rate = rates[&state.id];
                if !rate.in_main_loop {
                    return Err(format!("`{}` is accessed in an inner loop", name(a)));
                }
                if rate.stride <= 0 {
                    return Err(format!(
                        "`{}` moves by {} B per iteration, not forward",
                        name(a),
                        rate.stride
                    ));
                }
                if rt.may_straddle(site.kind) {
                    return Err(format!("an access of `{}` may straddle two lines", name(a)));
                }
                site.stride = rate.stride;
            }
            Ok(())
        };
        Some(check().map(|()| sites))
    }

    /// Adds a copy of slice 2 for threads that cache every structure of the
    /// loop, in which the cached flags are constants: the per-access branch on
    /// the flag disappears (a loop unswitch that LLVM does not do on GPUs,
    /// where the flag may differ between threads). When a launch may pick its
    /// line size, both that copy and slice 2 come once per size, with the
    /// size a constant. The decision then sends each thread to the all-cached
    /// copy of its size, to the plain loop (`plain`, nothing cached) or to
    /// slice 2 of its size, with its per-access flags (some cached).
    fn dispatch_versions(
        &self,
        rt: &mut Runtime<'_, '_>,
        decide: LLVMBasicBlockRef,
        (slice2, latch): (&[LLVMBasicBlockRef], LLVMBasicBlockRef),
        (loop_states, cached_lines): (&[State], &[CachedLine]),
        plain: LLVMBasicBlockRef,
        run_sites: Option<&[RunSite]>,
    ) -> Vec<u32> {
        let function = self.k.function.as_raw();
        // Structures whose next line the runs stage (the same for every size).
        let mut staged = Vec::new();
        let flags: Vec<LLVMValueRef> = loop_states.iter().map(|s| s.cached).collect();
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
        let at = Builder::before(edit::terminator(decide));
        for &size in &sizes {
            let copy = edit::clone_blocks(slice2, decide, &suffix("cached", size));
            let lines: Vec<(LLVMValueRef, LLVMValueRef)> = cached_lines
                .iter()
                .map(|c| {
                    (
                        c.slot,
                        c.at_size(&at, self.slots.buffer, size, self.plan.pad),
                    )
                })
                .collect();
            self.fold_slots(copy.values.values().copied(), (&flags, &lines), size);
            if let Some(sites) = run_sites {
                let i64t = build::i64_type(build::context_of(function));
                let run = edit::entry_alloca(function, i64t, "sl1.run");
                let exit = self.exit.as_ref().ok();
                let blocks = (slice2, self.header(), latch);
                let extras = line_runs::RunExtras {
                    stage: self.options().line_staging,
                    full: self.options().full_runs,
                };
                let kernel = &self.k.name;
                staged = line_runs::add(rt, kernel, &copy, blocks, sites, exit, size, run, extras);
            }
            fast.push(copy.blocks[&self.header()]);
        }
        let mut some_cached = vec![self.header()];
        for &size in sizes.iter().skip(1) {
            let copy = edit::clone_blocks(slice2, decide, &suffix("some", size));
            self.fold_slots(copy.values.values().copied(), (&[], &[]), size);
            some_cached.push(copy.blocks[&self.header()]);
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
            all = block_reduce(&b, function, BlockReduction::And, all);
            none = block_reduce(&b, function, BlockReduction::And, none);
        }
        let some = edit::new_block_before(self.header(), self.header(), "sl1.some.cached");
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
            } else if self.slots.line_bytes == Some(slot) {
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
        let mut entry = *headers.last().expect("one size at least");
        let Some(slot) = self.slots.line_bytes else {
            return entry;
        };
        let i64t = build::i64_type(build::context_of(slot));
        for (&size, &header) in sizes.iter().zip(headers).rev().skip(1) {
            let pick = edit::new_block_before(self.header(), self.header(), "sl1.pick.line");
            let old = edit::terminator(pick);
            let b = Builder::before(old);
            let bytes = b.load(i64t, slot);
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

    /// Replaces one access of slice 2 by a call into the runtime.
    fn route_through_cache(
        &self,
        rt: &mut Runtime<'_, '_>,
        a: &Access<'_>,
        state: State,
        all: &[(Access<'_>, State, Mode)],
        (group, mru): (&[State], Option<LLVMValueRef>),
    ) -> Option<RunSite> {
        let inst = a.inst.as_raw();
        let ty_raw = access_type(inst, a.kind);
        let ty = build::basic_type(ty_raw);
        let align = build::alignment(inst).max(1);
        // A structure that the loop also reads must be filled before a write.
        let read_in_loop = all
            .iter()
            .any(|(o, s, _)| s.tag == state.tag && o.kind == AccessKind::Load);
        let site = SiteKind {
            size: a.size as u32,
            align,
            fetch_on_write: read_in_loop,
        };
        let b = Builder::before(inst);
        let i1t = build::i1_type(build::type_context(ty_raw));
        let cached = b.load(i1t, state.cached);
        let line = load_line(inst, &state);
        let addr = pointer_operand(inst, a.kind);
        if let Some(stats) = &self.slots.stats {
            let holders = if !state.restrict && group.len() > 1 {
                group
            } else {
                std::slice::from_ref(&state)
            };
            let bytes = self.bytes_at(inst);
            stats.count_access(&b, &state, holders, addr, cached, bytes);
        }
        if !state.restrict && group.len() > 1 {
            let own = group
                .iter()
                .position(|s| s.tag == state.tag)
                .expect("a member");
            let is_load = a.kind == AccessKind::Load;
            let access = AccessOperands {
                addr,
                value: (!is_load).then(|| build::operand(inst, 0)),
                cached,
            };
            // Every member's line, then whether it is cached: loaded in that
            // order.
            let lines: Vec<LLVMValueRef> = group.iter().map(|s| load_line(inst, s)).collect();
            let members: Vec<GroupMember> = group
                .iter()
                .zip(lines)
                .map(|(s, line)| GroupMember {
                    tag: s.tag,
                    dirty: s.dirty,
                    line,
                    cached: b.load(i1t, s.cached),
                })
                .collect();
            let bytes = self.bytes_at(inst);
            let mru = mru.expect("a group of two or more has its slot");
            let v = rt.emit_aliased(inst, (ty, site), access, (&members, own, mru), bytes);
            if is_load {
                edit::replace_uses(inst, v);
            }
            edit::erase(inst);
            return None;
        }
        let is_load = a.kind == AccessKind::Load;
        let line = LineOperands {
            tag: state.tag,
            dirty: state.dirty,
            line,
            bytes: self.bytes_at(inst),
        };
        let routed = if is_load {
            let access = AccessOperands {
                addr,
                value: None,
                cached,
            };
            let v = rt.emit_load(inst, (ty, site), access, line, None);
            edit::replace_uses(inst, v);
            v
        } else {
            let access = AccessOperands {
                addr,
                value: Some(build::operand(inst, 0)),
                cached,
            };
            rt.emit_store(inst, (ty, site), access, line)
        };
        edit::erase(inst);
        Some(RunSite {
            call: routed,
            state,
            stride: 0,
            kind: site,
            ty: ty_raw,
            is_load,
        })
    }
}

/// `intrinsic(0, value)`: a block-wide barrier that reduces an i1 (the
/// `__syncthreads_or` / `__syncthreads_and` of CUDA).
pub(super) fn block_reduce(
    builder: &Builder,
    function: LLVMValueRef,
    reduction: BlockReduction,
    value: LLVMValueRef,
) -> LLVMValueRef {
    let ctx = build::context_of(value);
    let i32t = build::i32_type(ctx);
    if cfg!(feature = "llvm19") {
        let name = match reduction {
            BlockReduction::Or => "llvm.nvvm.barrier0.or",
            BlockReduction::And => "llvm.nvvm.barrier0.and",
        };
        let mut args = [builder.zext(value, i32t, c"")];
        let all = crate::llvm::intrinsics::call_intrinsic(
            builder,
            function,
            name,
            &mut args,
            c"sl1.block",
        );
        let zero = build::const_int(i32t, 0, false);
        return builder.icmp(
            inkwell::llvm_sys::LLVMIntPredicate::LLVMIntNE,
            all,
            zero,
            c"",
        );
    }
    let name = match reduction {
        BlockReduction::Or => "llvm.nvvm.barrier.cta.red.or.aligned.all",
        BlockReduction::And => "llvm.nvvm.barrier.cta.red.and.aligned.all",
    };
    let mut args = [build::const_int(i32t, 0, false), value];
    crate::llvm::intrinsics::call_intrinsic(builder, function, name, &mut args, c"sl1.block")
}

/// A block-wide reduction of an i1 (`__syncthreads_or`, `__syncthreads_and`).
#[derive(Clone, Copy)]
pub(super) enum BlockReduction {
    Or,
    And,
}

fn block_of(inst: LLVMValueRef) -> LLVMBasicBlockRef {
    edit::parent_block(inst)
}

pub(super) fn load_line(before: LLVMValueRef, state: &State) -> LLVMValueRef {
    let sp = build::pointer_type(build::context_of(state.line), u32::from(ADDRSPACE_SHARED));
    Builder::before(before).load(sp, state.line)
}

//! Slicing one main loop: what it reads of the plan, and its stages in
//! order (`LoopSlice::apply`): the sorted accesses (`sorted`), normal form
//! (`normal_form`), the lane test (`lane_tests`), the monitoring clone
//! (`monitor`), the decision (`decide`), slice 2 with coherence around it
//! (`slice_two`, `coherence`) and the versions each thread is sent to
//! (`versions`).

use std::collections::{BTreeMap, BTreeSet};

use crate::analysis::accesses::Access;
use crate::analysis::affine::{AffineAddress, CountedExit};
use crate::analysis::KernelAnalysis;
use crate::llvm::cfg::{clone_blocks, new_block_before, retarget_edges};
use crate::llvm::ir::{Block, Function, IntPredicate, Value};
use crate::llvm::typed::TypedBuilder;
use crate::options::Options;
use crate::runtime::{Runtime, ADDRSPACE_SHARED};

use super::plan::{ChosenLoop, KernelPlan};
use super::reports::{DirectAccess, LineRunsReport};
use super::slots::KernelSlots;
use super::state::{State, StaticRate};

/// One main loop being sliced: the kernel's plan and the loop's part of
/// it, the slots every loop shares, and what the loop's own analysis adds.
pub(super) struct LoopSlice<'a, 'm> {
    pub(super) k: &'a KernelAnalysis<'m>,
    /// The kernel's plan: its options, line sizes, padding and buffer.
    pub(super) plan: &'a KernelPlan<'a, 'm>,
    /// The loop's part of the plan: its header, its structures and how
    /// each is decided.
    pub(super) chosen: &'a ChosenLoop<'m>,
    /// The line buffer, the state slots, the count, the line size slot and
    /// the statistics counters.
    pub(super) slots: &'a KernelSlots<'m>,
    /// The loop's blocks (with its latch once it has one).
    pub(super) blocks: BTreeSet<Block<'m>>,
    /// Each structure's state where this loop caches it.
    pub(super) states: Vec<Option<State<'m>>>,
    /// The loop's exit test as a count, or why it is not one (line runs).
    pub(super) exit: Result<CountedExit<'m>, &'static str>,
    /// Structures under the lane test (`lanes`), with the affine address
    /// of their first access.
    pub(super) lane_forms: BTreeMap<u32, AffineAddress>,
}

impl<'m> LoopSlice<'_, 'm> {
    pub(super) fn header(&self) -> Block<'m> {
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

    /// Whether `states` hold an aliased group (two or more structures
    /// without restrict, whose lines are looked up together) of streams
    /// alone: every member predicted to move in the loop itself. Such a
    /// group is cached only where more threads share an SM than the
    /// hardware L1 holds the streams of (`decide`). Lines pay for it in
    /// two ways only: a thrashing L1, or a member whose address stays put
    /// (the line keeps it where the plain loop loads it again after every
    /// store through another member: `mv_rows_overlap` 2.3x, `rank1_overlap`
    /// 3.3x over the plain loop with 256 threads an SM). A group of streams
    /// with few threads an SM has neither, and pays for lookups on every
    /// access (no line runs in a group) and for fills that some lane of
    /// every warp makes at each iteration where lanes cross lines at
    /// different iterations: `tri_forward_overlap` (rows `cols + 1` words
    /// apart) ran 0.72x of the plain loop with 256 threads an SM
    /// (H200, 2026-11-30), `inplace_shift` 4.7x with 2048.
    pub(super) fn streaming_group(&self, states: &[&State<'m>]) -> bool {
        let Some(rates) = self.static_rates() else {
            return false;
        };
        let members: Vec<&&State<'m>> = states.iter().filter(|s| !s.restrict).collect();
        members.len() > 1
            && members.iter().all(|s| {
                rates
                    .get(&s.id)
                    .is_some_and(|r| r.in_main_loop && r.stride != 0)
            })
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
    pub(super) fn bytes_at(&self, before: Value<'m>) -> Value<'m> {
        let i64t = self.k.function.int_type(64);
        match self.slots.line_bytes {
            Some(slot) => TypedBuilder::before(before).load(i64t, slot),
            None => i64t.signed(i64::from(self.plan.lines.smallest)),
        }
    }

    /// Whether instruction `inst` lies in the loop.
    pub(super) fn contains(&self, inst: Value<'m>) -> bool {
        inst.parent_block()
            .is_some_and(|b| self.blocks.contains(&b))
    }

    pub(super) fn state_of(&self, a: &Access<'_>) -> Option<(usize, State<'m>)> {
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
        let order: Vec<Block<'m>> = self
            .k
            .function
            .blocks()
            .into_iter()
            .filter(|b| self.blocks.contains(b))
            .collect();
        let header = self.header();
        let decide = new_block_before(header, header, "sl1.decide");
        if self.static_rates().is_some() {
            // Every structure's hit rate is predicted: straight to the decision.
            retarget_edges(preheader, header, decide);
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
        let plain = clone_blocks(&order, header, ".sl1.plain");
        let runs = self.emit_slice_two(rt, &sorted, &exits);
        let run_sites = runs.as_ref().and_then(|r| r.as_ref().ok());
        let staged = self.dispatch_versions(
            rt,
            decide,
            (&order, latch),
            (&sorted.loop_states, &cached_lines),
            plain.blocks[&header],
            run_sites.map(Vec::as_slice),
        );
        let report = runs.map(|r| self.runs_report(label, r, &staged));
        (sorted.cached.len(), sorted.direct, report)
    }
}

/// `intrinsic(0, value)`: a block-wide barrier that reduces an i1 (the
/// `__syncthreads_or` / `__syncthreads_and` of CUDA).
pub(super) fn block_reduce<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    reduction: BlockReduction,
    value: Value<'m>,
) -> Value<'m> {
    let i32t = function.int_type(32);
    if cfg!(feature = "llvm19") {
        let name = match reduction {
            BlockReduction::Or => "llvm.nvvm.barrier0.or",
            BlockReduction::And => "llvm.nvvm.barrier0.and",
        };
        let wide = b.zext_to(value, i32t, c"");
        let all = b.call_intrinsic(function, name, &[wide], c"sl1.block");
        return b.icmp(IntPredicate::LLVMIntNE, all, i32t.constant(0), c"");
    }
    let name = match reduction {
        BlockReduction::Or => "llvm.nvvm.barrier.cta.red.or.aligned.all",
        BlockReduction::And => "llvm.nvvm.barrier.cta.red.and.aligned.all",
    };
    b.call_intrinsic(function, name, &[i32t.constant(0), value], c"sl1.block")
}

/// A block-wide reduction of an i1 (`__syncthreads_or`, `__syncthreads_and`).
#[derive(Clone, Copy)]
pub(super) enum BlockReduction {
    Or,
    And,
}

/// The line `state`'s slot holds, loaded before `before`.
pub(super) fn load_line<'m>(before: Value<'m>, state: &State<'m>) -> Value<'m> {
    let b = TypedBuilder::before(before);
    b.load(b.pointer_type(u32::from(ADDRSPACE_SHARED)), state.line)
}

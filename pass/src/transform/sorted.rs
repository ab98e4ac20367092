//! A sliced loop's accesses sorted before anything changes: those that go
//! through the cache, those left direct (with the reason), and what must be
//! written back or evicted before which instruction.

use crate::llvm::ir::Value;

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::Mode;

use super::reports::{DirectAccess, DirectReason};
use super::sites::{pointer_operand, uncacheable_reason};
use super::slice::LoopSlice;
use super::state::State;

/// A loop's accesses, sorted before the loop changes (`sort_accesses`).
pub(super) struct SortedAccesses<'m> {
    /// Accesses through the cache, with their structure's state and mode.
    pub(super) cached: Vec<(Access<'m>, State<'m>, Mode)>,
    /// States of the structures cached in the loop, by id.
    pub(super) loop_states: Vec<State<'m>>,
    /// The cached structures without restrict, looked up together.
    pub(super) group: Vec<State<'m>>,
    pub(super) direct: Vec<DirectAccess>,
    /// Instructions before which these structures are written back.
    pub(super) flush_before: Vec<(Value<'m>, Vec<State<'m>>)>,
    /// Atomics and plain direct accesses before which the line holding
    /// their address is evicted (written back and invalidated).
    pub(super) evict_before: Vec<(Value<'m>, Value<'m>, State<'m>)>,
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
        && u64::from(a.inst.alignment()) >= a.size
}

impl<'m> LoopSlice<'_, 'm> {
    /// The loop's accesses sorted before anything changes: those that go
    /// through the cache, those left direct (with the reason), and what must
    /// be written back or evicted before which instruction.
    pub(super) fn sort_accesses(&self) -> SortedAccesses<'m> {
        let line = self.plan.lines.smallest;
        let in_loop: Vec<(&Access<'m>, &crate::analysis::DataStructure)> = self
            .k
            .accesses
            .iter()
            .filter(|a| self.contains(a.inst))
            .filter_map(|a| self.k.data_structure_of(a).map(|ds| (a, ds)))
            .collect();
        let cached: Vec<(Access<'m>, State<'m>, Mode)> = in_loop
            .iter()
            .filter(|(a, _)| uncacheable_reason(self.k, a, line).is_none())
            .filter_map(|(a, ds)| self.state_of(a).map(|(_, s)| ((*a).clone(), s, ds.mode)))
            .collect();
        let loop_states: Vec<State<'m>> = {
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
        let group: Vec<State<'m>> = loop_states
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
            let holders: Vec<State<'m>> = if ds.restrict {
                self.state_of(a).map(|(_, s)| s).into_iter().collect()
            } else {
                group.clone()
            };
            let inst = a.inst;
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
        for s in self.k.sync_points.iter().filter(|s| self.contains(s.inst)) {
            flush_before.push((s.inst, loop_states.clone()));
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
}

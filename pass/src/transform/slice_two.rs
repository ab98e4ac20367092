//! Slice 2 (paper section 3.2): the loop with its accesses routed through
//! the cache (`sl1.load.*`, `sl1.store.*`, the aliased group's
//! `sl1.aload.*`/`sl1.astore.*`), coherence around them, the flush on every
//! exit, and the sites of its line runs or why it gets none.

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::Mode;
use crate::llvm::ir::{Block, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::{AccessOperands, GroupMember, LineOperands, Runtime, SiteKind};

use super::decide::L1_RESIDENT_THREADS;
use super::line_runs::RunSite;
use super::reports::LineRunsReport;
use super::sites::{access_type, pointer_operand, stored_value};
use super::slice::{load_line, LoopSlice};
use super::sorted::SortedAccesses;
use super::state::{store_before_entry_end, State};

impl<'m> LoopSlice<'_, 'm> {
    /// Slice 2: accesses through the cache, coherence, flush on exit; the
    /// loop's line runs, or why it gets none (`line_runs_plan`).
    pub(super) fn emit_slice_two(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'m>,
        exits: &[Block<'m>],
    ) -> Option<Result<Vec<RunSite<'m>>, String>> {
        self.emit_coherence_points(rt, sorted);
        let mut run_sites = Vec::new();
        // The aliased group's last used member (its fills' victim choice).
        let function = self.k.function;
        let mru = (sorted.group.len() > 1).then(|| {
            let i32t = function.int_type(32);
            let slot = function.entry_alloca(i32t, "sl1.group.mru");
            store_before_entry_end(function, slot, i32t.signed(-1));
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
    pub(super) fn runs_report(
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
        cached: &[(Access<'m>, State<'m>, Mode)],
        mut sites: Vec<RunSite<'m>>,
        flushes: bool,
    ) -> Option<Result<Vec<RunSite<'m>>, String>> {
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
                let states: Vec<&State<'m>> = cached.iter().map(|(_, s, _)| s).collect();
                return Err(if self.streaming_group(&states) {
                    format!(
                        "arguments without restrict share their lines; a group of streams, \
                         cached only where more than {L1_RESIDENT_THREADS} threads share an SM \
                         (fewer threads' streams the hardware L1 holds)"
                    )
                } else {
                    "arguments without restrict share their lines".to_string()
                });
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

    /// Replaces one access of slice 2 by a call into the runtime.
    fn route_through_cache(
        &self,
        rt: &mut Runtime<'_, '_>,
        a: &Access<'m>,
        state: State<'m>,
        all: &[(Access<'m>, State<'m>, Mode)],
        (group, mru): (&[State<'m>], Option<Value<'m>>),
    ) -> Option<RunSite<'m>> {
        let inst = a.inst;
        let ty = access_type(inst, a.kind);
        let align = inst.alignment().max(1);
        // A structure that the loop also reads must be filled before a write.
        let read_in_loop = all
            .iter()
            .any(|(o, s, _)| s.tag == state.tag && o.kind == AccessKind::Load);
        let site = SiteKind {
            size: a.size as u32,
            align,
            fetch_on_write: read_in_loop,
        };
        let typed_ty = (ty.basic(), site);
        let b = TypedBuilder::before(inst);
        let i1t = b.int_type(1);
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
            stats.count_access(&b, (&state, holders), addr, cached, bytes);
        }
        let is_load = a.kind == AccessKind::Load;
        let access = AccessOperands {
            addr,
            value: (!is_load).then(|| stored_value(inst)),
            cached,
        };
        if !state.restrict && group.len() > 1 {
            let own = group
                .iter()
                .position(|s| s.tag == state.tag)
                .expect("a member");
            // Every member's line, then whether it is cached: loaded in that
            // order.
            let lines: Vec<Value<'m>> = group.iter().map(|s| load_line(inst, s)).collect();
            let members: Vec<GroupMember<'m>> = group
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
            let v = rt.emit_aliased(inst, typed_ty, access, (&members, own, mru), bytes);
            if is_load {
                inst.replace_all_uses_with(v);
            }
            inst.erase();
            return None;
        }
        let line = LineOperands {
            tag: state.tag,
            dirty: state.dirty,
            line,
            bytes: self.bytes_at(inst),
        };
        let routed = if is_load {
            let v = rt.emit_load(inst, typed_ty, access, line, None);
            inst.replace_all_uses_with(v);
            v
        } else {
            rt.emit_store(inst, typed_ty, access, line)
        };
        inst.erase();
        Some(RunSite {
            call: routed,
            state,
            stride: 0,
            kind: site,
            ty,
            is_load,
        })
    }
}

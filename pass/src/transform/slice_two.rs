//! Slice 2 (paper section 3.2): the loop with its accesses routed through
//! the cache (`sl1.load.*`, `sl1.store.*`, the aliased group's
//! `sl1.aload.*`/`sl1.astore.*`), coherence around them, the flush on every
//! exit, and the sites of its line runs or why it gets none.

use crate::llvm::build;

use inkwell::llvm_sys::prelude::*;

use crate::analysis::accesses::{Access, AccessKind};
use crate::analysis::Mode;
use crate::llvm::edit::{self, Builder};
use crate::runtime::{AccessOperands, GroupMember, LineOperands, Runtime, SiteKind};

use super::line_runs::RunSite;
use super::reports::LineRunsReport;
use super::sites::{access_type, pointer_operand};
use super::slice::{load_line, LoopSlice};
use super::sorted::SortedAccesses;
use super::state::{const_int, i32_type, store_before_entry_end, State};

impl LoopSlice<'_, '_> {
    /// Slice 2: accesses through the cache, coherence, flush on exit; the
    /// loop's line runs, or why it gets none (`line_runs_plan`).
    pub(super) fn emit_slice_two(
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

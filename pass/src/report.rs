//! The report: what the pass found and did, per kernel (declared in
//! `sl1-core`, `report`), and how the analysis of a kernel becomes its part.

use std::collections::BTreeSet;

use crate::analysis::accesses::Base;
use crate::analysis::source_names::demangle;
use crate::analysis::sync::SyncKind;
use crate::analysis::KernelAnalysis;

pub use sl1_core::report::*;

/// Summarises the analysis of one kernel.
pub fn kernel_report(k: &KernelAnalysis<'_>) -> KernelReport {
    let in_any_loop = |block: usize| k.loops.loops.iter().any(|l| l.blocks.contains(&block));
    let data_structures = k
        .data_structures
        .iter()
        .map(|ds| {
            let mine: Vec<_> = k
                .accesses
                .iter()
                .filter(|a| a.base == Base::Argument(ds.arg_index))
                .collect();
            let count =
                |pred: &dyn Fn(AccessKind) -> bool| mine.iter().filter(|a| pred(a.kind)).count();
            let widths: BTreeSet<u64> = mine.iter().map(|a| a.size).filter(|&s| s > 0).collect();
            DataStructureReport {
                id: ds.id,
                argument: ds.name.clone(),
                arg_index: ds.arg_index,
                restrict: ds.restrict,
                mode: ds.mode,
                loads: count(&|kind| kind == AccessKind::Load),
                stores: count(&|kind| kind == AccessKind::Store),
                atomics: count(&|kind| kind.is_atomic()),
                ranges: count(&|kind| {
                    matches!(kind, AccessKind::RangeRead | AccessKind::RangeWrite)
                }),
                widths: widths.into_iter().collect(),
                volatile: mine.iter().filter(|a| a.volatile).count(),
                in_loops: mine.iter().filter(|a| in_any_loop(a.block)).count(),
            }
        })
        .collect();

    let loops = k
        .loops
        .loops
        .iter()
        .map(|l| {
            let accesses = k
                .accesses
                .iter()
                .filter(|a| matches!(a.base, Base::Argument(_)) && l.blocks.contains(&a.block))
                .count();
            LoopReport {
                header: k.block_label(l.header),
                depth: l.depth,
                parent: l.parent.map(|p| k.block_label(k.loops.loops[p].header)),
                blocks: l.blocks.len(),
                latches: l.latches.len(),
                exits: l.exits.len(),
                accesses,
                sync_points: k
                    .sync_points
                    .iter()
                    .filter(|s| l.blocks.contains(&s.block))
                    .count(),
                main_loop: l.depth == 1 && accesses > 0,
                location: l
                    .latches
                    .iter()
                    .find_map(|&b| k.blocks[b].loop_start_location())
                    .or_else(|| k.blocks[l.header].debug_location()),
            }
        })
        .collect();

    let mut counts = AccessCounts {
        total: k.accesses.len(),
        ..AccessCounts::default()
    };
    let mut unattributed = Vec::new();
    for a in &k.accesses {
        match &a.base {
            Base::Argument(_) => counts.data_structure += 1,
            Base::Shared => counts.shared += 1,
            Base::Local => counts.local += 1,
            Base::Global => counts.global += 1,
            Base::Unknown(reason) => {
                counts.unattributed += 1;
                unattributed.push(UnattributedAccess {
                    kind: a.kind,
                    block: k.block_label(a.block),
                    reason: (*reason).to_string(),
                });
            }
            Base::Mixed(_) => {
                counts.unattributed += 1;
                unattributed.push(UnattributedAccess {
                    kind: a.kind,
                    block: k.block_label(a.block),
                    reason: "address may come from more than one root".to_string(),
                });
            }
        }
    }

    let sync_count = |kind| k.sync_points.iter().filter(|s| s.kind == kind).count();
    let sync = SyncCounts {
        fences: sync_count(SyncKind::Fence),
        barriers: sync_count(SyncKind::Barrier),
        atomics: k.accesses.iter().filter(|a| a.kind.is_atomic()).count(),
        calls: sync_count(SyncKind::Call),
    };

    let mut notes = Vec::new();
    if !k.loops.irreducible_edges.is_empty() {
        notes.push(format!(
            "irreducible control flow ({} edge(s) enter a cycle from outside its header)",
            k.loops.irreducible_edges.len()
        ));
    }
    if !k.loops.unreachable.is_empty() {
        notes.push(format!(
            "{} unreachable block(s)",
            k.loops.unreachable.len()
        ));
    }

    KernelReport {
        demangled: demangle(&k.name),
        name: k.name.clone(),
        data_structures,
        loops,
        accesses: counts,
        unattributed,
        sync,
        notes,
        transform: TransformReport::default(),
        alias_paths: None,
    }
}

//! Coherence around a sliced loop (paper section 3.4): what a direct
//! access may see or overwrite is written back before it (fences, barriers
//! and calls write every cached structure back), an atomic evicts the line
//! holding its address, and every exit of the loop writes its lines back.

use crate::llvm::ir::{Block, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::{LineOperands, Runtime};

use super::slice::{load_line, LoopSlice};
use super::sorted::SortedAccesses;
use super::state::State;

impl<'m> LoopSlice<'_, 'm> {
    /// Write-backs before the loop's direct accesses and coherence points
    /// (`sl1.flush`), evictions before its atomics (`sl1.evict`).
    pub(super) fn emit_coherence_points(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'m>,
    ) {
        for (inst, states) in &sorted.flush_before {
            for s in states {
                call_flush(rt, *inst, *s, self.bytes_at(*inst));
            }
        }
        // Each line is loaded as its eviction is emitted (the iterator is lazy).
        rt.emit_evictions(sorted.evict_before.iter().map(|(inst, addr, s)| {
            let line = LineOperands {
                tag: s.tag,
                dirty: s.dirty,
                line: load_line(*inst, s),
                bytes: self.bytes_at(*inst),
            };
            (*inst, *addr, line)
        }));
    }

    /// Every exit of the loop writes each cached structure's line back.
    pub(super) fn emit_exit_flushes(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'m>,
        exits: &[Block<'m>],
    ) {
        for &exit in exits {
            let at = exit.first_non_phi();
            for s in &sorted.loop_states {
                call_flush(rt, at, *s, self.bytes_at(at));
                if let Some(stats) = &self.slots.stats {
                    stats.flush_counts(&TypedBuilder::before(at), s);
                }
            }
        }
    }
}

fn call_flush<'m>(rt: &mut Runtime<'_, '_>, before: Value<'m>, s: State<'m>, bytes: Value<'m>) {
    let line = LineOperands {
        tag: s.tag,
        dirty: s.dirty,
        line: load_line(before, &s),
        bytes,
    };
    rt.emit_flush(before, line);
}

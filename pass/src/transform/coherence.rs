//! Coherence around a sliced loop (paper section 3.4): what a direct
//! access may see or overwrite is written back before it (fences, barriers
//! and calls write every cached structure back), an atomic evicts the line
//! holding its address, and every exit of the loop writes its lines back.

use inkwell::llvm_sys::prelude::*;
use inkwell::values::AsValueRef;

use crate::llvm::edit::{self, Builder};
use crate::runtime::Runtime;

use super::slice::{load_line, LoopSlice, SortedAccesses};
use super::state::State;

impl LoopSlice<'_, '_> {
    /// Write-backs before the loop's direct accesses and coherence points
    /// (`sl1.flush`), evictions before its atomics (`sl1.evict`).
    pub(super) fn emit_coherence_points(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'_>,
    ) {
        for (inst, states) in &sorted.flush_before {
            for s in states {
                call_flush(rt, *inst, *s, self.bytes_at(*inst));
            }
        }
        let evict = rt.evict();
        for (inst, addr, s) in &sorted.evict_before {
            edit::call(
                *inst,
                evict.as_value_ref(),
                &mut [
                    *addr,
                    s.tag,
                    s.dirty,
                    load_line(*inst, s),
                    self.bytes_at(*inst),
                ],
            );
        }
    }

    /// Every exit of the loop writes each cached structure's line back.
    pub(super) fn emit_exit_flushes(
        &self,
        rt: &mut Runtime<'_, '_>,
        sorted: &SortedAccesses<'_>,
        exits: &[LLVMBasicBlockRef],
    ) {
        for &exit in exits {
            let at = edit::first_non_phi(exit);
            for s in &sorted.loop_states {
                call_flush(rt, at, *s, self.bytes_at(at));
                if let Some(stats) = &self.stats {
                    stats.flush_counts(&Builder::before(at), s);
                }
            }
        }
    }
}

fn call_flush(rt: &mut Runtime<'_, '_>, before: LLVMValueRef, s: State, bytes: LLVMValueRef) {
    let flush = rt.flush();
    let line = load_line(before, &s);
    edit::call(
        before,
        flush.as_value_ref(),
        &mut [s.tag, s.dirty, line, bytes],
    );
}

//! Slice 1 (paper section 3.2): the monitoring clone of a main loop,
//! which simulates a one-line cache per structure (`sl1.simulate`) until
//! the thread has seen THRESHOLD accesses, then leaves for the decision.

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;

use crate::analysis::accesses::Access;
use crate::analysis::Mode;
use crate::llvm::edit::{self, Builder};
use crate::runtime::{Runtime, Simulated};

use super::lane_tests::LaneTests;
use super::sites::pointer_operand;
use super::slice::{block_reduce, BlockReduction, LoopSlice};
use super::state::{const_int, typed, State};

impl LoopSlice<'_, '_> {
    /// Slice 1: the monitoring clone, entered from the preheader. It simulates
    /// a one-line cache per structure after each cacheable access, and its
    /// latch leaves for `decide` once the thread has simulated THRESHOLD
    /// accesses (block-wide in a loop with a barrier).
    pub(super) fn emit_monitoring(
        &self,
        rt: &mut Runtime<'_, '_>,
        order: &[LLVMBasicBlockRef],
        (preheader, latch, decide): (LLVMBasicBlockRef, LLVMBasicBlockRef, LLVMBasicBlockRef),
        cached: &[(Access<'_>, State, Mode)],
        loop_states: &[State],
        lanes: &LaneTests,
    ) {
        let function = self.k.function.as_raw();
        let clone = edit::clone_blocks(order, preheader, ".sl1.monitor");
        let header = self.header();
        edit::retarget_edges(preheader, header, clone.blocks[&header]);
        let pre = Builder::before(edit::terminator(preheader));
        let (i32t, i64t) = {
            let ctx = build::context_of(function);
            (build::i32_type(ctx), build::i64_type(ctx))
        };
        pre.store(const_int(i32t, 0), self.slots.count.as_raw());
        for s in loop_states {
            pre.store(const_int(i64t, -1), s.sim_tag.as_raw());
            pre.store(const_int(i32t, 0), s.sim_hits.as_raw());
            pre.store(const_int(i32t, 0), s.sim_accesses.as_raw());
        }
        // Where the lane tests decline the loop (every structure's lanes
        // close, or a thread alone in its warp), monitoring cannot change
        // the decision: straight to it (nothing simulated, nothing
        // eligible), so that short chunks do not spend their whole run
        // simulating.
        if let Some(close) = lanes.declined {
            let old = edit::terminator(preheader);
            pre.cond_br(close, decide, clone.blocks[&header]);
            edit::erase(old);
        }
        drop(pre);
        for (a, state, _) in cached {
            let copy = typed(clone.values[&a.inst.as_raw()]);
            let after = typed(
                build::next_instruction(copy.as_raw())
                    .expect("a monitored access is not a terminator"),
            );
            let sim = Simulated {
                tag: state.sim_tag,
                hits: state.sim_hits,
                accesses: state.sim_accesses,
            };
            rt.emit_simulate(after, pointer_operand(copy, a.kind), sim, self.slots.count);
        }

        // Leave monitoring after THRESHOLD accesses: latch -> decide -> slice 2.
        let monitor_latch = clone.blocks[&latch];
        let old_br = edit::terminator(monitor_latch);
        let b = Builder::before(old_br);
        let n = b.load(i32t, self.slots.count.as_raw());
        let done = b.icmp(
            inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGE,
            n,
            const_int(i32t, i64::from(self.options().threshold)),
            c"sl1.monitored",
        );
        let done = if self.uniform() {
            block_reduce(&b, function, BlockReduction::Or, done)
        } else {
            done
        };
        b.cond_br(done, decide, clone.blocks[&header]);
        edit::erase(old_br);
    }
}

//! Slice 1 (paper section 3.2): the monitoring clone of a main loop,
//! which simulates a one-line cache per structure (`sl1.simulate`) until
//! the thread has seen THRESHOLD accesses, then leaves for the decision.

use crate::analysis::accesses::Access;
use crate::analysis::Mode;
use crate::llvm::cfg::{clone_blocks, retarget_edges};
use crate::llvm::ir::{Block, IntPredicate};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::{Runtime, Simulated};

use super::lane_tests::LaneTests;
use super::sites::pointer_operand;
use super::slice::{block_reduce, BlockReduction, LoopSlice};
use super::state::State;

impl<'m> LoopSlice<'_, 'm> {
    /// Slice 1: the monitoring clone, entered from the preheader. It simulates
    /// a one-line cache per structure after each cacheable access, and its
    /// latch leaves for `decide` once the thread has simulated THRESHOLD
    /// accesses (block-wide in a loop with a barrier).
    pub(super) fn emit_monitoring(
        &self,
        rt: &mut Runtime<'_, '_>,
        order: &[Block<'m>],
        (preheader, latch, decide): (Block<'m>, Block<'m>, Block<'m>),
        cached: &[(Access<'m>, State<'m>, Mode)],
        loop_states: &[State<'m>],
        lanes: &LaneTests<'m>,
    ) {
        let function = self.k.function;
        let clone = clone_blocks(order, preheader, ".sl1.monitor");
        let header = self.header();
        retarget_edges(preheader, header, clone.blocks[&header]);
        let old = preheader.terminator().expect("a preheader ends");
        let pre = TypedBuilder::before(old);
        let (i32t, i64t) = (function.int_type(32), function.int_type(64));
        pre.store(i32t.signed(0), self.slots.count);
        for s in loop_states {
            pre.store(i64t.signed(-1), s.sim_tag);
            pre.store(i32t.signed(0), s.sim_hits);
            pre.store(i32t.signed(0), s.sim_accesses);
        }
        // Where the lane tests decline the loop (every structure's lanes
        // close, or a thread alone in its warp), monitoring cannot change
        // the decision: straight to it (nothing simulated, nothing
        // eligible), so that short chunks do not spend their whole run
        // simulating.
        if let Some(close) = lanes.declined {
            pre.cond_br(close, decide, clone.blocks[&header]);
            old.erase();
        }
        drop(pre);
        for (a, state, _) in cached {
            let copy = clone.values[&a.inst];
            let after = copy
                .next_instruction()
                .expect("a monitored access is not a terminator");
            let sim = Simulated {
                tag: state.sim_tag,
                hits: state.sim_hits,
                accesses: state.sim_accesses,
            };
            rt.emit_simulate(after, pointer_operand(copy, a.kind), sim, self.slots.count);
        }

        // Leave monitoring after THRESHOLD accesses: latch -> decide -> slice 2.
        let monitor_latch = clone.blocks[&latch];
        let old_br = monitor_latch.terminator().expect("a latch ends");
        let b = TypedBuilder::before(old_br);
        let n = b.load(i32t, self.slots.count);
        let done = b.icmp(
            IntPredicate::LLVMIntUGE,
            n,
            i32t.signed(i64::from(self.options().threshold)),
            c"sl1.monitored",
        );
        let done = if self.uniform() {
            block_reduce(&b, function, BlockReduction::Or, done)
        } else {
            done
        };
        b.cond_br(done, decide, clone.blocks[&header]);
        old_br.erase();
    }
}

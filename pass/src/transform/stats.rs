//! The run-time statistics build (`Options::stats`): the kernel counts, per
//! data structure, what the monitoring slice simulated, what the cached slice
//! hit and missed, and how many threads decided to cache it, into a global
//! array the host reads after a launch (`sl1_stats_<kernel>`).
//!
//! Layout (`sl1_core::stats`): `COUNTERS` little-endian u64 per data
//! structure, indexed by the structure's id in the report, in the order of
//! [`Counter`]. Threads keep
//! their hit and miss counts in registers and add them atomically when they
//! leave a sliced loop; decisions are added once per thread and loop.

use crate::llvm::ir::{Function, IntPredicate, Type, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::ADDRSPACE_GLOBAL;

use super::state::State;

pub use sl1_core::stats::{symbol, Counter};

/// Counters per data structure (`sl1_core::stats`), for addresses.
const COUNTERS: u64 = sl1_core::stats::COUNTERS as u64;

/// The statistics global of one kernel.
#[derive(Clone, Copy)]
pub(super) struct Stats<'m> {
    global: Value<'m>,
    i64t: Type<'m>,
}

impl<'m> Stats<'m> {
    /// Adds the zero-initialised global for `structures` data structures
    /// to `kernel`'s module.
    pub(super) fn add_global(kernel: Function<'m>, structures: usize) -> Stats<'m> {
        let name =
            std::ffi::CString::new(symbol(&kernel.name())).expect("kernel names have no NUL");
        let i64t = kernel.int_type(64);
        let ty = i64t.array(structures.max(1) as u64 * COUNTERS);
        let global = kernel.add_zeroed_global(ty, &name, u32::from(ADDRSPACE_GLOBAL), 8);
        Stats { global, i64t }
    }

    /// `atomicrmw add` of an i64 `value` to one counter, before `b`'s point.
    fn add(&self, b: &TypedBuilder<'m>, structure: u32, counter: Counter, value: Value<'m>) {
        let index = u64::from(structure) * COUNTERS + counter as u64;
        let at = b.gep(
            self.i64t,
            self.global,
            &[self.i64t.constant(index)],
            c"sl1.stat",
        );
        b.atomic_add(at, value);
    }

    /// Records one thread's decision for `state`: its simulated hits and
    /// accesses (i32) and whether it caches the structure (i1).
    pub(super) fn record_decision(
        &self,
        b: &TypedBuilder<'m>,
        state: &State<'m>,
        sim_hits: Value<'m>,
        sim_accesses: Value<'m>,
        cached: Value<'m>,
    ) {
        let hits = b.zext_to(sim_hits, self.i64t, c"");
        let accesses = b.zext_to(sim_accesses, self.i64t, c"");
        let misses = b.sub(accesses, hits, c"");
        let caching = b.zext_to(cached, self.i64t, c"");
        self.add(b, state.id, Counter::SimulatedHits, hits);
        self.add(b, state.id, Counter::SimulatedMisses, misses);
        self.add(b, state.id, Counter::ThreadsCaching, caching);
        self.add(b, state.id, Counter::ThreadsDeciding, self.i64t.constant(1));
    }

    /// Before an access of slice 2 at `addr`: counts a hit when the thread
    /// caches the structure and one of `holders` (the structure, or its alias
    /// group) holds the line, a miss when it caches it and none does.
    pub(super) fn count_access(
        &self,
        b: &TypedBuilder<'m>,
        (state, holders): (&State<'m>, &[State<'m>]),
        addr: Value<'m>,
        cached: Value<'m>,
        line_bytes: Value<'m>,
    ) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        let a = b.ptr_to_int(addr, self.i64t, c"");
        let mask = b.sub(line_bytes, self.i64t.constant(1), c"");
        let line = b.and(a, b.not(mask, c""), c"");
        let mut held = cached.ty().null();
        for h in holders {
            let tag = b.load(self.i64t, h.tag);
            let same = b.icmp(IntPredicate::LLVMIntEQ, tag, line, c"");
            held = b.or(held, same, c"");
        }
        let hit = b.and(cached, held, c"");
        let miss = b.and(cached, b.not(held, c""), c"");
        for (slot, happened) in [(hits, hit), (misses, miss)] {
            let n = b.load(self.i64t, slot);
            let one = b.zext_to(happened, self.i64t, c"");
            b.store(b.add(n, one, c""), slot);
        }
    }

    /// When a thread leaves a sliced loop: adds its hit and miss counts to
    /// the global and starts them again from zero.
    pub(super) fn flush_counts(&self, b: &TypedBuilder<'m>, state: &State<'m>) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        for (slot, counter) in [(hits, Counter::Hits), (misses, Counter::Misses)] {
            let n = b.load(self.i64t, slot);
            self.add(b, state.id, counter, n);
            b.store(self.i64t.constant(0), slot);
        }
    }
}

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

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate;

use crate::llvm::edit::Builder;
use crate::runtime::ADDRSPACE_GLOBAL;

use super::state::{const_int, State};

pub use sl1_core::stats::{symbol, Counter};

/// Counters per data structure (`sl1_core::stats`), for addresses.
const COUNTERS: u64 = sl1_core::stats::COUNTERS as u64;

/// The statistics global of one kernel.
#[derive(Clone, Copy)]
pub(super) struct Stats {
    global: LLVMValueRef,
    i64t: LLVMTypeRef,
}

impl Stats {
    /// Adds the zero-initialised global for `structures` data structures.
    pub(super) fn add_global(module: LLVMModuleRef, kernel: &str, structures: usize) -> Stats {
        let name = std::ffi::CString::new(symbol(kernel)).expect("kernel names have no NUL");
        let ctx = build::module_context(module);
        let i64t = build::i64_type(ctx);
        let ty = build::array_type(i64t, structures.max(1) as u64 * COUNTERS);
        let global = build::add_zeroed_global(module, ty, &name, u32::from(ADDRSPACE_GLOBAL), 8);
        Stats { global, i64t }
    }

    /// `atomicrmw add` of an i64 `value` to one counter, before `b`'s point.
    fn add(&self, b: &Builder, structure: u32, counter: Counter, value: LLVMValueRef) {
        let index = u64::from(structure) * COUNTERS + counter as u64;
        let mut idx = [const_int(self.i64t, index as i64)];
        let at = b.gep(self.i64t, self.global, &mut idx, c"sl1.stat");
        b.atomic_add(at, value);
    }

    /// Records one thread's decision for `state`: its simulated hits and
    /// accesses (i32) and whether it caches the structure (i1).
    pub(super) fn record_decision(
        &self,
        b: &Builder,
        state: &State<'_>,
        sim_hits: LLVMValueRef,
        sim_accesses: LLVMValueRef,
        cached: LLVMValueRef,
    ) {
        let r = b;
        let hits = r.zext(sim_hits, self.i64t, c"");
        let accesses = r.zext(sim_accesses, self.i64t, c"");
        let misses = r.sub(accesses, hits, c"");
        let caching = r.zext(cached, self.i64t, c"");
        self.add(b, state.id, Counter::SimulatedHits, hits);
        self.add(b, state.id, Counter::SimulatedMisses, misses);
        self.add(b, state.id, Counter::ThreadsCaching, caching);
        self.add(
            b,
            state.id,
            Counter::ThreadsDeciding,
            const_int(self.i64t, 1),
        );
    }

    /// Before an access of slice 2 at `addr`: counts a hit when the thread
    /// caches the structure and one of `holders` (the structure, or its alias
    /// group) holds the line, a miss when it caches it and none does.
    pub(super) fn count_access(
        &self,
        b: &Builder,
        state: &State<'_>,
        holders: &[State<'_>],
        addr: LLVMValueRef,
        cached: LLVMValueRef,
        line_bytes: LLVMValueRef,
    ) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        let r = b;
        let a = r.ptr_to_int(addr, self.i64t, c"");
        let mask = r.sub(line_bytes, const_int(self.i64t, 1), c"");
        let line = r.and(a, r.not(mask, c""), c"");
        let mut held = build::const_int(build::type_of(cached), 0, false);
        for h in holders {
            let tag = b.load(self.i64t, h.tag.as_raw());
            let same = r.icmp(LLVMIntPredicate::LLVMIntEQ, tag, line, c"");
            held = r.or(held, same, c"");
        }
        let hit = r.and(cached, held, c"");
        let miss = r.and(cached, r.not(held, c""), c"");
        for (slot, happened) in [(hits, hit), (misses, miss)] {
            let n = b.load(self.i64t, slot.as_raw());
            let one = r.zext(happened, self.i64t, c"");
            b.store(r.add(n, one, c""), slot.as_raw());
        }
    }

    /// When a thread leaves a sliced loop: adds its hit and miss counts to
    /// the global and starts them again from zero.
    pub(super) fn flush_counts(&self, b: &Builder, state: &State) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        for (slot, counter) in [(hits, Counter::Hits), (misses, Counter::Misses)] {
            let n = b.load(self.i64t, slot.as_raw());
            self.add(b, state.id, counter, n);
            b.store(const_int(self.i64t, 0), slot.as_raw());
        }
    }
}

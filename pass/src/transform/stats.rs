//! The run-time statistics build (`Options::stats`): the kernel counts, per
//! data structure, what the monitoring slice simulated, what the cached slice
//! hit and missed, and how many threads decided to cache it, into a global
//! array the host reads after a launch (`sl1_stats_<kernel>`).
//!
//! Layout: `COUNTERS` little-endian u64 per data structure, indexed by the
//! structure's id in the report, in the order of [`Counter`]. Threads keep
//! their hit and miss counts in registers and add them atomically when they
//! leave a sliced loop; decisions are added once per thread and loop.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMAtomicOrdering, LLVMAtomicRMWBinOp, LLVMIntPredicate, LLVMLinkage};

use crate::edit::Builder;
use crate::runtime::ADDRSPACE_GLOBAL;

use super::state::{const_int, State};

/// The counters of one structure, in memory order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    SimulatedHits = 0,
    SimulatedMisses = 1,
    Hits = 2,
    Misses = 3,
    ThreadsCaching = 4,
    ThreadsDeciding = 5,
}

/// Counters per data structure.
pub const COUNTERS: u64 = 6;

/// The name of a kernel's statistics global.
pub fn symbol(kernel: &str) -> String {
    format!("sl1_stats_{kernel}")
}

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
        // SAFETY: builds a global of the module's context; visible, so that
        // the driver API finds it by name.
        unsafe {
            let ctx = LLVMGetModuleContext(module);
            let i64t = LLVMInt64TypeInContext(ctx);
            let ty = LLVMArrayType2(i64t, structures.max(1) as u64 * COUNTERS);
            let global =
                LLVMAddGlobalInAddressSpace(module, ty, name.as_ptr(), u32::from(ADDRSPACE_GLOBAL));
            LLVMSetInitializer(global, LLVMConstNull(ty));
            LLVMSetLinkage(global, LLVMLinkage::LLVMExternalLinkage);
            LLVMSetAlignment(global, 8);
            Stats { global, i64t }
        }
    }

    /// `atomicrmw add` of an i64 `value` to one counter, before `b`'s point.
    fn add(&self, b: &Builder, structure: u32, counter: Counter, value: LLVMValueRef) {
        let index = u64::from(structure) * COUNTERS + counter as u64;
        // SAFETY: the index is inside the array (one row per structure id).
        unsafe {
            let mut idx = [const_int(self.i64t, index as i64)];
            let at = LLVMBuildGEP2(
                b.raw(),
                self.i64t,
                self.global,
                idx.as_mut_ptr(),
                1,
                c"sl1.stat".as_ptr(),
            );
            LLVMBuildAtomicRMW(
                b.raw(),
                LLVMAtomicRMWBinOp::LLVMAtomicRMWBinOpAdd,
                at,
                value,
                LLVMAtomicOrdering::LLVMAtomicOrderingMonotonic,
                0,
            );
        }
    }

    /// Records one thread's decision for `state`: its simulated hits and
    /// accesses (i32) and whether it caches the structure (i1).
    pub(super) fn record_decision(
        &self,
        b: &Builder,
        state: &State,
        sim_hits: LLVMValueRef,
        sim_accesses: LLVMValueRef,
        cached: LLVMValueRef,
    ) {
        let r = b.raw();
        // SAFETY: integer arithmetic on values of the function.
        unsafe {
            let hits = LLVMBuildZExt(r, sim_hits, self.i64t, c"".as_ptr());
            let accesses = LLVMBuildZExt(r, sim_accesses, self.i64t, c"".as_ptr());
            let misses = LLVMBuildSub(r, accesses, hits, c"".as_ptr());
            let caching = LLVMBuildZExt(r, cached, self.i64t, c"".as_ptr());
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
    }

    /// Before an access of slice 2 at `addr`: counts a hit when the thread
    /// caches the structure and one of `holders` (the structure, or its alias
    /// group) holds the line, a miss when it caches it and none does.
    pub(super) fn count_access(
        &self,
        b: &Builder,
        state: &State,
        holders: &[State],
        addr: LLVMValueRef,
        cached: LLVMValueRef,
        line_bytes: LLVMValueRef,
    ) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        let r = b.raw();
        // SAFETY: loads and integer arithmetic on values of the function.
        unsafe {
            let a = LLVMBuildPtrToInt(r, addr, self.i64t, c"".as_ptr());
            let mask = LLVMBuildSub(r, line_bytes, const_int(self.i64t, 1), c"".as_ptr());
            let line = LLVMBuildAnd(r, a, LLVMBuildNot(r, mask, c"".as_ptr()), c"".as_ptr());
            let mut held = LLVMConstInt(LLVMTypeOf(cached), 0, 0);
            for h in holders {
                let tag = b.load(self.i64t, h.tag);
                let same = LLVMBuildICmp(r, LLVMIntPredicate::LLVMIntEQ, tag, line, c"".as_ptr());
                held = LLVMBuildOr(r, held, same, c"".as_ptr());
            }
            let hit = LLVMBuildAnd(r, cached, held, c"".as_ptr());
            let miss = LLVMBuildAnd(r, cached, LLVMBuildNot(r, held, c"".as_ptr()), c"".as_ptr());
            for (slot, happened) in [(hits, hit), (misses, miss)] {
                let n = b.load(self.i64t, slot);
                let one = LLVMBuildZExt(r, happened, self.i64t, c"".as_ptr());
                b.store(LLVMBuildAdd(r, n, one, c"".as_ptr()), slot);
            }
        }
    }

    /// When a thread leaves a sliced loop: adds its hit and miss counts to
    /// the global and starts them again from zero.
    pub(super) fn flush_counts(&self, b: &Builder, state: &State) {
        let (hits, misses) = state
            .counts
            .expect("statistics slots in a statistics build");
        for (slot, counter) in [(hits, Counter::Hits), (misses, Counter::Misses)] {
            let n = b.load(self.i64t, slot);
            self.add(b, state.id, counter, n);
            b.store(const_int(self.i64t, 0), slot);
        }
    }
}

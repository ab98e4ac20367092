//! The decision between the slices (paper section 3.2.2).

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use crate::analysis::accesses::Access;
use crate::analysis::Mode;
use crate::edit::{self, Builder};

use super::slice::LoopSlice;
use super::state::{const_int, read_only_companion, State};

/// The simulated hit rate, in percent, a read-only restrict structure needs
/// to ride along with a cached written one. Streams the suite caches well
/// simulate at 93% (`upper`, `invindex`); `dna`'s reads, half sequential and
/// half random, at 58% and lost when cached (docs/benchmarks.md).
const COMPANION_MIN_HIT_PERCENT: i64 = 75;

impl LoopSlice<'_, '_> {
    /// The decision between the slices (paper 3.2.2), per thread: rank the
    /// structures whose simulated hit rate is above 50% (read-write ones count
    /// half), give lines to the best CLN of them. Unless asked otherwise,
    /// read-only restrict structures qualify only alongside a written one:
    /// alone, a modern hardware L1 serves a read stream as well (measured,
    /// docs/benchmarks.md), while next to a cached write stream caching the
    /// read stream too pays (`upper`) when it is reused enough. With static
    /// rates, a structure's counts are its predicted hits per 100 accesses
    /// times its accesses per iteration, constants the decision folds.
    pub(super) fn emit_decide(
        &self,
        decide: LLVMBasicBlockRef,
        cached: &[(Access<'_>, State, Mode)],
        lanes: &super::slice::LaneTests,
    ) {
        let function = self.k.function.as_raw();
        let mut structures: Vec<(State, Mode)> = Vec::new();
        for (_, s, m) in cached {
            if !structures.iter().any(|(o, _)| o.tag == s.tag) {
                structures.push((*s, *m));
            }
        }
        let b = Builder::before(edit::terminator(decide));
        // SAFETY: builds straight-line code in the decide block, which ends in
        // `br header`; all values are of the function's context.
        unsafe {
            let ctx = LLVMGetTypeContext(LLVMTypeOf(function));
            let i32t = LLVMInt32TypeInContext(ctx);
            let i64t = LLVMInt64TypeInContext(ctx);
            let i8t = LLVMInt8TypeInContext(ctx);
            let module = LLVMGetGlobalParent(function);
            let sreg = |name: &str| {
                let cname =
                    std::ffi::CString::new(format!("llvm.nvvm.read.ptx.sreg.{name}")).unwrap();
                let mut f = LLVMGetNamedFunction(module, cname.as_ptr());
                let fty = LLVMFunctionType(i32t, std::ptr::null_mut(), 0, 0);
                if f.is_null() {
                    f = LLVMAddFunction(module, cname.as_ptr(), fty);
                }
                LLVMBuildCall2(b.raw(), fty, f, std::ptr::null_mut(), 0, c"".as_ptr())
            };
            let r = b.raw();
            let (tx, ty, tz) = (sreg("tid.x"), sreg("tid.y"), sreg("tid.z"));
            let (nx, ny, nz) = (sreg("ntid.x"), sreg("ntid.y"), sreg("ntid.z"));
            let threads = LLVMBuildMul(
                r,
                LLVMBuildMul(r, nx, ny, c"".as_ptr()),
                nz,
                c"sl1.threads".as_ptr(),
            );
            let tid = LLVMBuildAdd(
                r,
                tx,
                LLVMBuildMul(
                    r,
                    nx,
                    LLVMBuildAdd(r, ty, LLVMBuildMul(r, ny, tz, c"".as_ptr()), c"".as_ptr()),
                    c"".as_ptr(),
                ),
                c"sl1.tid".as_ptr(),
            );
            // The buffer's bytes: what the launch gave a launch-sized one
            // (all its dynamic shared memory: the kernel has none of its
            // own), up to the size a static one would have.
            let most = const_int(i32t, self.buffer_bytes as i64);
            let buffer_bytes = if self.launch_sized {
                let given = sreg("dynamic_smem_size");
                let less = LLVMBuildICmp(
                    r,
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                    given,
                    most,
                    c"".as_ptr(),
                );
                LLVMBuildSelect(r, less, given, most, c"sl1.buffer.bytes".as_ptr())
            } else {
                most
            };
            // The line size: the largest that gives every structure of the
            // loop a line for every thread of the block, from the smallest
            // up (fits for a size implies fits for the smaller ones). The
            // same for the whole block, so the threads' lines never overlap;
            // in a kernel of several sliced loops, the same in every loop
            // (sized for all the kernel's structures).
            let companion: Vec<bool> = structures
                .iter()
                .map(|(s, mode)| {
                    read_only_companion(s.restrict, *mode, self.options)
                        && !self.rereads.contains(&s.id)
                })
                .collect();
            let written = companion.iter().filter(|c| !**c).count();
            let min_line = self.options.line_size;
            let mut line = const_int(i32t, i64::from(min_line));
            if self.line_bytes.is_some() {
                let sized = if let Some(all) = self.kernel_structures {
                    const_int(i32t, all as i64)
                } else if written == 0 || written == structures.len() {
                    const_int(i32t, structures.len() as i64)
                } else {
                    self.structures_to_fit(r, &sreg, threads, written, structures.len())
                };
                let all = LLVMBuildMul(r, threads, sized, c"".as_ptr());
                for size in self.options.line_sizes().into_iter().skip(1) {
                    let pitch = const_int(i32t, i64::from(size + self.pad));
                    let need = LLVMBuildMul(r, all, pitch, c"".as_ptr());
                    let fits = LLVMBuildICmp(
                        r,
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULE,
                        need,
                        buffer_bytes,
                        c"".as_ptr(),
                    );
                    line = LLVMBuildSelect(
                        r,
                        fits,
                        const_int(i32t, i64::from(size)),
                        line,
                        c"sl1.line.size".as_ptr(),
                    );
                }
            }
            let line64 = LLVMBuildZExt(r, line, i64t, c"".as_ptr());
            if let Some(slot) = self.line_bytes {
                b.store(line64, slot);
            }
            // Lines lie `pitch` bytes apart: the line and its padding.
            let pitch = LLVMBuildAdd(r, line, const_int(i32t, i64::from(self.pad)), c"".as_ptr());
            let pitch64 = LLVMBuildZExt(r, pitch, i64t, c"".as_ptr());
            let per_line = LLVMBuildMul(r, threads, pitch, c"".as_ptr());
            let cln = LLVMBuildUDiv(r, buffer_bytes, per_line, c"sl1.cln".as_ptr());
            // Warp threshold: line `rank` of a thread fits when the slot of
            // the last thread of its warp does, so that the first warps of a
            // block get lines where the buffer cannot give every thread one
            // (rank < CLN is the case where all threads fit). Loops with a
            // block barrier keep rank < CLN: their version must be the same
            // for the whole block.
            let capacity = LLVMBuildUDiv(r, buffer_bytes, pitch, c"sl1.capacity".as_ptr());
            let warp_last = {
                let last = LLVMBuildOr(r, tid, const_int(i32t, 31), c"".as_ptr());
                let block_last = LLVMBuildSub(r, threads, const_int(i32t, 1), c"".as_ptr());
                let inside = LLVMBuildICmp(
                    r,
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                    last,
                    block_last,
                    c"".as_ptr(),
                );
                LLVMBuildSelect(r, inside, last, block_last, c"sl1.warp.last".as_ptr())
            };
            // (accesses, hits) per structure: simulated, or predicted.
            let counts: Vec<(LLVMValueRef, LLVMValueRef)> = structures
                .iter()
                .map(
                    |(s, _)| match self.static_rates.as_ref().map(|r| r[&s.id]) {
                        Some(rate) => (
                            const_int(i32t, 100 * i64::from(rate.sites)),
                            const_int(i32t, i64::from(rate.hit_percent * rate.sites)),
                        ),
                        None => (b.load(i32t, s.sim_accesses), b.load(i32t, s.sim_hits)),
                    },
                )
                .collect();
            let mut eligible = Vec::new();
            let mut score = Vec::new();
            for ((_, mode), &(acc, hits)) in structures.iter().zip(&counts) {
                let twice = LLVMBuildShl(r, hits, const_int(i32t, 1), c"".as_ptr());
                let good = LLVMBuildICmp(
                    r,
                    inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGT,
                    twice,
                    acc,
                    c"".as_ptr(),
                );
                eligible.push(good);
                score.push(if *mode == Mode::ReadOnly { twice } else { hits });
            }
            // Lanes close together share the hardware's lines (`lanes`):
            // restrict structures one by one, the others only all together
            // (their lines are looked up as a group).
            for ((s, _), e) in structures.iter().zip(eligible.iter_mut()) {
                if let Some(&apart) = lanes.apart.get(&s.id).filter(|_| s.restrict) {
                    *e = LLVMBuildAnd(r, *e, apart, c"".as_ptr());
                }
            }
            if let Some(declined) = lanes.declined {
                let apart = LLVMBuildNot(r, declined, c"".as_ptr());
                for e in eligible.iter_mut() {
                    *e = LLVMBuildAnd(r, *e, apart, c"".as_ptr());
                }
            }
            let mut writes_cached = LLVMConstInt(LLVMInt1TypeInContext(ctx), 0, 0);
            for (e, _) in eligible.iter().zip(&companion).filter(|(_, c)| !**c) {
                writes_cached = LLVMBuildOr(r, writes_cached, *e, c"".as_ptr());
            }
            for ((e, c), &(acc, hits)) in eligible.iter_mut().zip(&companion).zip(&counts) {
                if *c {
                    // A companion also needs a high hit rate of its own: a
                    // thread that caches a read stream it reuses little
                    // (random lookups) waits on shared-memory fills the
                    // hardware L1 would have served, and its warp with it.
                    // In 64 bits: 100 times a 32-bit count does not fit 32.
                    let wide = |v| LLVMBuildZExt(r, v, i64t, c"".as_ptr());
                    let acc = wide(acc);
                    let hits = wide(hits);
                    let scaled_hits = LLVMBuildMul(r, hits, const_int(i64t, 100), c"".as_ptr());
                    let scaled_accesses = LLVMBuildMul(
                        r,
                        acc,
                        const_int(i64t, COMPANION_MIN_HIT_PERCENT),
                        c"".as_ptr(),
                    );
                    let reused = LLVMBuildICmp(
                        r,
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGE,
                        scaled_hits,
                        scaled_accesses,
                        c"".as_ptr(),
                    );
                    *e = LLVMBuildAnd(r, *e, writes_cached, c"".as_ptr());
                    *e = LLVMBuildAnd(r, *e, reused, c"".as_ptr());
                }
            }
            for (d, (s, _)) in structures.iter().enumerate() {
                let mut rank = const_int(i32t, 0);
                for e in 0..structures.len() {
                    if e == d {
                        continue;
                    }
                    let pred = if e < d {
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGE
                    } else {
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGT
                    };
                    // Companions rank after the written structures: a line
                    // for a read stream alone saves little (see above).
                    let better = match (companion[e], companion[d]) {
                        (false, true) => LLVMConstInt(LLVMInt1TypeInContext(ctx), 1, 0),
                        (true, false) => LLVMConstInt(LLVMInt1TypeInContext(ctx), 0, 0),
                        _ => LLVMBuildICmp(r, pred, score[e], score[d], c"".as_ptr()),
                    };
                    let counts = LLVMBuildAnd(r, better, eligible[e], c"".as_ptr());
                    rank = LLVMBuildAdd(
                        r,
                        rank,
                        LLVMBuildZExt(r, counts, i32t, c"".as_ptr()),
                        c"".as_ptr(),
                    );
                }
                let fits = if self.uniform {
                    LLVMBuildICmp(
                        r,
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                        rank,
                        cln,
                        c"".as_ptr(),
                    )
                } else {
                    let slot = LLVMBuildAdd(
                        r,
                        LLVMBuildMul(r, rank, threads, c"".as_ptr()),
                        warp_last,
                        c"".as_ptr(),
                    );
                    LLVMBuildICmp(
                        r,
                        inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                        slot,
                        capacity,
                        c"sl1.fits".as_ptr(),
                    )
                };
                let on = if self.options.force_uncached {
                    LLVMConstInt(LLVMTypeOf(fits), 0, 0)
                } else {
                    LLVMBuildAnd(r, eligible[d], fits, c"sl1.cached".as_ptr())
                };
                b.store(on, s.cached);
                if let Some(stats) = &self.stats {
                    let hits = b.load(i32t, s.sim_hits);
                    let accesses = b.load(i32t, s.sim_accesses);
                    stats.record_decision(&b, s, hits, accesses, on);
                }
                // Slot-major: line `rank` of thread `tid` is element rank*threads + tid.
                let index = LLVMBuildAdd(
                    r,
                    LLVMBuildMul(r, rank, threads, c"".as_ptr()),
                    tid,
                    c"".as_ptr(),
                );
                let index = LLVMBuildZExt(r, index, i64t, c"".as_ptr());
                let offset = LLVMBuildMul(r, index, pitch64, c"".as_ptr());
                let mut idx = [offset];
                let ptr = LLVMBuildGEP2(
                    r,
                    i8t,
                    self.buffer,
                    idx.as_mut_ptr(),
                    1,
                    c"sl1.line".as_ptr(),
                );
                let chosen = LLVMBuildSelect(r, on, ptr, self.buffer, c"".as_ptr());
                b.store(chosen, s.line);
            }
        }
    }
}

/// Threads per SM whose read streams the hardware L1 holds (measured on the
/// H100 with `upper`: one 1024-thread block per SM reads its input through
/// L1 as fast as through S-L1 lines, two blocks thrash it: 128 B L1 lines per
/// thread outgrow the L1 left beside shared memory).
const L1_RESIDENT_THREADS: i64 = 1024;

/// Threads an SM holds at most (compute capability 8.0 and later).
const MAX_THREADS_PER_SM: i64 = 2048;

impl LoopSlice<'_, '_> {
    /// How many structures the line size must fit for every thread: only
    /// the `written` ones while few enough threads share an SM for the
    /// hardware L1 to serve the read-only companions (a longer line for the
    /// written structures then pays more: `upper` at 132x1024 ran 0.84 ms
    /// with 32 B for `out` alone, 1.18 ms with 16 B for both), else all
    /// `total` (at 264x1024, 2.24 ms against 1.78 ms). Resident threads are
    /// estimated from the grid spread over the SMs (`%nsmid`).
    fn structures_to_fit(
        &self,
        r: LLVMBuilderRef,
        sreg: &dyn Fn(&str) -> LLVMValueRef,
        threads: LLVMValueRef,
        written: usize,
        total: usize,
    ) -> LLVMValueRef {
        let function = self.k.function.as_raw();
        // SAFETY: integer arithmetic on values of the decide block.
        unsafe {
            let i32t = LLVMInt32TypeInContext(LLVMGetTypeContext(LLVMTypeOf(function)));
            let grid = LLVMBuildMul(
                r,
                LLVMBuildMul(r, sreg("nctaid.x"), sreg("nctaid.y"), c"".as_ptr()),
                sreg("nctaid.z"),
                c"".as_ptr(),
            );
            let sms = sreg("nsmid");
            let one = const_int(i32t, 1);
            let per_sm = LLVMBuildUDiv(
                r,
                LLVMBuildSub(
                    r,
                    LLVMBuildAdd(r, grid, sms, c"".as_ptr()),
                    one,
                    c"".as_ptr(),
                ),
                sms,
                c"".as_ptr(),
            );
            let fit = LLVMBuildUDiv(
                r,
                const_int(i32t, MAX_THREADS_PER_SM),
                threads,
                c"".as_ptr(),
            );
            let fewer = LLVMBuildICmp(
                r,
                inkwell::llvm_sys::LLVMIntPredicate::LLVMIntULT,
                per_sm,
                fit,
                c"".as_ptr(),
            );
            let blocks = LLVMBuildSelect(r, fewer, per_sm, fit, c"".as_ptr());
            let resident = LLVMBuildMul(r, blocks, threads, c"sl1.resident".as_ptr());
            let crowded = LLVMBuildICmp(
                r,
                inkwell::llvm_sys::LLVMIntPredicate::LLVMIntUGT,
                resident,
                const_int(i32t, L1_RESIDENT_THREADS),
                c"sl1.crowded".as_ptr(),
            );
            LLVMBuildSelect(
                r,
                crowded,
                const_int(i32t, total as i64),
                const_int(i32t, written as i64),
                c"sl1.fitted".as_ptr(),
            )
        }
    }
}

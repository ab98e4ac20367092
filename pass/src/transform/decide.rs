//! The decision between the slices (paper section 3.2).

use crate::analysis::accesses::Access;
use crate::analysis::Mode;
use crate::llvm::ir::{Block, Function, IntPredicate, Type, Value};
use crate::llvm::typed::TypedBuilder;

use super::lane_tests::LaneTests;
use super::slice::LoopSlice;
use super::state::{line_address, read_only_companion, CachedLine, State};

/// The simulated hit rate, in percent, a read-only restrict structure needs
/// to ride along with a cached written one. Streams the suite caches well
/// simulate at 93% (`upper`, `invindex`); `dna`'s reads, half sequential and
/// half random, at 58% and lost when cached (docs/benchmarks.md).
const COMPANION_MIN_HIT_PERCENT: i64 = 75;

/// Where the decision builds: its builder and the types it uses.
struct DecideIr<'b, 'm> {
    b: &'b TypedBuilder<'m>,
    function: Function<'m>,
    i1t: Type<'m>,
    i32t: Type<'m>,
    i64t: Type<'m>,
}

impl<'b, 'm> DecideIr<'b, 'm> {
    /// `b` is positioned in `function`.
    fn new(b: &'b TypedBuilder<'m>, function: Function<'m>) -> Self {
        DecideIr {
            b,
            function,
            i1t: function.int_type(1),
            i32t: function.int_type(32),
            i64t: function.int_type(64),
        }
    }

    /// Reads PTX special register `name` (`tid.x`, `ntid.x`, ...).
    fn sreg(&self, name: &str) -> Value<'m> {
        let cname = std::ffi::CString::new(format!("llvm.nvvm.read.ptx.sreg.{name}")).unwrap();
        self.b.call_nullary(self.function, &cname, self.i32t)
    }

    /// The block's dynamic shared memory in bytes (`%dynamic_smem_size`):
    /// an intrinsic from LLVM 20 on, inline PTX before.
    fn dynamic_shared_bytes(&self) -> Value<'m> {
        if !cfg!(feature = "llvm19") {
            return self.sreg("dynamic_smem_size");
        }
        self.b
            .inline_asm_nullary(self.i32t, "mov.u32 $0, %dynamic_smem_size;", "=r")
    }

    fn compare(&self, pred: IntPredicate, a: Value<'m>, b: Value<'m>) -> Value<'m> {
        self.b.icmp(pred, a, b, c"")
    }

    fn boolean(&self, value: bool) -> Value<'m> {
        self.i1t.constant(u64::from(value))
    }

    fn int(&self, value: i64) -> Value<'m> {
        self.i32t.signed(value)
    }
}

/// The block's threads and this thread's index in it (i32 values).
struct Threads<'m> {
    count: Value<'m>,
    tid: Value<'m>,
}

/// Where lines lie in the buffer once the line size is picked.
struct Lines<'m> {
    /// Bytes from one line to the next (i64, for addresses).
    pitch64: Value<'m>,
    /// Lines each thread of the block gets (the paper's CLN).
    cln: Value<'m>,
    /// Lines the buffer holds.
    capacity: Value<'m>,
    /// The index of the last thread of this thread's warp.
    warp_last: Value<'m>,
}

impl<'m> LoopSlice<'_, 'm> {
    /// The decision between the slices (paper section 3.2), per thread: rank the
    /// structures whose simulated hit rate is above 50% (read-write ones count
    /// half), give lines to the best CLN of them. Unless asked otherwise,
    /// read-only restrict structures qualify only alongside a written one:
    /// alone, a modern hardware L1 serves a read stream as well (measured,
    /// docs/benchmarks.md), while next to a cached write stream caching the
    /// read stream too pays (`upper`) when it is reused enough. With static
    /// rates, a structure's counts are its predicted hits per 100 accesses
    /// times its accesses per iteration, constants the decision folds.
    ///
    /// Returns, per structure, its line slot and the index of the line it
    /// holds when cached (`CachedLine`).
    pub(super) fn emit_decide(
        &self,
        decide: Block<'m>,
        cached: &[(Access<'m>, State<'m>, Mode)],
        lanes: &LaneTests<'m>,
    ) -> Vec<CachedLine<'m>> {
        let function = self.k.function;
        let mut structures: Vec<(State<'m>, Mode)> = Vec::new();
        for (_, s, m) in cached {
            if !structures.iter().any(|(o, _)| o.tag == s.tag) {
                structures.push((*s, *m));
            }
        }
        let b = TypedBuilder::before(decide.terminator().expect("a new block ends"));
        let ir = DecideIr::new(&b, function);
        let threads = self.emit_threads(&ir);
        let buffer_bytes = self.emit_buffer_bytes(&ir);
        let companion: Vec<bool> = structures
            .iter()
            .map(|(s, mode)| {
                read_only_companion(s.restrict, *mode, self.cache_read_only())
                    && !self.chosen.rereads.contains(&s.id)
            })
            .collect();
        let line = self.emit_line_size(&ir, &threads, buffer_bytes, &companion);
        let lines = self.emit_lines(&ir, &threads, buffer_bytes, line);
        let (eligible, score) = self.emit_eligible(&ir, &structures, &companion, lanes);
        (0..structures.len())
            .map(|d| CachedLine {
                slot: structures[d].0.line,
                index: self.emit_assignment(
                    &ir,
                    d,
                    &structures,
                    (&companion, &eligible, &score),
                    &threads,
                    &lines,
                ),
            })
            .collect()
    }

    /// The block's size and this thread's index in it.
    fn emit_threads(&self, ir: &DecideIr<'_, 'm>) -> Threads<'m> {
        let r = ir.b;
        let (tx, ty, tz) = (ir.sreg("tid.x"), ir.sreg("tid.y"), ir.sreg("tid.z"));
        let (nx, ny, nz) = (ir.sreg("ntid.x"), ir.sreg("ntid.y"), ir.sreg("ntid.z"));
        let count = r.mul(r.mul(nx, ny, c""), nz, c"sl1.threads");
        let tid = r.add(
            tx,
            r.mul(nx, r.add(ty, r.mul(ny, tz, c""), c""), c""),
            c"sl1.tid",
        );
        Threads { count, tid }
    }

    /// The buffer's bytes: what the launch gave a launch-sized one (all its
    /// dynamic shared memory: the kernel has none of its own), up to the
    /// size a static one would have.
    fn emit_buffer_bytes(&self, ir: &DecideIr<'_, 'm>) -> Value<'m> {
        let most = ir.int(self.plan.buffer as i64);
        if self.plan.launch_bytes.is_none() {
            return most;
        }
        let given = ir.dynamic_shared_bytes();
        let less = ir.compare(IntPredicate::LLVMIntULT, given, most);
        ir.b.select(less, given, most, c"sl1.buffer.bytes")
    }

    /// The line size: the largest that gives every structure of the loop a
    /// line for every thread of the block, from the smallest up (fits for a
    /// size implies fits for the smaller ones). The same for the whole
    /// block, so the threads' lines never overlap; in a kernel of several
    /// sliced loops, the same in every loop (sized for all the kernel's
    /// structures). Where only the smallest size fits every structure and
    /// few threads share an SM, the written structures alone may size a
    /// longer line (`structures_to_fit`); where a longer one fits every
    /// structure, every structure keeps its line: sized for the written ones
    /// alone, `upper` at 132x256 with lines up to 128 B gave its output
    /// 128 B lines and left its input direct for most warps: 1.82 ms, 0.32
    /// ms sized for both (H100, 2026-11-26,
    /// `docs/results/2026-11-26-h100-max-line-128-fit.txt`).
    fn emit_line_size(
        &self,
        ir: &DecideIr<'_, 'm>,
        threads: &Threads<'m>,
        buffer_bytes: Value<'m>,
        companion: &[bool],
    ) -> Value<'m> {
        let (r, i32t) = (ir.b, ir.i32t);
        let smallest = i32t.signed(i64::from(self.plan.lines.smallest));
        if self.slots.line_bytes.is_none() {
            return smallest;
        }
        let written = companion.iter().filter(|c| !**c).count();
        let total = companion.len();
        let largest_fitting = |sized: Value<'m>, name: &std::ffi::CStr| {
            let all = r.mul(threads.count, sized, c"");
            let mut line = smallest;
            for size in self.plan.lines.all().into_iter().skip(1) {
                let pitch = i32t.signed(i64::from(size + self.plan.pad));
                let need = r.mul(all, pitch, c"");
                let fits = ir.compare(IntPredicate::LLVMIntULE, need, buffer_bytes);
                line = r.select(fits, i32t.signed(i64::from(size)), line, name);
            }
            line
        };
        if let Some(all) = self.kernel_structures() {
            return largest_fitting(i32t.signed(all as i64), c"sl1.line.size");
        }
        if written == 0 || written == total {
            return largest_fitting(i32t.signed(total as i64), c"sl1.line.size");
        }
        let fitted = self.structures_to_fit(ir, written, total);
        if self.plan.lines.all().len() <= 2 {
            // Two sizes: the fitted structures' size is the pick (it is
            // the larger one wherever every structure's is).
            return largest_fitting(fitted, c"sl1.line.size");
        }
        let for_all = largest_fitting(i32t.signed(total as i64), c"sl1.line.all");
        let for_fitted = largest_fitting(fitted, c"sl1.line.fitted");
        let only_smallest = ir.compare(IntPredicate::LLVMIntEQ, for_all, smallest);
        r.select(only_smallest, for_fitted, for_all, c"sl1.line.size")
    }

    /// Records the picked line size and lays the lines out: `pitch` bytes
    /// apart (the line and its padding), CLN lines a thread. Warp
    /// threshold: line `rank` of a thread fits when the slot of the last
    /// thread of its warp does, so that the first warps of a block get
    /// lines where the buffer cannot give every thread one (rank < CLN is
    /// the case where all threads fit). Loops with a block barrier keep
    /// rank < CLN: their version must be the same for the whole block.
    fn emit_lines(
        &self,
        ir: &DecideIr<'_, 'm>,
        threads: &Threads<'m>,
        buffer_bytes: Value<'m>,
        line: Value<'m>,
    ) -> Lines<'m> {
        let (r, i32t, i64t) = (ir.b, ir.i32t, ir.i64t);
        let line64 = r.zext_to(line, i64t, c"");
        if let Some(slot) = self.slots.line_bytes {
            ir.b.store(line64, slot);
        }
        let pitch = r.add(line, i32t.signed(i64::from(self.plan.pad)), c"");
        let pitch64 = r.zext_to(pitch, i64t, c"");
        let per_line = r.mul(threads.count, pitch, c"");
        let cln = r.udiv(buffer_bytes, per_line, c"sl1.cln");
        let capacity = r.udiv(buffer_bytes, pitch, c"sl1.capacity");
        let last = r.or(threads.tid, i32t.signed(31), c"");
        let block_last = r.sub(threads.count, i32t.signed(1), c"");
        let inside = ir.compare(IntPredicate::LLVMIntULT, last, block_last);
        let warp_last = r.select(inside, last, block_last, c"sl1.warp.last");
        Lines {
            pitch64,
            cln,
            capacity,
            warp_last,
        }
    }

    /// Each structure's eligibility (an i1: its hit rate is above 50%, its
    /// lanes are apart, and a companion rides with a cached written
    /// structure at a high rate of its own) and its score (hits; read-only
    /// structures count twice).
    fn emit_eligible(
        &self,
        ir: &DecideIr<'_, 'm>,
        structures: &[(State<'m>, Mode)],
        companion: &[bool],
        lanes: &LaneTests<'m>,
    ) -> (Vec<Value<'m>>, Vec<Value<'m>>) {
        let (r, i32t, i64t) = (ir.b, ir.i32t, ir.i64t);
        // (accesses, hits) per structure: simulated, or predicted.
        let counts: Vec<(Value<'m>, Value<'m>)> = structures
            .iter()
            .map(|(s, _)| match self.static_rates().map(|r| r[&s.id]) {
                Some(rate) => (
                    i32t.signed(100 * i64::from(rate.sites)),
                    i32t.signed(i64::from(rate.hit_percent * rate.sites)),
                ),
                None => (ir.b.load(i32t, s.sim_accesses), ir.b.load(i32t, s.sim_hits)),
            })
            .collect();
        let mut eligible = Vec::new();
        let mut score = Vec::new();
        for ((_, mode), &(acc, hits)) in structures.iter().zip(&counts) {
            let twice = r.shl(hits, i32t.signed(1), c"");
            eligible.push(ir.compare(IntPredicate::LLVMIntUGT, twice, acc));
            score.push(if *mode == Mode::ReadOnly { twice } else { hits });
        }
        // Lanes close together share the hardware's lines (`lanes`):
        // restrict structures one by one, the others only all together
        // (their lines are looked up as a group).
        for ((s, _), e) in structures.iter().zip(eligible.iter_mut()) {
            if let Some(&apart) = lanes.apart.get(&s.id).filter(|_| s.restrict) {
                *e = r.and(*e, apart, c"");
            }
        }
        if let Some(declined) = lanes.declined {
            let apart = r.not(declined, c"");
            for e in eligible.iter_mut() {
                *e = r.and(*e, apart, c"");
            }
        }
        let states: Vec<&State<'m>> = structures.iter().map(|(s, _)| s).collect();
        if self.streaming_group(&states) {
            let crowded = self.emit_crowded(ir);
            for ((s, _), e) in structures.iter().zip(eligible.iter_mut()) {
                if !s.restrict {
                    *e = r.and(*e, crowded, c"");
                }
            }
        }
        let mut writes_cached = ir.boolean(false);
        for (e, _) in eligible.iter().zip(companion).filter(|(_, c)| !**c) {
            writes_cached = r.or(writes_cached, *e, c"");
        }
        for ((e, c), &(acc, hits)) in eligible.iter_mut().zip(companion).zip(&counts) {
            if *c {
                // A companion also needs a high hit rate of its own: a
                // thread that caches a read stream it reuses little
                // (random lookups) waits on shared-memory fills the
                // hardware L1 would have served, and its warp with it.
                // In 64 bits: 100 times a 32-bit count does not fit 32.
                let wide = |v| r.zext_to(v, i64t, c"");
                let acc = wide(acc);
                let hits = wide(hits);
                let scaled_hits = r.mul(hits, i64t.signed(100), c"");
                let scaled_accesses = r.mul(acc, i64t.signed(COMPANION_MIN_HIT_PERCENT), c"");
                let reused = ir.compare(IntPredicate::LLVMIntUGE, scaled_hits, scaled_accesses);
                *e = r.and(*e, writes_cached, c"");
                *e = r.and(*e, reused, c"");
            }
        }
        (eligible, score)
    }

    /// Ranks structure `d` among the eligible ones and gives it a line when
    /// its rank fits: stores its cached flag and its line's address (the
    /// buffer's start when it gets none). Returns the index of the line
    /// it gets when cached.
    fn emit_assignment(
        &self,
        ir: &DecideIr<'_, 'm>,
        d: usize,
        structures: &[(State<'m>, Mode)],
        (companion, eligible, score): (&[bool], &[Value<'m>], &[Value<'m>]),
        threads: &Threads<'m>,
        lines: &Lines<'m>,
    ) -> Value<'m> {
        let (r, i32t, i64t) = (ir.b, ir.i32t, ir.i64t);
        let s = &structures[d].0;
        let mut rank = i32t.signed(0);
        for e in 0..structures.len() {
            if e == d {
                continue;
            }
            let pred = if e < d {
                IntPredicate::LLVMIntUGE
            } else {
                IntPredicate::LLVMIntUGT
            };
            // Companions rank after the written structures: a line
            // for a read stream alone saves little (see above).
            let better = match (companion[e], companion[d]) {
                (false, true) => ir.boolean(true),
                (true, false) => ir.boolean(false),
                _ => ir.compare(pred, score[e], score[d]),
            };
            let counts = r.and(better, eligible[e], c"");
            rank = r.add(rank, r.zext_to(counts, i32t, c""), c"");
        }
        let fits = if self.uniform() {
            ir.compare(IntPredicate::LLVMIntULT, rank, lines.cln)
        } else {
            let slot = r.add(r.mul(rank, threads.count, c""), lines.warp_last, c"");
            r.icmp(IntPredicate::LLVMIntULT, slot, lines.capacity, c"sl1.fits")
        };
        let on = if self.options().force_uncached {
            fits.ty().null()
        } else {
            r.and(eligible[d], fits, c"sl1.cached")
        };
        ir.b.store(on, s.cached);
        if let Some(stats) = &self.slots.stats {
            let hits = ir.b.load(i32t, s.sim_hits);
            let accesses = ir.b.load(i32t, s.sim_accesses);
            stats.record_decision(ir.b, s, hits, accesses, on);
        }
        // Slot-major: line `rank` of thread `tid` is element rank*threads + tid.
        let index = r.add(r.mul(rank, threads.count, c""), threads.tid, c"");
        let index = r.zext_to(index, i64t, c"");
        let ptr = line_address(r, self.slots.buffer, index, lines.pitch64, c"sl1.line");
        let chosen = r.select(on, ptr, self.slots.buffer, c"");
        ir.b.store(chosen, s.line);
        index
    }
}

/// Threads per SM whose read streams the hardware L1 holds (measured on the
/// H100 with `upper`: one 1024-thread block per SM reads its input through
/// L1 as fast as through S-L1 lines, two blocks thrash it: 128 B L1 lines per
/// thread outgrow the L1 left beside shared memory).
pub(super) const L1_RESIDENT_THREADS: i64 = 1024;

/// Threads an SM holds at most (compute capability 8.0 and later).
const MAX_THREADS_PER_SM: i64 = 2048;

impl<'m> LoopSlice<'_, 'm> {
    /// How many structures the line size must fit for every thread: only
    /// the `written` ones while few enough threads share an SM for the
    /// hardware L1 to serve the read-only companions (a longer line for the
    /// written structures then pays more: `upper` at 132x1024 ran 0.84 ms
    /// with 32 B for `out` alone, 1.18 ms with 16 B for both), else all
    /// `total` (at 264x1024, 2.24 ms against 1.78 ms).
    fn structures_to_fit(&self, ir: &DecideIr<'_, 'm>, written: usize, total: usize) -> Value<'m> {
        let i32t = ir.i32t;
        ir.b.select(
            self.emit_crowded(ir),
            i32t.signed(total as i64),
            i32t.signed(written as i64),
            c"sl1.fitted",
        )
    }

    /// Whether more threads share an SM than the hardware L1 holds the
    /// streams of (`L1_RESIDENT_THREADS`), an i1. Resident threads are
    /// estimated from the grid spread over the SMs (`%nsmid`) and the
    /// blocks an SM holds at most.
    fn emit_crowded(&self, ir: &DecideIr<'_, 'm>) -> Value<'m> {
        let (r, i32t) = (ir.b, ir.i32t);
        let threads = r.mul(
            r.mul(ir.sreg("ntid.x"), ir.sreg("ntid.y"), c""),
            ir.sreg("ntid.z"),
            c"",
        );
        let grid = r.mul(
            r.mul(ir.sreg("nctaid.x"), ir.sreg("nctaid.y"), c""),
            ir.sreg("nctaid.z"),
            c"",
        );
        let sms = ir.sreg("nsmid");
        let one = i32t.signed(1);
        let per_sm = r.udiv(r.sub(r.add(grid, sms, c""), one, c""), sms, c"");
        let fit = r.udiv(i32t.signed(MAX_THREADS_PER_SM), threads, c"");
        let fewer = r.icmp(IntPredicate::LLVMIntULT, per_sm, fit, c"");
        let blocks = r.select(fewer, per_sm, fit, c"");
        let resident = r.mul(blocks, threads, c"sl1.resident");
        r.icmp(
            IntPredicate::LLVMIntUGT,
            resident,
            i32t.signed(L1_RESIDENT_THREADS),
            c"sl1.crowded",
        )
    }
}

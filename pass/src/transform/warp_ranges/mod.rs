//! Warp ranges: a loop whose iterations are independent over each
//! thread's contiguous chunk (`upper`: `out[i] = f(in[i])` for `i` in the
//! thread's `[begin, end)`) gets a copy a whole warp runs over the union of
//! its lanes' chunks, lane-interleaved: the lanes read and write 16 bytes
//! each, neighbouring lanes neighbouring pieces, so that one request moves
//! 512 contiguous bytes, without lines in shared memory or their fills.
//! Any lane may run any iteration because the iterations are independent
//! (`candidate`); the copy is entered when a run-time check before the loop
//! finds all 32 lanes there, each lane's chunk starting where the lane
//! before it ends in every structure (shuffles and a vote), and the
//! structures' first elements equally aligned. Otherwise the loop runs as
//! it was, through the lines where S-L1 caches it.
//!
//! The copy walks the warp's range in three loops: the elements before the
//! first 16-byte boundary one a lane, whole pieces (the body copied once per
//! element of a piece, a byte loop's copies made one computation on byte
//! vectors, `tuning::byte_lanes`, which `byte_words` does on words), then
//! the elements after the last boundary; a `__syncwarp` after them makes
//! each lane's chunk, written by other lanes, visible to it. Kernels with
//! fences, barriers, atomics or calls are left alone: their memory order is
//! by thread, which the copy changes.
//!
//! On the H200 a hand-written copy of this shape ran `upper` at 1.11x its
//! memory floor where the lines ran 1.41x
//! (docs/results/2026-11-30-h200-upper-warp-ranges-16-bytes.txt).

use std::collections::HashMap;

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::analysis::lone_lane::lone_lane_guard;
use crate::analysis::{analyse_kernel, loop_forest, sync};
use crate::llvm::cfg::{clone_expression, insert_block_before, split_edge};
use crate::llvm::ir::{Block, Function, IntPredicate, Opcode, Type, Value};
use crate::llvm::metadata;
use crate::llvm::typed::TypedBuilder;

mod candidate;

use candidate::{candidate, Access, Candidate, PIECE_BYTES};

/// Lanes of a warp.
const WARP: u64 = 32;
/// Every lane of a warp, as a shuffle's or vote's mask.
const ALL_LANES: u64 = 0xffff_ffff;

/// Gives every loop of `kernel` that qualifies a warp-range copy; returns
/// the headers of the loops that got one.
pub fn add_warp_ranges<'ctx>(module: &Module<'ctx>, kernel: FunctionValue<'ctx>) -> Vec<String> {
    let function = Function::of(module, kernel);
    let headers: Vec<Block<'_>> = {
        let k = analyse_kernel(module, kernel);
        if orders_memory(&k.blocks) {
            return Vec::new();
        }
        // A loop one lane of a warp runs never finds the warp there.
        k.loops
            .loops
            .iter()
            .filter(|l| lone_lane_guard(&k, l.header).is_none())
            .filter(|l| candidate(function, &k.blocks, l).is_ok())
            .map(|l| k.blocks[l.header])
            .collect()
    };
    let mut made = Vec::new();
    for header in headers {
        // The loop gets a preheader of its own first (which rebuilds its
        // phis), then is looked at again.
        if let Some(entering) = header
            .predecessors()
            .into_iter()
            .find(|&p| p != header && p.only_branch_target() != Some(header))
        {
            split_edge(entering, header, "sl1.warp.preheader");
        }
        let (blocks, forest) = loop_forest(function);
        let Some(c) = forest
            .loops
            .iter()
            .find(|l| blocks[l.header] == header)
            .and_then(|l| candidate(function, &blocks, l).ok())
        else {
            continue;
        };
        if build(function, &c).is_some() {
            made.push(c.body.name());
        }
    }
    made
}

/// Whether a kernel has fences, barriers, calls, collectives or atomics.
fn orders_memory(blocks: &[Block<'_>]) -> bool {
    !sync::collect_sync_points(blocks).is_empty()
        || !sync::convergent_calls(blocks).is_empty()
        || blocks.iter().flat_map(|b| b.instructions()).any(|i| {
            matches!(
                i.opcode(),
                Some(Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg | Opcode::LLVMFence)
            )
        })
}

/// The values of the check, built in the preheader: each lane's first
/// element of every structure and its trip count.
struct Entry<'m> {
    /// The index's first value.
    start: Value<'m>,
    /// Iterations this lane runs (at least 1; 0 when it would wrap).
    trips: Value<'m>,
    /// The first address of each address the accesses use, once each.
    firsts: Vec<Value<'m>>,
    /// Which of `firsts` each access uses, by access.
    slots: Vec<usize>,
}

/// Builds the check and the copy before `c`'s loop; `None` where the loop
/// has no preheader of its own or an address of the first iteration cannot
/// be computed before it (nothing is changed then).
fn build<'m>(function: Function<'m>, c: &Candidate<'m>) -> Option<()> {
    let preheader = c.entering;
    if preheader.only_branch_target() != Some(c.body) {
        return None;
    }
    let term = preheader.terminator()?;
    let start = c.index.incoming_from(preheader)?;
    let first_values = HashMap::from([(c.index, start)]);
    let at_first = |v: Value<'m>| -> Option<Value<'m>> {
        if v == c.index {
            Some(start)
        } else if v.parent_block() == Some(c.body) {
            clone_expression(v, c.body, &first_values, term)
        } else {
            Some(v)
        }
    };
    let mut addresses: Vec<Value<'m>> = Vec::new();
    let mut slots = Vec::new();
    for a in &c.accesses {
        let slot = addresses
            .iter()
            .position(|&x| x == a.address)
            .unwrap_or_else(|| {
                addresses.push(a.address);
                addresses.len() - 1
            });
        slots.push(slot);
    }
    let firsts = addresses
        .iter()
        .map(|&a| at_first(a))
        .collect::<Option<Vec<Value<'m>>>>()?;
    let x_first = at_first(c.x)?;
    let b = TypedBuilder::before(term);
    let i64t = b.int_type(64);
    let distance = b.sub(c.bound, x_first, c"sl1.warp.distance");
    let count = if c.predicate == IntPredicate::LLVMIntNE {
        distance
    } else {
        let stays = b.icmp(c.predicate, x_first, c.bound, c"sl1.warp.stays");
        b.select(
            stays,
            distance,
            distance.ty().constant(0),
            c"sl1.warp.count",
        )
    };
    let trips = b.add(widen(&b, count), i64t.constant(1), c"sl1.warp.trips");
    let entry = Entry {
        start,
        trips,
        firsts,
        slots,
    };
    let active = nvvm(&b, function, "llvm.nvvm.activemask", &[]);
    let full = b.icmp_eq(active, b.int_type(32).constant(ALL_LANES));
    let check = insert_block_before(c.body, c"sl1.warp.check");
    let warp = insert_block_before(c.body, c"sl1.warp.range");
    b.cond_br(full, check, c.body);
    term.erase();
    c.index.add_incoming(&[(start, check)]);
    let adjacent = adjacent_chunks(function, c, &entry, check);
    TypedBuilder::at_end(check).cond_br(adjacent, warp, c.body);
    walk_range(function, c, &entry, warp);
    Some(())
}

/// `v` (an integer of at most 64 bits) zero-extended to 64 bits.
fn widen<'m>(b: &TypedBuilder<'m>, v: Value<'m>) -> Value<'m> {
    if v.ty().integer_width() == Some(64) {
        v
    } else {
        b.zext(v, 64, c"sl1.warp.wide")
    }
}

/// A call of the (not overloaded) NVVM intrinsic `name`.
fn nvvm<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    name: &str,
    args: &[Value<'m>],
) -> Value<'m> {
    b.call_intrinsic(function, name, args, c"")
}

/// `shfl.sync` of 64-bit `v` over the whole warp (`kind` `down` or `idx`,
/// by `lane`), as two 32-bit shuffles.
fn shuffle<'m>(
    b: &TypedBuilder<'m>,
    function: Function<'m>,
    kind: &str,
    v: Value<'m>,
    lane: u64,
) -> Value<'m> {
    let (i32t, i64t) = (b.int_type(32), b.int_type(64));
    let name = format!("llvm.nvvm.shfl.sync.{kind}.i32");
    let half = |h: Value<'m>| {
        let args = [
            i32t.constant(ALL_LANES),
            h,
            i32t.constant(lane),
            i32t.constant(WARP - 1),
        ];
        b.zext(nvvm(b, function, &name, &args), 64, c"")
    };
    let low = half(b.trunc(v, i32t, c""));
    let high = half(b.trunc(b.lshr(v, i64t.constant(32), c""), i32t, c""));
    b.or(
        b.shl(high, i64t.constant(32), c""),
        low,
        c"sl1.warp.shuffled",
    )
}

/// The check, at the end of `check`: in every lane, the next lane's first
/// element of each structure (and its index, where the body uses it)
/// follows this lane's last, each structure's first element lies as far
/// from a 16-byte boundary as the others', elements are aligned, and the
/// trip count did not wrap. Returns the vote of all lanes.
fn adjacent_chunks<'m>(
    function: Function<'m>,
    c: &Candidate<'m>,
    entry: &Entry<'m>,
    check: Block<'m>,
) -> Value<'m> {
    let b = TypedBuilder::at_end(check);
    let i64t = b.int_type(64);
    let lane = nvvm(&b, function, "llvm.nvvm.read.ptx.sreg.laneid", &[]);
    let last = b.icmp_eq(lane, b.int_type(32).constant(WARP - 1));
    let chunk_bytes = b.mul(entry.trips, i64t.constant(u64::from(c.size)), c"");
    let mut ok = b.icmp(
        IntPredicate::LLVMIntNE,
        entry.trips,
        i64t.constant(0),
        c"sl1.warp.ok",
    );
    let mut follows = |first: Value<'m>, length: Value<'m>| {
        let next = shuffle(&b, function, "down", first, 1);
        let expected = b.add(first, length, c"");
        let joined = b.or(last, b.icmp_eq(next, expected), c"");
        ok = b.and(ok, joined, c"sl1.warp.ok");
    };
    let addresses: Vec<Value<'m>> = entry
        .firsts
        .iter()
        .map(|&f| b.ptr_to_int(f, i64t, c"sl1.warp.first"))
        .collect();
    for &a in &addresses {
        follows(a, chunk_bytes);
    }
    if c.index_used {
        let start = widen(&b, entry.start);
        let width = entry.start.ty().integer_width().unwrap_or(64);
        let trips = b.and(entry.trips, i64t.constant(mask(width)), c"");
        let expected_mask = i64t.constant(mask(width));
        let next = shuffle(&b, function, "down", start, 1);
        let wrapped = b.and(b.add(start, trips, c""), expected_mask, c"");
        let joined = b.or(last, b.icmp_eq(next, wrapped), c"");
        ok = b.and(ok, joined, c"sl1.warp.ok");
    }
    let misaligned = i64t.constant(u64::from(PIECE_BYTES - 1));
    let element = i64t.constant(u64::from(c.size - 1));
    let zero = i64t.constant(0);
    ok = b.and(ok, b.icmp_eq(b.and(addresses[0], element, c""), zero), c"");
    for &a in &addresses[1..] {
        let apart = b.and(b.sub(a, addresses[0], c""), misaligned, c"");
        ok = b.and(ok, b.icmp_eq(apart, zero), c"sl1.warp.ok");
    }
    let vote = nvvm(
        &b,
        function,
        "llvm.nvvm.vote.all.sync",
        &[b.int_type(32).constant(ALL_LANES), ok],
    );
    vote
}

/// The low `bits` bits set.
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The warp's range, walked from `warp` (which the check enters) to the
/// loop's exit.
fn walk_range<'m>(function: Function<'m>, c: &Candidate<'m>, entry: &Entry<'m>, warp: Block<'m>) {
    let b = TypedBuilder::at_end(warp);
    let i64t = b.int_type(64);
    let size = u64::from(c.size);
    let lane = b.zext(
        nvvm(&b, function, "llvm.nvvm.read.ptx.sreg.laneid", &[]),
        64,
        c"sl1.warp.lane",
    );
    // Lane 0's first element of each structure, reached from this lane's
    // own pointer (which keeps what LLVM knows of the argument).
    let owns: Vec<Value<'m>> = entry
        .firsts
        .iter()
        .map(|&f| b.ptr_to_int(f, i64t, c""))
        .collect();
    let lane0s: Vec<Value<'m>> = owns
        .iter()
        .map(|&own| shuffle(&b, function, "idx", own, 0))
        .collect();
    let bases: Vec<Value<'m>> = entry
        .firsts
        .iter()
        .zip(owns.iter().zip(&lane0s))
        .map(|(&f, (&own, &lane0))| {
            let back = b.sub(lane0, own, c"");
            b.gep(b.int_type(8), f, &[back], c"sl1.warp.base")
        })
        .collect();
    let first0 = lane0s[0];
    let own_end = b.add(owns[0], b.mul(entry.trips, i64t.constant(size), c""), c"");
    let end0 = shuffle(&b, function, "idx", own_end, WARP - 1);
    let shift = i64t.constant(u64::from(c.size.trailing_zeros()));
    let total = b.lshr(b.sub(end0, first0, c""), shift, c"sl1.warp.elements");
    let index0 = c
        .index_used
        .then(|| shuffle(&b, function, "idx", widen(&b, entry.start), 0));
    let to_boundary = b.and(
        b.sub(
            i64t.constant(u64::from(PIECE_BYTES)),
            b.and(first0, i64t.constant(15), c""),
            c"",
        ),
        i64t.constant(15),
        c"",
    );
    let head_wanted = b.lshr(to_boundary, shift, c"");
    let head_fits = b.icmp(IntPredicate::LLVMIntULT, head_wanted, total, c"");
    let head = b.select(head_fits, head_wanted, total, c"sl1.warp.head");
    let per_piece = u64::from(PIECE_BYTES / c.size);
    let pieces = b.udiv(
        b.sub(total, head, c""),
        i64t.constant(per_piece),
        c"sl1.warp.pieces",
    );
    let tail_start = b.add(
        head,
        b.mul(pieces, i64t.constant(per_piece), c""),
        c"sl1.warp.tail",
    );
    let walk = Walk {
        c,
        bases: entry.slots.iter().map(|&slot| bases[slot]).collect(),
        index0,
    };
    let heads = insert_block_before(c.body, c"sl1.warp.heads");
    let head_body = insert_block_before(c.body, c"sl1.warp.heads.body");
    let piece_loop = insert_block_before(c.body, c"sl1.warp.pieces");
    let piece_body = insert_block_before(c.body, c"sl1.warp.pieces.body");
    let tails = insert_block_before(c.body, c"sl1.warp.tails");
    let tail_body = insert_block_before(c.body, c"sl1.warp.tails.body");
    let done = insert_block_before(c.body, c"sl1.warp.done");
    let tail_first = b.add(tail_start, lane, c"");
    b.br(heads);
    let g = lane_loop((heads, head_body, piece_loop), (lane, warp), head);
    walk.element(back_branch(head_body), g);
    let q = lane_loop((piece_loop, piece_body, tails), (lane, heads), pieces);
    let at = back_branch(piece_body);
    let first = TypedBuilder::before(at);
    let g = first.add(
        head,
        first.mul(q, i64t.constant(per_piece), c""),
        c"sl1.warp.piece",
    );
    walk.piece(at, g, per_piece as u32);
    let g = lane_loop((tails, tail_body, done), (tail_first, piece_loop), total);
    walk.element(back_branch(tail_body), g);
    let end = TypedBuilder::at_end(done);
    nvvm(
        &end,
        function,
        "llvm.nvvm.bar.warp.sync",
        &[end.int_type(32).constant(ALL_LANES)],
    );
    end.br(c.exit);
    for phi in c.exit.instructions().into_iter().filter(|i| i.is_phi()) {
        if let Some(v) = phi.incoming_from(c.body) {
            phi.add_incoming(&[(v, done)]);
        }
    }
}

/// The branch ending `body`, built by `lane_loop`.
fn back_branch(body: Block<'_>) -> Value<'_> {
    body.terminator().expect("lane_loop ends its body")
}

/// The tag on the test of a copy's loops (`is_copy`).
const COPY_TAG: &str = "sl1.warp.range";

/// Whether the loop headed by `header` is one of a warp-range copy's,
/// which the transform leaves alone.
pub(super) fn is_copy(header: Block<'_>) -> bool {
    header
        .terminator()
        .is_some_and(|t| metadata::has_tag(t, COPY_TAG))
}

/// A loop over `from`, `from + 32`, ... below `to`: `header` tests, `body`
/// (left ending in its back branch) runs, `after` follows. `from` comes
/// from block `entered`. Returns the loop's variable.
fn lane_loop<'m>(
    (header, body, after): (Block<'m>, Block<'m>, Block<'m>),
    (from, entered): (Value<'m>, Block<'m>),
    to: Value<'m>,
) -> Value<'m> {
    let b = TypedBuilder::at_end(header);
    let i64t = b.int_type(64);
    let g = b.phi(i64t, c"sl1.warp.g");
    let more = b.icmp(IntPredicate::LLVMIntULT, g, to, c"");
    metadata::tag(b.cond_br(more, body, after), COPY_TAG);
    let inner = TypedBuilder::at_end(body);
    let next = inner.add(g, i64t.constant(WARP), c"");
    inner.br(header);
    g.add_incoming(&[(from, entered), (next, body)]);
    g
}

/// What the copies of an iteration take: where each structure's range
/// starts and the index of its first element.
struct Walk<'a, 'm> {
    c: &'a Candidate<'m>,
    /// Lane 0's first element, by access.
    bases: Vec<Value<'m>>,
    /// Lane 0's first index (64 bits), where the body uses it.
    index0: Option<Value<'m>>,
}

impl<'m> Walk<'_, 'm> {
    /// The address of element `g` (i64) of access `k`'s range.
    fn address(&self, b: &TypedBuilder<'m>, k: usize, g: Value<'m>) -> Value<'m> {
        let bytes = b.mul(g, b.int_type(64).constant(u64::from(self.c.size)), c"");
        b.gep(b.int_type(8), self.bases[k], &[bytes], c"sl1.warp.at")
    }

    /// Iteration `g` of the warp's range, one element at a time, before
    /// `at`.
    fn element(&self, at: Value<'m>, g: Value<'m>) {
        self.copy(
            at,
            g,
            &mut |b, k, a| {
                let v = b.load(a.ty, self.address(b, k, g));
                v.set_alignment(a.inst.alignment());
                v
            },
            &mut |b, k, a, v| {
                let s = b.store(v, self.address(b, k, g));
                s.set_alignment(a.inst.alignment());
            },
        );
    }

    /// The `n` iterations from `g` (16 bytes of every structure, aligned),
    /// before `at`: each structure loaded and stored as one vector.
    fn piece(&self, at: Value<'m>, g: Value<'m>, n: u32) {
        let b = TypedBuilder::before(at);
        let mut vectors: HashMap<Value<'m>, Value<'m>> = HashMap::new();
        for (k, a) in self.c.accesses.iter().enumerate() {
            if a.is_load && self.c.live.contains(&a.inst) && !vectors.contains_key(&a.address) {
                let v = b.load(a.ty.vector(n), self.address(&b, k, g));
                v.set_alignment(PIECE_BYTES);
                vectors.insert(a.address, v);
            }
        }
        let mut stored: Vec<Vec<Value<'m>>> = vec![Vec::new(); self.c.accesses.len()];
        for j in 0..n {
            let gj = b.add(g, b.int_type(64).constant(u64::from(j)), c"");
            self.copy(
                at,
                gj,
                &mut |b, _, a| b.extract_element(vectors[&a.address], j),
                &mut |_, k, _, v| stored[k].push(v),
            );
        }
        for (k, a) in self.c.accesses.iter().enumerate() {
            if a.is_load {
                continue;
            }
            let values = &stored[k];
            let vector = vector_of(&b, at, a.ty, values);
            let s = b.store(vector, self.address(&b, k, g));
            s.set_alignment(PIECE_BYTES);
        }
    }

    /// One copy of the loop's live instructions before `at` for iteration
    /// `g`: loads from `load`, stored values to `store` (by access index).
    #[allow(clippy::type_complexity)]
    fn copy(
        &self,
        at: Value<'m>,
        g: Value<'m>,
        load: &mut dyn FnMut(&TypedBuilder<'m>, usize, &Access<'m>) -> Value<'m>,
        store: &mut dyn FnMut(&TypedBuilder<'m>, usize, &Access<'m>, Value<'m>),
    ) {
        let c = self.c;
        let b = &TypedBuilder::before(at);
        let mut copies: HashMap<Value<'m>, Value<'m>> = HashMap::new();
        if let Some(index0) = self.index0 {
            let index = b.add(index0, g, c"");
            let ty = c.index.ty();
            let index = if ty.integer_width() == Some(64) {
                index
            } else {
                b.trunc(index, ty, c"")
            };
            copies.insert(c.index, index);
        }
        let mapped =
            |copies: &HashMap<Value<'m>, Value<'m>>, v: Value<'m>| *copies.get(&v).unwrap_or(&v);
        for inst in c.body.instructions() {
            if let Some(k) = c.accesses.iter().position(|a| a.inst == inst) {
                let a = &c.accesses[k];
                if a.is_load {
                    if c.live.contains(&inst) {
                        copies.insert(inst, load(b, k, a));
                    }
                } else {
                    let value = inst.operand(0).expect("a store has its value");
                    store(b, k, a, mapped(&copies, value));
                }
            } else if c.live.contains(&inst) {
                let copy = inst.clone_before(at);
                for (i, operand) in inst.operands().into_iter().enumerate() {
                    if let Some(&m) = copies.get(&operand) {
                        copy.set_operand(i as u32, m);
                    }
                }
                copies.insert(inst, copy);
            }
        }
    }
}

/// `values` (of element type `ty`) as one vector built before `at`: a
/// byte vector from vector operations where every lane computes the same
/// expression (`byte_lanes`), else element by element.
fn vector_of<'m>(
    b: &TypedBuilder<'m>,
    at: Value<'m>,
    ty: Type<'m>,
    values: &[Value<'m>],
) -> Value<'m> {
    let bytes = ty.integer_width() == Some(8) && values.len() % 4 == 0;
    bytes
        .then(|| crate::tuning::byte_lanes::as_vector(at, values))
        .flatten()
        .unwrap_or_else(|| {
            values
                .iter()
                .enumerate()
                .fold(ty.vector(values.len() as u32).poison(), |w, (i, &v)| {
                    b.insert_element(w, v, i as u32)
                })
        })
}

//! The copy itself: the warp's range walked lane-interleaved, the elements
//! before the first 16-byte boundary one a lane, whole pieces 16 bytes a
//! lane, then the rest, between two warp barriers.

use std::collections::HashMap;

use crate::llvm::cfg::insert_block_before;
use crate::llvm::ir::{Block, Function, IntPredicate, Type, Value};
use crate::llvm::metadata;
use crate::llvm::typed::TypedBuilder;

use super::candidate::{Access, Candidate, PIECE_BYTES};
use super::check::Entry;
use super::warp::{nvvm, shuffle, widen, ALL_LANES, WARP};

/// The warp's range, walked from `warp` (which the check enters) to the
/// loop's exit.
pub(super) fn walk_range<'m>(
    function: Function<'m>,
    c: &Candidate<'m>,
    entry: &Entry<'m>,
    warp: Block<'m>,
) {
    let b = TypedBuilder::at_end(warp);
    warp_barrier(&b, function);
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
    warp_barrier(&end, function);
    end.br(c.exit);
    for phi in c.exit.instructions().into_iter().filter(|i| i.is_phi()) {
        if let Some(v) = phi.incoming_from(c.body) {
            phi.add_incoming(&[(v, done)]);
        }
    }
}

/// `__syncwarp()`: orders the memory accesses of the warp's lanes before
/// it before theirs after it.
fn warp_barrier(b: &TypedBuilder<'_>, function: Function<'_>) {
    nvvm(
        b,
        function,
        "llvm.nvvm.bar.warp.sync",
        &[b.int_type(32).constant(ALL_LANES)],
    );
}

/// The branch ending `body`, built by `lane_loop`.
pub(super) fn back_branch(body: Block<'_>) -> Value<'_> {
    body.terminator().expect("lane_loop ends its body")
}

/// The tag on the test of a copy's loops (`is_copy`).
pub(super) const COPY_TAG: &str = "sl1.warp.range";

/// Whether the loop headed by `header` is one of a warp-range copy's,
/// which the transform leaves alone.
pub(in crate::transform) fn is_copy(header: Block<'_>) -> bool {
    header
        .terminator()
        .is_some_and(|t| metadata::has_tag(t, COPY_TAG))
}

/// A loop over `from`, `from + 32`, ... below `to`: `header` tests, `body`
/// (left ending in its back branch) runs, `after` follows. `from` comes
/// from block `entered`. Returns the loop's variable.
pub(super) fn lane_loop<'m>(
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
pub(super) struct Walk<'a, 'm> {
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
pub(super) fn vector_of<'m>(
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

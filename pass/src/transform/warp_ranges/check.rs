//! The run-time check that lets a warp into its range: every lane there,
//! each lane's chunk after the one before in every structure, and the
//! structures equally aligned.

use crate::llvm::ir::{Block, Function, IntPredicate, Value};
use crate::llvm::typed::TypedBuilder;

use super::candidate::{Candidate, PIECE_BYTES};
use super::warp::{mask, nvvm, shuffle, widen, ALL_LANES, WARP};

/// The values of the check, built in the preheader: each lane's first
/// element of every structure and its trip count.
pub(super) struct Entry<'m> {
    /// The index's first value.
    pub(super) start: Value<'m>,
    /// Iterations this lane runs (at least 1; 0 when it would wrap).
    pub(super) trips: Value<'m>,
    /// The first address of each address the accesses use, once each.
    pub(super) firsts: Vec<Value<'m>>,
    /// Which of `firsts` each access uses, by access.
    pub(super) slots: Vec<usize>,
}

/// The check, at the end of `check`: in every lane, the next lane's first
/// element of each structure (and its index, where the body uses it)
/// follows this lane's last, each structure's first element lies as far
/// from a 16-byte boundary as the others', elements are aligned, and the
/// trip count did not wrap. Returns the vote of all lanes.
pub(super) fn adjacent_chunks<'m>(
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

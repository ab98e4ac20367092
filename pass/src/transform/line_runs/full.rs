//! Full runs: the run that follows a checked iteration at the first byte of
//! every structure's line covers the rest of those lines, a number of
//! iterations the pass knows (`length`). That run is unrolled here, one copy
//! of the loop body per iteration, each access at a constant offset from
//! its line with the alignment that offset has: LLVM's load/store vectorizer
//! then merges a byte loop's neighbouring shared-memory accesses into 4-byte
//! ones (a quarter of the shared-memory instructions). (LLVM's own unroller
//! would leave the accesses at alignment 1: the pitch lines lie apart is
//! beyond its known-bits search.) Each structure's line accesses carry an
//! alias scope of their own, with the other structures' scopes as
//! `noalias` (lines of two structures never overlap), so the loads of one
//! line may move past the stores to another.

use crate::llvm::ir::{Block, Function, IntPredicate, Value};
use crate::llvm::metadata::AliasScopes;
use crate::llvm::typed::TypedBuilder;
use crate::runtime::Runtime;

use super::site::{RunSite, Stay};

/// Iterations of a full run: after an access at a line's first byte, how
/// many next ones stay in every structure's line.
pub(super) fn length(sites: &[RunSite<'_>], line: u32) -> i64 {
    sites
        .iter()
        .map(|s| (i64::from(line) - i64::from(s.kind.size)) / s.stride)
        .min()
        .unwrap_or(0)
}

/// The first iteration of a full run whose accesses all lie at offsets
/// aligned to `align` (the run's iteration t is `stride * (t + 1)` bytes
/// into its line); from there on each next aligned group of a structure
/// starts aligned too.
pub(super) fn first_aligned(sites: &[RunSite<'_>], align: u32) -> i64 {
    let align = i64::from(align);
    (0..align)
        .find(|t| sites.iter().all(|s| (s.stride * (t + 1)) % align == 0))
        .unwrap_or(i64::MAX)
}

/// Instructions a kernel may gain from one full run's copies: a loop body
/// this size or smaller is copied once per iteration.
const MOST_COPIED_INSTRUCTIONS: usize = 4096;

/// Whether `len` copies of the loop body `blocks` stay within
/// `MOST_COPIED_INSTRUCTIONS`.
pub(super) fn small_enough(blocks: &[Block<'_>], len: i64) -> bool {
    let body: usize = blocks.iter().map(|b| b.instructions().len()).sum();
    body.saturating_mul(len.max(0) as usize) <= MOST_COPIED_INSTRUCTIONS
}

/// Whether this checked iteration starts a full run: every access at its
/// line's first byte and the run as long as `len` (so the loop has that
/// many iterations left).
///
/// The stays' values and `left` are i64 values available at the builder.
pub(super) fn starts<'m>(
    b: &TypedBuilder<'m>,
    stays: &[Stay<'m>],
    left: Value<'m>,
    len: i64,
) -> Value<'m> {
    let i64t = left.ty();
    let mut go = b.icmp(
        IntPredicate::LLVMIntEQ,
        left,
        i64t.signed(len),
        c"sl1.run.full",
    );
    for stay in stays {
        let first = b.icmp(IntPredicate::LLVMIntEQ, stay.d, i64t.signed(0), c"");
        go = b.and(go, first, c"sl1.run.full");
    }
    go
}

/// The alias scopes of a kernel's lines: one per structure.
pub(super) struct LineScopes(AliasScopes);

impl LineScopes {
    /// Scopes for the structures of `sites`, named after `kernel`.
    pub(super) fn new(function: Function<'_>, kernel: &str, sites: &[RunSite<'_>]) -> LineScopes {
        let mut ids: Vec<u32> = sites.iter().map(|s| s.state.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let scopes = ids
            .into_iter()
            .map(|id| (id, format!("sl1.line.{kernel}.{id}")));
        LineScopes(AliasScopes::new(function, "sl1.lines", scopes))
    }

    /// Marks `access` (a load or store of structure `id`'s line) as in that
    /// line's scope and apart from every other line.
    fn mark(&self, access: Value<'_>, id: u32) {
        self.0.mark(access, id)
    }
}

/// Replaces `access`, the `sl1.load` / `sl1.store` call of `site` in
/// iteration `t` (from 0) of a full run, by the shared-memory access
/// itself: `stride * (t + 1)` bytes into its line, which the checked access
/// before the run took at its first byte. The access carries its line's
/// scope and the alignment its offset has.
///
/// `access` is such a call (operand 0 its address, 1 a store's value) and
/// `line` its line, a shared pointer that dominates it.
pub(super) fn in_place<'m>(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    access: Value<'m>,
    site: &RunSite<'m>,
    line: Value<'m>,
    t: i64,
) {
    let b = TypedBuilder::before(access);
    let offset = site.stride * (t + 1);
    let at = b.gep(
        b.int_type(8),
        line,
        &[b.int_type(64).signed(offset)],
        c"sl1.full",
    );
    let moved = if site.is_load {
        let v = b.load(site.ty, at);
        access.replace_all_uses_with(v);
        v
    } else {
        b.store(stored_value(access), at)
    };
    // Lines start aligned to `shared_line_align`; the offset's lowest set
    // bit bounds what it keeps of that.
    let align = rt.shared_line_align().min(1 << offset.trailing_zeros());
    moved.set_alignment(align.max(rt.in_line_align(site.kind)));
    scopes.mark(moved, site.state.id);
    access.erase();
}

/// The value a run's `sl1.store` call writes (its operand 1).
fn stored_value(access: Value<'_>) -> Value<'_> {
    access.operand(1).expect("a store call has its value")
}

/// Iterations whose accesses of `site` one aligned word of its line holds
/// (`align` bytes, the lines' alignment in shared memory): its scalar
/// elements lie side by side, two or more to a word. A full run then moves
/// the word with one access instead of LLVM's vectorizers merging one per
/// iteration, whose time grows faster than the run's length (a 128 B line
/// of bytes: 127 loads and stores in one block).
pub(super) fn word_iterations(site: &RunSite<'_>, align: u32) -> Option<i64> {
    let size = i64::from(site.kind.size);
    let align = i64::from(align);
    let scalar =
        site.ty.integer_width().is_some() || site.ty.float_width().is_some_and(|w| w <= 64);
    (scalar && site.stride == size && size < align && align % size == 0).then_some(align / size)
}

/// The iteration of a full run whose access of `site` starts the word
/// (`align` bytes) that iteration `t`'s lies in, and where in the word
/// `t`'s is.
pub(super) fn word_of(site: &RunSite<'_>, t: i64, align: u32) -> (i64, u32) {
    let into_word = (site.stride * (t + 1)) % i64::from(align) / site.stride;
    (t - into_word, into_word as u32)
}

/// Loads, before `before`, the word of `site`'s line (`line`, a shared
/// pointer available there) that full-run iterations `first` on read, as a
/// vector of `per_word` elements.
pub(super) fn load_word<'m>(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    before: Value<'m>,
    (site, line): (&RunSite<'m>, Value<'m>),
    first: i64,
    per_word: i64,
) -> Value<'m> {
    let b = TypedBuilder::before(before);
    let ty = site.ty.vector(per_word as u32);
    let word = b.load(ty, word_at(&b, site, line, first));
    mark_word(rt, scopes, word, site);
    word
}

/// Replaces `access`, a full run's `sl1.load` call of element `index` of
/// `word` (which dominates it), by that element.
pub(super) fn take_from_word<'m>(access: Value<'m>, word: Value<'m>, index: u32) {
    let v = TypedBuilder::before(access).extract_element(word, index);
    access.replace_all_uses_with(v);
    access.erase();
}

/// Replaces `access`, the `sl1.store` call of `site` in the last of the
/// full-run iterations from `first` that share a word, by one store of the
/// word: `values`, the iterations' stored values in order, all available
/// at `access`.
pub(super) fn store_word<'m>(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    access: Value<'m>,
    (site, line): (&RunSite<'m>, Value<'m>),
    first: i64,
    values: &[Value<'m>],
) {
    let b = TypedBuilder::before(access);
    let ty = site.ty.vector(values.len() as u32);
    let word = crate::tuning::byte_lanes::as_vector(access, values).unwrap_or_else(|| {
        values
            .iter()
            .enumerate()
            .fold(ty.poison(), |w, (i, &v)| b.insert_element(w, v, i as u32))
    });
    let stored = b.store(word, word_at(&b, site, line, first));
    mark_word(rt, scopes, stored, site);
    access.erase();
}

/// A word's load or store `access` of `site`: aligned as lines are (words
/// start at aligned offsets), in its line's scope.
fn mark_word(rt: &Runtime<'_, '_>, scopes: &LineScopes, access: Value<'_>, site: &RunSite<'_>) {
    access.set_alignment(rt.shared_line_align());
    scopes.mark(access, site.state.id);
}

/// The address of full-run iteration `first`'s access of `site` in `line`.
fn word_at<'m>(b: &TypedBuilder<'m>, site: &RunSite<'m>, line: Value<'m>, first: i64) -> Value<'m> {
    let offset = b.int_type(64).signed(site.stride * (first + 1));
    b.gep(b.int_type(8), line, &[offset], c"sl1.full.word")
}

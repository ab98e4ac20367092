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

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::{LLVMIntPredicate, LLVMTypeKind};

use crate::llvm::edit::Builder;
use crate::llvm::ir::Value;
use crate::llvm::metadata::AliasScopes;
use crate::runtime::Runtime;

use super::site::{RunSite, Stay};
use crate::transform::state::const_int;

/// Iterations of a full run: after an access at a line's first byte, how
/// many next ones stay in every structure's line.
pub(super) fn length(sites: &[RunSite], line: u32) -> i64 {
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
pub(super) fn first_aligned(sites: &[RunSite], align: u32) -> i64 {
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
pub(super) fn small_enough(blocks: &[LLVMBasicBlockRef], len: i64) -> bool {
    let body: usize = blocks
        .iter()
        .map(|&b| crate::llvm::edit::instructions(b).len())
        .sum();
    body.saturating_mul(len.max(0) as usize) <= MOST_COPIED_INSTRUCTIONS
}

/// Whether this checked iteration starts a full run: every access at its
/// line's first byte and the run as long as `len` (so the loop has that
/// many iterations left).
///
/// The stays' values and `left` are i64 values available at the builder.
pub(super) fn starts(b: &Builder, stays: &[Stay], left: LLVMValueRef, len: i64) -> LLVMValueRef {
    let i64t = build::type_of(left);
    let mut go = b.icmp(
        LLVMIntPredicate::LLVMIntEQ,
        left,
        const_int(i64t, len),
        c"sl1.run.full",
    );
    for stay in stays {
        let first = b.icmp(LLVMIntPredicate::LLVMIntEQ, stay.d, const_int(i64t, 0), c"");
        go = b.and(go, first, c"sl1.run.full");
    }
    go
}

/// The alias scopes of a kernel's lines: one per structure.
pub(super) struct LineScopes(AliasScopes);

impl LineScopes {
    /// Scopes for the structures of `sites`, named after `kernel`.
    pub(super) fn new(ctx: LLVMContextRef, kernel: &str, sites: &[RunSite]) -> LineScopes {
        let mut ids: Vec<u32> = sites.iter().map(|s| s.state.id).collect();
        ids.sort_unstable();
        ids.dedup();
        let scopes = ids
            .into_iter()
            .map(|id| (id, format!("sl1.line.{kernel}.{id}")));
        LineScopes(AliasScopes::new(ctx, "sl1.lines", scopes))
    }

    /// Marks `access` (a load or store of structure `id`'s line) as in that
    /// line's scope and apart from every other line.
    fn mark(&self, access: LLVMValueRef, id: u32) {
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
pub(super) fn in_place(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    access: LLVMValueRef,
    site: &RunSite,
    line: LLVMValueRef,
    t: i64,
) {
    let b = Builder::before(access);
    let ctx = build::context_of(line);
    let offset = site.stride * (t + 1);
    let mut off = [const_int(build::i64_type(ctx), offset)];
    let at = b.gep(build::i8_type(ctx), line, &mut off, c"sl1.full");
    let moved = if site.is_load {
        let v = b.load(site.ty, at);
        crate::llvm::edit::replace_uses(access, v);
        v
    } else {
        b.store(build::operand(access, 1), at)
    };
    // Lines start aligned to `shared_line_align`; the offset's lowest set
    // bit bounds what it keeps of that.
    let align = rt.shared_line_align().min(1 << offset.trailing_zeros());
    build::set_alignment(moved, align.max(rt.in_line_align(site.kind)));
    scopes.mark(moved, site.state.id);
    crate::llvm::edit::erase(access);
}

/// Iterations whose accesses of `site` one aligned word of its line holds
/// (`align` bytes, the lines' alignment in shared memory): its scalar
/// elements lie side by side, two or more to a word. A full run then moves
/// the word with one access instead of LLVM's vectorizers merging one per
/// iteration, whose time grows faster than the run's length (a 128 B line
/// of bytes: 127 loads and stores in one block).
pub(super) fn word_iterations(site: &RunSite, align: u32) -> Option<i64> {
    let size = i64::from(site.kind.size);
    let align = i64::from(align);
    let scalar = matches!(
        build::type_kind(site.ty),
        LLVMTypeKind::LLVMIntegerTypeKind
            | LLVMTypeKind::LLVMFloatTypeKind
            | LLVMTypeKind::LLVMDoubleTypeKind
            | LLVMTypeKind::LLVMHalfTypeKind
            | LLVMTypeKind::LLVMBFloatTypeKind
    );
    (scalar && site.stride == size && size < align && align % size == 0).then_some(align / size)
}

/// The iteration of a full run whose access of `site` starts the word
/// (`align` bytes) that iteration `t`'s lies in, and where in the word
/// `t`'s is.
pub(super) fn word_of(site: &RunSite, t: i64, align: u32) -> (i64, u32) {
    let into_word = (site.stride * (t + 1)) % i64::from(align) / site.stride;
    (t - into_word, into_word as u32)
}

/// Loads, before `before`, the word of `site`'s line (`line`, a shared
/// pointer available there) that full-run iterations `first` on read, as a
/// vector of `per_word` elements.
pub(super) fn load_word(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    before: LLVMValueRef,
    (site, line): (&RunSite, LLVMValueRef),
    first: i64,
    per_word: i64,
) -> LLVMValueRef {
    let b = Builder::before(before);
    let ty = build::vector_type(site.ty, per_word as u32);
    let word = b.load(ty, word_at(&b, site, line, first));
    mark_word(rt, scopes, word, site);
    word
}

/// Replaces `access`, a full run's `sl1.load` call of element `index` of
/// `word` (which dominates it), by that element.
pub(super) fn take_from_word(access: LLVMValueRef, word: LLVMValueRef, index: u32) {
    let v = Builder::before(access).extract_element(word, index);
    crate::llvm::edit::replace_uses(access, v);
    crate::llvm::edit::erase(access);
}

/// Replaces `access`, the `sl1.store` call of `site` in the last of the
/// full-run iterations from `first` that share a word, by one store of the
/// word: `values`, the iterations' stored values in order, all available
/// at `access`.
pub(super) fn store_word(
    rt: &Runtime<'_, '_>,
    scopes: &LineScopes,
    access: LLVMValueRef,
    (site, line): (&RunSite, LLVMValueRef),
    first: i64,
    values: &[LLVMValueRef],
) {
    let b = Builder::before(access);
    let ty = build::vector_type(site.ty, values.len() as u32);
    let typed: Option<Vec<Value<'_>>> = values.iter().map(|&v| Value::from_raw(v)).collect();
    let vector = Value::from_raw(access)
        .zip(typed)
        .and_then(|(at, lanes)| super::lanes::as_vector(at, &lanes));
    let word = vector.map(Value::as_raw).unwrap_or_else(|| {
        values
            .iter()
            .enumerate()
            .fold(build::poison(ty), |w, (i, &v)| {
                b.insert_element(w, v, i as u32)
            })
    });
    let stored = b.store(word, word_at(&b, site, line, first));
    mark_word(rt, scopes, stored, site);
    crate::llvm::edit::erase(access);
}

/// A word's load or store `access` of `site`: aligned as lines are (words
/// start at aligned offsets), in its line's scope.
fn mark_word(rt: &Runtime<'_, '_>, scopes: &LineScopes, access: LLVMValueRef, site: &RunSite) {
    build::set_alignment(access, rt.shared_line_align());
    scopes.mark(access, site.state.id);
}

/// The address of full-run iteration `first`'s access of `site` in `line`.
fn word_at(b: &Builder, site: &RunSite, line: LLVMValueRef, first: i64) -> LLVMValueRef {
    let ctx = build::context_of(line);
    let mut off = [const_int(build::i64_type(ctx), site.stride * (first + 1))];
    b.gep(build::i8_type(ctx), line, &mut off, c"sl1.full.word")
}

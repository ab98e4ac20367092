//! Line runs: in the all-cached copy of a loop whose cached structures all
//! move by a positive constant stride per iteration, the iterations whose
//! accesses stay in the lines already resident run as an inner loop without
//! tag checks. After each checked iteration the loop computes how many of
//! the next iterations stay in every structure's current line (from the
//! real tags and addresses, so it holds for any alignment), and runs that
//! many iterations through `sl1.hit.*` accesses. A unit-stride byte loop
//! with 32 B lines then checks one iteration in 32.
//!
//! When the loop's only exit is a counted test (`CountedExit`), the run is
//! also cut to the iterations the loop has left, so the run leaves the test
//! out: it is a counted loop LLVM can unroll, and its stores' dirty bits are
//! set once before it starts. Otherwise the run keeps the loop's exits and
//! each store sets its own bits. A counted run over the rest of whole lines
//! also gets an unrolled copy whose accesses merge into words (`full`).

use crate::llvm::build;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMIntPredicate;

use crate::analysis::affine::CountedExit;
use crate::llvm::edit::{self, Builder};
use crate::runtime::{RoutedCall, Runtime, Stage};

use super::state::{const_int, typed};

mod full;
mod lanes;
mod site;

pub(super) use site::RunSite;
use site::Stay;

/// What a counted run may add (`Options::line_staging`, `full_runs`).
#[derive(Clone, Copy)]
pub(super) struct RunExtras {
    /// Stage the next line of every structure the loop only reads.
    pub(super) stage: bool,
    /// Give runs that cover whole lines an unrolled copy (`full`).
    pub(super) full: bool,
}

/// Adds line runs to `copy`, the all-cached clone of slice 2 (blocks
/// `slice2`, single latch `latch` branching to `header`) for lines of `line`
/// bytes, in `kernel`. `run` is an i64 slot: iterations left in the current
/// run. `exit` is the loop's exit test when it is counted; then, as
/// `extras` say, the next line of every structure the loop only reads is
/// staged a run ahead, and runs over whole lines get an unrolled copy.
/// Returns the ids of the staged structures.
#[allow(clippy::too_many_arguments)]
pub(super) fn add(
    rt: &mut Runtime<'_, '_>,
    kernel: &str,
    copy: &edit::Clone,
    (slice2, header, latch): (&[LLVMBasicBlockRef], LLVMBasicBlockRef, LLVMBasicBlockRef),
    sites: &[RunSite],
    exit: Option<&CountedExit<'_>>,
    line: u32,
    run: LLVMValueRef,
    extras: RunExtras,
) -> Vec<u32> {
    let checked: Vec<LLVMBasicBlockRef> = slice2.iter().map(|b| copy.blocks[b]).collect();
    let loop_ = RunLoop {
        copy,
        header: copy.blocks[&header],
        latch: copy.blocks[&latch],
        fast: edit::clone_blocks(&checked, copy.blocks[&header], ".run"),
        full: full_copies(&checked, copy.blocks[&header], sites, exit, line, extras),
        exit,
        run,
    };
    let staged = {
        let staged = loop_.end_checked_iteration(rt, sites, line, extras.stage);
        loop_.end_run_iteration();
        staged
    };
    loop_.hit_in_runs(rt, kernel, sites);
    loop_.fill_from_stage(rt, sites, &staged);
    staged.into_iter().map(|(id, _, _)| id as u32).collect()
}

/// The copies a loop's line runs are built in.
struct RunLoop<'a, 'm> {
    /// The checked copy (the all-cached clone of slice 2), by original.
    copy: &'a edit::Clone,
    /// The checked copy's header and single latch.
    header: LLVMBasicBlockRef,
    latch: LLVMBasicBlockRef,
    /// The run: the checked copy without tag checks, by checked block.
    fast: edit::Clone,
    /// A full run's iterations, one copy each (`full`), when it gets them.
    full: Vec<edit::Clone>,
    exit: Option<&'a CountedExit<'m>>,
    /// The i64 slot of the iterations left in the current run.
    run: LLVMValueRef,
}

/// A full run needs a counted exit (no exit test in its copies) and headers
/// without phis (its branch goes through a block of its own): then, when
/// whole lines make a run of more than one iteration and the loop is small
/// enough, one copy of the checked blocks per iteration.
fn full_copies(
    checked: &[LLVMBasicBlockRef],
    checked_header: LLVMBasicBlockRef,
    sites: &[RunSite],
    exit: Option<&CountedExit<'_>>,
    line: u32,
    extras: RunExtras,
) -> Vec<edit::Clone> {
    let full_len = full::length(sites, line);
    if extras.full
        && exit.is_some()
        && full_len > 1
        && full::small_enough(checked, full_len)
        && !edit::instructions(checked_header)
            .into_iter()
            .any(edit::is_phi)
    {
        (0..full_len)
            .map(|t| edit::clone_blocks(checked, checked_header, &format!(".run.full{t}")))
            .collect()
    } else {
        Vec::new()
    }
}

impl RunLoop<'_, '_> {
    /// Stores whose bits a counted run sets before it starts: the run's
    /// stores of one site then cover one range of bytes.
    fn premarked(&self, site: &RunSite) -> bool {
        self.exit.is_some() && !site.is_load && site.stride <= i64::from(site.kind.size)
    }

    /// After a checked iteration: how many next iterations stay in the
    /// lines (and in the loop's count), staging the next lines when
    /// `stage`, premarking the run's stores, and the branch into the run
    /// (a full run when one starts here). Returns the staged structures
    /// with their stage slots.
    ///
    /// as `add` says.
    fn end_checked_iteration(
        &self,
        rt: &mut Runtime<'_, '_>,
        sites: &[RunSite],
        line: u32,
        stage: bool,
    ) -> Vec<(usize, LLVMValueRef, LLVMValueRef)> {
        let i64t = build::i64_type(build::context_of(self.run));
        let old = edit::terminator(self.latch);
        let b = Builder::before(old);
        let (mut left, stays) = self.stays_in_lines(&b, sites, line, i64t);
        let mut staged = Vec::new();
        if let Some(exit) = self.exit {
            let k = iterations_left(&b, self.copy.values[&exit.branch.as_raw()], exit, i64t);
            // Every `n` is at least 0, `k` may exceed i64::MAX: compare unsigned.
            left = smaller(&b, k, left, LLVMIntPredicate::LLVMIntULT);
            if stage {
                staged = stage_next_lines(rt, old, sites, &stays, k, line);
            }
        }
        b.store(left, self.run);
        for (site, stay) in sites.iter().zip(&stays) {
            if self.premarked(site) {
                premark(&b, rt, site, stay.d, left);
            }
        }
        let fast_header = self.fast.blocks[&self.header];
        if let Some(first) = self.full.first() {
            let full_len = self.full.len() as i64;
            let starts = full::starts(&b, &stays, left, full_len);
            let other = edit::new_block_before(self.header, self.header, "sl1.run.pick");
            b.cond_br(starts, first.blocks[&self.header], other);
            edit::erase(old);
            let placeholder = edit::terminator(other);
            branch_on_run(
                &Builder::before(placeholder),
                left,
                fast_header,
                self.header,
            );
            edit::erase(placeholder);
        } else {
            branch_on_run(&b, left, fast_header, self.header);
            edit::erase(old);
        }
        staged
    }

    /// Per site: its tag, and how many next iterations stay in its line;
    /// with the least of those.
    ///
    /// as `add` says.
    fn stays_in_lines(
        &self,
        b: &Builder,
        sites: &[RunSite],
        line: u32,
        i64t: LLVMTypeRef,
    ) -> (LLVMValueRef, Vec<Stay>) {
        let zero = const_int(i64t, 0);
        let mut left = const_int(i64t, i64::MAX);
        let mut stays = Vec::new();
        for site in sites {
            let access = self.copy.values[&site.call.as_raw()];
            let addr = b.ptr_to_int(build::operand(access, 0), i64t, c"");
            let tag = b.load(i64t, site.state.tag.as_raw());
            let d = b.sub(addr, tag, c"sl1.run.off");
            let s = const_int(i64t, site.stride);
            // Iteration t >= 1 accesses [d + t*s, d + t*s + size): inside the
            // line while d + s >= 0 and t <= (line - size - d) / s.
            let room = b.sub(
                const_int(i64t, i64::from(line) - i64::from(site.kind.size)),
                d,
                c"",
            );
            let n = b.sdiv(room, s, c"");
            let next = b.add(d, s, c"");
            let at_least_zero = |v| b.icmp(LLVMIntPredicate::LLVMIntSGE, v, zero, c"");
            // None when the next access is before the line or the room is
            // negative (this access is in another line of the structure).
            let ahead = b.and(at_least_zero(next), at_least_zero(room), c"");
            let n = b.select(ahead, n, zero, c"");
            left = smaller(b, n, left, LLVMIntPredicate::LLVMIntSLT);
            // This access lies in the resident line: 0 <= d <= line - size.
            let in_line = b.and(at_least_zero(d), at_least_zero(room), c"");
            stays.push(Stay { tag, d, n, in_line });
        }
        (left, stays)
    }

    /// After an iteration of the run: one fewer left. A full run's
    /// iterations follow one another, the last back to the checked loop. A
    /// counted run stays in the loop: its copies of the exit test go.
    ///
    /// as `add` says.
    fn end_run_iteration(&self) {
        let i64t = build::i64_type(build::context_of(self.run));
        let fast_header = self.fast.blocks[&self.header];
        let old = edit::terminator(self.fast.blocks[&self.latch]);
        let b = Builder::before(old);
        let left = b.load(i64t, self.run);
        let left = b.sub(left, const_int(i64t, 1), c"sl1.run.left");
        b.store(left, self.run);
        branch_on_run(&b, left, fast_header, self.header);
        edit::erase(old);
        if !self.full.is_empty() {
            // Whole lines take the full run; this loop runs a line's head
            // and the loop's tail. Unrolled at run time (four copies and a
            // remainder loop per line size), it cost loop strength
            // reduction 39 of `upper`'s 296 ms of passes.
            let back = edit::terminator(self.fast.blocks[&self.latch]);
            let back = crate::llvm::ir::Value::from_raw(back).expect("a latch ends in a branch");
            crate::llvm::metadata::mark_loop(back, "llvm.loop.unroll.runtime.disable");
        }
        for (t, copy_t) in self.full.iter().enumerate() {
            let next = self
                .full
                .get(t + 1)
                .map_or(self.header, |c| c.blocks[&self.header]);
            let old = edit::terminator(copy_t.blocks[&self.latch]);
            Builder::before(old).br(next);
            edit::erase(old);
        }
        for clone in std::iter::once(&self.fast).chain(&self.full) {
            if let Some(exit) = self.exit {
                let branch = clone.values[&self.copy.values[&exit.branch.as_raw()]];
                // A conditional branch's operands: condition, false, true.
                let stay = build::operand(branch, if exit.stays_on_true { 2 } else { 1 });
                Builder::before(branch).br(build::value_as_block(stay));
                edit::erase(branch);
            }
        }
    }

    /// The run's accesses hit: no tag check, no fill, no write-back. In a
    /// full run's copies they sit at constant offsets (`full::in_place`).
    fn hit_in_runs(&self, rt: &mut Runtime<'_, '_>, kernel: &str, sites: &[RunSite]) {
        for site in sites {
            hit(
                rt,
                self.fast.values[&self.copy.values[&site.call.as_raw()]],
                site,
                self.premarked(site),
            );
        }
        if self.full.is_empty() {
            return;
        }
        let scopes = full::LineScopes::new(build::context_of(self.run), kernel, sites);
        // Iterations before the first whose accesses all sit at aligned offsets
        // keep the hit calls: SLP would otherwise group accesses from the
        // run's first, unaligned offset on, and misaligned groups split again.
        let align = rt.shared_line_align();
        let aligned_from = full::first_aligned(sites, align);
        // A word read is loaded at the top of its first iteration, which
        // every later iteration's path passes (a read-only line, so the
        // load may run early); a word written needs every iteration's value
        // at its last one's store: straight-line copies.
        let straight = self.full.first().is_some_and(straight_line);
        // Per site: the word its iterations read, or the values they store.
        let mut read: Vec<Option<LLVMValueRef>> = vec![None; sites.len()];
        let mut stored: Vec<Vec<LLVMValueRef>> = vec![Vec::new(); sites.len()];
        let len = self.full.len() as i64;
        for (t, copy_t) in self.full.iter().enumerate() {
            let t = t as i64;
            for (s, site) in sites.iter().enumerate() {
                let access = copy_t.values[&self.copy.values[&site.call.as_raw()]];
                if t < aligned_from || !(site.is_load || self.premarked(site)) {
                    hit(rt, access, site, self.premarked(site));
                    continue;
                }
                let line = build::operand(access, if site.is_load { 4 } else { 5 });
                // (The line is the decision's, from before the run.)
                let line_before_run = !build::is_instruction(line)
                    || !copy_t
                        .blocks
                        .values()
                        .any(|&b| b == edit::parent_block(line));
                let word = (straight || (site.is_load && line_before_run))
                    .then(|| in_word(sites, site, t, (aligned_from, len), align))
                    .flatten();
                match word {
                    Some((first, index, per_word)) if site.is_load => {
                        if index == 0 {
                            let at = (site, line);
                            let top = edit::first_non_phi(copy_t.blocks[&self.header]);
                            read[s] = Some(full::load_word(rt, &scopes, top, at, first, per_word));
                        }
                        let word = read[s].expect("a word's first iteration loads it");
                        full::take_from_word(access, word, index);
                    }
                    Some((first, index, per_word)) => {
                        stored[s].push(build::operand(access, 1));
                        if i64::from(index) + 1 == per_word {
                            full::store_word(rt, &scopes, access, (site, line), first, &stored[s]);
                            stored[s].clear();
                        } else {
                            edit::erase(access);
                        }
                    }
                    None => full::in_place(rt, &scopes, access, site, line, t),
                }
            }
        }
    }

    /// The checked copy's loads of staged structures fill from the stage.
    fn fill_from_stage(
        &self,
        rt: &mut Runtime<'_, '_>,
        sites: &[RunSite],
        staged: &[(usize, LLVMValueRef, LLVMValueRef)],
    ) {
        for site in sites.iter().filter(|s| s.is_load) {
            let Some(&(_, stage_tag, words)) = staged
                .iter()
                .find(|(id, _, _)| *id == site.state.id as usize)
            else {
                continue;
            };
            let access = typed(self.copy.values[&site.call.as_raw()]);
            let ty = build::basic_type(site.ty);
            let routed = RoutedCall::read(access, true);
            let stage = Some((typed(stage_tag), typed(words)));
            let v = rt.emit_load(access, (ty, site.kind), routed.access, routed.line, stage);
            access.replace_all_uses_with(v);
            access.erase();
        }
    }
}

/// Stages, for every structure the loop only reads, the line after its
/// current one: loaded now, taken by the fill after the run. Only when an
/// iteration the loop will run touches that line, so the load stays inside
/// the structure's memory: a site whose access lies in the resident line
/// and moves by at most a line per iteration (aligned to its size, inside
/// the line) enters the next line on the first iteration after its own
/// run, which the loop runs when `n < k`. Else the stage is marked empty
/// (and the current line, valid memory, is loaded instead of branching).
/// Returns (structure id, stage tag slot, stage words slot) per staged
/// structure.
///
/// `stays` holds each site's values, available
/// before `before`, `k` an i64 there too.
fn stage_next_lines(
    rt: &mut Runtime<'_, '_>,
    before: LLVMValueRef,
    sites: &[RunSite],
    stays: &[Stay],
    k: LLVMValueRef,
    line: u32,
) -> Vec<(usize, LLVMValueRef, LLVMValueRef)> {
    let function = build::block_function(build::instruction_block(before));
    let b = Builder::before(before);
    let i64t = build::type_of(k);
    let mut staged = Vec::new();
    for (j, site) in sites.iter().enumerate() {
        let id = site.state.id as usize;
        let read_only = sites
            .iter()
            .filter(|s| s.state.id == site.state.id)
            .all(|s| s.is_load);
        if !read_only || site.stride > i64::from(line) || staged.iter().any(|&(s, _, _)| s == id) {
            continue;
        }
        let stage_tag = edit::entry_alloca(function, i64t, "sl1.stage.tag");
        let entry_end = edit::terminator(build::entry_block(function));
        Builder::before(entry_end).store(const_int(i64t, -1), stage_tag);
        let words = edit::entry_alloca(function, rt.stage_type().as_raw(), "sl1.stage");
        let Stay {
            tag, n, in_line, ..
        } = stays[j];
        let next = b.add(tag, const_int(i64t, i64::from(line)), c"");
        let touched = b.and(
            in_line,
            b.icmp(LLVMIntPredicate::LLVMIntULT, n, k, c""),
            c"",
        );
        let from = b.select(touched, next, tag, c"");
        let holds = b.select(touched, next, const_int(i64t, -1), c"");
        let stage = Stage {
            from: typed(from),
            holds: typed(holds),
            tag: typed(stage_tag),
            words: typed(words),
        };
        rt.emit_stage(
            typed(before),
            stage,
            typed(const_int(i64t, i64::from(line))),
        );
        staged.push((id, stage_tag, words));
    }
    staged
}

/// Whether a full run's copy is one straight line of blocks (each ends in
/// an unconditional branch): then every access in it, and in the copies
/// before it, dominates the rest of the run.
fn straight_line(copy: &edit::Clone) -> bool {
    copy.blocks
        .values()
        .all(|&b| edit::successors(b).len() == 1)
}

/// Where full-run iteration `t`'s access of `site` lies in a word of its
/// line moved whole: the word's first iteration, `t`'s index in it, and
/// the word's iterations (`full::word_iterations`). Only for structures the
/// loop only reads or only writes (a word read ahead or written late moves
/// no access past another of the same line), and words whose iterations
/// all lie in `[aligned_from, len)`.
fn in_word(
    sites: &[RunSite],
    site: &RunSite,
    t: i64,
    (aligned_from, len): (i64, i64),
    align: u32,
) -> Option<(i64, u32, i64)> {
    let per_word = full::word_iterations(site, align)?;
    let one_way = sites
        .iter()
        .filter(|s| s.state.id == site.state.id)
        .all(|s| s.is_load == site.is_load);
    let (first, index) = full::word_of(site, t, align);
    (one_way && first >= aligned_from && first + per_word <= len)
        .then_some((first, index, per_word))
}

/// Branches at `b` into the run while `left` iterations remain, else into
/// the checked copy.
///
/// `b` is at the end of a block without terminator or
/// before its terminator (which the caller erases), `left` an i64 available
/// there.
fn branch_on_run(
    b: &Builder,
    left: LLVMValueRef,
    run_header: LLVMBasicBlockRef,
    checked_header: LLVMBasicBlockRef,
) {
    let zero = build::const_null(build::type_of(left));
    let go = b.icmp(LLVMIntPredicate::LLVMIntSGT, left, zero, c"");
    b.cond_br(go, run_header, checked_header);
}

/// Replaces `access`, a run's `sl1.load` / `sl1.store` call of `site`, by
/// the matching `sl1.hit.*` call: no tag check, no fill, no write-back. A
/// store sets its dirty bits unless the run set them before it started.
fn hit(rt: &mut Runtime<'_, '_>, access: LLVMValueRef, site: &RunSite, premarked: bool) {
    let access = typed(access);
    let ty = build::basic_type(site.ty);
    let routed = RoutedCall::read(access, site.is_load);
    let addr = routed.access.addr;
    if let Some(value) = routed.access.value {
        let target = (ty, site.kind);
        rt.emit_hit_store(access, target, (addr, value), routed.line, !premarked);
    } else {
        let v = rt.emit_hit_load(access, (ty, site.kind), addr, routed.line);
        access.replace_all_uses_with(v);
    }
    access.erase();
}

/// `a` when `a pred b`, else `b`.
///
/// both are i64 values available at the builder.
fn smaller(
    b: &Builder,
    a: LLVMValueRef,
    other: LLVMValueRef,
    pred: LLVMIntPredicate,
) -> LLVMValueRef {
    let less = b.icmp(pred, a, other, c"");
    b.select(less, a, other, c"sl1.run.left")
}

/// Further iterations the loop stays for, as an i64, from this iteration's
/// exit test (`branch`, in the checked copy): `CountedExit::iterations_left`
/// in the compared values' own width.
///
/// `branch` is the conditional branch of `exit` in a
/// block that dominates the builder's position.
fn iterations_left(
    b: &Builder,
    branch: LLVMValueRef,
    exit: &CountedExit<'_>,
    i64t: LLVMTypeRef,
) -> LLVMValueRef {
    let compare = build::operand(branch, 0);
    let mut x0 = build::operand(compare, exit.x_operand);
    let mut bound = build::operand(compare, 1 - exit.x_operand);
    if build::type_kind(build::type_of(x0)) == inkwell::llvm_sys::LLVMTypeKind::LLVMPointerTypeKind
    {
        x0 = b.ptr_to_int(x0, i64t, c"");
        bound = b.ptr_to_int(bound, i64t, c"");
    }
    let ty = build::type_of(x0);
    let distance = if exit.step > 0 {
        b.sub(bound, x0, c"")
    } else {
        b.sub(x0, bound, c"")
    };
    let distance = b.sub(
        distance,
        build::const_int(ty, u64::from(exit.strict), false),
        c"",
    );
    let k = b.udiv(
        distance,
        build::const_int(ty, exit.step.unsigned_abs(), false),
        c"sl1.run.loop.left",
    );
    if build::int_width(ty) < 64 {
        b.zext(k, i64t, c"")
    } else {
        k
    }
}

/// Sets the dirty bits of every store of `site` in a run of `left`
/// iterations before it starts: bytes `[d + s, d + left*s - s + size)`,
/// one range because the stride `s` is at most the store's size.
///
/// `d` (the site's offset in its line this
/// iteration) and `left` are i64 values available at the builder.
fn premark(b: &Builder, rt: &Runtime<'_, '_>, site: &RunSite, d: LLVMValueRef, left: LLVMValueRef) {
    let i64t = build::type_of(left);
    let ty = rt.dirty_type().as_raw();
    let width = build::int_width(ty);
    let s = const_int(i64t, site.stride);
    let size = const_int(i64t, i64::from(site.kind.size));
    let last = b.sub(left, const_int(i64t, 1), c"");
    let len = b.add(b.mul(last, s, c""), size, c"");
    let start = b.add(d, s, c"");
    let one = build::const_int(ty, 1, false);
    // A shift by the mask's width is poison: a full range takes every bit.
    let below = b.sub(b.shl(one, b.unsigned_cast(len, ty, c""), c""), one, c"");
    let full = b.icmp(
        LLVMIntPredicate::LLVMIntUGE,
        len,
        const_int(i64t, i64::from(width)),
        c"",
    );
    let ones = b.select(full, build::const_all_ones(ty), below, c"");
    let mask = b.shl(ones, b.unsigned_cast(start, ty, c""), c"");
    // No run, no bits (the shifts above may then be poison).
    let any = b.icmp(LLVMIntPredicate::LLVMIntSGT, left, const_int(i64t, 0), c"");
    let mask = b.select(any, mask, build::const_null(ty), c"sl1.run.dirty");
    let dirty = b.load(ty, site.state.dirty.as_raw());
    b.store(b.or(dirty, mask, c""), site.state.dirty.as_raw());
}

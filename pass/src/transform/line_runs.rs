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

use crate::analysis::affine::CountedExit;
use crate::llvm::cfg::{clone_blocks, new_block_before, Copied};
use crate::llvm::ir::{Block, Function, IntPredicate, Type, Value};
use crate::llvm::typed::TypedBuilder;
use crate::runtime::{RoutedCall, Runtime, Stage};

use super::state::store_before_entry_end;

mod full;
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
pub(super) fn add<'m>(
    rt: &mut Runtime<'_, '_>,
    (function, kernel): (Function<'m>, &str),
    copy: &Copied<'m>,
    (slice2, header, latch): (&[Block<'m>], Block<'m>, Block<'m>),
    sites: &[RunSite<'m>],
    exit: Option<&CountedExit<'m>>,
    line: u32,
    run: Value<'m>,
    extras: RunExtras,
) -> Vec<u32> {
    let checked: Vec<Block<'m>> = slice2.iter().map(|b| copy.blocks[b]).collect();
    let loop_ = RunLoop {
        function,
        copy,
        header: copy.blocks[&header],
        latch: copy.blocks[&latch],
        fast: clone_blocks(&checked, copy.blocks[&header], ".run"),
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
    function: Function<'m>,
    /// The checked copy (the all-cached clone of slice 2), by original.
    copy: &'a Copied<'m>,
    /// The checked copy's header and single latch.
    header: Block<'m>,
    latch: Block<'m>,
    /// The run: the checked copy without tag checks, by checked block.
    fast: Copied<'m>,
    /// A full run's iterations, one copy each (`full`), when it gets them.
    full: Vec<Copied<'m>>,
    exit: Option<&'a CountedExit<'m>>,
    /// The i64 slot of the iterations left in the current run.
    run: Value<'m>,
}

/// A full run needs a counted exit (no exit test in its copies) and headers
/// without phis (its branch goes through a block of its own): then, when
/// whole lines make a run of more than one iteration and the loop is small
/// enough, one copy of the checked blocks per iteration.
fn full_copies<'m>(
    checked: &[Block<'m>],
    checked_header: Block<'m>,
    sites: &[RunSite<'m>],
    exit: Option<&CountedExit<'m>>,
    line: u32,
    extras: RunExtras,
) -> Vec<Copied<'m>> {
    let full_len = full::length(sites, line);
    if extras.full
        && exit.is_some()
        && full_len > 1
        && full::small_enough(checked, full_len)
        && !checked_header
            .instructions()
            .into_iter()
            .any(|i| i.is_phi())
    {
        (0..full_len)
            .map(|t| clone_blocks(checked, checked_header, &format!(".run.full{t}")))
            .collect()
    } else {
        Vec::new()
    }
}

impl<'m> RunLoop<'_, 'm> {
    /// Stores whose bits a counted run sets before it starts: the run's
    /// stores of one site then cover one range of bytes.
    fn premarked(&self, site: &RunSite<'m>) -> bool {
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
        sites: &[RunSite<'m>],
        line: u32,
        stage: bool,
    ) -> Vec<(usize, Value<'m>, Value<'m>)> {
        let i64t = self.function.int_type(64);
        let old = self.latch.terminator().expect("a block ends");
        let b = TypedBuilder::before(old);
        let (mut left, stays) = self.stays_in_lines(&b, sites, line, i64t);
        let mut staged = Vec::new();
        if let Some(exit) = self.exit {
            let k = iterations_left(&b, self.copy.values[&exit.branch], exit, i64t);
            // Every `n` is at least 0, `k` may exceed i64::MAX: compare unsigned.
            left = smaller(&b, k, left, IntPredicate::LLVMIntULT);
            if stage {
                staged = stage_next_lines(rt, (self.function, old), sites, &stays, k, line);
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
            let other = new_block_before(self.header, self.header, "sl1.run.pick");
            b.cond_br(starts, first.blocks[&self.header], other);
            old.erase();
            let placeholder = other.terminator().expect("a block ends");
            branch_on_run(
                &TypedBuilder::before(placeholder),
                left,
                fast_header,
                self.header,
            );
            placeholder.erase();
        } else {
            branch_on_run(&b, left, fast_header, self.header);
            old.erase();
        }
        staged
    }

    /// Per site: its tag, and how many next iterations stay in its line;
    /// with the least of those.
    ///
    /// as `add` says.
    fn stays_in_lines(
        &self,
        b: &TypedBuilder<'m>,
        sites: &[RunSite<'m>],
        line: u32,
        i64t: Type<'m>,
    ) -> (Value<'m>, Vec<Stay<'m>>) {
        let zero = i64t.signed(0);
        let mut left = i64t.signed(i64::MAX);
        let mut stays = Vec::new();
        for site in sites {
            let access = self.copy.values[&site.call];
            let addr = b.ptr_to_int(access.operand(0).expect("an operand"), i64t, c"");
            let tag = b.load(i64t, site.state.tag);
            let d = b.sub(addr, tag, c"sl1.run.off");
            let s = i64t.signed(site.stride);
            // Iteration t >= 1 accesses [d + t*s, d + t*s + size): inside the
            // line while d + s >= 0 and t <= (line - size - d) / s.
            let room = b.sub(
                i64t.signed(i64::from(line) - i64::from(site.kind.size)),
                d,
                c"",
            );
            let n = b.sdiv(room, s, c"");
            let next = b.add(d, s, c"");
            let at_least_zero = |v| b.icmp(IntPredicate::LLVMIntSGE, v, zero, c"");
            // None when the next access is before the line or the room is
            // negative (this access is in another line of the structure).
            let ahead = b.and(at_least_zero(next), at_least_zero(room), c"");
            let n = b.select(ahead, n, zero, c"");
            left = smaller(b, n, left, IntPredicate::LLVMIntSLT);
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
        let i64t = self.function.int_type(64);
        let fast_header = self.fast.blocks[&self.header];
        let old = self.fast.blocks[&self.latch]
            .terminator()
            .expect("a block ends");
        let b = TypedBuilder::before(old);
        let left = b.load(i64t, self.run);
        let left = b.sub(left, i64t.signed(1), c"sl1.run.left");
        b.store(left, self.run);
        branch_on_run(&b, left, fast_header, self.header);
        old.erase();
        if !self.full.is_empty() {
            // Whole lines take the full run; this loop runs a line's head
            // and the loop's tail. Unrolled at run time (four copies and a
            // remainder loop per line size), it cost loop strength
            // reduction 39 of `upper`'s 296 ms of passes.
            let back = self.fast.blocks[&self.latch]
                .terminator()
                .expect("a block ends");
            crate::llvm::metadata::mark_loop(back, "llvm.loop.unroll.runtime.disable");
        }
        for (t, copy_t) in self.full.iter().enumerate() {
            let next = self
                .full
                .get(t + 1)
                .map_or(self.header, |c| c.blocks[&self.header]);
            let old = copy_t.blocks[&self.latch]
                .terminator()
                .expect("a block ends");
            TypedBuilder::before(old).br(next);
            old.erase();
        }
        for clone in std::iter::once(&self.fast).chain(&self.full) {
            if let Some(exit) = self.exit {
                let branch = clone.values[&self.copy.values[&exit.branch]];
                // A conditional branch's operands: condition, false, true.
                let stay = branch
                    .operand(if exit.stays_on_true { 2 } else { 1 })
                    .expect("an operand");
                TypedBuilder::before(branch).br(stay.as_block().expect("a branch's target"));
                branch.erase();
            }
        }
    }

    /// The run's accesses hit: no tag check, no fill, no write-back. In a
    /// full run's copies they sit at constant offsets (`full::in_place`).
    fn hit_in_runs(&self, rt: &mut Runtime<'_, '_>, kernel: &str, sites: &[RunSite<'m>]) {
        for site in sites {
            hit(
                rt,
                self.fast.values[&self.copy.values[&site.call]],
                site,
                self.premarked(site),
            );
        }
        if self.full.is_empty() {
            return;
        }
        let scopes = full::LineScopes::new(self.function, kernel, sites);
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
        let mut read: Vec<Option<Value<'m>>> = vec![None; sites.len()];
        let mut stored: Vec<Vec<Value<'m>>> = vec![Vec::new(); sites.len()];
        let len = self.full.len() as i64;
        for (t, copy_t) in self.full.iter().enumerate() {
            let t = t as i64;
            for (s, site) in sites.iter().enumerate() {
                let access = copy_t.values[&self.copy.values[&site.call]];
                if t < aligned_from || !(site.is_load || self.premarked(site)) {
                    hit(rt, access, site, self.premarked(site));
                    continue;
                }
                let line = access
                    .operand(if site.is_load { 4 } else { 5 })
                    .expect("an operand");
                // (The line is the decision's, from before the run.)
                let line_before_run = line
                    .parent_block()
                    .is_none_or(|at| !copy_t.blocks.values().any(|&b| b == at));
                let word = (straight || (site.is_load && line_before_run))
                    .then(|| in_word(sites, site, t, (aligned_from, len), align))
                    .flatten();
                match word {
                    Some((first, index, per_word)) if site.is_load => {
                        if index == 0 {
                            let at = (site, line);
                            let top = copy_t.blocks[&self.header].first_non_phi();
                            read[s] = Some(full::load_word(rt, &scopes, top, at, first, per_word));
                        }
                        let word = read[s].expect("a word's first iteration loads it");
                        full::take_from_word(access, word, index);
                    }
                    Some((first, index, per_word)) => {
                        stored[s].push(access.operand(1).expect("an operand"));
                        if i64::from(index) + 1 == per_word {
                            full::store_word(rt, &scopes, access, (site, line), first, &stored[s]);
                            stored[s].clear();
                        } else {
                            access.erase();
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
        sites: &[RunSite<'m>],
        staged: &[(usize, Value<'m>, Value<'m>)],
    ) {
        for site in sites.iter().filter(|s| s.is_load) {
            let Some(&(_, stage_tag, words)) = staged
                .iter()
                .find(|(id, _, _)| *id == site.state.id as usize)
            else {
                continue;
            };
            let access = self.copy.values[&site.call];
            let ty = site.ty.basic();
            let routed = RoutedCall::read(access, true);
            let stage = Some((stage_tag, words));
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
fn stage_next_lines<'m>(
    rt: &mut Runtime<'_, '_>,
    (function, before): (Function<'m>, Value<'m>),
    sites: &[RunSite<'m>],
    stays: &[Stay<'m>],
    k: Value<'m>,
    line: u32,
) -> Vec<(usize, Value<'m>, Value<'m>)> {
    let b = TypedBuilder::before(before);
    let i64t = k.ty();
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
        let stage_tag = function.entry_alloca(i64t, "sl1.stage.tag");
        store_before_entry_end(function, stage_tag, i64t.signed(-1));
        let words = function.entry_alloca(rt.stage_type(), "sl1.stage");
        let Stay {
            tag, n, in_line, ..
        } = stays[j];
        let next = b.add(tag, i64t.signed(i64::from(line)), c"");
        let touched = b.and(in_line, b.icmp(IntPredicate::LLVMIntULT, n, k, c""), c"");
        let from = b.select(touched, next, tag, c"");
        let holds = b.select(touched, next, i64t.signed(-1), c"");
        let stage = Stage {
            from,
            holds,
            tag: stage_tag,
            words,
        };
        rt.emit_stage(before, stage, i64t.signed(i64::from(line)));
        staged.push((id, stage_tag, words));
    }
    staged
}

/// Whether a full run's copy is one straight line of blocks (each ends in
/// an unconditional branch): then every access in it, and in the copies
/// before it, dominates the rest of the run.
fn straight_line(copy: &Copied<'_>) -> bool {
    copy.blocks.values().all(|b| b.successors().len() == 1)
}

/// Where full-run iteration `t`'s access of `site` lies in a word of its
/// line moved whole: the word's first iteration, `t`'s index in it, and
/// the word's iterations (`full::word_iterations`). Only for structures the
/// loop only reads or only writes (a word read ahead or written late moves
/// no access past another of the same line), and words whose iterations
/// all lie in `[aligned_from, len)`.
fn in_word<'m>(
    sites: &[RunSite<'m>],
    site: &RunSite<'m>,
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
fn branch_on_run<'m>(
    b: &TypedBuilder<'m>,
    left: Value<'m>,
    run_header: Block<'m>,
    checked_header: Block<'m>,
) {
    let zero = left.ty().null();
    let go = b.icmp(IntPredicate::LLVMIntSGT, left, zero, c"");
    b.cond_br(go, run_header, checked_header);
}

/// Replaces `access`, a run's `sl1.load` / `sl1.store` call of `site`, by
/// the matching `sl1.hit.*` call: no tag check, no fill, no write-back. A
/// store sets its dirty bits unless the run set them before it started.
fn hit<'m>(rt: &mut Runtime<'_, '_>, access: Value<'m>, site: &RunSite<'m>, premarked: bool) {
    let ty = site.ty.basic();
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
fn smaller<'m>(
    b: &TypedBuilder<'m>,
    a: Value<'m>,
    other: Value<'m>,
    pred: IntPredicate,
) -> Value<'m> {
    let less = b.icmp(pred, a, other, c"");
    b.select(less, a, other, c"sl1.run.left")
}

/// Further iterations the loop stays for, as an i64, from this iteration's
/// exit test (`branch`, in the checked copy): `CountedExit::iterations_left`
/// in the compared values' own width.
///
/// `branch` is the conditional branch of `exit` in a
/// block that dominates the builder's position.
fn iterations_left<'m>(
    b: &TypedBuilder<'m>,
    branch: Value<'m>,
    exit: &CountedExit<'m>,
    i64t: Type<'m>,
) -> Value<'m> {
    let compare = branch.operand(0).expect("an operand");
    let mut x0 = compare.operand(exit.x_operand).expect("an operand");
    let mut bound = compare.operand(1 - exit.x_operand).expect("an operand");
    if x0.ty().is_pointer() {
        x0 = b.ptr_to_int(x0, i64t, c"");
        bound = b.ptr_to_int(bound, i64t, c"");
    }
    let ty = x0.ty();
    let distance = if exit.step > 0 {
        b.sub(bound, x0, c"")
    } else {
        b.sub(x0, bound, c"")
    };
    let distance = b.sub(distance, ty.constant(u64::from(exit.strict)), c"");
    let k = b.udiv(
        distance,
        ty.constant(exit.step.unsigned_abs()),
        c"sl1.run.loop.left",
    );
    if ty.integer_width().is_some_and(|w| w < 64) {
        b.zext_to(k, i64t, c"")
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
fn premark<'m>(
    b: &TypedBuilder<'m>,
    rt: &Runtime<'_, '_>,
    site: &RunSite<'m>,
    d: Value<'m>,
    left: Value<'m>,
) {
    let i64t = left.ty();
    let ty = rt.dirty_type();
    let width = ty.integer_width().expect("a dirty mask is an integer");
    let s = i64t.signed(site.stride);
    let size = i64t.signed(i64::from(site.kind.size));
    let last = b.sub(left, i64t.signed(1), c"");
    let len = b.add(b.mul(last, s, c""), size, c"");
    let start = b.add(d, s, c"");
    let one = ty.constant(1);
    // A shift by the mask's width is poison: a full range takes every bit.
    let below = b.sub(b.shl(one, b.unsigned_cast(len, ty, c""), c""), one, c"");
    let full = b.icmp(
        IntPredicate::LLVMIntUGE,
        len,
        i64t.signed(i64::from(width)),
        c"",
    );
    let ones = b.select(full, ty.all_ones(), below, c"");
    let mask = b.shl(ones, b.unsigned_cast(start, ty, c""), c"");
    // No run, no bits (the shifts above may then be poison).
    let any = b.icmp(IntPredicate::LLVMIntSGT, left, i64t.signed(0), c"");
    let mask = b.select(any, mask, ty.null(), c"sl1.run.dirty");
    let dirty = b.load(ty, site.state.dirty);
    b.store(b.or(dirty, mask, c""), site.state.dirty);
}

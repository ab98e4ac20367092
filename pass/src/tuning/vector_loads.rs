//! Device tuning: unrolled loops read adjacent elements 16 B at a time
//! where their addresses are aligned.
//!
//! An unrolled loop reading `a[k]`, `a[k+1]`, `a[k+2]`, `a[k+3]` of 4-byte
//! elements issues four loads an iteration: the backend merges them into
//! one 16-byte load only when it can prove the address 16-byte aligned,
//! which a row of a matrix (`a + row * n`) or a pointer argument rarely
//! lets it. Each load is an instruction of the memory pipe, which a loop
//! of loads and one multiply-add keeps full (matmul at 1024x1024: one load
//! of `a` and one of `b` per product). When the loop advances its address
//! by a multiple of 16 bytes an iteration, the address is aligned in every
//! iteration if it is in the first, so the loop gets a copy whose group of
//! loads is one vector load, entered when a check before the loop finds
//! the first address aligned; otherwise the loop runs as it was. The vector
//! load reads the bytes the scalar ones read, in the same iteration, and
//! only where nothing between them writes memory (H100: matmul 0.359 ->
//! 0.292 ms at its best launch written so by hand,
//! docs/results/2026-11-27-matmul-vector/).
//!
//! Loops of one block (what LLVM's unroller leaves of a loop without
//! branches), after the optimizer. An address is `gep T, base, index` of a
//! loop-invariant base whose index is an induction variable plus
//! loop-invariant values plus a constant (adds and `or disjoint`s, through
//! a sign or zero extension when its adds cannot wrap: `a[row * n + k + 1]`
//! of `int`s), or a pointer induction variable plus a constant; either
//! through further constant `getelementptr`s. A wrapped extension moves an
//! address by a multiple of 2^32 elements, which keeps it modulo 16, so an
//! address aligned in the first iteration is in every one; the check
//! copies the first iteration's address arithmetic.
//!
//! ptxas unrolls the copy 4 times more, which pays in long loops and costs
//! in loops entered often for an iteration or two, so a twin of the copy it
//! keeps rolled runs where the exit test's bound is under 4 iterations
//! away. Where the checks' answers are the same in every iteration of the
//! loop around (a point's alignment, in kmeans's loop over centroids), that
//! loop is copied and the checks made once in front of it
//! (`llvm/unswitch.cpp`); in the copy that enters the twin, the twin's
//! first iteration is peeled and the loop's other such tests go out the
//! same way, so that where the twin runs once the loop around has no loop
//! inside it.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use inkwell::module::Module;

use crate::llvm::cfg;
use crate::llvm::ir::{
    defined_functions, Block, Function, GepIndex, IntPredicate, Opcode, Type, Value,
};
use crate::llvm::metadata;
use crate::llvm::typed::TypedBuilder;

/// Bytes one vector load reads (`ld.v4.b32`, `ld.v2.b64`).
const VECTOR_BYTES: i64 = 16;

/// Address spaces whose loads may be vectors at any 16-byte-aligned address:
/// generic, global, shared, constant, local (not kernel parameters, laid
/// out by the backend).
const VECTOR_SPACES: [u32; 5] = [0, 1, 3, 4, 5];

/// Gives every eligible loop of `module` a copy with vector loads; returns
/// how many loops got one.
pub fn vectorize_aligned_loads(module: &Module<'_>) -> usize {
    let mut versioned = 0;
    for view in defined_functions(module) {
        let mut choices = Vec::new();
        for block in view.blocks() {
            let Some(first) = LoopPlan::of(view, block) else {
                continue;
            };
            // The check gets a block of its own on the entry edge; the split
            // rebuilds the loop's phis, so the plan is made again after it.
            cfg::split_edge(first.preheader, block, "sl1.vec.check");
            if let Some(plan) = LoopPlan::of(view, block) {
                choices.push(plan.version());
                versioned += 1;
            }
        }
        // After the walk over the blocks, which unswitching would change.
        // The alignment test first: the trips test, the same for a warp's
        // threads, is cheap where it is and follows only where the loop is
        // copied anyway.
        let mut unswitched = 0;
        // Blocks of the loops around that now always enter a short twin, and
        // the twins' headers.
        let mut short_arounds = Vec::new();
        let mut twins = Vec::new();
        // The trips test's block stays in the copy that keeps the twin, its
        // first successor (read before any unswitching, which gives loops
        // preheaders).
        let choices: Vec<_> = choices
            .into_iter()
            .map(|branches| {
                let trips = branches.get(1).and_then(|b| b.parent_block());
                let twin = trips.and_then(|t| t.successors().first().copied());
                (branches, trips, twin)
            })
            .collect();
        for (branches, trips, twin) in choices {
            let moved = branches
                .iter()
                .take_while(|branch| view.unswitch_branch(**branch, MAX_UNSWITCHED_LOOP))
                .count();
            unswitched += moved;
            if moved == branches.len() {
                short_arounds.extend(trips);
                twins.extend(twin);
            }
        }
        // A loop around entering a short twin once an iteration also pays the
        // guards LLVM's unrolling put around it (no iterations, fewer than an
        // unrolled one, a remainder) every time: where their answers are the
        // same in every iteration, they go out too. The twin's first
        // iteration goes in front of it first, so that where the twin runs
        // once (kmeans's four coordinates) the test for a second iteration is
        // one of them, and the copy of the loop around that makes no second
        // one has no inner loop left (which ptxas schedules far better).
        if !short_arounds.is_empty() {
            view.remove_unreachable_blocks();
            for twin in twins {
                view.peel_first_iteration(twin);
            }
            view.unswitch_invariant_tests(&short_arounds, MAX_UNSWITCHED_LOOP, MAX_GUARD_COPIES);
        } else if unswitched > 0 {
            view.remove_unreachable_blocks();
        }
    }
    versioned
}

/// The note on the back edge of a versioned loop and of its copies.
const VERSIONED: &str = "sl1.vec.versioned";

/// Instructions of the loop around a checked loop, at most, that the checks
/// are taken out of (the loop is copied once per check).
const MAX_UNSWITCHED_LOOP: u32 = 400;

/// Copies of a loop around a short twin, at most, that its other tests
/// taken out make (kmeans: five, for its coordinates' count being zero,
/// under 4, a second iteration after the peeled one, and a remainder
/// after one iteration or more).
const MAX_GUARD_COPIES: u32 = 6;

/// What addresses move with: `base + scale * (phi + invariants)` bytes for
/// an integer induction variable `phi`, or the pointer induction variable
/// `base` itself (`phi` None).
#[derive(Debug)]
struct Anchor<'m> {
    base: Value<'m>,
    phi: Option<Value<'m>>,
    /// Compared as a set: the order the index adds them does not matter.
    invariants: Vec<Value<'m>>,
    scale: i64,
}

impl PartialEq for Anchor<'_> {
    /// The same address but for a constant: the invariants in any order.
    fn eq(&self, other: &Self) -> bool {
        let count = |a: &Self, v: &Value<'_>| a.invariants.iter().filter(|w| *w == v).count();
        self.base == other.base
            && self.phi == other.phi
            && self.scale == other.scale
            && self.invariants.len() == other.invariants.len()
            && self
                .invariants
                .iter()
                .all(|v| count(self, v) == count(other, v))
    }
}

/// A load at `anchor + offset` bytes.
struct Access<'m> {
    load: Value<'m>,
    offset: i64,
}

/// Loads reading one aligned 16-byte piece together.
struct Group<'m> {
    anchor: usize,
    /// Offset of the piece's first byte from the anchor.
    start: i64,
    ty: Type<'m>,
    lanes: u32,
    bytes_per_lane: i64,
    loads: Vec<Access<'m>>,
}

/// A one-block loop and the groups its copy reads with vector loads.
struct LoopPlan<'m> {
    block: Block<'m>,
    preheader: Block<'m>,
    exit: Block<'m>,
    groups: Vec<Group<'m>>,
    /// How far the loop's exit test is from its bound, when it is an
    /// induction variable against a loop-invariant value.
    trips: Option<ExitTest<'m>>,
}

/// The exit test compares `phi` (or its next value) with `bound`.
struct ExitTest<'m> {
    phi: Value<'m>,
    bound: Value<'m>,
    step: i64,
}

/// The induction variables of a one-block loop: phis whose value on the
/// back edge is theirs plus a constant, that constant in the phi's units
/// (an integer's, or a pointer phi's getelementptr elements, as bytes).
struct Phis<'m> {
    block: Block<'m>,
    step: HashMap<Value<'m>, i64>,
    /// Each induction variable's value on the back edge, and the phi.
    next: HashMap<Value<'m>, Value<'m>>,
}

/// Loads of one anchor and type, in the order first met.
struct Candidates<'m> {
    anchor: usize,
    ty: Type<'m>,
    /// Bytes a load of `ty` reads.
    size: i64,
    accesses: Vec<Access<'m>>,
}

fn terminator(block: Block<'_>) -> Value<'_> {
    block.terminator().expect("a block ends in a terminator")
}

impl<'m> LoopPlan<'m> {
    fn of(function: Function<'m>, block: Block<'m>) -> Option<LoopPlan<'m>> {
        if !block.is_own_loop() {
            return None;
        }
        // A loop versioned already, or a copy of one (the loop around it
        // copied for its checks): nothing more to do.
        if metadata::has_tag(block.terminator()?, VERSIONED) {
            return None;
        }
        let exit = *block.successors().iter().find(|s| **s != block)?;
        let preds = block.predecessors();
        if preds.len() != 2 {
            return None;
        }
        let preheader = *preds.iter().find(|p| **p != block)?;
        // The copy's values reach code after the loop through phis in a
        // block only the loop enters.
        if exit.predecessors().iter().any(|p| *p != block) {
            return None;
        }
        let phis = Phis::of(function, block, preheader);
        if phis.step.is_empty() {
            return None;
        }
        let insts = block.instructions();
        let mut anchors: Vec<Anchor<'m>> = Vec::new();
        let mut candidates: Vec<Candidates<'m>> = Vec::new();
        for &inst in &insts {
            if !inst.is_plain_load() {
                continue;
            }
            let ty = inst.ty();
            let Some(ptr) = inst.operand(0) else {
                continue;
            };
            let space = ptr.pointer_address_space();
            if !is_scalar_number(ty) || !space.is_some_and(|s| VECTOR_SPACES.contains(&s)) {
                continue;
            }
            let Some((anchor, offset)) = phis.address(function, ptr) else {
                continue;
            };
            let anchor = anchors
                .iter()
                .position(|a| *a == anchor)
                .unwrap_or_else(|| {
                    anchors.push(anchor);
                    anchors.len() - 1
                });
            let access = Access { load: inst, offset };
            match candidates
                .iter_mut()
                .find(|c| c.anchor == anchor && c.ty == ty)
            {
                Some(c) => c.accesses.push(access),
                None => candidates.push(Candidates {
                    anchor,
                    ty,
                    size: function.store_size(inst) as i64,
                    accesses: vec![access],
                }),
            }
        }
        let order: HashMap<Value<'m>, usize> =
            insts.iter().enumerate().map(|(i, v)| (*v, i)).collect();
        let writes: Vec<usize> = insts
            .iter()
            .enumerate()
            .filter(|(_, v)| v.may_write_memory())
            .map(|(i, _)| i)
            .collect();
        let mut groups = Vec::new();
        for c in candidates {
            let size = c.size;
            let Some(stride) = phis.stride_bytes(&anchors[c.anchor]) else {
                continue;
            };
            if size == 0 || VECTOR_BYTES % size != 0 || stride % VECTOR_BYTES != 0 {
                continue;
            }
            for group in groups_of(c.anchor, c.ty, size, c.accesses) {
                let span: Vec<usize> = group.loads.iter().map(|a| order[&a.load]).collect();
                let (first, last) = (*span.iter().min()?, *span.iter().max()?);
                if !writes.iter().any(|w| (first..=last).contains(w)) {
                    groups.push(group);
                }
            }
        }
        (!groups.is_empty()).then_some(LoopPlan {
            block,
            preheader,
            exit,
            groups,
            trips: phis.exit_test(block),
        })
    }

    /// Puts the check on the entry edge, the vector copy beside the loop,
    /// and merges what both compute for the code after them. Returns the
    /// branches that choose between the copies: where their conditions do
    /// not change in the loop around this one (a point's alignment, in the
    /// loop over centroids), they are taken out of it.
    fn version(self) -> Vec<Value<'m>> {
        // A block of its own (see vectorize_aligned_loads), ending in `br loop`.
        let check = self.preheader;
        metadata::tag(terminator(self.block), VERSIONED);
        let copy = cfg::clone_blocks(&[self.block], self.exit, ".vec");
        let vector_block = copy.blocks[&self.block];
        merge_values_after(self.block, vector_block, self.exit, &copy.values);
        let jump = terminator(check);
        let b = TypedBuilder::before(jump);
        let i64t = b.int_type(64);
        // Each phi of the loop as it enters from the check.
        let on_entry: HashMap<Value<'m>, Value<'m>> = self
            .block
            .instructions()
            .into_iter()
            .take_while(|i| i.is_phi())
            .filter_map(|phi| Some((phi, phi.incoming_from(check)?)))
            .collect();
        let mut all = None;
        let mut seen = BTreeSet::new();
        for g in &self.groups {
            if !seen.insert((g.anchor, g.start.rem_euclid(VECTOR_BYTES))) {
                continue;
            }
            // The first iteration's own address (the backend may share it
            // with the loop's): the address arithmetic `Phis::address`
            // accepts, with the loop's phis at their entry values.
            let lead = g
                .loads
                .iter()
                .min_by_key(|a| (a.offset - g.start).abs())
                .expect("a group has loads");
            let address = lead.load.operand(0).expect("a load has an address");
            let at = cfg::clone_expression(address, &[self.block], &on_entry, jump)
                .expect("a matched address is arithmetic on the loop's phis");
            let bits = b.ptr_to_int(at, i64t, c"sl1.vec.addr");
            let first = if lead.offset == g.start {
                bits
            } else {
                let back = i64t.constant((g.start - lead.offset) as u64);
                b.add(bits, back, c"sl1.vec.first")
            };
            let low = b.and(
                first,
                i64t.constant((VECTOR_BYTES - 1) as u64),
                c"sl1.vec.low",
            );
            let aligned = b.icmp_eq(low, i64t.constant(0));
            all = Some(match all {
                None => aligned,
                Some(prev) => b.and(prev, aligned, c"sl1.vec.aligned"),
            });
        }
        let cond = all.unwrap_or_else(|| b.const_int(1, 0));
        drop(b);
        jump.erase();
        let choice = TypedBuilder::at_end(check).cond_br(cond, vector_block, self.block);
        for g in &self.groups {
            let loads: Vec<Value<'m>> = g.loads.iter().map(|a| copy.values[&a.load]).collect();
            let first = *vector_block
                .instructions()
                .iter()
                .find(|i| loads.contains(i))
                .expect("the group's loads are in the copy");
            let first_offset = g.loads[loads.iter().position(|l| *l == first).unwrap_or(0)].offset;
            let at = TypedBuilder::before(first);
            // The piece starts where the first load in the block reads, less
            // its place in the piece: every load's address is the piece's
            // start plus its offset, exactly (see `Phis::affine`).
            let first_address = first.operand(0).expect("a load has an address");
            let address = if first_offset == g.start {
                first_address
            } else {
                at.byte_offset(first_address, g.start - first_offset, c"sl1.vec.at")
            };
            let vector = at.load(g.ty.vector(g.lanes), address);
            vector.set_alignment(VECTOR_BYTES as u32);
            // The builder stays before the first scalar load: erase them after.
            for access in &g.loads {
                let lane = ((access.offset - g.start) / g.bytes_per_lane) as u32;
                let value = at.extract_element(vector, lane);
                copy.values[&access.load].replace_all_uses_with(value);
            }
            drop(at);
            loads.into_iter().for_each(Value::erase);
        }
        let mut choices = vec![choice];
        if let Some(test) = &self.trips {
            choices.extend(add_short_copy(
                check,
                vector_block,
                self.exit,
                test,
                &on_entry,
            ));
        }
        choices
    }
}

/// Iterations under which the vector copy runs as a loop ptxas keeps
/// rolled: ptxas unrolls a loop of runtime trip count 4 times, and a loop
/// entered for one or two iterations (kmeans's four coordinates, once per
/// centroid) then pays the unrolled loop's set-up every time it is entered
/// (H100: kmeans 0.691 -> 0.580 ms with every copy kept rolled, matmul's
/// 256-iteration copy 8% slower, docs/benchmarks.md).
const SHORT_TRIPS: u64 = 4;

/// A second copy of the vector loop, marked `.pragma "nounroll"`, entered
/// instead of the first when the exit test's distance to its bound is under
/// `SHORT_TRIPS` steps. Both copies compute the same values; the test only
/// picks the code that runs them faster.
fn add_short_copy<'m>(
    check: Block<'m>,
    vector_block: Block<'m>,
    exit: Block<'m>,
    test: &ExitTest<'m>,
    on_entry: &HashMap<Value<'m>, Value<'m>>,
) -> Option<Value<'m>> {
    let &start = on_entry.get(&test.phi)?;
    let trips = cfg::split_edge(check, vector_block, "sl1.vec.trips");
    let short = cfg::clone_blocks(&[vector_block], exit, ".short");
    let short_block = short.blocks[&vector_block];
    metadata::mark_loop(terminator(short_block), "llvm.loop.unroll.disable");
    let jump = terminator(trips);
    let b = TypedBuilder::before(jump);
    let (start, bound) = if start.ty().is_pointer() {
        let i64t = b.int_type(64);
        (
            b.ptr_to_int(start, i64t, c"sl1.vec.start"),
            b.ptr_to_int(test.bound, i64t, c"sl1.vec.bound"),
        )
    } else {
        (start, test.bound)
    };
    let distance = if test.step > 0 {
        b.sub(bound, start, c"sl1.vec.distance")
    } else {
        b.sub(start, bound, c"sl1.vec.distance")
    };
    let limit = start.ty().constant(SHORT_TRIPS * test.step.unsigned_abs());
    let is_short = b.icmp(IntPredicate::LLVMIntULT, distance, limit, c"sl1.vec.short");
    drop(b);
    jump.erase();
    Some(TypedBuilder::at_end(trips).cond_br(is_short, short_block, vector_block))
}

/// How an integer expression may wrap: an extension above it needs its adds
/// not to wrap in the extension's sense.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Wrap {
    /// 64 bits, used as is: any add.
    Any,
    /// Under a sign extension: `nsw` adds.
    Signed,
    /// Under a zero extension: `nuw` adds, non-negative constants.
    Unsigned,
}

/// `phi + invariants + constant`.
struct Affine<'m> {
    phi: Value<'m>,
    invariants: Vec<Value<'m>>,
    constant: i64,
}

impl<'m> Phis<'m> {
    fn of(function: Function<'m>, block: Block<'m>, preheader: Block<'m>) -> Phis<'m> {
        let mut phis = Phis {
            block,
            step: HashMap::new(),
            next: HashMap::new(),
        };
        for inst in block.instructions() {
            if !inst.is_phi() {
                break;
            }
            let incoming = inst.phi_incoming();
            let entry = incoming.iter().any(|(_, b)| *b == preheader);
            let back = incoming.iter().find(|(_, b)| *b == block);
            if let (true, Some(&(next, _))) = (entry, back) {
                if let Some(step) = function.recurrence_step(inst, next) {
                    phis.step.insert(inst, step);
                    phis.next.insert(next, inst);
                }
            }
        }
        phis
    }

    fn is_invariant(&self, v: Value<'m>) -> bool {
        v.parent_block() != Some(self.block)
    }

    /// The anchor and byte offset of the address `ptr`, if it moves with
    /// one of the loop's induction variables.
    fn address(&self, function: Function<'m>, ptr: Value<'m>) -> Option<(Anchor<'m>, i64)> {
        if self.step.contains_key(&ptr) {
            let anchor = Anchor {
                base: ptr,
                phi: None,
                invariants: Vec::new(),
                scale: 1,
            };
            return Some((anchor, 0));
        }
        if ptr.opcode() != Some(Opcode::LLVMGetElementPtr) || ptr.num_operands() != 2 {
            return None;
        }
        let scale = match function.gep_indices(ptr)?.first()? {
            GepIndex::Scaled(bytes) => *bytes as i64,
            GepIndex::Field(_) => return None,
        };
        let (base, index) = (ptr.operand(0)?, ptr.operand(1)?);
        if let Some(c) = index.const_int() {
            // A constant step from an address that moves.
            let (anchor, offset) = self.address(function, base)?;
            return Some((anchor, offset + c * scale));
        }
        if !self.is_invariant(base) {
            return None;
        }
        // A GEP's narrower index is sign-extended.
        let wrap = if index.integer_bits() == Some(64) {
            Wrap::Any
        } else {
            Wrap::Signed
        };
        let affine = self.affine(index, wrap)?;
        let anchor = Anchor {
            base,
            phi: Some(affine.phi),
            invariants: affine.invariants,
            scale,
        };
        Some((anchor, affine.constant * scale))
    }

    /// `v` as an induction variable plus loop-invariant values plus a
    /// constant, exactly (no add on the way wraps where `wrap` says it must
    /// not).
    fn affine(&self, v: Value<'m>, wrap: Wrap) -> Option<Affine<'m>> {
        if self.step.contains_key(&v) {
            return Some(Affine {
                phi: v,
                invariants: Vec::new(),
                constant: 0,
            });
        }
        if self.is_invariant(v) {
            return None;
        }
        match v.opcode()? {
            Opcode::LLVMSExt => self.affine(v.operand(0)?, Wrap::Signed),
            Opcode::LLVMZExt => self.affine(v.operand(0)?, Wrap::Unsigned),
            opcode if v.is_add() => {
                let disjoint = opcode == Opcode::LLVMOr;
                let exact = disjoint
                    || match wrap {
                        Wrap::Any => true,
                        Wrap::Signed => v.has_no_wrap(true),
                        Wrap::Unsigned => v.has_no_wrap(false),
                    };
                if !exact {
                    return None;
                }
                let (a, b) = (v.operand(0)?, v.operand(1)?);
                let (mut affine, other) = match self.affine(a, wrap) {
                    Some(affine) => (affine, b),
                    None => (self.affine(b, wrap)?, a),
                };
                if let Some(c) = other.const_int() {
                    if wrap == Wrap::Unsigned && c < 0 {
                        return None;
                    }
                    affine.constant += c;
                } else if self.is_invariant(other) {
                    affine.invariants.push(other);
                } else {
                    return None;
                }
                Some(affine)
            }
            _ => None,
        }
    }

    /// The loop's exit test, when it compares an induction variable or its
    /// next value with a loop-invariant value.
    fn exit_test(&self, block: Block<'m>) -> Option<ExitTest<'m>> {
        let branch = block.terminator()?;
        if branch.num_operands() != 3 {
            return None;
        }
        let cond = branch.operand(0)?;
        if cond.opcode() != Some(Opcode::LLVMICmp) {
            return None;
        }
        let (a, b) = (cond.operand(0)?, cond.operand(1)?);
        let phi_of = |v: Value<'m>| {
            self.step
                .contains_key(&v)
                .then_some(v)
                .or_else(|| self.next.get(&v).copied())
        };
        let (phi, bound) = match (phi_of(a), phi_of(b)) {
            (Some(phi), None) if self.is_invariant(b) => (phi, b),
            (None, Some(phi)) if self.is_invariant(a) => (phi, a),
            _ => return None,
        };
        let step = *self.step.get(&phi)?;
        (step != 0).then_some(ExitTest { phi, bound, step })
    }

    /// Bytes the anchor advances an iteration.
    fn stride_bytes(&self, anchor: &Anchor<'m>) -> Option<i64> {
        match anchor.phi {
            Some(phi) => Some(self.step.get(&phi)? * anchor.scale),
            // A pointer phi's step is in bytes already.
            None => self.step.get(&anchor.base).copied(),
        }
    }
}

/// Runs of loads that cover whole aligned 16-byte pieces, all in the phase
/// (offset modulo 16) that covers the most loads.
fn groups_of<'m>(
    anchor: usize,
    ty: Type<'m>,
    size: i64,
    accesses: Vec<Access<'m>>,
) -> Vec<Group<'m>> {
    let lanes = VECTOR_BYTES / size;
    let offsets: BTreeSet<i64> = accesses.iter().map(|a| a.offset).collect();
    let mut by_phase: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    for &start in &offsets {
        if (0..lanes).all(|l| offsets.contains(&(start + l * size))) {
            by_phase
                .entry(start.rem_euclid(VECTOR_BYTES))
                .or_default()
                .push(start);
        }
    }
    // Starts of one phase are 16 B apart, so their pieces do not overlap.
    let Some(starts) = by_phase.into_values().max_by_key(|s| s.len()) else {
        return Vec::new();
    };
    let mut accesses = accesses;
    starts
        .into_iter()
        .map(|start| {
            let (inside, rest): (Vec<Access<'m>>, Vec<Access<'m>>) = accesses
                .drain(..)
                .partition(|a| (start..start + VECTOR_BYTES).contains(&a.offset));
            accesses = rest;
            Group {
                anchor,
                start,
                ty,
                lanes: lanes as u32,
                bytes_per_lane: size,
                loads: inside,
            }
        })
        .collect()
}

/// Integers and floating-point values of one register.
fn is_scalar_number(ty: Type<'_>) -> bool {
    matches!(ty.integer_width(), Some(32 | 64)) || matches!(ty.float_width(), Some(32 | 64))
}

/// Values of `loop_block` used after the loop now come from it or from its
/// copy `copy_block`: each gets a phi in `exit`, which only the two enter.
/// (Phis of `exit` already got the copy's values from `clone_blocks`.)
fn merge_values_after<'m>(
    loop_block: Block<'m>,
    copy_block: Block<'m>,
    exit: Block<'m>,
    copies: &HashMap<Value<'m>, Value<'m>>,
) {
    let exit_phis: HashSet<Value<'m>> = exit
        .instructions()
        .into_iter()
        .filter(|i| i.is_phi())
        .collect();
    for inst in loop_block.instructions() {
        let outside: Vec<Value<'m>> = inst
            .users()
            .into_iter()
            .filter(|u| {
                let at = u.parent_block();
                at != Some(loop_block) && at != Some(copy_block) && !exit_phis.contains(u)
            })
            .collect();
        if outside.is_empty() {
            continue;
        }
        let merged = TypedBuilder::before(exit.first_non_phi()).phi(inst.ty(), c"");
        merged.add_incoming(&[(inst, loop_block), (copies[&inst], copy_block)]);
        for user in outside {
            for op in 0..user.num_operands() {
                if user.operand(op) == Some(inst) {
                    user.set_operand(op, merged);
                }
            }
        }
    }
}

//! Device tuning: inner loops whose start moves with the enclosing loop
//! count their trips from zero, to a trip count computed before the loop.
//!
//! `for (begin = tid * chunk; begin < n; begin += stride)
//!    for (i = begin; i < min(begin + chunk, n); ++i) out[i] = f(in[i]);`
//! keeps one load per iteration in clang's code where nvcc unrolls it 4
//! times: LLVM's runtime unroller expands the trip count `min(begin + chunk,
//! n) - begin` before the loop only when scalar evolution prices it within
//! `-scev-cheap-expansion-budget`, and a start that is a recurrence of the
//! enclosing loop costs more than that (unless the end cancels it, as in
//! `begin + chunk`). Counted from zero to `freeze(trip count)`, an opaque
//! value, the same loop costs one subtraction to expand and is unrolled
//! (docs/results/2026-11-29-clang-vs-nvcc-harm-notes.md, long_chunks).
//!
//! The old induction variable stays (the addresses use it); only the exit
//! test moves to the new counter. The trip count is exact for every start
//! and end, wrapping included: `i + 1 <u end` runs `end - start` times when
//! `start + 1 <u end` and once otherwise; `i + 1 != end` runs `end - start`
//! times modulo 2^n (0 meaning 2^n), as the counter's `j + 1 != trip` does.

use inkwell::module::Module;

use crate::analysis::affine::{CountedExit, LoopScope};
use crate::analysis::loop_forest;
use crate::analysis::loops::{Loop, LoopForest};
use crate::llvm::ir::{
    defined_functions, Block, BlockIndex, Function, IntPredicate as P, Opcode, Value,
};
use crate::llvm::metadata;
use crate::llvm::typed::TypedBuilder;

/// Rewrites every eligible loop of `module`; returns how many.
pub fn count_trips(module: &Module<'_>) -> usize {
    let mut rewritten = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        let index = crate::llvm::ir::block_indices(&blocks);
        // Planned before any change: a rewrite adds instructions, no blocks.
        let plans: Vec<Plan<'_>> = (0..forest.loops.len())
            .filter_map(|l| plan(function, l, (&forest, &blocks, &index)))
            .collect();
        for p in plans {
            apply(p);
            rewritten += 1;
        }
    }
    rewritten
}

/// How the exit test reads, once its compare is `next PRED end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exit {
    /// Stays while `next <u end`.
    Below,
    /// Stays while `next != end`.
    NotEqual,
}

struct Plan<'m> {
    preheader: Block<'m>,
    header: Block<'m>,
    /// The latch's test (its branch, `end` its bound).
    counted: CountedExit<'m>,
    start: Value<'m>,
    exit: Exit,
}

fn plan<'m>(
    function: Function<'m>,
    l: usize,
    (forest, blocks, index): (&LoopForest, &[Block<'m>], &BlockIndex<'m>),
) -> Option<Plan<'m>> {
    let lp = &forest.loops[l];
    // Innermost, inside another loop.
    let parent = &forest.loops[lp.parent?];
    if !forest.is_innermost(l) || lp.latches.len() != 1 {
        return None;
    }
    let latch = blocks[lp.latches[0]];
    let header = blocks[lp.header];
    let outside: Vec<Block<'m>> = header
        .predecessors()
        .into_iter()
        .filter(|b| index.get(b).is_none_or(|i| !lp.blocks.contains(i)))
        .collect();
    let [preheader] = outside[..] else {
        return None;
    };
    if header.predecessors().len() != 2 {
        return None;
    }
    // The loop leaves from its latch only, on `next PRED end`.
    let counted = LoopScope::new(function, blocks, lp).counted_exit().ok()?;
    if counted.branch.parent_block() != Some(latch) {
        return None;
    }
    // A loop with unroll properties of its own (a pragma, S-L1's runs) is
    // left as it is.
    if metadata::has_unroll_property(counted.branch) {
        return None;
    }
    let exit = match counted.predicate {
        P::LLVMIntULT => Exit::Below,
        P::LLVMIntNE => Exit::NotEqual,
        _ => return None,
    };
    // `next` is a header phi's value for the next trip, one more.
    let next = counted.x();
    let phi = header
        .instructions()
        .into_iter()
        .take_while(|v| v.is_phi())
        .find(|phi| phi.incoming_from(latch) == Some(next))?;
    if phi.ty().integer_width().is_none()
        || next.opcode() != Some(Opcode::LLVMAdd)
        || function.recurrence_step(phi, next) != Some(1)
    {
        return None;
    }
    let start = phi.incoming_from(preheader)?;
    let end = counted.bound();
    let in_loop = |v: Value<'m>, lp: &Loop| {
        v.parent_block()
            .and_then(|b| index.get(&b))
            .is_some_and(|i| lp.blocks.contains(i))
    };
    // The start moves with the enclosing loop, and the end does not cancel
    // it (the end is the same every trip: `counted_exit`).
    if !in_loop(start, parent) || adds(end, start) {
        return None;
    }
    Some(Plan {
        preheader,
        header,
        counted,
        start,
        exit,
    })
}

/// Whether `end` is `start + x`: the trip count `x` is cheap already.
fn adds(end: Value<'_>, start: Value<'_>) -> bool {
    end.is_add() && (end.operand(0) == Some(start) || end.operand(1) == Some(start))
}

fn apply(p: Plan<'_>) {
    let ty = p.start.ty();
    let before = TypedBuilder::before(p.preheader.terminator().expect("a preheader branches"));
    let end = p.counted.bound();
    let span = before.sub(end, p.start, c"sl1.trip.span");
    let trips = match p.exit {
        Exit::NotEqual => span,
        Exit::Below => {
            let one = ty.constant(1);
            let first = before.add(p.start, one, c"");
            let more = before.icmp(P::LLVMIntULT, first, end, c"");
            before.select(more, span, one, c"")
        }
    };
    let trips = before.freeze(trips, c"sl1.trips");
    let at_header = TypedBuilder::before(p.header.instructions()[0]);
    let counter = at_header.phi(ty, c"sl1.trip");
    let at_latch = TypedBuilder::before(p.counted.branch);
    let next = at_latch.add(counter, ty.constant(1), c"sl1.trip.next");
    let latch = p
        .counted
        .branch
        .parent_block()
        .expect("a branch is in a block");
    counter.add_incoming(&[(ty.constant(0), p.preheader), (next, latch)]);
    let predicate = if p.counted.stays_on_true {
        P::LLVMIntNE
    } else {
        P::LLVMIntEQ
    };
    let stay = at_latch.icmp(predicate, next, trips, c"sl1.trip.more");
    p.counted.branch.set_operand(0, stay);
}

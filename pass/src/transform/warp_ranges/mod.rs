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
//! the elements after the last boundary. A `__syncwarp` before the copy
//! makes what each lane wrote or observed before the loop visible to the
//! lanes that now touch its chunk, and one after it makes each lane's
//! chunk, written by other lanes, visible to it; the loop itself holds no
//! fence, barrier, atomic or call (`candidate`), so the memory order the
//! rest of the kernel builds (fences are cumulative, a warp barrier orders
//! its lanes) holds for the copy as it held for each thread's loop.
//!
//! On the H200 the copy ran `upper` at 1.10x its memory floor where the
//! lines alone ran 1.44x (docs/results/2026-11-30-h200-apps-warp-ranges-5955876.txt).

use std::collections::HashMap;

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::analysis::lone_lane::lone_lane_guard;
use crate::analysis::{analyse_kernel, loop_forest};
use crate::llvm::cfg::{clone_expression, insert_block_before, split_edge};
use crate::llvm::ir::{Block, Function, IntPredicate, Value};
use crate::llvm::typed::TypedBuilder;
use crate::transform::reports::RefusedWarpRange;

mod candidate;
mod check;
mod walk;
mod warp;

use candidate::{candidate, Candidate, Refusal};
use check::{adjacent_chunks, Entry};
pub(in crate::transform) use walk::is_copy;
use walk::walk_range;
use warp::{nvvm, widen, ALL_LANES};

/// What [`add_warp_ranges`] did to a kernel.
#[derive(Debug, Default)]
pub struct WarpRanges {
    /// Headers of the loops that got a copy.
    pub made: Vec<String>,
    /// Chunk loops that got none, and why.
    pub refused: Vec<RefusedWarpRange>,
}

/// Gives every loop of `kernel` that qualifies a warp-range copy.
pub fn add_warp_ranges<'ctx>(module: &Module<'ctx>, kernel: FunctionValue<'ctx>) -> WarpRanges {
    let function = Function::of(module, kernel);
    let mut refused = Vec::new();
    let mut headers: Vec<Block<'_>> = Vec::new();
    {
        let k = analyse_kernel(module, kernel);
        for l in &k.loops.loops {
            let header = k.blocks[l.header];
            match candidate(function, &k.blocks, l) {
                Err(Refusal::NotAChunkLoop) => {}
                Err(Refusal::Because(why)) => refused.push(refusal(header, why)),
                // A loop one lane of a warp runs never finds the warp there.
                Ok(_) if lone_lane_guard(&k, l.header).is_some() => {
                    refused.push(refusal(header, "one lane of each warp runs it"));
                }
                Ok(_) => headers.push(header),
            }
        }
    }
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
    WarpRanges { made, refused }
}

fn refusal(header: Block<'_>, why: &str) -> RefusedWarpRange {
    RefusedWarpRange {
        loop_header: header.name(),
        why: why.to_string(),
    }
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
            clone_expression(v, &[c.body], &first_values, term)
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

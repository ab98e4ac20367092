//! Device tuning: inner loops whose trip count depends on loaded data are
//! merged into the top-level loop around them.
//!
//! In `for (i ...) { if (text[i - 1] != '\n') continue; for (j = i; text[j]
//! != '\n'; ++j) ...; }` each thread scans the lines that start in its own
//! chunk. A warp runs the inner loop until its longest line ends while the
//! threads that are not at a line start wait, and then the next thread's
//! line: the warp runs one thread at a time (grep: 1.7 of 32 threads per
//! instruction on the H100). Merged, the two loops are one loop whose every
//! iteration runs either one step of the outer loop's own code or one
//! iteration of the inner loop, as the thread's state says:
//!
//! ```text
//! for (;;) { if (state == 0) { outer code up to the inner loop } inner iteration }
//! ```
//!
//! and the threads of a warp meet once per iteration (a vote), so that
//! each iteration runs one step of every thread's work whatever loop each
//! is in. Each thread still runs the same instructions in the same order:
//! only the control flow between them changes. Loops with barriers or warp
//! collectives (convergent calls) keep their shape, since merging changes
//! which threads meet at them; so do inner loops entered only after many
//! tests (`MAX_TESTS_BEFORE`), and counted inner loops, whose exit tests
//! depend on no load the loop makes (`exit_depends_on_loads`): their trip
//! count is known on entry, so LLVM unrolls them (spmv_csr's rows).
//!
//! Rounds: when the outer loop's own iterations that enter no inner loop
//! are chosen by a test of loaded data (grep's search for the next line
//! start), a thread back from its inner loops waits at the dispatch while
//! any of the warp's others is still bound for one, and then the threads
//! search together. Otherwise each thread's search would run alone in the
//! middle of the others' lines, most iterations waiting for one of them
//! (H100, 2026-11-26, `sl1-bench --reps 3 --bytes 268435493`: grep 4.32 to
//! 1.83 ms, pvc 1.75 to 1.12 ms, opinion 8.91 to 6.34 ms; dna, which enters
//! its inner loop on every iteration, 2.93 to 4.04 ms, so it keeps its
//! threads free).
//!
//! The rewrite (`apply`): every phi of the loop and every value used outside
//! its own block go through stack slots. The outer loop's own iterations
//! that enter no inner loop keep their back edges to the old header, a
//! small loop of their own; blocks they share with the code after an inner
//! loop are copied for the latter. A dispatch block becomes the header of
//! the merged loop (`add_dispatch`): the inner loops' entries and back
//! edges, the loop's entries, the back edges after inner loops and every
//! exit lead to it, each with its target as a flag. There the threads that
//! entered the loop together vote (`vote.sync.ballot` over those still in
//! it), which makes them meet, and go on to their targets. `mem2reg` then
//! rebuilds SSA form.

use std::collections::{BTreeSet, HashSet};

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::analysis::loop_forest;
use crate::analysis::loops::{Loop, LoopForest};
use crate::llvm::cfg;
use crate::llvm::ir::{Block, BlockIndex, Function, IntPredicate, Opcode, Value};
use crate::llvm::typed::TypedBuilder;

/// Most values followed back from an exit test looking for a load.
const MAX_VALUES_FOLLOWED: usize = 256;
/// Most conditional branches the outer loop's code may take before an inner
/// loop for the inner loop to be merged. Merged, the threads meet once per
/// iteration of the merged loop, so a thread in an inner loop waits there for
/// the others to reach theirs: that pays when every thread soon reaches one
/// (a line start, `grep`), not when few get past a long test (`invindex`'s
/// 11-byte key before a rare number) nor for the short scans deep in an
/// iteration (H100, 2026-11-26: `pvc`'s digits after 4 tests, 1.108 ms
/// merged, 1.013 ms nested; a line's pattern compare after 4, 10.06 and
/// 1.90 ms).
const MAX_TESTS_BEFORE: u32 = 3;

pub use sl1_core::report::rewrites::{KeptLoop, MergedLoop, NO_MERGING_HINT};

/// What merging did in one kernel.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Merging {
    pub merged: Vec<MergedLoop>,
    pub kept: Vec<KeptLoop>,
}

/// One merge to make, in blocks that stay valid while it is made.
struct Plan<'m> {
    header: Block<'m>,
    blocks: Vec<Block<'m>>,
    inner: Vec<Inner<'m>>,
    /// As `MergedLoop::rounds`.
    rounds: bool,
    /// Compares nested in the inner loops to peel first (`compares_to_peel`):
    /// their names and headers.
    peels: Vec<(String, Block<'m>)>,
}

/// A merged inner loop: its header and its blocks.
struct Inner<'m> {
    header: Block<'m>,
    blocks: BTreeSet<Block<'m>>,
}

/// Merges, in `kernel`, every top-level loop with its direct inner loops
/// whose exit tests depend on loaded data, after peeling the compares
/// nested in them (`compares_to_peel`). All or nothing: when the result
/// fails the verifier (or, with `fail_for_testing`, on request once the
/// merge is made) the kernel is left exactly as it was, peels included,
/// and the error says why.
pub fn merge_divergent_loops(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
    fail_for_testing: bool,
) -> Result<Merging, String> {
    let function = Function::of(module, kernel);
    let name = function.name();
    let (found, plans) = survey(function);
    if plans.is_empty() {
        return Ok(found);
    }
    function
        .all_or_nothing(|| {
            let peeled: std::collections::HashMap<&str, Vec<String>> = found
                .merged
                .iter()
                .zip(&plans)
                .map(|(merged, plan)| {
                    let done = plan
                        .peels
                        .iter()
                        .filter(|&&(_, header)| function.peel_first_iteration(header))
                        .map(|(name, _)| name.clone())
                        .collect();
                    (merged.outer.as_str(), done)
                })
                .collect();
            // The peels changed the loops: planned again on what they left.
            let (mut merging, plans) = survey(function);
            for merged in &mut merging.merged {
                merged.peeled = peeled
                    .get(merged.outer.as_str())
                    .cloned()
                    .unwrap_or_default();
            }
            for plan in &plans {
                apply(function, plan);
            }
            // The stack slots the merge added back to registers.
            function.run_function_passes(c"mem2reg");
            if fail_for_testing {
                panic!("failure requested for kernel `{name}`");
            }
            merging
        })
        .map_err(|why| {
            format!(
                "merging inner loops in kernel `{name}` failed, so it was left as it was: {why}; \
             please report it"
            )
        })
}

/// The headers of the top-level loops of `function` that
/// `merge_divergent_loops` would merge, with their divergent inner loops'
/// headers' labels; nothing changes.
pub fn loops_to_merge(function: Function<'_>) -> Vec<(Block<'_>, Vec<String>)> {
    let (merging, plans) = survey(function);
    plans
        .iter()
        .zip(merging.merged)
        .map(|(plan, merged)| (plan.header, merged.inner))
        .collect()
}

/// The top-level loops of `function` to merge, each with its plan, and
/// those kept nested with the reason.
fn survey(function: Function<'_>) -> (Merging, Vec<Plan<'_>>) {
    let name = function.name();
    let (blocks, forest) = loop_forest(function);
    let index = crate::llvm::ir::block_indices(&blocks);
    let mut merging = Merging::default();
    let mut plans = Vec::new();
    if !forest.irreducible_edges.is_empty() {
        return (merging, plans);
    }
    for (at, outer) in forest.loops.iter().enumerate() {
        if outer.depth != 1 {
            continue;
        }
        let (divergent, rare) = load_driven_inner(at, &forest, &blocks, &index);
        let header = blocks[outer.header].name();
        if divergent.is_empty() {
            if !rare.is_empty() {
                merging.kept.push(KeptLoop {
                    kernel: name.clone(),
                    outer: header,
                    reason: format!(
                        "its inner loops are entered only after more than {MAX_TESTS_BEFORE} \
                         tests of its own code: rarely, so a warp's threads would mostly wait \
                         for each other there"
                    ),
                    failed: false,
                });
            }
            continue;
        }
        if let Some(reason) = unmergeable(outer, &blocks) {
            merging.kept.push(KeptLoop {
                kernel: name.clone(),
                outer: header,
                reason,
                failed: false,
            });
            continue;
        }
        let plan = plan(outer, &divergent, &blocks, (&forest, &index));
        merging.merged.push(MergedLoop {
            kernel: name.clone(),
            inner: divergent.iter().map(|l| blocks[l.header].name()).collect(),
            rounds: plan.rounds,
            peeled: Vec::new(),
            outer: header,
        });
        plans.push(plan);
    }
    (merging, plans)
}

/// The direct inner loops of top-level loop `at` whose exit tests depend on
/// loaded data: those entered after at most `MAX_TESTS_BEFORE` tests (to
/// merge), and the rest.
fn load_driven_inner<'f>(
    at: usize,
    forest: &'f LoopForest,
    blocks: &[Block<'_>],
    index: &BlockIndex<'_>,
) -> (Vec<&'f Loop>, Vec<&'f Loop>) {
    let outer = &forest.loops[at];
    forest
        .loops
        .iter()
        .filter(|l| l.parent == Some(at) && exit_depends_on_loads(l, blocks, index))
        .partition(|l| tests_before(outer, l, blocks, index) <= MAX_TESTS_BEFORE)
}

/// The innermost loops nested right inside inner loops `inner` (to be
/// merged) whose exit tests depend on loaded data and that go on only
/// while two values are equal, to have their first iteration taken out (a
/// compare for equality mostly fails: LLVM's static branch prediction
/// assumes as much). Merged, a round runs one iteration of the inner loop
/// for the warp's threads, and a loop inside that iteration runs there for
/// the threads that enter it: peeled, the threads whose first test fails
/// (most of grep's: a line's byte against the pattern's first) take no
/// loop at all, and that test's load is the one just made before it (H100,
/// 2026-11-27: grep 1.80 to 1.59 ms,
/// docs/results/2026-11-27-h100-peeled-first-iterations.txt).
fn compares_to_peel<'m>(
    inner: &[&Loop],
    forest: &LoopForest,
    blocks: &[Block<'m>],
    index: &BlockIndex<'_>,
) -> Vec<(String, Block<'m>)> {
    let mut peels = Vec::new();
    for &inner in inner {
        let inner_at = forest.loops.iter().position(|l| std::ptr::eq(l, inner));
        for (nested_at, nested) in forest
            .loops
            .iter()
            .enumerate()
            .filter(|(_, l)| l.parent == inner_at && exit_depends_on_loads(l, blocks, index))
        {
            // A loop with loops inside would copy them too; one that goes on
            // unless two values are equal mostly runs on.
            if !forest.is_innermost(nested_at) || !goes_on_while_equal(nested, blocks, index) {
                continue;
            }
            let header = blocks[nested.header];
            peels.push((header.name(), header));
        }
    }
    peels
}

fn plan<'m>(
    outer: &Loop,
    inner: &[&Loop],
    blocks: &[Block<'m>],
    (forest, index): (&LoopForest, &BlockIndex<'_>),
) -> Plan<'m> {
    let raw = |i: &usize| blocks[*i];
    debug_assert!(inner
        .iter()
        .all(|l| forest.loops[l.parent.unwrap()] == *outer));
    let mut plan = Plan {
        header: raw(&outer.header),
        blocks: outer.blocks.iter().map(raw).collect(),
        inner: inner
            .iter()
            .map(|l| Inner {
                header: raw(&l.header),
                blocks: l.blocks.iter().map(raw).collect(),
            })
            .collect(),
        rounds: false,
        peels: compares_to_peel(inner, forest, blocks, index),
    };
    plan.rounds = own_iterations_test_loads(&plan);
    plan
}

impl<'m> Plan<'m> {
    fn inside(&self) -> BTreeSet<Block<'m>> {
        self.blocks.iter().copied().collect()
    }

    fn in_inner(&self) -> BTreeSet<Block<'m>> {
        self.inner
            .iter()
            .flat_map(|l| l.blocks.iter().copied())
            .collect()
    }

    /// The outer loop's own code reachable from `from`: up to the inner
    /// loops and the header.
    fn own_code_from(&self, from: &[Block<'m>]) -> BTreeSet<Block<'m>> {
        let (inside, in_inner) = (self.inside(), self.in_inner());
        reach(from, |b| {
            inside.contains(&b) && !in_inner.contains(&b) && b != self.header
        })
    }
}

/// Whether the planned loop has iterations of its own that enter no inner loop
/// and go back to its header, chosen by a test of loaded data: `if
/// (text[i - 1] != '\n') continue;` before a line's loop. Merged, each
/// thread back from a line would run its search for the next line start
/// while the warp's others wait in the middle of theirs; in rounds the
/// warp's threads search together (grep on the H100: 1.83 ms against
/// 4.32 ms, 2026-11-26). A loop that enters an inner loop on every
/// iteration has no such search to gather and keeps its threads free.
fn own_iterations_test_loads(plan: &Plan<'_>) -> bool {
    let own = plan.own_code_from(&[plan.header]);
    let back = own.iter().any(|b| b.successors().contains(&plan.header));
    // Where the inner loops leave to: a test that may go there directly is
    // an inner loop's guard (a row of CSR with no entries, LLVM's rotated
    // `if (j < end)`): skipping the loop, not searching for work.
    let in_inner = plan.in_inner();
    let left_to: BTreeSet<Block<'_>> = in_inner
        .iter()
        .flat_map(|b| b.successors())
        .filter(|n| !in_inner.contains(n))
        .collect();
    let searches: Vec<Value<'_>> = own
        .iter()
        .filter(|b| !b.successors().iter().any(|n| left_to.contains(n)))
        .filter_map(|&b| branch_condition(b))
        .collect();
    back && depends_on_loads(searches, |_| true)
}

/// The fewest conditional branches on a path from `outer`'s header to
/// `inner`'s header through `outer`'s own blocks (`u32::MAX`: none).
fn tests_before(outer: &Loop, inner: &Loop, blocks: &[Block<'_>], index: &BlockIndex<'_>) -> u32 {
    // 0-1 breadth-first search: leaving a block with a choice costs 1.
    let mut best = vec![u32::MAX; blocks.len()];
    let mut work = std::collections::VecDeque::from([(outer.header, 0u32)]);
    best[outer.header] = 0;
    while let Some((b, cost)) = work.pop_front() {
        if cost > best[b] {
            continue;
        }
        if b == inner.header {
            return cost;
        }
        let next: Vec<usize> = blocks[b]
            .successors()
            .into_iter()
            .filter_map(|s| index.get(&s).copied())
            .collect();
        let step = u32::from(next.iter().collect::<BTreeSet<_>>().len() > 1);
        for n in next {
            let inside = outer.blocks.contains(&n) && n != outer.header;
            let own = !inner.blocks.contains(&n) || n == inner.header;
            if inside && own && cost + step < best[n] {
                best[n] = cost + step;
                if step == 0 {
                    work.push_front((n, cost));
                } else {
                    work.push_back((n, cost + 1));
                }
            }
        }
    }
    u32::MAX
}

/// Why `outer` cannot be merged, if it cannot: its threads would meet at a
/// collective in other company, or it has values no stack slot can hold.
fn unmergeable(outer: &Loop, blocks: &[Block<'_>]) -> Option<String> {
    for inst in outer.blocks.iter().flat_map(|&b| blocks[b].instructions()) {
        let barrier = inst
            .called_function_name()
            .is_some_and(|name| crate::analysis::sync::is_block_barrier(&name));
        if inst.is_convergent_call() || barrier {
            return Some(
                "it has a barrier or warp collective (convergent call), which merged loops \
                 would reach with other threads"
                    .to_string(),
            );
        }
        if inst.ty().is_token() {
            return Some("it defines a token value, which cannot be kept in memory".to_string());
        }
        if inst.opcode() == Some(Opcode::LLVMCallBr) {
            return Some("it has an asm goto (callbr)".to_string());
        }
    }
    None
}

/// Whether a test that decides whether `inner` is left depends on a value
/// loaded from memory: then threads leave it after different trip counts.
/// Whether `block` is one of `l`'s.
fn in_loop(l: &Loop, index: &BlockIndex<'_>, block: Option<Block<'_>>) -> bool {
    block
        .and_then(|b| index.get(&b))
        .is_some_and(|i| l.blocks.contains(i))
}

/// Only loads the loop makes count: a test against a bound loaded before
/// it (a CSR row's end) leaves a counted loop, whose trip count is known on
/// entry, which LLVM unrolls and ptxas gives several loads in flight;
/// merged, each of its iterations would be a vote and a chain of waits
/// (spmv_csr's SASS, 2026-11-29: 23 instructions and two waits per element,
/// against nvcc's 38 for four elements).
fn exit_depends_on_loads(inner: &Loop, blocks: &[Block<'_>], index: &BlockIndex<'_>) -> bool {
    let tests = inner
        .blocks
        .iter()
        .filter(|&&b| {
            blocks[b]
                .successors()
                .iter()
                .any(|s| !in_loop(inner, index, Some(*s)))
        })
        .filter_map(|&b| branch_condition(blocks[b]))
        .collect();
    depends_on_loads(tests, |value| in_loop(inner, index, value.parent_block()))
}

/// The value `block`'s terminator chooses by: a conditional branch's
/// condition, a switch's value; `None` for an unconditional branch or a
/// return.
/// Whether one of `l`'s exit tests stays in the loop only where a compare
/// for equality holds (`icmp eq` true, or `icmp ne` false): a pattern
/// compare (`text[j + k] == pat[k]`), not a scan of a class of bytes or a
/// probe that runs while slots differ.
fn goes_on_while_equal(l: &Loop, blocks: &[Block<'_>], index: &BlockIndex<'_>) -> bool {
    l.blocks.iter().any(|&b| {
        let Some(cond) = branch_condition(blocks[b]) else {
            return false;
        };
        // A conditional branch's successors: true, then false.
        let successors = blocks[b].successors();
        let stays = |i: usize| in_loop(l, index, successors.get(i).copied());
        match cond.icmp_predicate() {
            Some(IntPredicate::LLVMIntEQ) => stays(0) && !stays(1),
            Some(IntPredicate::LLVMIntNE) => stays(1) && !stays(0),
            _ => false,
        }
    })
}

fn branch_condition(block: Block<'_>) -> Option<Value<'_>> {
    let term = block.terminator()?;
    if term.num_operands() > 1 {
        term.operand(0)
    } else {
        None
    }
}

/// Whether any of `tests` is computed from a value loaded from memory
/// (followed back through at most `MAX_VALUES_FOLLOWED` values, and only
/// through the instructions `follow` takes).
fn depends_on_loads<'m>(tests: Vec<Value<'m>>, follow: impl Fn(Value<'m>) -> bool) -> bool {
    let mut seen = HashSet::new();
    let mut work = tests;
    while let Some(value) = work.pop() {
        if !seen.insert(value) || seen.len() > MAX_VALUES_FOLLOWED {
            continue;
        }
        let opcode = value.opcode().filter(|_| follow(value));
        match opcode {
            Some(Opcode::LLVMLoad | Opcode::LLVMAtomicRMW | Opcode::LLVMAtomicCmpXchg) => {
                return true
            }
            Some(_) => work.extend(value.operands()),
            None => {}
        }
    }
    false
}

/// Merges one loop. What crosses blocks goes through stack slots; the
/// blocks that both the outer loop's own iterations and the code after an
/// inner loop run (the outer latch, say) are copied, so that the outer
/// loop's iterations that enter no inner loop stay a small loop of their
/// own (back to the outer header) while every other path goes back to the
/// dispatch block, which becomes the merged loop's header.
fn apply<'m>(function: Function<'m>, plan: &Plan<'m>) {
    demote(function, &plan.blocks);
    let (inside, in_inner) = (plan.inside(), plan.in_inner());
    // The outer loop's own code from its header, and the code after an
    // inner loop: blocks in both are copied for the latter.
    let own = plan.own_code_from(&[plan.header]);
    let exits: Vec<Block<'m>> = in_inner
        .iter()
        .flat_map(|b| b.successors())
        .filter(|s| inside.contains(s) && !in_inner.contains(s) && *s != plan.header)
        .collect();
    let after = plan.own_code_from(&exits);
    let shared: Vec<Block<'m>> = plan
        .blocks
        .iter()
        .copied()
        .filter(|b| own.contains(b) && after.contains(b))
        .collect();
    let copies = cfg::clone_blocks(&shared, plan.header, ".sl1.after").blocks;
    let after_paths: Vec<Block<'m>> = after
        .iter()
        .filter(|b| !own.contains(b))
        .chain(&in_inner)
        .chain(copies.values())
        .copied()
        .collect();
    for &from in &after_paths {
        for (original, copy) in &copies {
            cfg::retarget_edges(from, *original, *copy);
        }
    }
    // The header's predecessors: entries and the back edges of paths that
    // ran an inner loop go through the dispatch block; the outer loop's own
    // back edges stay.
    let mut edges: Vec<(Block<'m>, Block<'m>, u64)> = plan
        .header
        .predecessors()
        .into_iter()
        .filter(|p| !inside.contains(p) || !own.contains(p))
        .map(|p| (p, plan.header, 0))
        .collect();
    // Each inner loop's back edges, and its entries: the threads that start
    // an inner loop meet those in it at the vote and take its next
    // iteration with them.
    for (k, inner) in plan.inner.iter().enumerate() {
        edges.extend(
            inner
                .header
                .predecessors()
                .into_iter()
                .map(|p| (p, inner.header, k as u64 + 1)),
        );
    }
    // Every exit of the loop goes through the dispatch block too: a thread
    // leaves only after the warp's vote there (`add_dispatch`).
    let mut body = inside;
    body.extend(copies.values());
    let mut exits: Vec<Block<'m>> = Vec::new();
    let first_exit = plan.inner.len() as u64 + 1;
    for &from in &body {
        for to in from.successors() {
            if body.contains(&to) {
                continue;
            }
            if !exits.contains(&to) {
                for phi in to.instructions().into_iter().filter(|i| i.is_phi()) {
                    function.demote_phi(phi);
                }
                exits.push(to);
            }
            let k = exits.iter().position(|e| *e == to).unwrap_or(0) as u64;
            edges.push((from, to, first_exit + k));
        }
    }
    add_dispatch(function, plan, &body, &edges, first_exit);
}

fn terminator(block: Block<'_>) -> Value<'_> {
    block.terminator().expect("a new block ends in its branch")
}

/// Stack slots for every phi of `blocks` and every value used outside the
/// block that defines it.
fn demote<'m>(function: Function<'m>, blocks: &[Block<'m>]) {
    // Phis first: their incoming values may be the instructions demoted next.
    for &block in blocks {
        for phi in block.instructions().into_iter().filter(|i| i.is_phi()) {
            function.demote_phi(phi);
        }
    }
    for &block in blocks {
        let here = BTreeSet::from([block]);
        for inst in block.instructions() {
            if !inst.ty().is_void() {
                function.demote_uses_outside(inst, &here);
            }
        }
    }
}

/// Blocks reachable from `from` (included) through blocks `inside` accepts.
fn reach<'m>(from: &[Block<'m>], inside: impl Fn(Block<'m>) -> bool) -> BTreeSet<Block<'m>> {
    let mut seen = BTreeSet::new();
    let mut work: Vec<Block<'m>> = from.to_vec();
    while let Some(b) = work.pop() {
        if !seen.insert(b) {
            continue;
        }
        work.extend(b.successors().into_iter().filter(|s| inside(*s)));
    }
    seen
}

/// A target of the dispatch block: its state and its block.
type Target<'m> = (u64, Block<'m>);

/// A target's flag: its phi in the latch (set on the back edges) and in
/// the dispatch block (set on the entries, and from the latch's).
type Flag<'m> = (Value<'m>, Value<'m>);

/// The dispatch block before the outer header: each of `edges` (from, to,
/// state) now goes to it, and it goes on to `to` by the state: 0 for the
/// outer header, k for the k-th inner loop's header, more for exits.
/// `inside`: the loop's blocks (edges from them get a block each); states
/// from `first_exit` on leave the loop. The state is a flag per target,
/// tested in turn: one value compared with several constants becomes an
/// indirect branch in ptxas, which a warp whose threads go different ways
/// runs one target at a time.
///
/// The threads that entered the loop together vote there on every
/// iteration (`vote.sync.ballot` over those still in it): the vote makes
/// them meet, so that each iteration runs for all of them, whatever code
/// each takes, instead of one group running ahead while the others wait.
fn add_dispatch<'m>(
    function: Function<'m>,
    plan: &Plan<'m>,
    inside: &BTreeSet<Block<'m>>,
    edges: &[(Block<'m>, Block<'m>, u64)],
    first_exit: u64,
) {
    let mut targets: Vec<Target<'m>> = Vec::new();
    for &(_, to, k) in edges {
        if k != 0 && !targets.iter().any(|&(t, _)| t == k) {
            targets.push((k, to));
        }
    }
    let dispatch = cfg::insert_block_before(plan.header, c"sl1.merged");
    // One latch for every back edge into the dispatch block.
    let latch = cfg::new_block_before(plan.header, dispatch, "sl1.merged.latch");
    let in_latch = TypedBuilder::before(terminator(latch));
    let in_dispatch = TypedBuilder::at_end(dispatch);
    let i1t = in_dispatch.int_type(1);
    let i32t = in_dispatch.int_type(32);
    // Per target: its flag in the latch and in the dispatch block.
    let flags: Vec<Flag<'m>> = targets
        .iter()
        .map(|_| {
            let next = in_latch.phi(i1t, c"sl1.merged.next");
            let now = in_dispatch.phi(i1t, c"sl1.merged.to");
            now.add_incoming(&[(next, latch)]);
            (next, now)
        })
        .collect();
    // The threads in the loop: those that entered it together, less
    // those that left it. Each entry edge gets a block of its own where
    // the threads that take it read the active mask: read before the
    // branch, it would name threads that never enter (a guard such as
    // `if (begin < end)`), which the vote would then wait for.
    let members = function.entry_alloca(i32t, "sl1.merged.members");
    for &(from, to, k) in edges {
        let (block, pick) = if inside.contains(&from) {
            // A block per edge: one block may branch to several targets.
            let edge = cfg::new_block_before(plan.header, latch, "sl1.merged.edge");
            cfg::retarget_edges(from, to, edge);
            (edge, 0)
        } else {
            let enter = cfg::new_block_before(plan.header, dispatch, "sl1.merged.enter");
            cfg::retarget_edges(from, to, enter);
            let b = TypedBuilder::before(terminator(enter));
            let active = b.call_intrinsic(function, "llvm.nvvm.activemask", &[], c"");
            b.store(active, members);
            (enter, 1)
        };
        for (&(t, _), &flag) in targets.iter().zip(&flags) {
            let phi = if pick == 0 { flag.0 } else { flag.1 };
            phi.add_incoming(&[(i1t.constant(u64::from(t == k)), block)]);
        }
    }
    // The vote: who stays.
    let mut stay = i1t.constant(1);
    for (&(t, _), &(_, now)) in targets.iter().zip(&flags) {
        if t >= first_exit {
            let leaves = in_dispatch.not(now, c"");
            stay = in_dispatch.and(stay, leaves, c"");
        }
    }
    let before = in_dispatch.load(i32t, members);
    let after =
        in_dispatch.call_intrinsic(function, "llvm.nvvm.vote.ballot.sync", &[before, stay], c"");
    in_dispatch.store(after, members);
    let own_code = if plan.rounds {
        add_rounds(
            function,
            plan,
            &in_dispatch,
            latch,
            (&targets, &flags),
            first_exit,
            before,
        )
    } else {
        plan.header
    };
    // Test the flags in turn; none set: the outer header.
    let mut at = dispatch;
    for (i, (&(_, to), &(_, now))) in targets.iter().zip(&flags).enumerate() {
        let otherwise = if i + 1 == targets.len() {
            own_code
        } else {
            cfg::insert_block_before(plan.header, c"sl1.merged.test")
        };
        TypedBuilder::at_end(at).cond_br(now, to, otherwise);
        at = otherwise;
    }
    if targets.is_empty() {
        TypedBuilder::at_end(dispatch).br(plan.header);
    }
}

/// Rounds (`Plan::rounds`): returns the block the dispatch goes to for the
/// outer loop's own code, which sends a thread on to the outer header only
/// once none of the threads still in the loop is bound for an inner loop;
/// until then the thread
/// waits an iteration (to the latch, every flag clear, so it comes back for
/// its own code). Each thread still runs its own instructions in order;
/// only the iteration each runs in changes.
fn add_rounds<'m>(
    function: Function<'m>,
    plan: &Plan<'m>,
    in_dispatch: &TypedBuilder<'m>,
    latch: Block<'m>,
    (targets, flags): (&[Target<'m>], &[Flag<'m>]),
    first_exit: u64,
    members: Value<'m>,
) -> Block<'m> {
    let i1t = in_dispatch.int_type(1);
    let i32t = in_dispatch.int_type(32);
    let mut to_inner = i1t.constant(0);
    for (&(t, _), &(_, now)) in targets.iter().zip(flags) {
        if t < first_exit {
            to_inner = in_dispatch.or(to_inner, now, c"");
        }
    }
    // Voted by every thread at the dispatch, those leaving now included:
    // `members` is the mask of the iteration's first vote, which names them
    // all (a thread must be in the mask of a vote it takes part in; the
    // mask after the first vote left out the leaving threads, and the GPU
    // stopped the kernel with an illegal instruction, fuzzer seed 92906,
    // 2026-11-26). A leaving thread is bound for no inner loop.
    let in_inner = in_dispatch.call_intrinsic(
        function,
        "llvm.nvvm.vote.ballot.sync",
        &[members, to_inner],
        c"",
    );
    let busy = in_dispatch.icmp(
        IntPredicate::LLVMIntNE,
        in_inner,
        i32t.constant(0),
        c"sl1.merged.busy",
    );
    let wait = cfg::new_block_before(plan.header, latch, "sl1.merged.wait");
    for &(next, _) in flags {
        next.add_incoming(&[(i1t.constant(0), wait)]);
    }
    let own = cfg::insert_block_before(plan.header, c"sl1.merged.own");
    TypedBuilder::at_end(own).cond_br(busy, wait, plan.header);
    own
}

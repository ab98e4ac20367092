//! Device tuning: small switches that only choose values become selects.
//!
//! clang turns a `?:` chain on one value (`c == 'A' ? 0 : c == 'C' ? 1 : ...`)
//! into a `switch` whose cases branch to empty blocks that feed phis. On a GPU
//! the switch is a tree of compares and branches: a warp whose threads take
//! different cases walks them in turn, and nothing after the switch (the next
//! unrolled iteration's load, say) starts before the tree is resolved. The
//! same choice written as compares and selects is straight-line code the
//! scheduler can overlap. Only small switches are rewritten: each case costs
//! a compare and each distinct value a select, where the tree costs a branch
//! per level.

use inkwell::module::Module;

use crate::llvm::ir::{Block, Function, Value};
use crate::llvm::typed::{self, TypedBuilder};

/// Most cases a rewritten switch may have.
pub const MAX_CASES: usize = 8;
/// Most selects a rewrite may add (over all the phis it feeds).
pub const MAX_SELECTS: usize = 16;

/// Rewrites every eligible switch in the functions of `module`; returns how
/// many were rewritten.
pub fn select_switches(module: &Module<'_>) -> usize {
    let mut rewritten = 0;
    for function in module.get_functions() {
        let function = Function::of(module, function);
        let mut joins = Vec::new();
        // The live block list: a rewrite deletes blocks after `block`.
        let mut at = function.next_block(None);
        while let Some(block) = at {
            if let Some(plan) = plan(block) {
                joins.push(plan.join);
                apply(block, plan);
                rewritten += 1;
            }
            at = function.next_block(Some(block));
        }
        // Straight-line code, as InstCombine and SimplifyCFG would leave it
        // (copies of an unrolled body that each had a switch now form a
        // chain of single-edge blocks, which InstCombine sinks through in
        // time quadratic in its length).
        typed::sink_and_merge_joins(&joins);
    }
    rewritten
}

/// How one switch becomes selects.
struct Plan<'m> {
    switch: Value<'m>,
    join: Block<'m>,
    condition: Value<'m>,
    /// Case values in switch order.
    cases: Vec<Value<'m>>,
    /// Per phi of `join`: the value taken on the default path, then the value
    /// for each case (same order as `cases`).
    phis: Vec<PhiChoice<'m>>,
    /// The empty blocks between the switch and `join`, deleted afterwards.
    forwarders: Vec<Block<'m>>,
}

struct PhiChoice<'m> {
    phi: Value<'m>,
    default: Value<'m>,
    per_case: Vec<Value<'m>>,
}

impl<'m> PhiChoice<'m> {
    /// The distinct values other than the default, each with the indices of
    /// the cases that choose it, in first-seen order.
    fn groups(&self) -> Vec<(Value<'m>, Vec<usize>)> {
        let mut groups: Vec<(Value<'m>, Vec<usize>)> = Vec::new();
        for (i, &v) in self.per_case.iter().enumerate() {
            if v == self.default {
                continue;
            }
            match groups.iter_mut().find(|(g, _)| *g == v) {
                Some((_, cases)) => cases.push(i),
                None => groups.push((v, vec![i])),
            }
        }
        groups
    }
}

/// The plan for the switch ending `block`, when it only chooses the values
/// of phis in one join block: every destination is that block or an empty
/// block of its own that branches there.
fn plan<'m>(block: Block<'m>) -> Option<Plan<'m>> {
    let switch = block.terminator()?;
    let parts = switch.switch_parts()?;
    if parts.cases.is_empty() || parts.cases.len() > MAX_CASES {
        return None;
    }
    // A destination's block of arrival at the join: itself when it forwards,
    // else the switch's block (the destination is the join).
    let forwards = |dest: Block<'m>| -> Option<Block<'m>> {
        let target = dest.only_branch_target()?;
        (dest != block && target != dest && dest.predecessors().iter().all(|p| *p == block))
            .then_some(target)
    };
    let candidates = [Some(parts.default), forwards(parts.default)];
    let dests: Vec<Block<'m>> = std::iter::once(parts.default)
        .chain(parts.cases.iter().map(|c| c.1))
        .collect();
    let join = candidates.into_iter().flatten().find(|&join| {
        join != block
            && dests
                .iter()
                .all(|&d| d == join || forwards(d) == Some(join))
    })?;
    let arrival = |dest: Block<'m>| if dest == join { block } else { dest };
    let phis: Vec<Value<'m>> = join
        .instructions()
        .into_iter()
        .take_while(|i| i.is_phi())
        .collect();
    if phis.is_empty() {
        return None;
    }
    let value_from = |phi: Value<'m>, pred: Block<'m>| {
        phi.phi_incoming()
            .into_iter()
            .find(|(_, b)| *b == pred)
            .map(|(v, _)| v)
    };
    let mut choices = Vec::new();
    for phi in phis {
        choices.push(PhiChoice {
            phi,
            default: value_from(phi, arrival(parts.default))?,
            per_case: parts
                .cases
                .iter()
                .map(|&(_, dest)| value_from(phi, arrival(dest)))
                .collect::<Option<_>>()?,
        });
    }
    let selects: usize = choices.iter().map(|c| c.groups().len()).sum();
    if selects > MAX_SELECTS {
        return None;
    }
    // Each forwarder once (the default may also be a case's destination).
    let mut forwarders: Vec<Block<'m>> = Vec::new();
    for dest in dests {
        if dest != join && !forwarders.contains(&dest) {
            forwarders.push(dest);
        }
    }
    Some(Plan {
        switch,
        join,
        condition: parts.condition,
        cases: parts.cases.iter().map(|c| c.0).collect(),
        phis: choices,
        forwarders,
    })
}

fn apply<'m>(block: Block<'m>, plan: Plan<'m>) {
    let b = TypedBuilder::before(plan.switch);
    let compares: Vec<Value<'m>> = plan
        .cases
        .iter()
        .map(|&c| b.icmp_eq(plan.condition, c))
        .collect();
    let mut chosen = Vec::new();
    for choice in &plan.phis {
        let mut value = choice.default;
        for (v, cases) in choice.groups() {
            let cond = cases[1..]
                .iter()
                .fold(compares[cases[0]], |acc, &i| b.or(acc, compares[i], c""));
            value = b.select(cond, v, value, c"");
        }
        chosen.push(value);
    }
    plan.switch.erase();
    TypedBuilder::at_end(block).br(plan.join);
    for (choice, value) in plan.phis.iter().zip(chosen) {
        let mut incoming: Vec<_> = choice
            .phi
            .phi_incoming()
            .into_iter()
            .filter(|(_, b)| *b != block && !plan.forwarders.contains(b))
            .collect();
        incoming.push((value, block));
        choice.phi.rebuild_phi(&incoming);
    }
    for forwarder in plan.forwarders {
        forwarder.delete();
    }
}

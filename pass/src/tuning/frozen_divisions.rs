//! Device tuning: freeze divisions whose results nested loops build on.
//!
//! In `for (e ...) { col = e % n; for (k ...) sum += b[k * n + col]; }` the
//! inner loop's address is `b + 4 * col + 4 * n * k`: a pointer that loop
//! strength reduction should bump by `4 * n` per iteration. Scalar evolution
//! sees `col` as `e - (e / n) * n`, and a division by a value it cannot
//! prove non-zero is not safe to expand in a preheader, so LSR keeps a
//! 64-bit multiply per iteration (nvcc bumps a pointer). Frozen, the
//! remainder is an opaque loop-invariant value that LSR may use as it is;
//! `freeze` of a defined value is a no-op and emits no code.

use std::collections::HashSet;

use inkwell::module::Module;

use crate::analysis::loop_forest;
use crate::analysis::loops::LoopForest;
use crate::llvm::ir::{defined_functions, BlockIndex, Opcode, Value};

/// Most users followed from one division looking for a nested loop.
const MAX_USERS_FOLLOWED: usize = 64;

pub fn freeze_divisions(module: &Module<'_>) -> usize {
    let mut frozen = 0;
    for function in defined_functions(module) {
        let (blocks, forest) = loop_forest(function);
        let index = crate::llvm::ir::block_indices(&blocks);
        let divisions: Vec<(usize, Value<'_>)> = blocks
            .iter()
            .enumerate()
            .flat_map(|(i, b)| b.instructions().into_iter().map(move |v| (i, v)))
            .filter(|(_, v)| is_division(*v))
            .collect();
        for (block, division) in divisions {
            let home = forest.innermost_loop_of(block);
            if feeds_nested_loop(division, home, &forest, &index) {
                division.freeze_after();
                frozen += 1;
            }
        }
    }
    frozen
}

fn is_division(v: Value<'_>) -> bool {
    matches!(
        v.opcode(),
        Some(Opcode::LLVMUDiv | Opcode::LLVMURem | Opcode::LLVMSDiv | Opcode::LLVMSRem)
    )
}

/// Whether a value computed from `division` is used in a loop nested inside
/// `home` (the division's innermost loop; any loop when it is in none).
fn feeds_nested_loop(
    division: Value<'_>,
    home: Option<usize>,
    forest: &LoopForest,
    index: &BlockIndex<'_>,
) -> bool {
    let nested = |l: usize| match home {
        None => true,
        Some(h) => l != h && forest.loops[h].blocks.contains(&forest.loops[l].header),
    };
    let mut seen = HashSet::new();
    let mut work = vec![division];
    while let Some(value) = work.pop() {
        for user in value.users() {
            if !seen.insert(user) || seen.len() > MAX_USERS_FOLLOWED {
                continue;
            }
            let in_nested = user
                .parent_block()
                .and_then(|b| index.get(&b))
                .and_then(|&b| forest.innermost_loop_of(b))
                .is_some_and(nested);
            if in_nested {
                return true;
            }
            work.push(user);
        }
    }
    false
}

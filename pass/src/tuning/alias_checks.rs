//! Run-time alias checks: a loop of a kernel whose pointer arguments may
//! alias (no `__restrict__`) gets a copy in which they do not, entered when a
//! test before the loop finds the ranges it touches apart. This is LLVM's
//! own loop versioning (`loop-versioning`): loop access analysis bounds
//! each pointer's range from the loop's trip count and strides, the
//! innermost loops that need a check get one, and the checked copy's
//! accesses are marked with scopes that say which do not alias which. LICM
//! then keeps the sum of `y[i] += a[i][j] * x[j]` in a register and reads
//! `x[i]` once, and S-L1 takes the arguments the scopes keep apart as
//! restrict in that copy (`analysis::scopes`): lines of their own, not
//! looked up together, and line runs. The copy is what the kernel would be
//! with `__restrict__`; the original, taken when the ranges overlap, runs
//! as before (through the aliased group's lines where S-L1 caches it).
//! Third-party row-per-thread kernels without restrict ran 0.37x-0.97x of
//! their uncached build through the aliased group (H200, 2026-11-28). LLVM's
//! versioning for LICM alone (`loop-versioning-licm`) copies only loops
//! with enough accesses that stay put, which left the row-per-thread
//! tridiagonal sweeps, stencils and copies aliased.
//!
//! Loop access analysis would also assume a stride that is a kernel
//! argument (`a[r * ld + c]` over `r`) to be 1 and test `ld == 1` beside
//! the ranges: the column-per-thread product's checked copy then never ran
//! on a matrix. The ranges of such a stride are bounded without assuming
//! it (`laa-speculate-unit-stride` and `enable-mem-access-versioning` off
//! while the versioning runs).
//!
//! A copy is kept only where the loop's exit is a counted test of an
//! induction variable (`LoopScope::counted_exit`): for a loop that may also
//! leave on a loaded value, LLVM 22 bounded the ranges as if the loop ran
//! for ever (`inttoptr (i64 -9 to ptr)`), the test always found them apart
//! and the copy ran on arguments that were one buffer (fuzz seed 701689).
//! The check of such a loop is made to take the original.
//!
//! Runs before the S-L1 transform, so that its analyses see the two copies;
//! only in kernels with a pointer argument without `noalias`.

use inkwell::module::Module;

use super::{alias_check_trips, alias_paths};
use crate::analysis::affine::LoopScope;
use crate::analysis::loops::LoopForest;
use crate::analysis::{find_kernels, loop_forest};
use crate::llvm::ir::{Block, Function, Value};
use crate::llvm::metadata;
use crate::llvm::options::{OptionValue, OptionsSet};

/// The versioning, which only copies (on loops in simplified and LCSSA
/// form), and LICM after it where a copy was made.
const VERSIONING: &std::ffi::CStr = c"loop-simplify,lcssa,loop-versioning";
const LICM: &std::ffi::CStr = c"loop-mssa(licm)";

/// Loop access analysis's assumption that a stride it cannot see is 1
/// (LLVM 22; LLVM 19 also needs the next).
const SPECULATE_UNIT_STRIDE: &std::ffi::CStr = c"laa-speculate-unit-stride";
/// Loop access analysis's versioning on a stride it cannot see.
const STRIDE_VERSIONING: &std::ffi::CStr = c"enable-mem-access-versioning";

/// What [`check_aliases`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AliasChecks {
    /// Kernels whose loops were looked at: their IR may have changed (loop
    /// preheaders, LCSSA phis) even where no loop was copied, so the pass
    /// must not report the module unchanged (clang's later passes would
    /// use stale loop analyses).
    pub kernels: usize,
    /// Loops that got a checked copy.
    pub loops: usize,
}

/// Gives loops of the module's kernels with arguments that may alias a
/// checked copy; `numbered`: each kernel's checks numbered for the
/// statistics build (`alias_paths`).
pub fn check_aliases(module: &Module<'_>, numbered: bool) -> AliasChecks {
    let mut done = AliasChecks::default();
    for kernel in find_kernels(module) {
        let function = Function::of(module, kernel);
        // A pointer argument without noalias (the analysis's data structures).
        let may_alias = function.params().into_iter().enumerate().any(|(i, p)| {
            p.pointer_address_space().is_some()
                && !function.param_has_attribute(i as u32, "noalias")
        });
        if !may_alias {
            continue;
        }
        let loops = || loop_forest(function).1.loops.len();
        let before = loops();
        {
            let _no_stride_guess = OptionsSet::new(&[
                (SPECULATE_UNIT_STRIDE, OptionValue::Bool(false)),
                (STRIDE_VERSIONING, OptionValue::Bool(false)),
            ]);
            function.run_function_passes(VERSIONING);
        }
        done.kernels += 1;
        let copies = loops().saturating_sub(before);
        if copies > 0 {
            let kept = keep_counted_copies(function, numbered);
            // Before LICM, which may move what the guard reads (a loop's
            // start and bound) into the copies' preheaders.
            let guards = {
                let (blocks, forest) = loop_forest(function);
                let checks = versioning_checks(&blocks, &forest);
                alias_check_trips::guard(function, &blocks, &forest, &checks)
            };
            function.run_function_passes(LICM);
            alias_check_trips::price(function, guards);
            done.loops += kept;
        }
    }
    done
}

/// Sends every check whose checked copy's loop has no counted exit to the
/// original loop and deletes the copy; returns how many copies are kept,
/// their checks numbered from 0 when `numbered`.
fn keep_counted_copies(function: Function<'_>, numbered: bool) -> usize {
    let (blocks, forest) = loop_forest(function);
    let mut kept = 0;
    let mut dropped = 0;
    for (check, copy) in versioning_checks(&blocks, &forest) {
        let l = &forest.loops[copy];
        if LoopScope::new(function, &blocks, l).counted_exit().is_ok() {
            if numbered {
                let branch = blocks[check].terminator().expect("a branch");
                alias_paths::number_check(branch, kept);
            }
            kept += 1;
        } else {
            blocks[check]
                .terminator()
                .expect("a branch")
                .always_take_first();
            dropped += 1;
        }
    }
    if dropped > 0 {
        function.remove_unreachable_blocks();
    }
    kept
}

/// The run-time checks loop versioning made, as (check block, checked
/// copy's loop). Found by shape, not by the names LLVM gives them
/// (`.lver.check`), which clang drops unless given
/// `-fno-discard-value-names`: the copy is an innermost loop whose accesses
/// carry versioning scopes, entered through its preheader, which the check
/// (the preheader itself or its one predecessor) reaches on its branch's
/// second edge; the first goes to the original.
fn versioning_checks(blocks: &[Block<'_>], forest: &LoopForest) -> Vec<(usize, usize)> {
    let scoped = |b: usize| {
        blocks[b].instructions().into_iter().any(|i| {
            !metadata::versioning_scopes(i, "alias.scope").is_empty()
                || !metadata::versioning_scopes(i, "noalias").is_empty()
        })
    };
    // A block ending in `br %c, A, B` with B == `to`.
    let second_edge_to = |b: usize, to: usize| {
        let successors = blocks[b].successors();
        successors.len() == 2
            && successors[1] == blocks[to]
            && successors[0] != blocks[to]
            && blocks[b].terminator().and_then(Value::opcode)
                == Some(crate::llvm::ir::Opcode::LLVMBr)
    };
    let mut checks = Vec::new();
    for (index, l) in forest.loops.iter().enumerate() {
        if !forest.is_innermost(index) || !l.blocks.iter().any(|&b| scoped(b)) {
            continue;
        }
        let outside: Vec<usize> = forest.predecessors[l.header]
            .iter()
            .copied()
            .filter(|p| !l.blocks.contains(p))
            .collect();
        let [preheader] = outside[..] else {
            continue;
        };
        let check = if second_edge_to(preheader, l.header) {
            Some(preheader)
        } else {
            match forest.predecessors[preheader][..] {
                [above] if second_edge_to(above, preheader) => Some(above),
                _ => None,
            }
        };
        if let Some(check) = check {
            checks.push((check, index));
        }
    }
    checks
}

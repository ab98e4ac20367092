//! Device tuning: a load of what the loop's previous iteration stored
//! takes the stored value from a register instead (LLVM's
//! `loop-load-elim`), before the S-L1 transform routes the loop's accesses.
//!
//! LLVM's optimizer forwards such stores itself, but only after the S-L1
//! transform (the pass runs at the optimizer's start): by then the load is
//! a call into the cache, and the value makes a round trip through the line
//! every iteration, on the chain that carries it. The forward sweep of a
//! tridiagonal solve (`d[j] -= l[j] * d[j-1]`) reads `d[j-1]` so: through
//! the cache it ran 2% to 9% slower than with the value forwarded first
//! (`tri_forward`, `tri_backward` and their restrict and overlapping
//! versions, H200, 2026-11-30,
//! `docs/results/2026-11-30-h200-forwarded-stores-streaming-groups.txt`).
//!
//! Only forwarding that needs no run-time check: loop-load-elim's own
//! loop versioning is kept off (it would copy loops the alias checks and the
//! S-L1 transform then see as loops of their own). Innermost loops only, as
//! loop-load-elim takes them.

use inkwell::module::Module;

use super::loads_first::base_pointer;
use crate::analysis::{find_kernels, loop_forest};
use crate::llvm::ir::{Function, Opcode};
use crate::llvm::options::{OptionValue, OptionsSet};

/// The forwarding, and the loads it leaves without a use removed.
const FORWARDING: &std::ffi::CStr = c"loop-load-elim";
const CLEANUP: &std::ffi::CStr = c"dce";

/// Run-time checks loop-load-elim may add per forwarded load.
const CHECKS_PER_FORWARD: &std::ffi::CStr = c"runtime-check-per-loop-load-elim";
/// Run-time checks of SCEV predicates it may add.
const SCEV_CHECKS: &std::ffi::CStr = c"loop-load-elimination-scev-check-threshold";

/// Forwards stores to the next iteration's loads in every kernel of
/// `module`; returns how many loads of innermost loops it replaced. A
/// kernel is changed only where the forwarding, tried on a copy first,
/// replaces a load: loop-load-elim gives every loop it looks at a
/// preheader and dedicated exits on its way.
pub fn forward_stores(module: &Module<'_>) -> usize {
    let mut forwarded = 0;
    for kernel in find_kernels(module) {
        let function = Function::of(module, kernel);
        // Cheap first: a load through the base pointer of a store of its loop.
        let found = innermost_accesses(function);
        if !found.reloads_a_stored_base
            || function.probe_copy(|copy| forwarded_loads(copy, found.loads)) == 0
        {
            continue;
        }
        forwarded += forwarded_loads(function, found.loads);
        function.run_function_passes(CLEANUP);
    }
    forwarded
}

/// Runs the forwarding on `function`, whose innermost loops have `before`
/// loads with a use; returns how many of them it replaced.
fn forwarded_loads(function: Function<'_>, before: usize) -> usize {
    {
        let _no_checks = OptionsSet::new(&[
            (CHECKS_PER_FORWARD, OptionValue::Unsigned(0)),
            (SCEV_CHECKS, OptionValue::Unsigned(0)),
        ]);
        function.run_function_passes(FORWARDING);
    }
    before.saturating_sub(innermost_accesses(function).loads)
}

/// What the innermost loops of a function access.
struct InnermostAccesses {
    /// Loads with a use.
    loads: usize,
    /// A loop loads through the base pointer one of its stores writes
    /// through: what loop-load-elim may forward.
    reloads_a_stored_base: bool,
}

fn innermost_accesses(function: Function<'_>) -> InnermostAccesses {
    let (blocks, forest) = loop_forest(function);
    let mut found = InnermostAccesses {
        loads: 0,
        reloads_a_stored_base: false,
    };
    for l in (0..forest.loops.len()).filter(|&l| forest.is_innermost(l)) {
        let instructions: Vec<_> = forest.loops[l]
            .blocks
            .iter()
            .flat_map(|&b| blocks[b].instructions())
            .collect();
        let loads: Vec<_> = instructions
            .iter()
            .filter(|i| i.opcode() == Some(Opcode::LLVMLoad) && i.has_uses())
            .collect();
        found.loads += loads.len();
        let stored: Vec<_> = instructions
            .iter()
            .filter(|i| i.is_plain_store())
            .filter_map(|i| base_pointer(i.operand(1)))
            .collect();
        found.reloads_a_stored_base |= loads
            .iter()
            .filter(|i| i.is_plain_load())
            .any(|i| base_pointer(i.operand(0)).is_some_and(|b| stored.contains(&b)));
    }
    found
}

//! The statistics build's count of the path each run-time alias check
//! (`alias_checks`) sent a thread down: per check, the entries that found
//! the ranges apart (the copy without aliases ran) and those that found
//! them overlapping (the original ran), into a global the host reads after
//! a launch (`sl1_core::report::AliasPathCounters`).
//!
//! The checks are numbered when they are made, on their branch's metadata,
//! which the transform's copies of a block keep; the counters go in after
//! the S-L1 transform, so that its analyses see the kernel without them.

use inkwell::module::Module;
use inkwell::values::FunctionValue;

use crate::llvm::ir::{Function, Value};
use crate::llvm::metadata;
use crate::llvm::typed::TypedBuilder;
use crate::runtime::ADDRSPACE_GLOBAL;
use sl1_core::report::AliasPathCounters;

/// The metadata kind numbering a check's branch.
const CHECK: &str = "sl1.alias.check";

/// Numbers the branch of one check (`br %overlap, original, copy`).
pub(super) fn number_check(branch: Value<'_>, number: usize) {
    metadata::tag_number(branch, CHECK, number as u64);
}

/// Counts, before every numbered check branch of `kernel`, the path the
/// branch takes; `None` when the kernel has none.
pub fn count_alias_paths(
    module: &Module<'_>,
    kernel: FunctionValue<'_>,
) -> Option<AliasPathCounters> {
    let function = Function::of(module, kernel);
    let branches: Vec<(Value<'_>, u64)> = function
        .blocks()
        .into_iter()
        .flat_map(|b| b.instructions())
        .filter(|i| i.num_operands() == 3)
        .filter_map(|i| metadata::tagged_number(i, CHECK).map(|n| (i, n)))
        .collect();
    let checks = branches.iter().map(|&(_, n)| n + 1).max()? as usize;
    let name = kernel.get_name().to_string_lossy().into_owned();
    let symbol = sl1_core::stats::alias_paths_symbol(&name);
    let i64t = function.int_type(64);
    let global = function.add_zeroed_global(
        i64t.array(2 * checks as u64),
        &std::ffi::CString::new(symbol.clone()).expect("kernel names have no NUL"),
        u32::from(ADDRSPACE_GLOBAL),
        8,
    );
    for (branch, number) in branches {
        let overlap = branch.operand(0).expect("a conditional branch");
        let b = TypedBuilder::before(branch);
        let path = b.zext(overlap, 64, c"sl1.alias.path");
        let index = b.add(path, i64t.constant(2 * number), c"");
        let counter = b.gep(i64t, global, &[index], c"sl1.alias.counter");
        b.atomic_add(counter, i64t.constant(1));
    }
    Some(AliasPathCounters { symbol, checks })
}

//! Arguments without restrict that a loop's scoped alias metadata keeps
//! apart from everything else the loop accesses. LLVM's loop versioning
//! (the run-time alias checks, `tuning::alias_checks`) marks the copy its
//! checks guard so: each group of pointers gets a scope, and each access
//! that writes lists the other groups' scopes as `noalias`. Only loop
//! versioning's scopes count: those the inliner makes of a `__restrict__`
//! parameter hold within one call, not across the iterations that call
//! it. Within that copy such an argument is as good as restrict: no other access of the
//! loop touches its bytes, so its line need not be looked up with the
//! others' (every exit of a sliced loop writes the lines back, so what
//! holds in the loop is all the lines need).

use std::collections::BTreeSet;

use crate::llvm::ir::Value;
use crate::llvm::metadata::versioning_scopes;

use super::accesses::{Access, Base};
use super::kernel::KernelAnalysis;
use super::loops::Loop;

/// An instruction's loop-versioning scopes and those it is declared apart
/// from.
struct Scopes {
    scopes: Vec<usize>,
    apart_from: Vec<usize>,
}

impl Scopes {
    fn of(inst: Value<'_>) -> Self {
        Scopes {
            scopes: versioning_scopes(inst, "alias.scope"),
            apart_from: versioning_scopes(inst, "noalias"),
        }
    }

    /// Whether the metadata says that `self` and `other` touch no byte in
    /// common.
    fn apart(&self, other: &Scopes) -> bool {
        let meets = |a: &[usize], b: &[usize]| a.iter().any(|s| b.contains(s));
        meets(&self.apart_from, &other.scopes) || meets(&other.apart_from, &self.scopes)
    }
}

/// An access with its scopes.
struct Scoped<'a, 'm> {
    access: &'a Access<'m>,
    scopes: Scopes,
}

/// Whether loop versioning's scopes keep memory instructions `a` and `b`
/// (live, in one checked copy) apart over the whole loop: its run-time
/// check found the ranges they touch disjoint.
pub fn versioned_apart(a: Value<'_>, b: Value<'_>) -> bool {
    Scopes::of(a).apart(&Scopes::of(b))
}

/// The structures without restrict that loop `l` accesses, every access
/// of them in a scope, and that the metadata keeps apart from every other
/// access of the loop to memory an argument may point to, wherever one of
/// the two writes.
pub fn apart_in_loop(k: &KernelAnalysis<'_>, l: &Loop) -> BTreeSet<u32> {
    let in_loop: Vec<Scoped<'_, '_>> = k
        .accesses
        .iter()
        .filter(|a| l.blocks.contains(&a.block))
        .filter(|a| !matches!(a.base, Base::Shared | Base::Local))
        .map(|access| Scoped {
            access,
            scopes: Scopes::of(access.inst),
        })
        .collect();
    k.data_structures
        .iter()
        .filter(|ds| !ds.restrict)
        .filter(|ds| {
            let (mine, others): (Vec<&Scoped<'_, '_>>, Vec<&Scoped<'_, '_>>) = in_loop
                .iter()
                .partition(|s| s.access.base == Base::Argument(ds.arg_index));
            !mine.is_empty()
                && mine.iter().all(|m| !m.scopes.scopes.is_empty())
                && mine.iter().all(|m| {
                    others.iter().all(|o| {
                        !(m.access.kind.writes() || o.access.kind.writes())
                            || m.scopes.apart(&o.scopes)
                    })
                })
        })
        .map(|ds| ds.id)
        .collect()
}

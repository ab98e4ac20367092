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

/// An access's scopes and the scopes it is declared apart from.
struct Scoped<'a, 'm> {
    access: &'a Access<'m>,
    scopes: Vec<usize>,
    apart_from: Vec<usize>,
}

impl<'a, 'm> Scoped<'a, 'm> {
    fn of(access: &'a Access<'m>) -> Self {
        Scoped {
            access,
            scopes: versioning_scopes(access.inst, "alias.scope"),
            apart_from: versioning_scopes(access.inst, "noalias"),
        }
    }

    /// Whether the metadata says that `self` and `other` touch no byte in
    /// common.
    fn apart(&self, other: &Scoped<'_, '_>) -> bool {
        scopes_apart(
            (&self.scopes, &self.apart_from),
            (&other.scopes, &other.apart_from),
        )
    }
}

/// Whether one access's scopes meet the other's `noalias` list: a pair of
/// (scopes, apart from) each.
fn scopes_apart(a: (&[usize], &[usize]), b: (&[usize], &[usize])) -> bool {
    let meets = |x: &[usize], y: &[usize]| x.iter().any(|s| y.contains(s));
    meets(a.1, b.0) || meets(b.1, a.0)
}

/// Whether loop versioning's scopes keep memory instructions `a` and `b`
/// (live, in one checked copy) apart over the whole loop: its run-time
/// check found the ranges they touch disjoint.
pub fn versioned_apart(a: Value<'_>, b: Value<'_>) -> bool {
    let of = |i: Value<'_>| {
        (
            versioning_scopes(i, "alias.scope"),
            versioning_scopes(i, "noalias"),
        )
    };
    let (a, b) = (of(a), of(b));
    scopes_apart((&a.0, &a.1), (&b.0, &b.1))
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
        .map(Scoped::of)
        .collect();
    k.data_structures
        .iter()
        .filter(|ds| !ds.restrict)
        .filter(|ds| {
            let (mine, others): (Vec<&Scoped<'_, '_>>, Vec<&Scoped<'_, '_>>) = in_loop
                .iter()
                .partition(|s| s.access.base == Base::Argument(ds.arg_index));
            !mine.is_empty()
                && mine.iter().all(|m| !m.scopes.is_empty())
                && mine.iter().all(|m| {
                    others
                        .iter()
                        .all(|o| !(m.access.kind.writes() || o.access.kind.writes()) || m.apart(o))
                })
        })
        .map(|ds| ds.id)
        .collect()
}

//! Alias scopes: a domain of scopes, one per id, that marks loads and
//! stores as in their own scope and apart from every other; and loop
//! properties (`llvm.loop`).

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
use inkwell::llvm_sys::prelude::*;

use super::ir::{Function, Value};

/// The scopes of one domain, each under an id.
pub struct AliasScopes {
    ctx: LLVMContextRef,
    /// (id, its scope).
    scopes: Vec<(u32, LLVMMetadataRef)>,
}

impl AliasScopes {
    /// A domain named `domain` with one scope per (id, name) of `scopes`,
    /// in the context of `function`.
    pub fn new(
        function: Function<'_>,
        domain: &str,
        scopes: impl IntoIterator<Item = (u32, String)>,
    ) -> AliasScopes {
        let ctx = super::build::context_of(function.as_raw());
        // SAFETY: builds metadata nodes of strings in the live context.
        unsafe {
            let mut name = [md_string(ctx, domain)];
            let domain = LLVMMDNodeInContext2(ctx, name.as_mut_ptr(), 1);
            let scopes = scopes
                .into_iter()
                .map(|(id, scope)| {
                    let mut ops = [md_string(ctx, &scope), domain];
                    (id, LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), 2))
                })
                .collect();
            AliasScopes { ctx, scopes }
        }
    }

    /// Marks `access` (a live load or store) as in scope `id` and, when
    /// there are others, apart from every other scope.
    pub fn mark(&self, access: Value<'_>, id: u32) {
        let access = access.as_raw();
        let list = |pick: &dyn Fn(u32) -> bool| {
            let mut ops: Vec<LLVMMetadataRef> = self
                .scopes
                .iter()
                .filter(|(s, _)| pick(*s))
                .map(|(_, m)| *m)
                .collect();
            // SAFETY: a node of this context's scopes, as a value.
            unsafe {
                LLVMMetadataAsValue(
                    self.ctx,
                    LLVMMDNodeInContext2(self.ctx, ops.as_mut_ptr(), ops.len()),
                )
            }
        };
        // SAFETY: `access` is a live load or store of this context.
        unsafe {
            LLVMSetMetadata(access, md_kind(self.ctx, "alias.scope"), list(&|s| s == id));
            if self.scopes.len() > 1 {
                LLVMSetMetadata(access, md_kind(self.ctx, "noalias"), list(&|s| s != id));
            }
        }
    }
}

/// Gives the loop whose back edge is `latch_branch` (a live branch to its
/// header) the property `name` (`llvm.loop.unroll.runtime.disable`, say):
/// a loop id whose first operand is itself, as LLVM's loop passes read it.
pub fn mark_loop(latch_branch: Value<'_>, name: &str) {
    let latch_branch = latch_branch.as_raw();
    // SAFETY: builds nodes in the branch's live context; replacing the
    // temporary node's uses by the loop id also deletes it (LLVM's C API
    // calls `MDNode::deleteTemporary`), so it is not used after.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(latch_branch));
        let mut prop = [md_string(ctx, name)];
        let prop = LLVMMDNodeInContext2(ctx, prop.as_mut_ptr(), 1);
        let temp = LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
        let mut ops = [temp, prop];
        let id = LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), 2);
        LLVMMetadataReplaceAllUsesWith(temp, id);
        LLVMSetMetadata(
            latch_branch,
            md_kind(ctx, "llvm.loop"),
            LLVMMetadataAsValue(ctx, id),
        );
    }
}

/// Whether the loop whose back edge is `latch_branch` (a live terminator)
/// has an unroll property of its own: a node of its `llvm.loop` id opened
/// by `llvm.loop.unroll...` (a user's pragma, a copy the pass keeps rolled).
pub fn has_unroll_property(latch_branch: Value<'_>) -> bool {
    let branch = latch_branch.as_raw();
    // SAFETY: reads the live terminator's metadata; `node_operands` and
    // `md_text` check what each operand is before reading it as such.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(branch));
        let id = LLVMGetMetadata(branch, md_kind(ctx, "llvm.loop"));
        if id.is_null() {
            return false;
        }
        node_operands(id)
            .into_iter()
            .flatten()
            .filter_map(|property| node_operands(property).first().copied().flatten())
            .filter_map(|name| md_text(name))
            .any(|name| name.starts_with("llvm.loop.unroll"))
    }
}

/// Marks `inst` (live) with an empty node of the kind `name`: a note the
/// pass leaves for itself (`sl1.vec.versioned`), which copies of `inst` keep.
pub fn tag(inst: Value<'_>, name: &str) {
    let inst = inst.as_raw();
    // SAFETY: builds an empty node in the live instruction's context.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let node = LLVMMDNodeInContext2(ctx, std::ptr::null_mut(), 0);
        LLVMSetMetadata(inst, md_kind(ctx, name), LLVMMetadataAsValue(ctx, node));
    }
}

/// Marks `inst` (live) with a node of the kind `name` holding `number`,
/// which copies of `inst` keep (see `tagged_number`).
pub fn tag_number(inst: Value<'_>, name: &str, number: u64) {
    let inst = inst.as_raw();
    // SAFETY: builds a node of one integer constant in the live
    // instruction's context.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let mut ops = [LLVMValueAsMetadata(LLVMConstInt(
            LLVMInt64TypeInContext(ctx),
            number,
            0,
        ))];
        let node = LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), 1);
        LLVMSetMetadata(inst, md_kind(ctx, name), LLVMMetadataAsValue(ctx, node));
    }
}

/// The number `inst` (live) was marked with under `name` (`tag_number`).
pub fn tagged_number(inst: Value<'_>, name: &str) -> Option<u64> {
    let inst = inst.as_raw();
    // SAFETY: reads the live instruction's metadata; the operand is read as
    // an integer only when it is one.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let node = LLVMGetMetadata(inst, md_kind(ctx, name));
        if node.is_null() {
            return None;
        }
        let number = node_operands(node).first().copied().flatten()?;
        (!LLVMIsAConstantInt(number).is_null()).then(|| LLVMConstIntGetZExtValue(number))
    }
}

/// Whether `inst` (live) carries a node of the kind `name` (see `tag`).
pub fn has_tag(inst: Value<'_>, name: &str) -> bool {
    let inst = inst.as_raw();
    // SAFETY: reads the live instruction's metadata.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        !LLVMGetMetadata(inst, md_kind(ctx, name)).is_null()
    }
}

/// The domain LLVM's loop versioning puts the scopes of a checked copy in.
const VERSIONING_DOMAIN: &str = "LVerDomain";

/// The scopes of LLVM's loop versioning listed in `inst`'s (live) node of
/// the kind `name` (`alias.scope` or `noalias`), as identities: uniqued
/// nodes of one context compare equal by address. Only those: what their
/// run-time check proved holds for the whole loop, while the scopes the
/// inliner makes of a `__restrict__` parameter hold within one call, not
/// from one iteration's call to the next.
pub fn versioning_scopes(inst: Value<'_>, name: &str) -> Vec<usize> {
    // SAFETY: reads the live instruction's metadata; each operands buffer
    // holds exactly its node's operand count.
    unsafe {
        listed_scopes(inst.as_raw(), name)
            .into_iter()
            .filter(|&scope| {
                // A domain is `!{self, !"name"}`.
                domain_of(scope).is_some_and(|d| {
                    let name = node_operands(d).get(1).copied().flatten();
                    name.is_some_and(|n| md_text(n) == Some(VERSIONING_DOMAIN))
                })
            })
            .map(|scope| scope as usize)
            .collect()
    }
}

/// The scopes listed in `inst`'s node of the kind `kind` (`alias.scope` or
/// `noalias`).
///
/// SAFETY (for callers): `inst` is a live instruction.
unsafe fn listed_scopes(inst: LLVMValueRef, kind: &str) -> Vec<LLVMValueRef> {
    let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
    let list = LLVMGetMetadata(inst, md_kind(ctx, kind));
    if list.is_null() {
        return Vec::new();
    }
    node_operands(list).into_iter().flatten().collect()
}

/// The domain of scope `scope`, a node `!{self, domain[, name]}`.
///
/// SAFETY (for callers): `scope` is a live metadata node as a value.
unsafe fn domain_of(scope: LLVMValueRef) -> Option<LLVMValueRef> {
    node_operands(scope).get(1).copied().flatten()
}

/// The operands of metadata node `node` (as a value), `None` where an
/// operand is no value.
///
/// SAFETY (for callers): `node` is a live metadata node as a value.
unsafe fn node_operands(node: LLVMValueRef) -> Vec<Option<LLVMValueRef>> {
    if LLVMIsAMDNode(node).is_null() {
        return Vec::new();
    }
    let count = LLVMGetMDNodeNumOperands(node) as usize;
    let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); count];
    LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
    ops.into_iter()
        .map(|op| (!op.is_null()).then_some(op))
        .collect()
}

/// The text of metadata string `value`, if it is one.
///
/// SAFETY (for callers): `value` is a live metadata value.
unsafe fn md_text<'a>(value: LLVMValueRef) -> Option<&'a str> {
    if LLVMIsAMDString(value).is_null() {
        return None;
    }
    let mut len = 0u32;
    let text = LLVMGetMDString(value, &mut len);
    if text.is_null() {
        return None;
    }
    std::str::from_utf8(std::slice::from_raw_parts(text.cast::<u8>(), len as usize)).ok()
}

/// SAFETY (for callers): `ctx` is live.
unsafe fn md_string(ctx: LLVMContextRef, s: &str) -> LLVMMetadataRef {
    LLVMMDStringInContext2(ctx, s.as_ptr().cast(), s.len())
}

/// SAFETY (for callers): `ctx` is live.
unsafe fn md_kind(ctx: LLVMContextRef, name: &str) -> u32 {
    LLVMGetMDKindIDInContext(ctx, name.as_ptr().cast(), name.len() as u32)
}

/// Whether LLVM's scoped alias rules keep live memory instructions `a` and
/// `b` apart: in some domain, every scope one of them is in (`alias.scope`)
/// is one the other is apart from (`noalias`), as LLVM's ScopedNoAliasAA
/// reads them. Sound for any two accesses of a function, whoever made the
/// scopes (loop versioning, the inliner's `__restrict__` parameters).
pub fn scoped_apart(a: Value<'_>, b: Value<'_>) -> bool {
    let (a, b) = (a.as_raw(), b.as_raw());
    // SAFETY: reads the live instructions' metadata nodes.
    unsafe { apart_in_scopes(a, b) || apart_in_scopes(b, a) }
}

/// Whether `noalias` of `other` lists every scope of `access`'s
/// `alias.scope` in one of their domains.
///
/// SAFETY (for callers): both are live instructions.
unsafe fn apart_in_scopes(access: LLVMValueRef, other: LLVMValueRef) -> bool {
    let scopes = listed_scopes(access, "alias.scope");
    let apart = listed_scopes(other, "noalias");
    if apart.is_empty() {
        return false;
    }
    scopes.iter().any(|&scope| {
        let d = domain_of(scope);
        d.is_some()
            && scopes
                .iter()
                .filter(|&&s| domain_of(s) == d)
                .all(|s| apart.contains(s))
    })
}

/// Gives the loop whose back edge is `latch_branch` (a live branch to its
/// header) the unroll count `count` (`llvm.loop.unroll.count`, what
/// `#pragma unroll count` gives), keeping the properties its loop id had
/// (`llvm.loop.mustprogress`, say). The unrolled loop keeps them and gets
/// `followup` (`llvm.loop.unroll.followup_unrolled`) instead of LLVM's
/// `llvm.loop.unroll.disable`, so that ptxas may unroll it further, as it
/// does nvcc's; the remainder loop gets the disable (`.pragma "nounroll"`).
pub fn set_unroll_count(latch_branch: Value<'_>, count: u32, followup: &str) {
    let branch = latch_branch.as_raw();
    // SAFETY: builds nodes in the branch's live context from its live loop
    // id's operands (`LLVMValueAsMetadata` unwraps the nodes `node_operands`
    // gives as values); replacing the temporary node's uses by the new id
    // also deletes it, so it is not used after.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(branch));
        let kind = md_kind(ctx, "llvm.loop");
        let old = LLVMGetMetadata(branch, kind);
        // The first operand of a loop id is the id itself.
        let kept: Vec<LLVMMetadataRef> = if old.is_null() {
            Vec::new()
        } else {
            node_operands(old)
                .into_iter()
                .skip(1)
                .flatten()
                .map(|op| LLVMValueAsMetadata(op))
                .collect()
        };
        let node =
            |mut ops: Vec<LLVMMetadataRef>| LLVMMDNodeInContext2(ctx, ops.as_mut_ptr(), ops.len());
        let value = LLVMConstInt(LLVMInt32TypeInContext(ctx), u64::from(count), 0);
        let count = node(vec![
            md_string(ctx, "llvm.loop.unroll.count"),
            LLVMValueAsMetadata(value),
        ]);
        let mut unrolled = vec![md_string(ctx, "llvm.loop.unroll.followup_unrolled")];
        unrolled.extend(kept.iter().copied());
        unrolled.push(node(vec![md_string(ctx, followup)]));
        let unrolled = node(unrolled);
        let temp = LLVMTemporaryMDNode(ctx, std::ptr::null_mut(), 0);
        let mut ops = vec![temp];
        ops.extend(kept);
        ops.extend([count, unrolled]);
        let id = node(ops);
        LLVMMetadataReplaceAllUsesWith(temp, id);
        LLVMSetMetadata(branch, kind, LLVMMetadataAsValue(ctx, id));
    }
}

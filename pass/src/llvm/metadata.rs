//! Alias scopes: a domain of scopes, one per id, that marks loads and
//! stores as in their own scope and apart from every other; and loop
//! properties (`llvm.loop`).

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::debuginfo::{LLVMMetadataReplaceAllUsesWith, LLVMTemporaryMDNode};
use inkwell::llvm_sys::prelude::*;

/// The scopes of one domain, each under an id.
pub struct AliasScopes {
    ctx: LLVMContextRef,
    /// (id, its scope).
    scopes: Vec<(u32, LLVMMetadataRef)>,
}

impl AliasScopes {
    /// A domain named `domain` with one scope per (id, name) of `scopes`.
    pub fn new(
        ctx: LLVMContextRef,
        domain: &str,
        scopes: impl IntoIterator<Item = (u32, String)>,
    ) -> AliasScopes {
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
    pub fn mark(&self, access: LLVMValueRef, id: u32) {
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
pub fn mark_loop(latch_branch: LLVMValueRef, name: &str) {
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

/// Marks `inst` (live) with an empty node of the kind `name`: a note the
/// pass leaves for itself (`sl1.vec.versioned`), which copies of `inst` keep.
pub fn tag(inst: LLVMValueRef, name: &str) {
    // SAFETY: builds an empty node in the live instruction's context.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let node = LLVMMDNodeInContext2(ctx, std::ptr::null_mut(), 0);
        LLVMSetMetadata(inst, md_kind(ctx, name), LLVMMetadataAsValue(ctx, node));
    }
}

/// Whether `inst` (live) carries a node of the kind `name` (see `tag`).
pub fn has_tag(inst: LLVMValueRef, name: &str) -> bool {
    // SAFETY: reads the live instruction's metadata.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        !LLVMGetMetadata(inst, md_kind(ctx, name)).is_null()
    }
}

/// The scopes listed in `inst`'s (live) node of the kind `name`
/// (`alias.scope` or `noalias`), as identities: uniqued nodes of one
/// context compare equal by address.
pub fn scope_list(inst: LLVMValueRef, name: &str) -> Vec<usize> {
    // SAFETY: reads the live instruction's metadata; the operands buffer
    // holds exactly the node's operand count.
    unsafe {
        let ctx = LLVMGetTypeContext(LLVMTypeOf(inst));
        let node = LLVMGetMetadata(inst, md_kind(ctx, name));
        if node.is_null() {
            return Vec::new();
        }
        let count = LLVMGetMDNodeNumOperands(node) as usize;
        let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); count];
        LLVMGetMDNodeOperands(node, ops.as_mut_ptr());
        ops.into_iter()
            .filter(|op| !op.is_null())
            .map(|op| op as usize)
            .collect()
    }
}

/// SAFETY (for callers): `ctx` is live.
unsafe fn md_string(ctx: LLVMContextRef, s: &str) -> LLVMMetadataRef {
    LLVMMDStringInContext2(ctx, s.as_ptr().cast(), s.len())
}

/// SAFETY (for callers): `ctx` is live.
unsafe fn md_kind(ctx: LLVMContextRef, name: &str) -> u32 {
    LLVMGetMDKindIDInContext(ctx, name.as_ptr().cast(), name.len() as u32)
}

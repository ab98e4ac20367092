//! Points where the cache must be coherent with memory: fences, barriers and calls.

use inkwell::llvm_sys::LLVMOpcode;
use serde::{Deserialize, Serialize};

use crate::llvm::ir::{Block, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncKind {
    /// A `fence` instruction or an NVVM membar/fence intrinsic (`__threadfence`).
    Fence,
    /// A block-wide barrier (`__syncthreads` and its variants).
    Barrier,
    /// A call to a function that is not known to leave memory alone.
    Call,
}

#[derive(Clone, Debug)]
pub struct SyncPoint<'m> {
    pub inst: Value<'m>,
    pub kind: SyncKind,
    pub block: usize,
    /// The callee for barriers and calls.
    pub callee: Option<String>,
}

/// NVVM intrinsic name parts that read or write memory.
const NVVM_MEMORY_PARTS: [&str; 8] = [
    "atom", "ld.", "ldu.", "ldg.", "st.", "cp.async", "bulk", "mbarrier",
];

fn classify_call(name: &str) -> Option<SyncKind> {
    if name.starts_with("llvm.nvvm.barrier") || name.starts_with("llvm.nvvm.bar.") {
        Some(SyncKind::Barrier)
    } else if name.starts_with("llvm.nvvm.membar") || name.starts_with("llvm.nvvm.fence") {
        Some(SyncKind::Fence)
    } else if let Some(rest) = name.strip_prefix("llvm.nvvm.") {
        NVVM_MEMORY_PARTS
            .iter()
            .any(|part| rest.contains(part))
            .then_some(SyncKind::Call)
    } else if name.starts_with("llvm.") {
        // Generic intrinsics: maths, lifetime markers, assumptions; memcpy and
        // memset are accesses, not calls.
        None
    } else {
        Some(SyncKind::Call)
    }
}

/// A convergent call (barrier, shuffle, vote...): code that every thread of a
/// warp or block must reach at the same instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConvergentCall {
    pub block: usize,
    /// A block-wide aligned barrier (`__syncthreads` and its reductions):
    /// every thread of the block runs the loop the same number of times.
    pub block_barrier: bool,
}

fn is_block_barrier(name: &str) -> bool {
    name.starts_with("llvm.nvvm.barrier.cta.") || name.starts_with("llvm.nvvm.barrier0")
}

pub fn convergent_calls(blocks: &[Block<'_>]) -> Vec<ConvergentCall> {
    let mut out = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        for inst in block.instructions() {
            if inst.is_convergent_call() {
                out.push(ConvergentCall {
                    block: index,
                    block_barrier: inst
                        .called_function_name()
                        .is_some_and(|n| is_block_barrier(&n)),
                });
            }
        }
    }
    out
}

/// Every fence, barrier and memory-touching call, in block order.
pub fn collect_sync_points<'m>(blocks: &[Block<'m>]) -> Vec<SyncPoint<'m>> {
    let mut out = Vec::new();
    for (block_index, block) in blocks.iter().enumerate() {
        for inst in block.instructions() {
            let (kind, callee) = match inst.opcode() {
                Some(LLVMOpcode::LLVMFence) => (SyncKind::Fence, None),
                Some(LLVMOpcode::LLVMCall) => {
                    let callee = inst.called_function_name();
                    // Indirect calls and inline assembly may do anything.
                    let kind = match callee.as_deref() {
                        Some(name) => match classify_call(name) {
                            Some(kind) => kind,
                            None => continue,
                        },
                        None => SyncKind::Call,
                    };
                    (kind, callee)
                }
                _ => continue,
            };
            out.push(SyncPoint {
                inst,
                kind,
                block: block_index,
                callee,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_barriers_are_told_from_warp_collectives() {
        assert!(is_block_barrier("llvm.nvvm.barrier.cta.sync.aligned.all"));
        assert!(is_block_barrier("llvm.nvvm.barrier.cta.red.or.aligned.all"));
        assert!(is_block_barrier("llvm.nvvm.barrier0"));
        assert!(!is_block_barrier("llvm.nvvm.bar.warp.sync"));
        assert!(!is_block_barrier("llvm.nvvm.shfl.sync.idx.i32"));
    }

    #[test]
    fn classifies_nvvm_calls() {
        assert_eq!(classify_call("llvm.nvvm.barrier0"), Some(SyncKind::Barrier));
        assert_eq!(
            classify_call("llvm.nvvm.barrier.cta.sync.aligned.all"),
            Some(SyncKind::Barrier)
        );
        assert_eq!(classify_call("llvm.nvvm.membar.gl"), Some(SyncKind::Fence));
        assert_eq!(
            classify_call("llvm.nvvm.fence.sc.cluster"),
            Some(SyncKind::Fence)
        );
        assert_eq!(classify_call("llvm.nvvm.read.ptx.sreg.tid.x"), None);
        assert_eq!(classify_call("llvm.umin.i64"), None);
        assert_eq!(classify_call("llvm.nvvm.fabs.f"), None);
        assert_eq!(classify_call("printf"), Some(SyncKind::Call));
        assert_eq!(classify_call("vprintf"), Some(SyncKind::Call));
    }
}

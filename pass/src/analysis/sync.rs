//! Points where the cache must be coherent with memory: fences, barriers and calls.

use serde::{Deserialize, Serialize};

use crate::llvm::ir::{Block, Opcode, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SyncKind {
    /// A `fence` instruction, an NVVM membar/fence intrinsic
    /// (`__threadfence`), or an atomic load or store with acquire or
    /// release ordering.
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

/// Whether a call of `name` is a block-wide barrier, whatever its
/// declaration says (LLVM 19 declares LLVM 20's `llvm.nvvm.barrier.cta.*`
/// as plain functions).
pub fn is_block_barrier(name: &str) -> bool {
    name.starts_with("llvm.nvvm.barrier.cta.") || name.starts_with("llvm.nvvm.barrier0")
}

/// PTX instructions that a warp or block runs together, or that order
/// memory: inline assembly with one of them is a collective (clang marks
/// every inline assembly in device code convergent, `__hadd`'s `add.f16`
/// included, which is none).
const COLLECTIVE_PTX: &[&str] = &[
    "shfl",
    "vote",
    "bar",
    "barrier",
    "mbarrier",
    "match",
    "redux",
    "activemask",
    "elect",
    "mma",
    "wgmma",
    "ldmatrix",
    "stmatrix",
    "setmaxnreg",
    "fence",
    "membar",
    "griddepcontrol",
    "cp.async",
    "exit",
    "trap",
];

/// PTX that touches memory: inline assembly with one of them, or that
/// clobbers `memory`, or takes a pointer, may touch what lines hold.
const MEMORY_PTX: &[&str] = &[
    "ld",
    "st",
    "atom",
    "red",
    "cp",
    "prefetch",
    "tex",
    "suld",
    "sust",
    "sured",
    "tld",
    "cvta",
    "isspacep",
    "discard",
    "applypriority",
    "createpolicy",
];

/// Whether inline assembly `text` uses one of `mnemonics` as an
/// instruction (the start of a word, before a `.` or a space).
fn asm_uses(text: &str, mnemonics: &[&str]) -> bool {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '.' || c == '_'))
        .any(|word| {
            mnemonics.iter().any(|m| {
                word.strip_prefix(m)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
            })
        })
}

/// Whether a call of inline assembly is a collective.
fn asm_is_collective(text: &str) -> bool {
    asm_uses(text, COLLECTIVE_PTX)
}

/// Whether a call of inline assembly may touch memory: its text, a
/// `memory` clobber, or an indirect (pointer) operand.
fn asm_touches_memory(text: &str, constraints: &str) -> bool {
    asm_uses(text, MEMORY_PTX) || constraints.contains("~{memory}") || constraints.contains('*')
}

pub fn convergent_calls(blocks: &[Block<'_>]) -> Vec<ConvergentCall> {
    let mut out = Vec::new();
    for (index, block) in blocks.iter().enumerate() {
        for inst in block.instructions() {
            let plain_asm = inst
                .inline_asm()
                .is_some_and(|(text, _)| !asm_is_collective(&text));
            let block_barrier = inst
                .called_function_name()
                .is_some_and(|n| is_block_barrier(&n));
            // A barrier by name is one even where its declaration is not
            // convergent: LLVM 19 does not know LLVM 20's
            // `llvm.nvvm.barrier.cta.*` and declares them as plain calls.
            if (inst.is_convergent_call() || block_barrier) && !plain_asm {
                out.push(ConvergentCall {
                    block: index,
                    block_barrier,
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
                Some(Opcode::LLVMFence) => (SyncKind::Fence, None),
                // An acquire load or a release store orders the thread's
                // other accesses as a fence does.
                Some(Opcode::LLVMLoad | Opcode::LLVMStore) if inst.is_ordering_load_or_store() => {
                    (SyncKind::Fence, None)
                }
                Some(Opcode::LLVMCall) => {
                    // Arithmetic in inline assembly (`__hadd`) is no
                    // coherence point.
                    if inst.inline_asm().is_some_and(|(text, constraints)| {
                        !asm_is_collective(&text) && !asm_touches_memory(&text, &constraints)
                    }) {
                        continue;
                    }
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
    fn inline_assembly_is_a_collective_or_touches_memory_only_by_its_text() {
        // cuda_fp16's `__hadd`.
        let hadd = "{ add.f16 $0,$1,$2;\n}\n";
        assert!(!asm_is_collective(hadd));
        assert!(!asm_touches_memory(hadd, "=h,h,h"));
        assert!(asm_is_collective("shfl.sync.bfly.b32 $0, $1, 1, 31, -1;"));
        assert!(asm_is_collective("bar.sync 0;"));
        assert!(asm_is_collective("barrier.sync.aligned 0;"));
        assert!(asm_is_collective("wgmma.fence.sync.aligned;"));
        assert!(asm_is_collective(
            "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 ..."
        ));
        assert!(asm_touches_memory(
            "ld.global.nc.v4.f32 {$0,$1,$2,$3}, [$4];",
            "=f,=f,=f,=f,l"
        ));
        assert!(asm_touches_memory(
            "add.u32 $0, $1, $2;",
            "=r,r,r,~{memory}"
        ));
        assert!(asm_touches_memory("st.global.b32 [$0], $1;", "l,r"));
        // A name that only starts like one is not it.
        assert!(!asm_is_collective("barrel.shift.placeholder"));
        assert!(!asm_touches_memory(
            "lop3.b32 $0, $1, $2, $3, 0x96;",
            "=r,r,r,r"
        ));
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

//! Loops whose induction variable steps by the block or the grid size
//! (`for (i = threadIdx.x; i < n; i += blockDim.x)`, grid-stride loops). In
//! such a loop a thread's consecutive iterations are at least a warp's width
//! of elements apart, so a thread-private line is never hit again: S-L1 can
//! only add cost there, and the loop is left as it is.

use crate::llvm::ir::{Block, Opcode, Value};

use super::loops::Loop;

/// What a cooperative loop steps by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CooperativeStep {
    /// The special registers in the step (`ntid.x`, `nctaid.x`...).
    pub registers: Vec<String>,
}

impl CooperativeStep {
    /// "grid" when the step involves the grid size, else "block".
    pub fn scope(&self) -> &'static str {
        if self.registers.iter().any(|r| r.starts_with("nctaid")) {
            "grid"
        } else {
            "block"
        }
    }
}

/// How the loop's induction variable steps, if it steps by the block or
/// the grid size.
pub fn cooperative_step(blocks: &[Block<'_>], l: &Loop) -> Option<CooperativeStep> {
    let header = blocks[l.header];
    header
        .instructions()
        .into_iter()
        .take_while(|i| i.is_phi())
        .find_map(|phi| {
            phi.incoming().into_iter().find_map(|next| {
                let mut registers = Vec::new();
                thread_counts_in(step_of(phi, next)?, 6, &mut registers);
                (!registers.is_empty()).then_some(CooperativeStep { registers })
            })
        })
}

/// `step` when `next` is `phi + step` (an add or a GEP on the phi).
fn step_of<'m>(phi: Value<'m>, next: Value<'m>) -> Option<Value<'m>> {
    match next.opcode()? {
        Opcode::LLVMAdd | Opcode::LLVMOr => {
            let (a, b) = (next.operand(0)?, next.operand(1)?);
            if a == phi {
                Some(b)
            } else if b == phi {
                Some(a)
            } else {
                None
            }
        }
        Opcode::LLVMGetElementPtr if next.num_operands() == 2 => {
            (next.operand(0)? == phi).then(|| next.operand(1))?
        }
        _ => None,
    }
}

/// Collects the block- and grid-size registers that `v` is computed from,
/// looking through casts and products up to `depth` levels.
fn thread_counts_in(v: Value<'_>, depth: u32, found: &mut Vec<String>) {
    if let Some(name) = v.called_function_name() {
        if let Some(sreg) = name.strip_prefix("llvm.nvvm.read.ptx.sreg.") {
            if sreg.starts_with("ntid") || sreg.starts_with("nctaid") {
                found.push(sreg.to_string());
            }
        }
        return;
    }
    if depth == 0 {
        return;
    }
    if let Some(
        Opcode::LLVMZExt | Opcode::LLVMSExt | Opcode::LLVMTrunc | Opcode::LLVMMul | Opcode::LLVMShl,
    ) = v.opcode()
    {
        for i in 0..v.num_operands() {
            if let Some(op) = v.operand(i) {
                thread_counts_in(op, depth - 1, found);
            }
        }
    }
}

//! Values the same in every lane of a warp, for rewrites whose correctness
//! rests on it (one atomic for the warp, one lane running another's
//! iteration): the kernel's arguments, constants and globals, the block's
//! and the cluster's coordinates and dimensions, and arithmetic, casts and
//! address computations of them. Unlike `lane_step`, which guides
//! performance, nothing here is assumed: a loaded value, a phi or a call of
//! anything else is not uniform.

use crate::llvm::ir::{Opcode, Value, ValueKind};

/// Most values followed back from the one asked about.
const MAX_VALUES_FOLLOWED: usize = 32;

/// Special registers the same in every lane of a warp.
const UNIFORM_REGISTERS: [&str; 5] = ["ctaid", "ntid", "nctaid", "nclusterid", "clusterid"];

/// Whether `v` is the same in every lane of a warp.
pub fn is_warp_uniform(v: Value<'_>) -> bool {
    let mut followed = 0;
    uniform(v, &mut followed)
}

fn uniform(v: Value<'_>, followed: &mut usize) -> bool {
    *followed += 1;
    if *followed > MAX_VALUES_FOLLOWED {
        return false;
    }
    if matches!(v.kind(), ValueKind::Argument { .. }) || v.is_constant() {
        return true;
    }
    let Some(opcode) = v.opcode() else {
        return false;
    };
    use Opcode::*;
    match opcode {
        LLVMGetElementPtr | LLVMBitCast | LLVMAddrSpaceCast | LLVMIntToPtr | LLVMPtrToInt
        | LLVMAdd | LLVMSub | LLVMMul | LLVMShl | LLVMLShr | LLVMAShr | LLVMAnd | LLVMOr
        | LLVMXor | LLVMZExt | LLVMSExt | LLVMTrunc | LLVMSelect | LLVMICmp | LLVMFreeze
        | LLVMFAdd | LLVMFSub | LLVMFMul | LLVMFDiv | LLVMFNeg | LLVMFCmp | LLVMFPToUI
        | LLVMFPToSI | LLVMUIToFP | LLVMSIToFP | LLVMFPTrunc | LLVMFPExt => {
            (0..v.num_operands()).all(|k| v.operand(k).is_some_and(|o| uniform(o, followed)))
        }
        LLVMCall => v.called_function_name().is_some_and(|name| {
            UNIFORM_REGISTERS
                .iter()
                .any(|s| name.starts_with(&format!("llvm.nvvm.read.ptx.sreg.{s}.")))
        }),
        _ => false,
    }
}

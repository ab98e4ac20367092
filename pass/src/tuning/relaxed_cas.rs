//! Device tuning: `atomicCAS` relaxed, as CUDA defines it and nvcc
//! compiles it.
//!
//! CUDA's atomic functions "do not act as memory fences", and nvcc
//! compiles `atomicCAS` to `atom.global.cas`. clang's CUDA headers make it
//! a sequentially consistent `cmpxchg` of system scope, which NVPTX
//! (LLVM 20 on, sm_70 on) lowers to `fence.sc.sys` and an acquire CAS: a
//! system-wide fence before every attempt of a CAS loop. Each such
//! `cmpxchg` (`build::is_seq_cst_system_cmpxchg`) becomes monotonic of
//! device scope: nvcc's `atomicCAS`. `__atomic_compare_exchange_n` with
//! `__ATOMIC_SEQ_CST`, whose `cmpxchg` has the same form, gets CUDA's
//! semantics with it, as NVPTX already gives sequentially consistent
//! `atomicrmw` (`atomicAdd`'s form in clang). S-L1 does not see these as
//! fences before or after: they are atomics whose line is evicted.

use inkwell::module::Module;

use crate::llvm::ir::Value;

/// Relaxes every such `cmpxchg` in the functions of `module`; returns how
/// many.
pub fn relax_compare_and_swaps(module: &Module<'_>) -> usize {
    let mut relaxed = 0;
    for function in module.get_functions() {
        for block in function.get_basic_blocks() {
            for inst in block.get_instructions() {
                let inst = Value::of(inst);
                if inst.is_seq_cst_system_cmpxchg() {
                    inst.relax_cmpxchg_to_device_scope();
                    relaxed += 1;
                }
            }
        }
    }
    relaxed
}

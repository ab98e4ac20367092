//! Known LLVM miscompiles the pass's output meets, avoided through LLVM's
//! own options (`miscompiles.cpp` says which and why).

extern "C" {
    fn sl1_avoid_llvm_miscompiles() -> bool;
}

/// Sets the LLVM options that avoid the known miscompiles, once per process
/// (they are process-wide); false when this LLVM lacks one of them.
pub fn avoid_llvm_miscompiles() -> bool {
    // SAFETY: the shim only sets registered LLVM options, once.
    unsafe { sl1_avoid_llvm_miscompiles() }
}

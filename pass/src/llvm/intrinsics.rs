//! Calls to LLVM's intrinsics, declared with the attributes LLVM gives them.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;

use super::build::Builder;

/// Calls the (not overloaded) intrinsic `name` with `args` at the end of
/// `builder`'s position, declared with the attributes LLVM gives it
/// (convergent for the warp and block collectives).
///
/// `builder` builds in `function`; `args` have the intrinsic's parameter
/// types.
pub fn call_intrinsic(
    builder: &Builder,
    function: LLVMValueRef,
    name: &str,
    args: &mut [LLVMValueRef],
    result: &std::ffi::CStr,
) -> LLVMValueRef {
    call_overloaded_intrinsic(builder, function, (name, &mut []), args, result)
}

/// A call of LLVM's intrinsic `name` made for the types `overloads` (none
/// for an intrinsic that is not overloaded; `llvm.ctpop` takes its
/// integer type) in `function`'s module, at `builder`.
pub fn call_overloaded_intrinsic(
    builder: &Builder,
    function: LLVMValueRef,
    (name, overloads): (&str, &mut [LLVMTypeRef]),
    args: &mut [LLVMValueRef],
    result: &std::ffi::CStr,
) -> LLVMValueRef {
    // SAFETY: looks the intrinsic up, declares it in the live module and
    // calls it at the builder.
    unsafe {
        let module = LLVMGetGlobalParent(function);
        let id = LLVMLookupIntrinsicID(name.as_ptr() as *const std::ffi::c_char, name.len());
        assert!(id != 0, "LLVM lacks {name}");
        let decl = LLVMGetIntrinsicDeclaration(module, id, overloads.as_mut_ptr(), overloads.len());
        let ty = LLVMGlobalGetValueType(decl);
        LLVMBuildCall2(
            builder.raw(),
            ty,
            decl,
            args.as_mut_ptr(),
            args.len() as u32,
            result.as_ptr(),
        )
    }
}

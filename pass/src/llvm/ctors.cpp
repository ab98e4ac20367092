// Appends a constructor to a module's `llvm.global_ctors` (the host side of
// launch sizing registers each module's sizer with the S-L1 runtime): LLVM's
// own ModuleUtils rebuilds the appending array, which the C API cannot.

#include "llvm-c/Types.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

using namespace llvm;

extern "C" void sl1_append_global_ctor(LLVMModuleRef M, LLVMValueRef F, int Priority) {
  appendToGlobalCtors(*unwrap(M), cast<Function>(unwrap(F)), Priority);
}

// The C API functions the pass uses that LLVM added after 19, for the plugin
// built against LLVM 19 (feature llvm19): the same work through the C++ API.
// Against LLVM 20 and later this file is empty and the C API is called.

#include "llvm/Config/llvm-config.h"

#if LLVM_VERSION_MAJOR < 20
#include "llvm-c/Types.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/Error.h"

using namespace llvm;

// LLVMGetSwitchCaseValue (LLVM 20): the case value of successor I > 0.
extern "C" LLVMValueRef sl1_switch_case_value(LLVMValueRef Switch, unsigned I) {
  auto *SI = cast<SwitchInst>(unwrap(Switch));
  auto It = SI->case_begin() + (I - 1);
  return wrap(It->getCaseValue());
}

// LLVMRunPassesOnFunction (LLVM 20): runs the function pipeline Passes on F;
// false when the pipeline does not parse.
extern "C" bool sl1_run_function_passes(LLVMValueRef FRef, const char *Passes) {
  Function *F = cast<Function>(unwrap(FRef));
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  if (auto Err = PB.parsePassPipeline(FPM, Passes)) {
    consumeError(std::move(Err));
    return false;
  }
  FPM.run(*F, FAM);
  return true;
}
#endif

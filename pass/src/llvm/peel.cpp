// A loop's first iteration taken out in front of it, with LLVM's own loop
// peeling (the C API has no loop analyses): merged loops (tuning/
// merged_loops.rs) peel the loops nested in their inner loops.

#include "llvm-c/Types.h"
#include "llvm/Analysis/AssumptionCache.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ScalarEvolution.h"
#include "llvm/Analysis/TargetLibraryInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/LoopPeel.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

// Peels the first iteration of the loop headed by `Header` in `Fn`: 1 when
// it did, 0 when `Header` heads no loop or LLVM cannot peel it (left as it
// was).
extern "C" int sl1_peel_first_iteration(LLVMValueRef Fn, LLVMBasicBlockRef Header) {
  Function &F = *unwrap<Function>(Fn);
  BasicBlock *H = unwrap(Header);
  DominatorTree DT(F);
  LoopInfo LI(DT);
  Loop *L = LI.getLoopFor(H);
  if (!L || L->getHeader() != H)
    return 0;
  TargetLibraryInfoImpl TLII{Triple(F.getParent()->getTargetTriple())};
  TargetLibraryInfo TLI(TLII);
  AssumptionCache AC(F);
  ScalarEvolution SE(F, TLI, AC, DT, LI);
  simplifyLoop(L, &DT, &LI, &SE, &AC, nullptr, /*PreserveLCSSA=*/false);
  formLCSSARecursively(*L, DT, &LI, &SE);
  if (!canPeel(L))
    return 0;
  ValueToValueMapTy VMap;
#if LLVM_VERSION_MAJOR >= 21
  return peelLoop(L, 1, /*PeelLast=*/false, &LI, &SE, DT, &AC, /*PreserveLCSSA=*/true, VMap) ? 1 : 0;
#else
  return peelLoop(L, 1, &LI, &SE, DT, &AC, /*PreserveLCSSA=*/true, VMap) ? 1 : 0;
#endif
}

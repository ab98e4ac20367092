// Known LLVM miscompiles the pass's output meets, avoided through LLVM's own
// options (which are process-wide, so set once, before the optimizer runs).
//
// LLVM 21 and 22: VectorCombine scalarizes `op (insertelement C, x, i), D`
// through an IRBuilder that simplifies as it builds; when the scalar `op`
// folds to an instruction already in the function, VectorCombine copies the
// vector op's poison flags (`exact`, `nuw`, ...) onto that instruction
// (llvm/llvm-project#192607). The iterations S-L1's monitoring slice peels
// make such folds: `lshr exact (shl (lshr x, 27), 2), 2` folded to the
// first iteration's `lshr x, 27`, which became `exact`, and InstCombine then
// rewrote `shl (lshr exact x, 27), 2` as `lshr x, 25` (fuzz seed 121612).
// VectorCombine is left out; on NVPTX it only renames registers of the
// byte loops whose words it scalarizes.

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"

#include <mutex>

using namespace llvm;

extern "C" bool sl1_avoid_llvm_miscompiles() {
#if LLVM_VERSION_MAJOR >= 21
  static std::once_flag Once;
  static bool Set = false;
  std::call_once(Once, [] {
    auto &Options = cl::getRegisteredOptions();
    auto It = Options.find("disable-vector-combine");
    if (It == Options.end())
      return;
    It->second->addOccurrence(0, "disable-vector-combine", "true");
    Set = true;
  });
  return Set;
#else
  return true;
#endif
}

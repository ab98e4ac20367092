// A branch whose condition does not change within its loop taken out of the
// loop: the loop is copied, the original always takes the branch's first
// successor, the copy the second, and the loop's preheader chooses between
// them once (the C API has no loop analyses; LLVM's own unswitching leaves
// a condition that may differ between a warp's threads alone on GPUs).
// Used by the vector loads' checks (tuning/vector_loads.rs), whose answer
// is the same in every iteration of the loop around the checked loop, and
// then by the other such tests of that loop.

#include "llvm-c/Types.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/Analysis/ValueTracking.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/LCSSA.h"
#include "llvm/Transforms/Utils/Local.h"
#include "llvm/Transforms/Utils/LoopSimplify.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

// Replaces the conditional branch `BI` by a branch to its successor `Keep`.
static void foldBranch(BranchInst *BI, unsigned Keep) {
  BasicBlock *From = BI->getParent();
  BasicBlock *Taken = BI->getSuccessor(Keep);
  BasicBlock *Dropped = BI->getSuccessor(1 - Keep);
  Dropped->removePredecessor(From);
  BranchInst::Create(Taken, BI->getIterator());
  Value *Cond = BI->getCondition();
  BI->eraseFromParent();
  RecursivelyDeleteTriviallyDeadInstructions(Cond);
}

// Whether `V` is computed outside `L`, or inside it from such values by
// instructions that may move to its preheader (what Loop::makeLoopInvariant
// moves), so that checking changes nothing.
static bool computableBefore(Value *V, const Loop *L) {
  auto *I = dyn_cast<Instruction>(V);
  if (!I || !L->contains(I))
    return true;
  if (isa<PHINode>(I) || I->mayReadFromMemory() || !isSafeToSpeculativelyExecute(I))
    return false;
  for (Value *Op : I->operands())
    if (!computableBefore(Op, L))
      return false;
  return true;
}

// Unswitches `BI` out of `L`, the innermost loop holding it (see
// sl1_unswitch_branch); returns the copy of `L`'s header, or null when
// nothing was copied.
static BasicBlock *unswitch(DominatorTree &DT, LoopInfo &LI, Loop *L, BranchInst *BI,
                            unsigned MaxInstructions) {
  if (!BI->isConditional() || BI->getSuccessor(0) == BI->getSuccessor(1) ||
      isa<Constant>(BI->getCondition()))
    return nullptr;
  unsigned Size = 0;
  for (BasicBlock *BB : L->blocks())
    for (Instruction &I : *BB) {
      ++Size;
      if (auto *CB = dyn_cast<CallBase>(&I); CB && CB->isConvergent())
        return nullptr;
    }
  if (Size > MaxInstructions || !computableBefore(BI->getCondition(), L))
    return nullptr;
  // A preheader and exits only the loop enters (LLVM's canonical loop form).
  simplifyLoop(L, &DT, &LI, nullptr, nullptr, nullptr, /*PreserveLCSSA=*/false);
  BasicBlock *Check = L->getLoopPreheader();
  if (!Check || !L->hasDedicatedExits())
    return nullptr;
  // The condition's arithmetic, in the loop, moves to the preheader.
  bool Moved = false;
  if (!L->makeLoopInvariant(BI->getCondition(), Moved, Check->getTerminator()))
    return nullptr;
  formLCSSARecursively(*L, DT, &LI, nullptr);
  // The check keeps the preheader's code; a block of its own enters the loop.
  BasicBlock *Entry = SplitBlock(Check, Check->getTerminator(), &DT, &LI, nullptr,
                                 Check->getName() + ".unswitched");
  SmallVector<BasicBlock *, 8> Exits;
  L->getUniqueExitBlocks(Exits);
  ValueToValueMapTy VMap;
  SmallVector<BasicBlock *, 32> Copies;
  Loop *Copy = cloneLoopWithPreheader(Entry, Check, L, VMap, ".other", &LI, &DT, Copies);
  remapInstructionsInBlocks(Copies, VMap);
  // Exits are dedicated and the loop in LCSSA form: what leaves the loop
  // leaves through the exits' phis, which now take the copy's values too.
  for (BasicBlock *Exit : Exits)
    for (PHINode &Phi : Exit->phis())
      for (unsigned I = 0, E = Phi.getNumIncomingValues(); I != E; ++I) {
        BasicBlock *From = Phi.getIncomingBlock(I);
        if (!L->contains(From))
          continue;
        Value *V = Phi.getIncomingValue(I);
        auto Mapped = VMap.find(V);
        Phi.addIncoming(Mapped == VMap.end() ? V : static_cast<Value *>(Mapped->second),
                        cast<BasicBlock>(VMap[From]));
      }
  // The test now runs whether or not the loop would have reached it: a
  // poison condition must not become a branch on poison (LLVM's own
  // unswitching freezes it the same way).
  Instruction *Jump = Check->getTerminator();
  Value *Cond = BI->getCondition();
  if (!isGuaranteedNotToBeUndefOrPoison(Cond, nullptr, Jump, &DT))
    Cond = new FreezeInst(Cond, Cond->getName() + ".fr", Jump->getIterator());
  BranchInst::Create(Entry, Copy->getLoopPreheader(), Cond, Jump->getIterator());
  Jump->eraseFromParent();
  auto *CopyBI = cast<BranchInst>(VMap[BI]);
  auto *CopyHeader = cast<BasicBlock>(VMap[L->getHeader()]);
  foldBranch(BI, 0);
  foldBranch(CopyBI, 1);
  return CopyHeader;
}

// Unswitches the conditional branch `Br` (of `Fn`) out of the innermost loop
// holding it: 1 when done, 0 when there is no such loop, its condition
// depends on values the loop changes, the loop has more than `MaxInstructions` instructions
// or a convergent call (its threads would meet in two copies), or it cannot
// be given a preheader and exits of its own (then nothing changed but that
// canonical form).
extern "C" int sl1_unswitch_branch(LLVMValueRef Fn, LLVMValueRef Br, unsigned MaxInstructions) {
  Function &F = *unwrap<Function>(Fn);
  auto *BI = dyn_cast<BranchInst>(unwrap(Br));
  if (!BI)
    return 0;
  DominatorTree DT(F);
  LoopInfo LI(DT);
  Loop *L = LI.getLoopFor(BI->getParent());
  return L && unswitch(DT, LI, L, BI, MaxInstructions) ? 1 : 0;
}

// A conditional branch of `L`'s own blocks (not its inner loops') that
// stays inside `L` and whose condition `L` does not change: a test that
// picks the path through every iteration the same way.
static BranchInst *invariantTest(Loop *L, LoopInfo &LI) {
  for (BasicBlock *BB : L->blocks()) {
    if (LI.getLoopFor(BB) != L)
      continue;
    auto *BI = dyn_cast<BranchInst>(BB->getTerminator());
    if (BI && BI->isConditional() && BI->getSuccessor(0) != BI->getSuccessor(1) &&
        !isa<Constant>(BI->getCondition()) && L->contains(BI->getSuccessor(0)) &&
        L->contains(BI->getSuccessor(1)) && computableBefore(BI->getCondition(), L))
      return BI;
  }
  return nullptr;
}

// Takes the tests whose answer is the same in every iteration out of the
// loops holding `Blocks` (each its innermost loop), `MaxCopies` copies at
// most for each: a loop that enters a short inner loop once an iteration
// (kmeans's loop over centroids) otherwise pays the inner loop's guards
// every time (none iterations, fewer than an unrolled iteration, a
// remainder). Removes the blocks no path reaches; returns the copies made.
extern "C" unsigned sl1_unswitch_invariant_tests(LLVMValueRef Fn, LLVMBasicBlockRef *Blocks,
                                                 unsigned Count, unsigned MaxInstructions,
                                                 unsigned MaxCopies) {
  Function &F = *unwrap<Function>(Fn);
  removeUnreachableBlocks(F);
  SmallVector<WeakVH, 4> Headers;
  {
    DominatorTree DT(F);
    LoopInfo LI(DT);
    for (unsigned I = 0; I != Count; ++I)
      if (Loop *L = LI.getLoopFor(unwrap(Blocks[I])))
        if (!llvm::is_contained(Headers, L->getHeader()))
          Headers.push_back(L->getHeader());
  }
  unsigned Made = 0;
  for (WeakVH &Start : Headers) {
    // Each copy's header is unswitched further, up to the loop's budget.
    SmallVector<WeakVH, 8> Work{Start};
    unsigned Copies = 0;
    while (!Work.empty() && Copies < MaxCopies) {
      auto *Header = dyn_cast_or_null<BasicBlock>(Work.pop_back_val());
      if (!Header)
        continue;
      DominatorTree DT(F);
      LoopInfo LI(DT);
      Loop *L = LI.getLoopFor(Header);
      if (!L || L->getHeader() != Header)
        continue;
      BranchInst *BI = invariantTest(L, LI);
      if (!BI)
        continue;
      BasicBlock *CopyHeader = unswitch(DT, LI, L, BI, MaxInstructions);
      if (!CopyHeader)
        continue;
      ++Copies;
      removeUnreachableBlocks(F);
      Work.push_back(Header);
      Work.push_back(CopyHeader);
    }
    Made += Copies;
  }
  return Made;
}

// Deletes the blocks of `Fn` no path from its entry reaches (what the folded
// branches leave behind).
extern "C" void sl1_remove_unreachable_blocks(LLVMValueRef Fn) {
  removeUnreachableBlocks(*unwrap<Function>(Fn));
}

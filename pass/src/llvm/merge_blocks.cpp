// Chains of single-edge blocks (one block per unrolled copy of a loop body)
// made straight-line, as LLVM's InstCombine and SimplifyCFG would leave
// them, in one pass. InstCombine sinks an instruction whose users all lie in
// the next block of a chain one block per visit, so a value carried through
// n copies (a running count) sinks in O(n^2) steps; merged blocks are cheap
// for it but lose the placement the sinking gives (a run's loads first, its
// counts after). Here the sinking is done once, bottom-up, then the blocks
// are merged. The C API cannot move instructions between blocks; LLVM's
// C++ API can.

#include "llvm-c/Types.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/BasicBlock.h"
#include "llvm/IR/Instructions.h"
#include "llvm/Transforms/Utils/BasicBlockUtils.h"
#include "llvm/Transforms/Utils/Local.h"

using namespace llvm;

namespace {

// Whether `I` may move to a later block of its chain: no effects, reads no
// memory, not control flow (what InstCombine sinks, less its load cases).
bool mayMoveLater(const Instruction &I) {
  if (isa<PHINode>(I) || I.isTerminator() || isa<AllocaInst>(I) || I.isEHPad())
    return false;
  if (I.mayHaveSideEffects() || I.mayReadFromMemory())
    return false;
  if (const auto *Call = dyn_cast<CallBase>(&I))
    if (Call->isConvergent())
      return false;
  return true;
}

// The one block of `Chain` (by position) all users of `I` lie in, when it
// is after `From`; -1 otherwise.
int userPosition(const Instruction &I, int From, const DenseMap<BasicBlock *, int> &Position) {
  int Found = -1;
  for (const User *U : I.users()) {
    const auto *UI = dyn_cast<Instruction>(U);
    if (!UI || isa<PHINode>(UI))
      return -1;
    auto It = Position.find(UI->getParent());
    if (It == Position.end() || It->second <= From || (Found != -1 && It->second != Found))
      return -1;
    Found = It->second;
  }
  return Found;
}

void sinkAndMerge(ArrayRef<BasicBlock *> Chain) {
  DenseMap<BasicBlock *, int> Position;
  for (int I = 0, N = Chain.size(); I < N; ++I)
    Position[Chain[I]] = I;
  for (int K = Chain.size() - 2; K >= 0; --K) {
    for (Instruction &I : make_early_inc_range(reverse(*Chain[K]))) {
      if (!mayMoveLater(I) || I.use_empty())
        continue;
      int To = userPosition(I, K, Position);
      if (To != -1)
        I.moveBefore(*Chain[To], Chain[To]->getFirstInsertionPt());
    }
  }
  for (BasicBlock *BB : Chain.drop_front())
    MergeBlockIntoPredecessor(BB);
}

} // namespace

// Each of the `N` blocks `Joins` whose only predecessor branches to it alone
// joins that predecessor's chain; every chain's instructions are sunk
// towards their users (above) and its blocks merged into its first.
extern "C" void sl1_sink_and_merge_joins(const LLVMBasicBlockRef *Joins, unsigned N) {
  SmallPtrSet<BasicBlock *, 32> Linked;
  DenseMap<BasicBlock *, BasicBlock *> Next;
  for (unsigned I = 0; I < N; ++I) {
    BasicBlock *Join = unwrap(Joins[I]);
    BasicBlock *Pred = Join->getUniquePredecessor();
    auto *Br = Pred ? dyn_cast<BranchInst>(Pred->getTerminator()) : nullptr;
    if (!Br || Br->isConditional() || Pred == Join || !Linked.insert(Join).second)
      continue;
    FoldSingleEntryPHINodes(Join);
    Next[Pred] = Join;
  }
  // Chains first: merging deletes blocks the map holds.
  SmallVector<SmallVector<BasicBlock *, 64>, 4> Chains;
  for (auto &Link : Next) {
    if (Linked.contains(Link.first))
      continue;
    SmallVector<BasicBlock *, 64> Chain{Link.first};
    for (auto It = Next.find(Link.first); It != Next.end(); It = Next.find(It->second))
      Chain.push_back(It->second);
    Chains.push_back(std::move(Chain));
  }
  for (auto &Chain : Chains)
    sinkAndMerge(Chain);
}

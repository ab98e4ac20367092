// A copy of a kernel's body taken before the transform and put back when the
// transform fails (a panic in Rust, or a body the verifier rejects), so that
// the transform is all-or-nothing per kernel. The C API cannot clone a
// function; LLVM's CloneFunction can.

#include "llvm-c/Types.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

// A private copy of `F` in the same module (its own arguments). Its debug
// locations stay under `F`'s own subprogram (mapped to itself, not cloned),
// and the copy is attached to no subprogram: a body moved back into `F`
// (`sl1_restore_backup`) must not point at a clone of `F`'s subprogram,
// which the verifier rejects.
extern "C" LLVMValueRef sl1_backup_function(LLVMValueRef FRef) {
  Function *F = unwrap<Function>(FRef);
  ValueToValueMapTy Map;
  if (DISubprogram *SP = F->getSubprogram())
    Map.MD()[SP].reset(SP);
  Function *Copy = CloneFunction(F, Map);
  Copy->setName(F->getName() + ".sl1.backup");
  Copy->setLinkage(GlobalValue::PrivateLinkage);
  Copy->setSubprogram(nullptr);
  return wrap(Copy);
}

// Drops the copy (the transform succeeded).
extern "C" void sl1_discard_backup(LLVMValueRef CopyRef) {
  unwrap<Function>(CopyRef)->eraseFromParent();
}

// Replaces `F`'s body and attributes with the copy's, which is consumed.
// `F` keeps its name, metadata and uses.
extern "C" void sl1_restore_backup(LLVMValueRef FRef, LLVMValueRef CopyRef) {
  Function *F = unwrap<Function>(FRef);
  Function *Copy = unwrap<Function>(CopyRef);
  // Blocks only (Function::dropAllReferences would also clear the
  // function's own metadata and operands).
  for (BasicBlock &BB : *F)
    BB.dropAllReferences();
  while (!F->empty())
    F->begin()->eraseFromParent();
  F->splice(F->end(), Copy);
  // The attributes too: a failed transform had dropped `mustprogress`.
  F->setAttributes(Copy->getAttributes());
  for (unsigned I = 0, E = F->arg_size(); I != E; ++I)
    Copy->getArg(I)->replaceAllUsesWith(F->getArg(I));
  Copy->eraseFromParent();
}

// Whether `F` passes the verifier; writes its first complaint to `Out`
// (a buffer of `Size` bytes) when not.
extern "C" bool sl1_verify_function(LLVMValueRef FRef, char *Out, unsigned Size) {
  std::string Message;
  raw_string_ostream OS(Message);
  bool Broken = verifyFunction(*unwrap<Function>(FRef), &OS);
  OS.flush();
  if (Broken && Size > 0) {
    size_t N = std::min<size_t>(Message.size(), Size - 1);
    Message.copy(Out, N);
    Out[N] = '\0';
  }
  return !Broken;
}

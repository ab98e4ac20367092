// The C++ half of the clang plugin. LLVM's PassBuilder and cl::opt are C++ only, so
// this file registers one module pass at each of the optimizer's extension points the
// plugin uses (`sl1` early, `sl1-late` last; `opt -passes=` takes both names), each calling
// one Rust entry, makes the `-sl1-*` options Rust declares, and turns what Rust reports into
// LLVM diagnostics. Everything else lives in Rust: what each stage runs, and in which order
// (`pipeline.rs`), and the plugin's part of it (`plugin/mod.rs`).

#include "llvm-c/Types.h"
#include "llvm/Analysis/OptimizationRemarkEmitter.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/IR/CFG.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"

#include <memory>
#include <string>
#include <vector>

using namespace llvm;

// LLVM 20 renamed the generic diagnostic and gave the optimizer's extension
// points the LTO phase; the plugin builds against 19 and 22.
#if LLVM_VERSION_MAJOR >= 20
#define SL1_GENERIC_DIAGNOSTIC DiagnosticInfoGeneric
#define SL1_LTO_PHASE , ThinOrFullLTOPhase
#else
#define SL1_GENERIC_DIAGNOSTIC DiagnosticInfoInlineAsm
#define SL1_LTO_PHASE
#endif

// The `-sl1-*` options, created from the one list the Rust side declares
// (`sl1_core::option_list::PASS_OPTIONS`) when the plugin is loaded. What a
// command line gives goes back to Rust as one value: a `NAME=VALUE` line per
// option it named.
enum Sl1OptionKind { Sl1Flag = 0, Sl1Number = 1, Sl1Bytes = 2, Sl1File = 3 };

extern "C" unsigned sl1_option_count();
extern "C" void sl1_option_info(unsigned Index, const char **Name, const char **Help,
                                unsigned *Kind, bool *Hidden, bool *DefaultOn);

namespace {

struct Sl1Options {
  std::vector<std::unique_ptr<cl::opt<bool>>> Flags;
  std::vector<std::unique_ptr<cl::opt<std::string>>> Values;

  Sl1Options() {
    for (unsigned I = 0, N = sl1_option_count(); I < N; ++I) {
      const char *Name, *Help;
      unsigned Kind;
      bool Hidden, DefaultOn;
      sl1_option_info(I, &Name, &Help, &Kind, &Hidden, &DefaultOn);
      auto Visibility = Hidden ? cl::ReallyHidden : cl::NotHidden;
      if (Kind == Sl1Flag) {
        Flags.push_back(std::make_unique<cl::opt<bool>>(StringRef(Name), cl::desc(Help),
                                                        cl::init(DefaultOn), Visibility));
      } else {
        const char *Unit = Kind == Sl1File ? "file" : Kind == Sl1Bytes ? "bytes" : "n";
        Values.push_back(std::make_unique<cl::opt<std::string>>(
            StringRef(Name), cl::desc(Help), cl::value_desc(Unit), cl::init(""), Visibility));
      }
    }
  }

  // The options the command line named, as `NAME=VALUE` lines.
  std::string given() const {
    std::string Out;
    for (const auto &F : Flags)
      if (F->getNumOccurrences())
        Out += F->ArgStr.drop_front(4).str() + (*F ? "=true\n" : "=false\n");
    for (const auto &V : Values)
      if (V->getNumOccurrences())
        Out += V->ArgStr.drop_front(4).str() + "=" + V->getValue() + "\n";
    return Out;
  }
};

const Sl1Options &options() {
  static Sl1Options Options;
  return Options;
}

// Registered when the plugin is loaded, before the command line is parsed.
const Sl1Options &Sl1Registered = options();

} // namespace

extern "C" int sl1_run_on_module(LLVMModuleRef M, const char *Given);
extern "C" int sl1_run_late(LLVMModuleRef M, const char *Given);

// Severity codes used by Rust (`plugin::Severity`).
enum Sl1Severity { Sl1Error = 0, Sl1Warning = 1, Sl1Remark = 2, Sl1Missed = 3, Sl1Analysis = 4 };

// Where a remark about the loop headed by `F`'s block `Header` points: the
// loop's start location in a latch's `llvm.loop` metadata (what the report
// gives), else the header's first instruction with a location. Sets `Block`
// to the header.
static DebugLoc loopLocation(Function *F, const char *Header, const BasicBlock *&Block) {
  if (!Header)
    return DebugLoc();
  for (BasicBlock &BB : *F) {
    if (BB.getName() != Header)
      continue;
    Block = &BB;
    for (BasicBlock *Pred : predecessors(&BB))
      if (MDNode *Loop = Pred->getTerminator()->getMetadata(LLVMContext::MD_loop))
        for (const MDOperand &Op : Loop->operands())
          if (auto *At = dyn_cast_or_null<DILocation>(Op.get()))
            return DebugLoc(At);
    for (Instruction &I : BB)
      if (I.getDebugLoc())
        return I.getDebugLoc();
    return DebugLoc();
  }
  return DebugLoc();
}

extern "C" void sl1_emit_diagnostic(LLVMModuleRef MRef, int Severity, const char *Kernel,
                                    const char *Message, const char *LoopHeader) {
  Module *M = reinterpret_cast<Module *>(MRef);
  Function *F = Kernel ? M->getFunction(Kernel) : nullptr;
  switch (Severity) {
  case Sl1Remark:
  case Sl1Missed:
  case Sl1Analysis:
    if (F && !F->isDeclaration()) {
      OptimizationRemarkEmitter ORE(F);
      const BasicBlock *BB = nullptr;
      if (DebugLoc Loc = loopLocation(F, LoopHeader, BB)) {
        DiagnosticLocation At(Loc);
        if (Severity == Sl1Remark)
          ORE.emit(OptimizationRemark("sl1", "SL1", At, BB) << Message);
        else if (Severity == Sl1Missed)
          ORE.emit(OptimizationRemarkMissed("sl1", "SL1", At, BB) << Message);
        else
          ORE.emit(OptimizationRemarkAnalysis("sl1", "SL1", At, BB) << Message);
        return;
      }
      if (Severity == Sl1Remark)
        ORE.emit(OptimizationRemark("sl1", "SL1", F) << Message);
      else if (Severity == Sl1Missed)
        ORE.emit(OptimizationRemarkMissed("sl1", "SL1", F) << Message);
      else
        ORE.emit(OptimizationRemarkAnalysis("sl1", "SL1", F) << Message);
      return;
    }
    return;
  case Sl1Warning:
    M->getContext().diagnose(SL1_GENERIC_DIAGNOSTIC(Twine("sl1: ") + Message, DS_Warning));
    return;
  default:
    M->getContext().diagnose(SL1_GENERIC_DIAGNOSTIC(Twine("sl1: ") + Message, DS_Error));
    return;
  }
}

namespace {

struct Sl1Pass : PassInfoMixin<Sl1Pass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Given = options().given();
    int Changed = sl1_run_on_module(wrap(&M), Given.c_str());
    return Changed > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  // Run at -O0 too, where functions carry optnone.
  static bool isRequired() { return true; }
};

// The stage after LLVM's optimizer (`pipeline::run_late`): the late device rewrites and the
// ptxas workaround.
struct Sl1LatePass : PassInfoMixin<Sl1LatePass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Given = options().given();
    int Changed = sl1_run_late(wrap(&M), Given.c_str());
    return Changed > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  static bool isRequired() { return true; }
};

} // namespace

extern "C" void sl1_register_pass_builder_callbacks(PassBuilder *PB) {
  PB->registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel SL1_LTO_PHASE) {
        MPM.addPass(Sl1Pass());
      });
  PB->registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel SL1_LTO_PHASE) {
        MPM.addPass(Sl1LatePass());
      });
  PB->registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "sl1") {
          MPM.addPass(Sl1Pass());
          return true;
        }
        if (Name == "sl1-late") {
          MPM.addPass(Sl1LatePass());
          return true;
        }
        return false;
      });
}

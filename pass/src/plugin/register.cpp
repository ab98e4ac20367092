// The C++ half of the clang plugin. LLVM's PassBuilder and cl::opt are C++ only, so
// this file registers the `sl1` module pass (optimizer-early extension point and
// `opt -passes=sl1`), owns the `-sl1-*` options, and turns what Rust reports into
// LLVM diagnostics. Everything else lives in Rust (`plugin/mod.rs`).

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

#include <string>

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

namespace {

cl::opt<bool> Sl1Disable("sl1-disable",
                         cl::desc("S-L1: analyse and report, but leave kernels untouched"),
                         cl::init(false));
cl::opt<unsigned> Sl1Threshold("sl1-threshold",
                               cl::desc("S-L1: accesses simulated per thread before deciding"),
                               cl::init(300));
cl::opt<unsigned> Sl1LineSize(
    "sl1-line-size",
    cl::desc("S-L1: cache line size in bytes (the smallest; given alone, the only one)"),
    cl::init(16));
cl::opt<unsigned> Sl1MaxLineSize(
    "sl1-max-line-size",
    cl::desc("S-L1: largest line size a launch may pick (default 32, or -sl1-line-size when "
             "that is given)"),
    cl::init(32));
cl::opt<unsigned> Sl1ReadOnlyMaxLineSize(
    "sl1-read-only-max-line-size",
    cl::desc("S-L1: largest line size in kernels whose sliced loops only read (default 64, or "
             "the largest line size when line sizes are given)"),
    cl::init(64));
cl::opt<unsigned> Sl1MaxThreads(
    "sl1-max-threads",
    cl::desc("S-L1: block size the line buffer is provisioned for without __launch_bounds__"),
    cl::init(1024));
cl::opt<bool> Sl1ForceUncached(
    "sl1-force-uncached",
    cl::desc("S-L1: insert the cache but decide to cache nothing (measures the overhead)"),
    cl::init(false));
cl::opt<bool> Sl1CacheReadOnly(
    "sl1-cache-read-only",
    cl::desc("S-L1: also cache read-only restrict arguments (the paper's choice; on GPUs with "
             "a large L1 they are better left to it)"),
    cl::init(false));
cl::opt<bool> Sl1Stats(
    "sl1-stats",
    cl::desc("S-L1: count simulated and real hits and misses per structure (slower; for study)"),
    cl::init(false));
cl::opt<bool> Sl1NoStaticPrediction(
    "sl1-no-static-prediction",
    cl::desc("S-L1: monitor every loop, even where strides predict the hit rate (the paper)"),
    cl::init(false));
cl::opt<bool> Sl1Prefetch("sl1-prefetch",
                          cl::desc("S-L1: on a fill, prefetch into L2 the memory 128 B further on"),
                          cl::init(false));
cl::opt<bool> Sl1NoLineRuns(
    "sl1-no-line-runs",
    cl::desc("S-L1: check every access's tag, also where a loop's strides let iterations run "
             "in their lines without checks"),
    cl::init(false));
cl::opt<bool> Sl1NoLinePadding(
    "sl1-no-line-padding",
    cl::desc("S-L1: pack lines in shared memory (by default each line is padded so that a "
             "warp's threads hit different banks)"),
    cl::init(false));
cl::opt<bool> Sl1NoLineStaging(
    "sl1-no-line-staging",
    cl::desc("S-L1: fill lines when they miss (by default line runs load a read-only "
             "structure's next line into registers ahead)"),
    cl::init(false));
cl::opt<bool> Sl1NoWarpCopies(
    "sl1-no-warp-copies",
    cl::desc("S-L1: copy lines thread by thread (by default a warp that misses as a whole moves "
             "its lines together, in requests of whole sectors)"),
    cl::init(false));
cl::opt<bool> Sl1NoFullRuns(
    "sl1-no-full-runs",
    cl::desc("S-L1: run every line run as one loop (by default a run over whole lines gets an "
             "unrolled copy whose byte accesses merge into words)"),
    cl::init(false));
cl::opt<bool> Sl1DeviceTuning(
    "sl1-device-tuning",
    cl::desc("Device tuning (also with -sl1-disable): small switches that only choose values "
             "become selects; divisions that nested loops build on are frozen; inner loops "
             "whose trip counts depend on loaded data merge into their top-level loop"),
    cl::init(false));
cl::opt<bool> Sl1NoLoopMerging(
    "sl1-no-loop-merging",
    cl::desc("Device tuning: keep inner loops whose trip counts depend on loaded data nested "
             "(by default they merge into their top-level loop, in kernels S-L1 left alone)"),
    cl::init(false));
cl::opt<unsigned> Sl1SharedBudget(
    "sl1-shared-budget",
    cl::desc("S-L1: shared memory (bytes) a block's line buffer and the kernel's own static "
             "shared memory may take together (at most 49152)"),
    cl::init(48 * 1024));
cl::opt<unsigned> Sl1DynamicShared(
    "sl1-dynamic-shared",
    cl::desc("S-L1: the most dynamic shared memory (bytes) a launch gives; kernels with "
             "extern __shared__ get lines from the budget less this (without it they stay "
             "untransformed)"),
    cl::init(0));
cl::opt<std::string> Sl1GpuProfile(
    "sl1-gpu-profile",
    cl::desc("S-L1: take line sizes and the shared-memory budget from this GPU profile "
             "(the JSON file sl1-driver probe writes); explicit options win"),
    cl::value_desc("file"), cl::init(""));
cl::opt<bool> Sl1LaunchSized(
    "sl1-launch-sized",
    cl::desc("S-L1 (device compile): put line buffers in dynamic shared memory, sized per "
             "block at launch; the launches must add the bytes the report gives "
             "(-sl1-launch-report in the host compile does)"),
    cl::init(false));
cl::opt<std::string> Sl1LaunchReport(
    "sl1-launch-report",
    cl::desc("S-L1 (host compile): the device compile's report; launches of its kernels with "
             "launch-sized line buffers get their bytes"),
    cl::value_desc("file"), cl::init(""));
cl::opt<bool> Sl1PanicForTesting("sl1-panic-for-testing",
                                  cl::desc("S-L1: fail inside the pass (tests the error path)"),
                                  cl::init(false), cl::Hidden);
cl::opt<std::string> Sl1Report("sl1-report",
                               cl::desc("S-L1: write the JSON report of each device module here"),
                               cl::value_desc("file"), cl::init(""));

} // namespace

// Mirrors `plugin::RawOptions` in Rust.
extern "C" struct Sl1RawOptions {
  unsigned threshold;
  unsigned line_size;
  unsigned max_line_size;
  unsigned read_only_max_line_size;
  unsigned max_threads;
  bool disable;
  bool force_uncached;
  bool cache_read_only;
  bool stats;
  bool no_static_prediction;
  bool prefetch;
  bool no_line_runs;
  bool no_line_padding;
  bool no_line_staging;
  bool no_warp_copies;
  bool no_full_runs;
  bool device_tuning;
  bool no_loop_merging;
  bool panic_for_testing;
  const char *report_path;
  unsigned long long shared_budget;
  bool line_sizes_given;
  bool shared_budget_given;
  unsigned long long dynamic_shared;
  bool dynamic_shared_given;
  const char *gpu_profile;
  bool launch_sized;
  const char *launch_report;
};

extern "C" int sl1_run_on_module(LLVMModuleRef M, const Sl1RawOptions *Opts);
extern "C" int sl1_tune_late(LLVMModuleRef M, const char *ReportPath);

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
    std::string Report = Sl1Report;
    std::string Profile = Sl1GpuProfile;
    // A line size given alone fixes the size.
    unsigned MaxLine = !Sl1MaxLineSize.getNumOccurrences() && Sl1LineSize.getNumOccurrences()
                           ? unsigned(Sl1LineSize)
                           : unsigned(Sl1MaxLineSize);
    // Field by field, so that the order of Sl1RawOptions cannot be got wrong.
    Sl1RawOptions Opts{};
    Opts.threshold = Sl1Threshold;
    Opts.line_size = Sl1LineSize;
    Opts.max_line_size = MaxLine;
    bool LineSizesGiven =
        Sl1LineSize.getNumOccurrences() > 0 || Sl1MaxLineSize.getNumOccurrences() > 0;
    Opts.read_only_max_line_size =
        !Sl1ReadOnlyMaxLineSize.getNumOccurrences() && LineSizesGiven
            ? MaxLine
            : unsigned(Sl1ReadOnlyMaxLineSize);
    Opts.max_threads = Sl1MaxThreads;
    Opts.disable = Sl1Disable;
    Opts.force_uncached = Sl1ForceUncached;
    Opts.cache_read_only = Sl1CacheReadOnly;
    Opts.stats = Sl1Stats;
    Opts.no_static_prediction = Sl1NoStaticPrediction;
    Opts.prefetch = Sl1Prefetch;
    Opts.no_line_runs = Sl1NoLineRuns;
    Opts.no_line_padding = Sl1NoLinePadding;
    Opts.no_line_staging = Sl1NoLineStaging;
    Opts.no_warp_copies = Sl1NoWarpCopies;
    Opts.no_full_runs = Sl1NoFullRuns;
    Opts.device_tuning = Sl1DeviceTuning;
    Opts.no_loop_merging = Sl1NoLoopMerging;
    Opts.panic_for_testing = Sl1PanicForTesting;
    Opts.report_path = Report.empty() ? nullptr : Report.c_str();
    Opts.shared_budget = Sl1SharedBudget;
    Opts.line_sizes_given =
        Sl1LineSize.getNumOccurrences() > 0 || Sl1MaxLineSize.getNumOccurrences() > 0;
    Opts.shared_budget_given = Sl1SharedBudget.getNumOccurrences() > 0;
    Opts.dynamic_shared = Sl1DynamicShared;
    Opts.dynamic_shared_given = Sl1DynamicShared.getNumOccurrences() > 0;
    Opts.gpu_profile = Profile.empty() ? nullptr : Profile.c_str();
    std::string LaunchReport = Sl1LaunchReport;
    Opts.launch_sized = Sl1LaunchSized;
    Opts.launch_report = LaunchReport.empty() ? nullptr : LaunchReport.c_str();
    int Changed = sl1_run_on_module(wrap(&M), &Opts);
    return Changed > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
  // Run at -O0 too, where functions carry optnone.
  static bool isRequired() { return true; }
};

// The device tuning that must come after LLVM's optimizer (see tuning/mod.rs).
struct Sl1LateTuningPass : PassInfoMixin<Sl1LateTuningPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    std::string Report = Sl1Report;
    int Changed = sl1_tune_late(wrap(&M), Report.empty() ? nullptr : Report.c_str());
    return Changed > 0 ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

} // namespace

extern "C" void sl1_register_pass_builder_callbacks(PassBuilder *PB) {
  PB->registerOptimizerEarlyEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel SL1_LTO_PHASE) {
        MPM.addPass(Sl1Pass());
      });
  PB->registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel SL1_LTO_PHASE) {
        if (Sl1DeviceTuning)
          MPM.addPass(Sl1LateTuningPass());
      });
  PB->registerPipelineParsingCallback(
      [](StringRef Name, ModulePassManager &MPM, ArrayRef<PassBuilder::PipelineElement>) {
        if (Name == "sl1") {
          MPM.addPass(Sl1Pass());
          return true;
        }
        if (Name == "sl1-late-tuning") {
          MPM.addPass(Sl1LateTuningPass());
          return true;
        }
        return false;
      });
}

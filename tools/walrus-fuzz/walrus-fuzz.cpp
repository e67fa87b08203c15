//===- walrus-fuzz.cpp - libFuzzer target over parse, verify, pipeline ----===//
//
// Any input may be rejected with a diagnostic, but nothing may crash: the
// input is parsed and verified; a valid program goes through -lnc-split
// and -psum-alloc as it was written, through -print-bir-timeline with the
// options its first line gives (`// timeline: pe-ghz=1e-308 ...`), through
// the pass pipeline and, when its tensors are small, through the
// interpreter.
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Interpreter/Interpreter.h"
#include "Walrus/Pipelines/Pipelines.h"
#include "Walrus/Transforms/Passes.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace walrus;

/// Programs whose tensors hold more bytes than this are not interpreted:
/// libFuzzer would report the allocation as running out of memory.
static constexpr int64_t kMaxInterpretedBytes = 1 << 24;

static bool isSmall(ModuleOp module) {
  int64_t bytes = 0;
  module.walk([&](bir::MemlocOp memloc) {
    bir::MemoryType type = memloc.getMemoryType();
    bytes += type.getNumElements() * type.getElementBytes();
  });
  int64_t cores = 1;
  module.walk([&](ModuleOp nested) {
    cores = std::max(cores, bir::getLncSize(nested));
  });
  return bytes * cores <= kMaxInterpretedBytes;
}

/// -lnc-split then -psum-alloc and its verifier on a copy of the program as
/// it was written, PSUM placement unprepared by the rest of the pipeline.
static void allocatePsum(ModuleOp module) {
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  pm.addPass(createLncSplit());
  pm.addPass(createPsumAlloc());
  pm.addPass(createPsumAllocVerify());
  (void)pm.run(*copy);
}

/// -print-bir-timeline with the options of the input's first line, when it
/// is `// timeline: OPTIONS`; options that would write files are left out.
static void estimate(ModuleOp module, llvm::StringRef input) {
  llvm::StringRef options = input.split('\n').first;
  if (!options.consume_front("// timeline:") || options.contains("file"))
    return;
  std::unique_ptr<Pass> timeline = createPrintBirTimeline();
  if (failed(timeline->initializeOptions(
          options, [](const llvm::Twine &) { return failure(); })))
    return;
  PassManager pm(module.getContext());
  pm.addPass(std::move(timeline));
  (void)pm.run(module);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext *context = fuzz::getContext();
  // Diagnostics are expected; only crashes count.
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = fuzz::parseModule(context, data, size);
  if (!module)
    return 0;
  bool interpret = isSmall(*module);
  // Short runs: libFuzzer reports a run past its timeout as a finding.
  interp::RunOptions options;
  options.maxIterations = 1 << 16;
  options.maxElements = 1 << 22;
  if (interpret)
    (void)interp::run(*module, options);
  allocatePsum(*module);
  estimate(*module,
           llvm::StringRef(reinterpret_cast<const char *>(data), size));
  PassManager pm(context);
  buildWalrusPipeline(pm, WalrusPipelineOptions());
  if (failed(pm.run(*module)))
    return 0;
  if (interpret)
    (void)interp::run(*module, options);
  return 0;
}

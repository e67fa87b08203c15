//===- walrus-fuzz.cpp - libFuzzer target over parse, verify, pipeline ----===//
//
// Any input may be rejected with a diagnostic, but nothing may crash: the
// input is parsed and verified; a valid program goes through the pass
// pipeline and, when its tensors are small, through the interpreter.
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
  PassManager pm(context);
  buildWalrusPipeline(pm, WalrusPipelineOptions());
  if (failed(pm.run(*module)))
    return 0;
  if (interpret)
    (void)interp::run(*module, options);
  return 0;
}

//===- walrus-fuzz-linalg.cpp - libFuzzer target over the lowering --------===//
//
// A host module in linalg, as a front end hands it to -walrus-from-linalg:
// parsed with the host dialects, bufferized, lowered, run through the
// Walrus pipeline and, when its tensors are small, interpreted. Any stage
// may refuse the input with a diagnostic; nothing may crash, and the
// pipeline never leaves IR its own verifier rejects (pm.run verifies after
// every pass).
//
//===----------------------------------------------------------------------===//

#include "FuzzContext.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/SourceLimits.h"
#include "Walrus/Interpreter/Interpreter.h"
#include "Walrus/Pipelines/Pipelines.h"
#include "Walrus/Walrus.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;
using namespace walrus;

/// Host modules whose memrefs hold more bytes than this are not lowered:
/// the interpreter would hold them all.
static constexpr int64_t kMaxBytes = 1 << 22;

static MLIRContext *getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    registerWalrusDialects(registry);
    registerHostDialects(registry);
    auto *created = new MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return context;
}

static bool isSmall(ModuleOp module) {
  int64_t bytes = 0;
  bool small = true;
  module.walk([&](Operation *op) {
    for (Type type :
         llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
      auto shaped = dyn_cast<ShapedType>(type);
      if (!shaped || !shaped.hasStaticShape() ||
          !shaped.getElementType().isIntOrFloat())
        continue;
      int64_t elements = 1;
      for (int64_t dim : shaped.getShape())
        if (dim > kMaxBytes ||
            (elements *= std::max<int64_t>(dim, 1)) > kMaxBytes)
          small = false;
      bytes += small ? elements * 8 : 0;
    }
  });
  return small && bytes <= kMaxBytes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext *context = getContext();
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = fuzz::parseModule(context, data, size);
  if (!module || !isSmall(*module))
    return 0;
  // Seeded lnc-size and tiles from the input's first byte.
  WalrusFromLinalgOptions options;
  options.lncSize = 1 + (size ? data[0] % 4 : 0);
  options.columnTile = size && data[0] & 0x10 ? 24 : 512;
  PassManager pm(context);
  buildWalrusFromLinalgPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 0;
  interp::RunOptions run;
  run.maxIterations = 1 << 16;
  run.maxElements = 1 << 22;
  run.maxBytes = int64_t(1) << 28;
  (void)interp::run(*module, run);
  return 0;
}

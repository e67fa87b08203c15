//===- FuzzContext.h - What the fuzz targets share --------------*- C++ -*-===//
//-*-===//

#ifndef WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H
#define WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "mlir/IR/MLIRContext.h"

namespace walrus::fuzz {

/// One context with the bir dialect for every input of a run: made once,
/// never freed (libFuzzer exits without returning).
inline mlir::MLIRContext *getContext() {
  static mlir::MLIRContext *context = [] {
    mlir::DialectRegistry registry;
    registry.insert<bir::BIRDialect>();
    auto *created = new mlir::MLIRContext(registry);
    created->loadAllAvailableDialects();
    return created;
  }();
  return context;
}

} // namespace walrus::fuzz

#endif // WALRUS_TOOLS_WALRUS_FUZZ_FUZZCONTEXT_H

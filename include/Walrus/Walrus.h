//===- Walrus.h - Everything an embedding compiler registers ----*- C++ -*-===//
//
// Three calls put Walrus into another MLIR-based compiler:
//
//   mlir::DialectRegistry registry;
//   walrus::registerWalrusDialects(registry);  // the bir dialect
//   walrus::registerWalrusPasses();            // -expand-replication ... -sb-alloc
//   walrus::registerWalrusPipelines();         // -walrus-pipeline
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_WALRUS_H
#define WALRUS_WALRUS_H

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"
#include "Walrus/Transforms/Pipelines.h"

#include "mlir/IR/DialectRegistry.h"

namespace walrus {

inline void registerWalrusDialects(mlir::DialectRegistry &registry) {
  registry.insert<bir::BIRDialect>();
}

} // namespace walrus

#endif // WALRUS_WALRUS_H

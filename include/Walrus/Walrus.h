//===- Walrus.h - Everything an embedding compiler registers ----*- C++ -*-===//
//
// Three calls put Walrus into another MLIR-based compiler:
//
//   mlir::DialectRegistry registry;
//   walrus::registerWalrusDialects(registry);  // the bir dialect
//   walrus::registerWalrusPasses();            // -expand-replication ...
//   -sb-alloc walrus::registerWalrusPipelines();         // -walrus-pipeline
//
// and a fourth, from the WalrusRegistration library, for a tool that reads
// host modules but does not register their dialects itself:
//
//   walrus::registerHostDialects(registry);    // func, arith, linalg, ...
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

/// The upstream dialects a host compiler's module holds around its kernels
/// (func, arith, math, scf, memref, tensor, linalg, bufferization), with
/// the external models one-shot bufferization and tiling need. Defined in
/// the WalrusRegistration library.
void registerHostDialects(mlir::DialectRegistry &registry);

} // namespace walrus

#endif // WALRUS_WALRUS_H

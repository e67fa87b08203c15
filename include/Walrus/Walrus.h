//===- Walrus.h - Everything an embedding compiler registers ----*- C++ -*-===//
//
// Four calls put Walrus into another MLIR-based compiler:
//
//   mlir::DialectRegistry registry;
//   walrus::registerWalrusDialects(registry); // the bir dialect
//   walrus::registerWalrusPasses();           // -lnc-split, -sb-alloc, ...
//   walrus::registerWalrusConversionPasses(); // -convert-linalg-to-bir
//   walrus::registerWalrusPipelines();        // -walrus-pipeline, ...
//
// (the libraries WalrusTransforms, WalrusLinalgToBir and WalrusPipelines,
// which links both), and one more, from the WalrusRegistration library,
// for a tool that reads host modules but does not register their dialects
// itself:
//
//   walrus::registerHostDialects(registry);    // func, arith, linalg, ...
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_WALRUS_H
#define WALRUS_WALRUS_H

#include "Walrus/Conversion/Passes.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Pipelines/Pipelines.h"
#include "Walrus/Transforms/Passes.h"

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

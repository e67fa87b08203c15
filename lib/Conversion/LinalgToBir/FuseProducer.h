//===- FuseProducer.h - one elementwise producer into its reader -*- C++
//-*-===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_FUSEPRODUCER_H
#define WALRUS_CONVERSION_LINALGTOBIR_FUSEPRODUCER_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/PatternMatch.h"

#include <functional>

namespace walrus {
/// Fuses into a generic the first producer of an operand that upstream can
/// fuse (`areElementwiseOpsFusable`) and `accept` takes, with upstream's
/// fuseElementwiseOps. The consumer's results move to the fused op; the
/// producer stays for its other readers. Unlike upstream's pattern set, it
/// touches no other op (outs, fills and constants stay as written).
struct FuseProducer : mlir::OpRewritePattern<mlir::linalg::GenericOp> {
  FuseProducer(mlir::MLIRContext *context,
               std::function<bool(mlir::OpOperand *)> accept)
      : OpRewritePattern(context), accept(std::move(accept)) {}

  mlir::LogicalResult
  matchAndRewrite(mlir::linalg::GenericOp consumer,
                  mlir::PatternRewriter &rewriter) const override;

  std::function<bool(mlir::OpOperand *)> accept;
};

/// Whether `generic`'s body computes with arith and math alone: a gather
/// (`tensor.extract`) or a body of indices is no elementwise op to fuse.
bool computesWithArithAndMath(mlir::linalg::GenericOp generic);
} // namespace walrus

#endif // WALRUS_CONVERSION_LINALGTOBIR_FUSEPRODUCER_H

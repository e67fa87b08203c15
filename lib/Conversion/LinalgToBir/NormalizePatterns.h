//===- NormalizePatterns.h - rewrites of -normalize-linalg ------*- C++ -*-===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H
#define WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

namespace walrus {
/// Body ops a pass run may fold at compile time, over every table it
/// builds: a bound on its time whatever the input (a few seconds).
struct FoldBudget {
  int64_t remaining = int64_t(1) << 24;
};

/// Body values of a generic's indices alone become constants or tables the
/// body reads (IndexFunctions.cpp); a generic whose results are computed
/// apart becomes one generic per result.
void populateIndexFunctionPatterns(mlir::RewritePatternSet &patterns,
                                   FoldBudget &budget);

/// A `tensor.extract` at rows the body computes from its inputs (an
/// embedding bag's ids, DLRM's index lists, a nearest-neighbour upsample's
/// source rows) becomes a gather generic of its own, which Gather.cpp
/// lowers, read as an input (HoistGathers.cpp).
void populateHoistGatherPatterns(mlir::RewritePatternSet &patterns);

/// Whether `index` is the index of `op`'s last loop: `linalg.index`, or
/// the 0 it folds to where that loop has one iteration. A gather reads its
/// table's column at it (Gather.cpp).
inline bool isLastLoopIndex(mlir::linalg::LinalgOp op, mlir::Value index) {
  unsigned last = op.getNumLoops() - 1;
  if (auto loop = index.getDefiningOp<mlir::linalg::IndexOp>())
    return loop.getDim() == last;
  // Loop sizes need maps that name every loop (upstream asserts else).
  return op.getShapesToLoopsMap() && op.getStaticLoopRanges()[last] == 1 &&
         mlir::matchPattern(index, mlir::m_Zero());
}

/// torch's max over a dimension with its index (one generic, two results)
/// becomes the max, the first index of it, and a pick (ArgReductions.cpp).
void populateArgReductionPatterns(mlir::RewritePatternSet &patterns);

/// torch's floor, ceil, trunc, remainders and float-to-integer
/// conversions in bodies as the roundings the engines have: to nearest
/// even (`math.roundeven`) and integer division toward zero
/// (ExpandRounding.cpp).
void populateRoundingPatterns(mlir::RewritePatternSet &patterns);

/// Whether every value `value` takes is an integer (a float holding
/// one): the roundings (`math.roundeven`, `floor`, ...), integer
/// conversions and constants, and sums, products and picks of them.
/// Converting it to an integer rounds nothing.
bool isIntegralValued(mlir::Value value);

/// A generic like `op` (its inits, loops and body, moved) reading `inputs`;
/// `maps` are the inputs' then the inits'. `op` is left without a body, for
/// the caller to replace.
mlir::linalg::GenericOp withInputs(mlir::PatternRewriter &rewriter,
                                   mlir::linalg::GenericOp op,
                                   mlir::ValueRange inputs,
                                   llvm::ArrayRef<mlir::AffineMap> maps);

/// `op` reading `inputs` at `maps` after its own inputs: `op` becomes the
/// widened generic, and its body's argument for each input is returned.
llvm::SmallVector<mlir::BlockArgument>
addGenericInputs(mlir::PatternRewriter &rewriter, mlir::linalg::GenericOp &op,
                 llvm::ArrayRef<mlir::Value> inputs,
                 llvm::ArrayRef<mlir::AffineMap> maps);
} // namespace walrus

#endif // WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

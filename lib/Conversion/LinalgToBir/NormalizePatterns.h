//===- NormalizePatterns.h - rewrites of -normalize-linalg ------*- C++ -*-===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H
#define WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

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
} // namespace walrus

#endif // WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

//===- NormalizePatterns.h - rewrites of -normalize-linalg ------*- C++ -*-===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H
#define WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

#include "mlir/IR/PatternMatch.h"

namespace walrus {
/// Body values of a generic's indices alone become constants or tables the
/// body reads (IndexFunctions.cpp); a generic whose results are computed
/// apart becomes one generic per result.
void populateIndexFunctionPatterns(mlir::RewritePatternSet &patterns);
} // namespace walrus

#endif // WALRUS_CONVERSION_LINALGTOBIR_NORMALIZEPATTERNS_H

//===- ShardBinding.h - Evaluate and bind the shard id ----------*- C++ -*-===//
//
// The shard id is symbol s0 of every mask and symbolic access pattern. These
// helpers evaluate masks for one core and specialize maps and access
// patterns to one core; the verifiers, -lnc-split and -lnc-verify share
// them so that prediction and realization use one evaluator.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_DIALECT_BIR_IR_SHARDBINDING_H
#define WALRUS_DIALECT_BIR_IR_SHARDBINDING_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

namespace walrus::bir {

/// Whether `mask` (no dims, at most the shard symbol, divisors positive
/// constants: the verifier checks it) holds for `shard`.
bool isMaskTrueAt(mlir::IntegerSet mask, int64_t shard);

/// `map` with the shard symbol replaced by `shard`, simplified, and with no
/// symbols left. Dims are kept.
mlir::AffineMap bindShard(mlir::AffineMap map, int64_t shard);

/// `pattern` specialized to `shard`: a symbolic pattern whose start becomes
/// constant turns into a physical one; otherwise it keeps its loop dims and
/// loses its shard symbol. Physical patterns are returned as they are.
AccessPatternAttr bindShard(AccessPatternAttr pattern, int64_t shard);

/// Whether `pattern` still mentions the shard symbol.
bool usesShard(AccessPatternAttr pattern);

/// The value of `expr` at `dims` and `symbols`, in checked arithmetic, or
/// nothing when it overflows or divides by a non-positive number. Unlike
/// AffineMap::compose it builds no expressions: a verifier walking a
/// million points calls it a million times.
std::optional<int64_t> evaluate(mlir::AffineExpr expr,
                                llvm::ArrayRef<int64_t> dims,
                                llvm::ArrayRef<int64_t> symbols);

} // namespace walrus::bir

#endif // WALRUS_DIALECT_BIR_IR_SHARDBINDING_H

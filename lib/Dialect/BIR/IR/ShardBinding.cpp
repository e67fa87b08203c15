//===- ShardBinding.cpp - Evaluate and bind the shard id ------------------===//

#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "mlir/IR/AffineExprVisitor.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus::bir;

/// Replaces the shard symbol (if any) of an expression over `numDims` dims.
static AffineExpr bindShardExpr(AffineExpr expr, unsigned numDims,
                                unsigned numSymbols, int64_t shard) {
  if (numSymbols == 0)
    return expr;
  AffineExpr bound =
      expr.replaceSymbols(getAffineConstantExpr(shard, expr.getContext()));
  return simplifyAffineExpr(bound, numDims, 0);
}

bool walrus::bir::isMaskTrueAt(IntegerSet mask, int64_t shard) {
  for (auto [constraint, isEquality] :
       llvm::zip(mask.getConstraints(), mask.getEqFlags())) {
    // Verified masks mention only the shard id and divide by positive
    // constants; anything else (or an overflow) holds nowhere rather than
    // crashing.
    std::optional<int64_t> value = evaluate(
        constraint, {}, SmallVector<int64_t>(mask.getNumSymbols(), shard));
    if (!value || (isEquality ? *value != 0 : *value < 0))
      return false;
  }
  return true;
}

AffineMap walrus::bir::bindShard(AffineMap map, int64_t shard) {
  if (map.getNumSymbols() == 0)
    return map;
  SmallVector<AffineExpr> results;
  for (AffineExpr result : map.getResults())
    results.push_back(
        bindShardExpr(result, map.getNumDims(), map.getNumSymbols(), shard));
  return AffineMap::get(map.getNumDims(), 0, results, map.getContext());
}

AccessPatternAttr walrus::bir::bindShard(AccessPatternAttr pattern,
                                         int64_t shard) {
  auto symbolic = dyn_cast<SymbolicAccessPatternAttr>(pattern);
  if (!symbolic)
    return pattern;
  AffineMap start = bindShard(symbolic.getStartMap(), shard);
  if (auto constant = dyn_cast<AffineConstantExpr>(start.getResult(0)))
    return PhysicalAccessPatternAttr::get(
        pattern.getContext(), constant.getValue(), symbolic.getSteps(),
        symbolic.getNums());
  auto bindOptional = [&](AffineMap map) {
    return map ? bindShard(map, shard) : map;
  };
  return SymbolicAccessPatternAttr::get(
      pattern.getContext(), bindShard(symbolic.getOffset(), shard),
      symbolic.getSteps(), symbolic.getNums(), bindOptional(symbolic.getTile()),
      bindOptional(symbolic.getBlock()));
}

bool walrus::bir::usesShard(AccessPatternAttr pattern) {
  auto symbolic = dyn_cast<SymbolicAccessPatternAttr>(pattern);
  if (!symbolic)
    return false;
  return llvm::any_of(symbolic.getStartParts(),
                      [](AffineMap part) { return part.getNumSymbols() != 0; });
}

std::optional<int64_t> walrus::bir::evaluate(AffineExpr expr,
                                             ArrayRef<int64_t> dims,
                                             ArrayRef<int64_t> symbols) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue();
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size()
               ? std::optional<int64_t>(dims[dim.getPosition()])
               : std::nullopt;
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return symbol.getPosition() < symbols.size()
               ? std::optional<int64_t>(symbols[symbol.getPosition()])
               : std::nullopt;
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = evaluate(binary.getLHS(), dims, symbols);
  std::optional<int64_t> rhs = evaluate(binary.getRHS(), dims, symbols);
  if (!lhs || !rhs)
    return std::nullopt;
  int64_t a = *lhs, b = *rhs;
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(a, b);
  case AffineExprKind::Mul:
    return llvm::checkedMul(a, b);
  case AffineExprKind::FloorDiv:
  case AffineExprKind::CeilDiv:
  case AffineExprKind::Mod: {
    if (b <= 0)
      return std::nullopt;
    int64_t quotient = a / b, remainder = a % b;
    if (expr.getKind() == AffineExprKind::Mod)
      return remainder < 0 ? remainder + b : remainder;
    if (expr.getKind() == AffineExprKind::FloorDiv)
      return remainder < 0 ? quotient - 1 : quotient;
    return remainder > 0 ? quotient + 1 : quotient;
  }
  default:
    return std::nullopt;
  }
}

//===- ArgReductions.cpp - max and argmax as three generics ---------------===//
//
// torch-mlir's max over a dimension (torch.max(x, dim), argmax, and their
// min twins) is one generic with two results: the running maximum, and the
// index where the input first exceeds it (`select(cmpf ogt, index, out)`),
// which reads the maximum's init. Where no element is NaN, that index is
// the first whose element equals the maximum, kept only where the maximum
// exceeds the init (else the index's init). So it becomes: the maximum
// alone, a min-reduction of `select(x == max, j, extent)`, and an
// elementwise pick (Passes.td, NormalizeLinalg).
//
//===----------------------------------------------------------------------===//

#include "NormalizePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;

namespace {
/// The two results of an arg-reduction: which yields the extremum and
/// which its index, the reduced input's block argument, the combiner, and
/// whether it keeps the larger value.
struct ArgReduction {
  unsigned value, index;
  BlockArgument input;
  Operation *combiner;
  bool keepsLarger;
  unsigned reducedDim;
};

/// `candidate` is `a` and `b` in either order.
static bool isPair(Value first, Value second, Value a, Value b) {
  return (first == a && second == b) || (first == b && second == a);
}

/// Whether `compare` says `larger` (or, `!keepsLarger`, smaller) is
/// strictly past `running`: the only update that keeps the first index.
static bool isStrictlyPast(Operation *compare, Value element, Value running,
                           bool keepsLarger) {
  auto strict = [&](Value lhs, Value rhs, bool greater) {
    if (lhs == element && rhs == running)
      return greater == keepsLarger;
    if (lhs == running && rhs == element)
      return greater != keepsLarger;
    return false;
  };
  if (auto cmp = dyn_cast<arith::CmpFOp>(compare)) {
    if (cmp.getPredicate() == arith::CmpFPredicate::OGT)
      return strict(cmp.getLhs(), cmp.getRhs(), true);
    if (cmp.getPredicate() == arith::CmpFPredicate::OLT)
      return strict(cmp.getLhs(), cmp.getRhs(), false);
  }
  if (auto cmp = dyn_cast<arith::CmpIOp>(compare)) {
    if (cmp.getPredicate() == arith::CmpIPredicate::sgt)
      return strict(cmp.getLhs(), cmp.getRhs(), true);
    if (cmp.getPredicate() == arith::CmpIPredicate::slt)
      return strict(cmp.getLhs(), cmp.getRhs(), false);
  }
  return false;
}

/// `op` as an arg-reduction with the value result `value`, else nullopt.
static std::optional<ArgReduction> matchAs(linalg::GenericOp op,
                                           unsigned value) {
  unsigned index = 1 - value, numInputs = op.getNumDpsInputs();
  Block *body = op.getBody();
  auto yielded = body->getTerminator()->getOperands();
  BlockArgument runningValue = body->getArgument(numInputs + value);
  BlockArgument runningIndex = body->getArgument(numInputs + index);
  Operation *combiner = yielded[value].getDefiningOp();
  if (!combiner || combiner->getBlock() != body ||
      combiner->getNumOperands() != 2)
    return std::nullopt;
  bool keepsLarger;
  if (isa<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(combiner))
    keepsLarger = true;
  else if (isa<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(combiner))
    keepsLarger = false;
  else
    return std::nullopt;
  Value element = combiner->getOperand(0) == runningValue
                      ? combiner->getOperand(1)
                      : combiner->getOperand(0);
  auto input = dyn_cast<BlockArgument>(element);
  if (!input || input.getOwner() != body || input.getArgNumber() >= numInputs ||
      !isPair(combiner->getOperand(0), combiner->getOperand(1), element,
              runningValue))
    return std::nullopt;
  auto select = yielded[index].getDefiningOp<arith::SelectOp>();
  if (!select || select.getFalseValue() != runningIndex ||
      !select.getCondition().getDefiningOp() ||
      !isStrictlyPast(select.getCondition().getDefiningOp(), element,
                      runningValue, keepsLarger))
    return std::nullopt;
  auto cast = select.getTrueValue().getDefiningOp<arith::IndexCastOp>();
  auto loop = cast ? cast.getIn().getDefiningOp<linalg::IndexOp>() : nullptr;
  if (!loop || op.getIteratorTypesArray()[loop.getDim()] !=
                   utils::IteratorType::reduction)
    return std::nullopt;
  return ArgReduction{value,       index,
                      input,       combiner,
                      keepsLarger, static_cast<unsigned>(loop.getDim())};
}

/// The extremum and its first index over one reduced loop, as three
/// generics (the file comment). Exact where no element is NaN: the
/// frontend's running comparison then ignores the rest of the row, this
/// form does not.
struct SplitArgReduction : OpRewritePattern<linalg::GenericOp> {
  // Before IndexFunctions makes the index a table input.
  SplitArgReduction(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op.getNumDpsInits() != 2 || op.getNumReductionLoops() != 1 ||
        !op.hasPureTensorSemantics() || !op.getShapesToLoopsMap())
      return rewriter.notifyMatchFailure(op, "not two results of one sum");
    std::optional<ArgReduction> arg = matchAs(op, 0);
    if (!arg)
      arg = matchAs(op, 1);
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    unsigned numInputs = op.getNumDpsInputs();
    if (!arg || maps[numInputs + arg->value] != maps[numInputs + arg->index])
      return rewriter.notifyMatchFailure(op, "not an arg-reduction");
    // The extent stands for "no index yet": it must fit the index's type
    // (an i8 index over 1000 elements does not).
    int64_t extent = op.getStaticLoopRanges()[arg->reducedDim];
    auto integer = dyn_cast<IntegerType>(
        getElementTypeOrSelf(op.getDpsInits()[arg->index].getType()));
    if (ShapedType::isDynamic(extent) || !integer ||
        !llvm::isIntN(integer.getWidth(), extent))
      return rewriter.notifyMatchFailure(op, "extent past the index type");
    Location loc = op.getLoc();
    Value input = op.getDpsInputs()[arg->input.getArgNumber()];
    AffineMap inputMap = maps[arg->input.getArgNumber()];
    AffineMap resultMap = maps[numInputs + arg->value];
    Value valueInit = op.getDpsInits()[arg->value];
    Value indexInit = op.getDpsInits()[arg->index];
    auto iterators = op.getIteratorTypesArray();

    auto extremum = linalg::GenericOp::create(
        rewriter, loc, valueInit.getType(), input, valueInit,
        {inputMap, resultMap}, iterators,
        [&](OpBuilder &builder, Location, ValueRange arguments) {
          IRMapping mapping;
          mapping.map(arg->input, arguments[0]);
          mapping.map(op.getBody()->getArgument(numInputs + arg->value),
                      arguments[1]);
          linalg::YieldOp::create(
              builder, loc,
              builder.clone(*arg->combiner, mapping)->getResult(0));
        });

    // The first index whose element is the extremum: a min-reduction from
    // the extent (no index).
    auto indexType = cast<RankedTensorType>(indexInit.getType());
    Value none = arith::ConstantOp::create(
        rewriter, loc, rewriter.getIntegerAttr(integer, extent));
    Value empty =
        tensor::EmptyOp::create(rewriter, loc, indexType.getShape(), integer);
    Value noIndex =
        linalg::FillOp::create(rewriter, loc, none, empty).getResult(0);
    bool isFloat = isa<FloatType>(arg->input.getType());
    auto first = linalg::GenericOp::create(
        rewriter, loc, indexType, ValueRange{input, extremum.getResult(0)},
        noIndex, {inputMap, resultMap, resultMap}, iterators,
        [&](OpBuilder &builder, Location, ValueRange arguments) {
          Value equal = isFloat
                            ? arith::CmpFOp::create(builder, loc,
                                                    arith::CmpFPredicate::OEQ,
                                                    arguments[0], arguments[1])
                                  .getResult()
                            : arith::CmpIOp::create(builder, loc,
                                                    arith::CmpIPredicate::eq,
                                                    arguments[0], arguments[1])
                                  .getResult();
          Value position = arith::IndexCastOp::create(
              builder, loc, integer,
              linalg::IndexOp::create(builder, loc, arg->reducedDim));
          Value candidate =
              arith::SelectOp::create(builder, loc, equal, position, none);
          linalg::YieldOp::create(
              builder, loc,
              arith::MinSIOp::create(builder, loc, candidate, arguments[2])
                  .getResult());
        });

    // The index where the extremum passed the init, else the index's init.
    unsigned rank = indexType.getRank();
    AffineMap identity =
        AffineMap::getMultiDimIdentityMap(rank, rewriter.getContext());
    auto picked = linalg::GenericOp::create(
        rewriter, loc, indexType,
        ValueRange{extremum.getResult(0), valueInit, first.getResult(0)},
        indexInit, SmallVector<AffineMap>(4, identity),
        SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
        [&](OpBuilder &builder, Location, ValueRange arguments) {
          Value past;
          if (isFloat)
            past = arith::CmpFOp::create(builder, loc,
                                         arg->keepsLarger
                                             ? arith::CmpFPredicate::OGT
                                             : arith::CmpFPredicate::OLT,
                                         arguments[0], arguments[1]);
          else
            past = arith::CmpIOp::create(builder, loc,
                                         arg->keepsLarger
                                             ? arith::CmpIPredicate::sgt
                                             : arith::CmpIPredicate::slt,
                                         arguments[0], arguments[1]);
          linalg::YieldOp::create(builder, loc,
                                  arith::SelectOp::create(builder, loc, past,
                                                          arguments[2],
                                                          arguments[3])
                                      .getResult());
        });
    SmallVector<Value> results(2);
    results[arg->value] = extremum.getResult(0);
    results[arg->index] = picked.getResult(0);
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void walrus::populateArgReductionPatterns(RewritePatternSet &patterns) {
  patterns.add<SplitArgReduction>(patterns.getContext());
}

//===- FoldIntoMatmul.cpp - matmul operands read where they come from ----===//
//
// A matmul reads its operands through indexing maps: a transpose or a
// broadcast over the batch that only feeds it folds into the map, so the
// weight is read once from where it is instead of copied first
// (Passes.td, FoldIntoMatmul).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Conversion/Passes.h"
#include "Walrus/Support/ListedOptions.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace walrus {
#define GEN_PASS_DEF_FOLDINTOMATMUL
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

namespace {
/// Where an operand's elements come from: `source` read through `map`
/// (the operand's loops to the source's dimensions).
struct MovedFrom {
  Value source;
  AffineMap map;
};
} // namespace

/// When `value` is the result of a linalg op on tensors that only moves
/// data (one input read through a projected permutation, the output
/// written whole through a permutation, a body that yields the input),
/// where its elements come from, as a map from `value`'s dimensions. A
/// tensor.cast between static shapes is looked through.
static std::optional<MovedFrom> getMovedFrom(Value value) {
  if (auto cast = value.getDefiningOp<tensor::CastOp>();
      cast && cast.getSource().getType() == cast.getType())
    value = cast.getSource();
  auto op = value.getDefiningOp<linalg::LinalgOp>();
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return std::nullopt;
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  AffineMap inputMap = op.getMatchingIndexingMap(input);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  // torch-mlir writes a transpose as the identity read, a permuted write.
  if (!outputMap.isPermutation() || !inputMap.isProjectedPermutation() ||
      !isa<RankedTensorType>(input->get().getType()))
    return std::nullopt;
  auto yield = cast<linalg::YieldOp>(op.getBlock()->getTerminator());
  if (op.getBlock()->getOperations().size() != 1 ||
      yield.getValues() != ValueRange{op.getMatchingBlockArgument(input)})
    return std::nullopt;
  return MovedFrom{input->get(),
                   inputMap.compose(inversePermutation(outputMap))};
}

/// The map over (m, n, k) that reads rows `first` then `second`.
static AffineMap pairMap(MLIRContext *context, unsigned first,
                         unsigned second) {
  return AffineMap::get(
      3, 0,
      {getAffineDimExpr(first, context), getAffineDimExpr(second, context)},
      context);
}

/// `c` with its first two dimensions as one, `stacked` rows: a fill of an
/// empty tensor is filled again in the new shape (the lowering sees a
/// zero-filled C), any other C is collapsed.
static Value stackRows(PatternRewriter &rewriter, Value c, int64_t stacked,
                       ArrayRef<ReassociationIndices> rows) {
  Location loc = c.getLoc();
  auto fill = c.getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getOutputs()[0].getDefiningOp<tensor::EmptyOp>())
    return tensor::CollapseShapeOp::create(rewriter, loc, c, rows);
  auto type = cast<RankedTensorType>(c.getType());
  Value empty = tensor::EmptyOp::create(
      rewriter, loc, ArrayRef<int64_t>{stacked, type.getDimSize(2)},
      type.getElementType());
  return linalg::FillOp::create(rewriter, loc, fill.getInputs()[0], empty)
      .getResult(0);
}

namespace {
/// batch_matmul(A, B) with B the same 2-D tensor for every batch is the
/// matmul of A's batches stacked by that tensor (transposed or not).
struct BatchMatmulOfBroadcast : OpRewritePattern<linalg::BatchMatmulOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::BatchMatmulOp op,
                                PatternRewriter &rewriter) const override {
    MLIRContext *context = op.getContext();
    if (!op.hasPureTensorSemantics() ||
        op.getIndexingMapsArray() !=
            linalg::BatchMatmulOp::getDefaultIndexingMaps(context))
      return rewriter.notifyMatchFailure(op, "not the default batch matmul");
    std::optional<MovedFrom> moved = getMovedFrom(op.getDpsInputs()[1]);
    if (!moved)
      return rewriter.notifyMatchFailure(op, "B is not a broadcast");
    // B's (batch, k, n) as the source reads them: (k, n) or (n, k).
    AffineExpr k = getAffineDimExpr(1, context),
               n = getAffineDimExpr(2, context);
    ArrayRef<AffineExpr> read = moved->map.getResults();
    bool plain = read == ArrayRef<AffineExpr>{k, n};
    if (!plain && read != ArrayRef<AffineExpr>{n, k})
      return rewriter.notifyMatchFailure(op, "B differs between batches");
    Value a = op.getDpsInputs()[0], c = op.getDpsInits()[0];
    auto aType = cast<RankedTensorType>(a.getType());
    auto cType = cast<RankedTensorType>(c.getType());
    if (!aType.hasStaticShape() || !cType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    // The batches' rows stacked: a count the shapes may make overflow.
    std::optional<int64_t> stacked =
        llvm::checkedMul(cType.getDimSize(0), cType.getDimSize(1));
    if (!stacked)
      return rewriter.notifyMatchFailure(op, "too many rows to stack");
    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> rows{{0, 1}, {2}};
    Value stackedA = tensor::CollapseShapeOp::create(rewriter, loc, a, rows);
    Value stackedC = stackRows(rewriter, c, *stacked, rows);
    // (m, n, k): A (m, k), B as the source holds it, C (m, n).
    SmallVector<Attribute> maps{
        AffineMapAttr::get(pairMap(context, 0, 2)),
        AffineMapAttr::get(plain ? pairMap(context, 2, 1)
                                 : pairMap(context, 1, 2)),
        AffineMapAttr::get(pairMap(context, 0, 1))};
    // The operands' casts (signed or unsigned) stay as they were.
    SmallVector<NamedAttribute> attributes{
        rewriter.getNamedAttr("indexing_maps", rewriter.getArrayAttr(maps))};
    if (linalg::TypeFnAttr cast = op.getCastAttr())
      attributes.push_back(rewriter.getNamedAttr("cast", cast));
    auto matmul = linalg::MatmulOp::create(
        rewriter, loc, TypeRange{stackedC.getType()},
        ValueRange{stackedA, moved->source}, ValueRange{stackedC}, attributes);
    rewriter.replaceOpWithNewOp<tensor::ExpandShapeOp>(
        op, cType, matmul->getResult(0), rows);
    return success();
  }
};

/// The permutation that swaps the last two of `rank` dimensions.
static AffineMap getInnerTranspose(unsigned rank, MLIRContext *context) {
  SmallVector<unsigned> permutation = llvm::to_vector(llvm::seq(rank));
  std::swap(permutation[rank - 2], permutation[rank - 1]);
  return AffineMap::getPermutationMap(permutation, context);
}

/// matmul(transpose(X), B) reads X through the transposed map (and so for
/// B, and per batch for batch_matmul): the tensor engine's nest loads
/// either way round.
template <typename MatmulOpT>
struct MatmulOfTranspose : OpRewritePattern<MatmulOpT> {
  using OpRewritePattern<MatmulOpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(MatmulOpT op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    SmallVector<AffineMap> maps = op.getIndexingMapsArray();
    for (unsigned index : {0u, 1u}) {
      std::optional<MovedFrom> moved = getMovedFrom(op.getDpsInputs()[index]);
      unsigned rank = maps[index].getNumResults();
      if (!moved || moved->map != getInnerTranspose(rank, op.getContext()))
        continue;
      maps[index] = moved->map.compose(maps[index]);
      SmallVector<Attribute> attrs =
          llvm::map_to_vector(maps, [](AffineMap map) -> Attribute {
            return AffineMapAttr::get(map);
          });
      rewriter.modifyOpInPlace(op, [&] {
        op->setOperand(index, moved->source);
        op.setIndexingMapsAttr(rewriter.getArrayAttr(attrs));
      });
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no operand is a transpose");
  }
};

struct FoldIntoMatmulPass
    : walrus::ListedOptions<
          walrus::impl::FoldIntoMatmulBase<FoldIntoMatmulPass>> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<BatchMatmulOfBroadcast, MatmulOfTranspose<linalg::MatmulOp>,
                 MatmulOfTranspose<linalg::BatchMatmulOp>>(&getContext());
    // Each rewrite removes a moving op from a matmul's operands: the
    // rewrites end, well within the driver's limit.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "fold-into-matmul: the rewrites did not converge");
      signalPassFailure();
    }
  }
};
} // namespace

//===- NormalizeLinalg.cpp - frontends' forms into the lowering's ---------===//
//
// torch-mlir and other frontends write values a body computes from
// constants alone (BatchNorm's and LayerNorm's `truncf` of an f64 epsilon)
// and generics with results nothing reads (max beside an unused argmax).
// Both are rewritten on tensors, before bufferization, into what
// convert-linalg-to-bir reads (Passes.td, NormalizeLinalg).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Conversion/Passes.h"
#include "Walrus/Support/ListedOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace walrus {
#define GEN_PASS_DEF_NORMALIZELINALG
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

namespace {
/// `arith.truncf` of a float constant becomes the constant rounded to
/// nearest, ties to even: what the CPU computes when it runs the op (the
/// default rounding of LLVM's fptrunc). Upstream folds only exact ones.
struct RoundConstantTruncF : OpRewritePattern<arith::TruncFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::TruncFOp op,
                                PatternRewriter &rewriter) const override {
    FloatAttr constant;
    if (!matchPattern(op.getIn(), m_Constant(&constant)))
      return rewriter.notifyMatchFailure(op, "not a scalar float constant");
    if (op.getRoundingmodeAttr() || op.getFastmathAttr())
      return rewriter.notifyMatchFailure(op, "rounds other than as default");
    auto type = cast<FloatType>(op.getType());
    APFloat value = constant.getValue();
    bool losesInfo = false;
    value.convert(type.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                  &losesInfo);
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, rewriter.getFloatAttr(type, value));
    return success();
  }
};

/// The one value every element of `tensor` holds when it is a splat
/// constant (made a scalar constant before `before`), or a fill or an
/// elementwise generic wrote it from a value defined outside its body (a
/// constant, a captured scalar): torch-mlir's scalar tensors (`fill` of 6,
/// `sitofp` of it, read as `tensor<f32>` by a clamp; a `tensor<f64>`
/// divisor).
static Value getUniformValue(Value tensor, Operation *before,
                             PatternRewriter &rewriter) {
  SplatElementsAttr splat;
  if (matchPattern(tensor, m_Constant(&splat)))
    return arith::ConstantOp::create(rewriter, before->getLoc(),
                                     splat.getSplatValue<TypedAttr>());
  if (auto fill = tensor.getDefiningOp<linalg::FillOp>())
    return fill.value();
  auto generic = tensor.getDefiningOp<linalg::GenericOp>();
  if (!generic || generic.getNumReductionLoops() != 0)
    return {};
  Value yielded = generic.getBody()->getTerminator()->getOperand(
      cast<OpResult>(tensor).getResultNumber());
  if (generic.getRegion().isAncestor(yielded.getParentRegion()))
    return {};
  return yielded;
}

/// A generic's input whose every element is one value is read as that
/// value: the body uses it directly, and the input goes (the erase
/// patterns drop an input nothing reads).
struct InlineUniformInput : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    bool changed = false;
    rewriter.setInsertionPoint(op);
    for (OpOperand *input : op.getDpsInputOperands()) {
      BlockArgument argument = op.getMatchingBlockArgument(input);
      // Ids a gather reads its table by stay an input (BERT's token types,
      // all 0): the embedding lowering takes them from memory.
      if (argument.use_empty() ||
          llvm::any_of(argument.getUsers(),
                       llvm::IsaPred<arith::IndexCastOp, arith::IndexCastUIOp>))
        continue;
      Value value = getUniformValue(input->get(), op, rewriter);
      if (!value || value.getType() != argument.getType())
        continue;
      rewriter.replaceAllUsesWith(argument, value);
      changed = true;
    }
    return success(changed);
  }
};

/// A boolean tensor one elementwise generic computes and another reads
/// (torch-mlir's masks: `cmpf` into `tensor<...xi1>`, then `select`) is
/// computed where it is read: upstream's elementwise fusion, for i1
/// producers alone, so the mask never goes through memory and other
/// graphs keep their ops.
struct FuseBooleanProducer : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    for (OpOperand *input : op.getDpsInputOperands()) {
      auto producer = input->get().getDefiningOp<linalg::GenericOp>();
      if (!producer || !getElementTypeOrSelf(input->get()).isInteger(1) ||
          !linalg::areElementwiseOpsFusable(input))
        continue;
      FailureOr<linalg::ElementwiseOpFusionResult> fused =
          linalg::fuseElementwiseOps(rewriter, input);
      if (failed(fused))
        continue;
      // The consumer's results move to the fused op; the producer stays
      // for its other readers, if any.
      for (auto [original, replacement] : fused->replacements)
        rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
          return use.get().getDefiningOp() != producer;
        });
      rewriter.eraseOp(op);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no boolean input to fuse");
  }
};

/// Elements a generic may fold into a constant: torch.arange's position
/// ids are a sequence's length; a larger table is better computed.
constexpr int64_t kMaxFoldedElements = int64_t(1) << 20;

/// A generic that reads no input and computes from its indices and
/// constants alone (torch.arange: `index_cast(linalg.index 0)`) becomes
/// the constant it computes, element by element with upstream's folders:
/// what the CPU computes, known at compile time.
struct FoldIndexGeneric : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (op->getNumResults() != 1)
      return rewriter.notifyMatchFailure(op, "not one tensor result");
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    // The shape is the input's: its product is checked, not wrapped.
    std::optional<int64_t> size = int64_t(1);
    for (int64_t dim : type ? type.getShape() : ArrayRef<int64_t>())
      size = size && !ShapedType::isDynamic(dim) ? llvm::checkedMul(*size, dim)
                                                 : std::nullopt;
    if (!type || !size || *size > kMaxFoldedElements ||
        op.getNumReductionLoops() != 0 ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity() ||
        llvm::any_of(op.getDpsInputOperands(),
                     [&](OpOperand *input) {
                       return !op.getMatchingBlockArgument(input).use_empty();
                     }) ||
        !op.getMatchingBlockArgument(op.getDpsInitOperand(0)).use_empty())
      return rewriter.notifyMatchFailure(op, "not a generic of its indices");
    Block *body = op.getBody();
    SmallVector<Attribute> elements;
    elements.reserve(*size);
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    for (int64_t element = 0; element < *size; ++element) {
      SmallVector<int64_t> index = delinearize(element, strides);
      Attribute value = foldBody(body, index);
      if (!value)
        return rewriter.notifyMatchFailure(op, "a body op does not fold");
      elements.push_back(value);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, elements));
    return success();
  }

private:
  /// The yielded value at `index`, or null where an op does not fold.
  static Attribute foldBody(Block *body, ArrayRef<int64_t> index) {
    DenseMap<Value, Attribute> known;
    auto lookup = [&](Value value) -> Attribute {
      if (Attribute attr = known.lookup(value))
        return attr;
      Attribute constant;
      if (matchPattern(value, m_Constant(&constant)))
        return constant;
      return {};
    };
    for (Operation &inner : body->without_terminator()) {
      if (inner.getNumResults() != 1 || inner.getNumRegions() != 0)
        return {};
      if (auto dim = dyn_cast<linalg::IndexOp>(inner)) {
        known[dim] = IntegerAttr::get(IndexType::get(inner.getContext()),
                                      index[dim.getDim()]);
        continue;
      }
      SmallVector<Attribute> operands;
      for (Value operand : inner.getOperands())
        operands.push_back(lookup(operand));
      SmallVector<OpFoldResult> folded;
      if (llvm::is_contained(operands, Attribute()) ||
          failed(inner.fold(operands, folded)) || folded.size() != 1)
        return {};
      auto attr = dyn_cast_if_present<Attribute>(folded.front());
      if (!attr)
        return {};
      known[inner.getResult(0)] = attr;
    }
    return lookup(body->getTerminator()->getOperand(0));
  }
};

/// linalg.map and linalg.broadcast as the generics they are (upstream's
/// generalization): the lowering reads generics, and upstream writes
/// elementwise arith on tensors as maps.
template <typename OpT> struct GeneralizeOp : OpRewritePattern<OpT> {
  using OpRewritePattern<OpT>::OpRewritePattern;

  LogicalResult matchAndRewrite(OpT op,
                                PatternRewriter &rewriter) const override {
    return linalg::generalizeNamedOp(rewriter, op);
  }
};

/// Warns at each op that accumulates into a `tensor.empty()`: a reduction
/// whose body reads the init, which holds no defined values (three public
/// files fill one tensor and accumulate into another). Lowered as written,
/// the result depends on what the memory held.
static void warnUndefinedAccumulators(Operation *root) {
  root->walk([](linalg::LinalgOp op) {
    if (op.getNumReductionLoops() == 0 || !op.hasPureTensorSemantics())
      return;
    for (OpOperand &init : op.getDpsInitsMutable())
      if (init.get().getDefiningOp<tensor::EmptyOp>() &&
          op.payloadUsesValueFromOperand(&init))
        op.emitWarning() << "accumulates into 'tensor.empty()' (init #"
                         << init.getOperandNumber() - op.getNumDpsInputs()
                         << "), whose values are undefined: the result "
                            "depends on what the memory held (fill it first)";
  });
}

struct NormalizeLinalgPass
    : walrus::ListedOptions<
          walrus::impl::NormalizeLinalgBase<NormalizeLinalgPass>> {
  void runOnOperation() override {
    warnUndefinedAccumulators(getOperation());
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    patterns.add<RoundConstantTruncF, InlineUniformInput, FuseBooleanProducer,
                 FoldIndexGeneric, GeneralizeOp<linalg::MapOp>,
                 GeneralizeOp<linalg::BroadcastOp>>(context);
    // arith and math on whole tensors become elementwise linalg ops.
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    // The driver folds what the patterns leave constant (arith's folders)
    // and erases the body ops nothing reads any more.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "normalize-linalg: the rewrites did not converge");
      signalPassFailure();
    }
  }
};
} // namespace

//===- NormalizeLinalg.cpp - frontends' forms into the lowering's ---------===//
//
// torch-mlir and other frontends write values a body computes from
// constants alone (BatchNorm's and LayerNorm's `truncf` of an f64 epsilon)
// and generics with results nothing reads (max beside an unused argmax).
// Both are rewritten on tensors, before bufferization, into what
// convert-linalg-to-bir reads (Passes.td, NormalizeLinalg).
//
//===----------------------------------------------------------------------===//

#include "FuseProducer.h"
#include "NormalizePatterns.h"
#include "Walrus/Conversion/Passes.h"
#include "Walrus/Support/ListedOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tensor/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Dominance.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Transforms/CSE.h"
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

/// math.log1p and math.expm1 (torch-mlir's softplus, ELU), which the
/// scalar engine has no function for, as `log(1 + x)` and `exp(x) - 1`.
/// Rounding `1 + x` (or the difference) adds an absolute error of about
/// half a unit in the last place of 1 (2^-24 in f32): near 0 these forms
/// lose the relative precision the functions keep.
template <typename SourceOp> struct ExpandNearOne : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(
        rewriter, loc, rewriter.getFloatAttr(op.getType(), 1.0));
    if constexpr (std::is_same_v<SourceOp, math::Log1pOp>) {
      Value sum = arith::AddFOp::create(rewriter, loc, one, op.getOperand());
      rewriter.replaceOpWithNewOp<math::LogOp>(op, sum);
    } else {
      Value exp = math::ExpOp::create(rewriter, loc, op.getOperand());
      rewriter.replaceOpWithNewOp<arith::SubFOp>(op, exp, one);
    }
    return success();
  }
};

/// The float predicates the vector engine has no comparison for, as two
/// it has: `one` is `olt or ogt`, `ueq` is `uge and ule`, `ord` and `uno`
/// of two values are each value's `ord` (`uno`) with itself, joined.
struct ExpandCmpF : OpRewritePattern<arith::CmpFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::CmpFOp cmp,
                                PatternRewriter &rewriter) const override {
    using P = arith::CmpFPredicate;
    Value lhs = cmp.getLhs(), rhs = cmp.getRhs();
    Location loc = cmp.getLoc();
    auto compare = [&](P predicate, Value a, Value b) {
      return arith::CmpFOp::create(rewriter, loc, predicate, a, b).getResult();
    };
    switch (cmp.getPredicate()) {
    case P::ONE:
      rewriter.replaceOpWithNewOp<arith::OrIOp>(cmp, compare(P::OLT, lhs, rhs),
                                                compare(P::OGT, lhs, rhs));
      return success();
    case P::UEQ:
      rewriter.replaceOpWithNewOp<arith::AndIOp>(cmp, compare(P::UGE, lhs, rhs),
                                                 compare(P::ULE, lhs, rhs));
      return success();
    case P::ORD:
    case P::UNO: {
      if (lhs == rhs)
        return rewriter.notifyMatchFailure(cmp, "lowers as it is");
      P predicate = cmp.getPredicate();
      Value a = compare(predicate, lhs, lhs), b = compare(predicate, rhs, rhs);
      if (predicate == P::ORD)
        rewriter.replaceOpWithNewOp<arith::AndIOp>(cmp, a, b);
      else
        rewriter.replaceOpWithNewOp<arith::OrIOp>(cmp, a, b);
      return success();
    }
    default:
      return rewriter.notifyMatchFailure(cmp, "lowers as it is");
    }
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
static bool isBooleanProducer(OpOperand *input) {
  auto consumer = cast<linalg::GenericOp>(input->getOwner());
  return consumer.isDpsInput(input) &&
         input->get().getDefiningOp<linalg::GenericOp>() &&
         getElementTypeOrSelf(input->get()).isInteger(1);
}

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

/// Body ops a loop may be copied into (its iterations times the ops of its
/// body): a frontend's tiles or repeated layers.
constexpr int64_t kMaxUnrolledOps = int64_t(1) << 16;

/// `scf.for` loops with constant bounds (a frontend's tiles, a layer
/// applied a fixed number of times) become their iterations in sequence,
/// innermost first (upstream's `loopUnrollFull`): a kernel is straight-line
/// code. A loop of unknown trip count or past `kMaxUnrolledOps` is an error.
static LogicalResult unrollStaticLoops(Operation *root) {
  SmallVector<scf::ForOp> loops;
  root->walk([&](scf::ForOp loop) { loops.push_back(loop); });
  for (scf::ForOp loop : loops) {
    std::optional<APInt> trips = loop.getStaticTripCount();
    if (!trips)
      return loop.emitError("normalize-linalg: 'scf.for' whose trip count "
                            "is not a constant is not unrolled (a kernel is "
                            "straight-line code)");
    int64_t ops = 0;
    loop.getBody()->walk([&](Operation *) { ++ops; });
    std::optional<int64_t> copied =
        trips->getActiveBits() < 63
            ? llvm::checkedMul(int64_t(trips->getZExtValue()), ops)
            : std::nullopt;
    if (!copied || *copied > kMaxUnrolledOps)
      return loop.emitError()
             << "normalize-linalg: 'scf.for' of "
             << llvm::toString(*trips, 10, /*Signed=*/false)
             << " iterations of " << ops << " ops is not unrolled: past the "
             << kMaxUnrolledOps << " ops it may copy (a kernel is "
             << "straight-line code)";
    if (failed(loopUnrollFull(loop)))
      return loop.emitError("normalize-linalg: upstream's loopUnrollFull "
                            "failed on this loop");
  }
  return success();
}

struct NormalizeLinalgPass
    : walrus::ListedOptions<
          walrus::impl::NormalizeLinalgBase<NormalizeLinalgPass>> {
  void runOnOperation() override {
    if (failed(unrollStaticLoops(getOperation())))
      return signalPassFailure();
    warnUndefinedAccumulators(getOperation());
    MLIRContext *context = &getContext();
    RewritePatternSet patterns(context);
    // Slices at offsets an unrolled loop made constant read them as static.
    tensor::ExtractSliceOp::getCanonicalizationPatterns(patterns, context);
    tensor::InsertSliceOp::getCanonicalizationPatterns(patterns, context);
    // A cast to dynamic sizes that a pad or reshape reads folds into it,
    // and the static sizes come back (LLVM's CPU integration tests cast
    // their constants so; upstream's canonicalizations).
    tensor::CastOp::getCanonicalizationPatterns(patterns, context);
    tensor::PadOp::getCanonicalizationPatterns(patterns, context);
    tensor::CollapseShapeOp::getCanonicalizationPatterns(patterns, context);
    tensor::ExpandShapeOp::getCanonicalizationPatterns(patterns, context);
    // A concatenation is inserts into an empty tensor: empty-tensor
    // elimination then has each part written where it lands.
    tensor::populateDecomposeTensorConcatPatterns(patterns);
    patterns
        .add<RoundConstantTruncF, ExpandCmpF, ExpandNearOne<math::Log1pOp>,
             ExpandNearOne<math::ExpM1Op>, InlineUniformInput,
             GeneralizeOp<linalg::MapOp>, GeneralizeOp<linalg::BroadcastOp>>(
            context);
    patterns.add<walrus::FuseProducer>(context, isBooleanProducer);
    // arith and math on whole tensors become elementwise linalg ops.
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(patterns);
    walrus::FoldBudget budget;
    walrus::populateIndexFunctionPatterns(patterns, budget);
    walrus::populateHoistGatherPatterns(patterns);
    walrus::populateArgReductionPatterns(patterns);
    walrus::populateRoundingPatterns(patterns);
    // index_cast of index_cast: a hoisted gather's ids read as they were.
    arith::IndexCastOp::getCanonicalizationPatterns(patterns, context);
    // The driver folds what the patterns leave constant (arith's folders)
    // and erases the body ops nothing reads any more.
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns)))) {
      getOperation()->emitError(
          "normalize-linalg: the rewrites did not converge");
      return signalPassFailure();
    }
    // The roundings share their `roundeven`, the integer divisions their
    // quotient: one instruction each where a body computes it twice.
    IRRewriter rewriter(context);
    DominanceInfo dominance;
    getOperation()->walk([&](linalg::GenericOp generic) {
      eliminateCommonSubExpressions(rewriter, dominance, generic);
    });
  }
};
} // namespace

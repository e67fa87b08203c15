//===- ExpandRounding.cpp - division and rounding in bodies ---------------===//
//
// torch-mlir writes torch's floor, ceil, trunc, `//`, `%`, fmod and
// quantize as `math.floor` / `ceil` / `trunc`, `arith.remf`, `remsi`,
// `floordivsi` and `fptosi` in linalg bodies. The engines round to
// nearest even when they convert to an integer and divide integers toward
// zero; every other rounding is written here in those two and
// comparisons (docs/LinalgToBir.md, "Division and rounding"): shifts by
// constants (a quantized rescale's) as products and floor quotients, and
// powers the lowering has no instruction for as exponentials, whose signs
// need the same integer tests.
//
//===----------------------------------------------------------------------===//

#include "NormalizePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

bool walrus::isIntegralValued(Value value) {
  // Every value it rests on, each once, at most 256 of them: a bound on
  // the work whatever the body.
  SmallVector<Value> worklist = {value};
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value next = worklist.pop_back_val();
    if (!seen.insert(next).second)
      continue;
    if (seen.size() > 256)
      return false;
    FloatAttr constant;
    if (matchPattern(next, m_Constant(&constant))) {
      if (!constant.getValue().isInteger())
        return false;
      continue;
    }
    Operation *op = next.getDefiningOp();
    if (isa_and_nonnull<math::RoundEvenOp, math::RoundOp, math::FloorOp,
                        math::CeilOp, math::TruncOp, arith::SIToFPOp,
                        arith::UIToFPOp>(op))
      continue;
    // Rounding an integer-valued sum, difference, product or pick keeps it
    // an integer: every float of magnitude past 2^(mantissa bits) is one.
    if (isa_and_nonnull<arith::AddFOp, arith::SubFOp, arith::MulFOp,
                        arith::NegFOp, arith::MaximumFOp, arith::MinimumFOp,
                        arith::MaxNumFOp, arith::MinNumFOp, math::AbsFOp>(op)) {
      worklist.append(op->operand_begin(), op->operand_end());
      continue;
    }
    auto pick = dyn_cast_or_null<arith::SelectOp>(op);
    if (!pick)
      return false;
    worklist.append({pick.getTrueValue(), pick.getFalseValue()});
  }
  return true;
}

namespace {
/// Whether `op` computes on element values (not indices) inside a linalg
/// body: -normalize-linalg folds or tabulates what indices compute.
bool isBodyArithmetic(Operation *op) {
  return op->getParentOfType<linalg::LinalgOp>() &&
         !llvm::any_of(op->getResultTypes(),
                       [](Type type) { return type.isIndex(); });
}

/// Builds the roundings of one float `x` from `math.roundeven`, the one
/// the lowering has (Elementwise.cpp: a conversion to i32 and back).
class Rounder {
public:
  Rounder(PatternRewriter &rewriter, Location loc, Value x)
      : rewriter(rewriter), loc(loc), x(x) {}

  Value constant(double value) {
    return arith::ConstantOp::create(rewriter, loc,
                                     rewriter.getFloatAttr(x.getType(), value));
  }
  Value compare(arith::CmpFPredicate predicate, Value lhs, Value rhs) {
    return arith::CmpFOp::create(rewriter, loc, predicate, lhs, rhs);
  }
  /// 1.0 where `flag` holds, else 0.0.
  Value asFloat(Value flag) {
    return arith::UIToFPOp::create(rewriter, loc, x.getType(), flag);
  }
  Value nearest() {
    if (!rounded)
      rounded = math::RoundEvenOp::create(rewriter, loc, x);
    return rounded;
  }
  /// The nearest integer, less one where it is above x. A NaN stays NaN
  /// (no compare holds), an infinity itself.
  Value floor() {
    Value above = compare(arith::CmpFPredicate::OGT, nearest(), x);
    return arith::SubFOp::create(rewriter, loc, nearest(), asFloat(above));
  }
  Value ceil() {
    Value below = compare(arith::CmpFPredicate::OLT, nearest(), x);
    return arith::AddFOp::create(rewriter, loc, nearest(), asFloat(below));
  }
  Value trunc() {
    Value negative = compare(arith::CmpFPredicate::OLT, x, constant(0));
    return arith::SelectOp::create(rewriter, loc, negative, ceil(), floor());
  }
  /// Half away from zero: the truncation, one further from zero where the
  /// fraction left (exact: `x - trunc(x)`) is at least a half.
  Value roundHalfAway() {
    Value truncated = trunc();
    Value fraction = math::AbsFOp::create(
        rewriter, loc, arith::SubFOp::create(rewriter, loc, x, truncated));
    Value negative = compare(arith::CmpFPredicate::OLT, x, constant(0));
    Value away = arith::AddFOp::create(
        rewriter, loc, truncated,
        arith::SelectOp::create(rewriter, loc, negative, constant(-1),
                                constant(1)));
    return arith::SelectOp::create(
        rewriter, loc,
        compare(arith::CmpFPredicate::OGE, fraction, constant(0.5)), away,
        truncated);
  }

private:
  PatternRewriter &rewriter;
  Location loc;
  Value x;
  Value rounded;
};

template <typename SourceOp>
struct ExpandRounding : OpRewritePattern<SourceOp> {
  using OpRewritePattern<SourceOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(SourceOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBodyArithmetic(op))
      return rewriter.notifyMatchFailure(op, "not in a linalg body");
    Rounder rounder{rewriter, op.getLoc(), op.getOperand()};
    Value rounded;
    if constexpr (std::is_same_v<SourceOp, math::FloorOp>)
      rounded = rounder.floor();
    else if constexpr (std::is_same_v<SourceOp, math::CeilOp>)
      rounded = rounder.ceil();
    else if constexpr (std::is_same_v<SourceOp, math::RoundOp>)
      rounded = rounder.roundHalfAway();
    else
      rounded = rounder.trunc();
    rewriter.replaceOp(op, rounded);
    return success();
  }
};

/// `fptosi` truncates; the engine's conversion rounds to nearest, which
/// is the same on an integer: a value not known integral is truncated
/// first (torch's quantize rounds to nearest even before, and is not).
struct TruncateBeforeFPToSI : OpRewritePattern<arith::FPToSIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::FPToSIOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBodyArithmetic(op) || walrus::isIntegralValued(op.getIn()))
      return rewriter.notifyMatchFailure(op, "converts as it is");
    Rounder rounder{rewriter, op.getLoc(), op.getIn()};
    Value truncated = rounder.trunc();
    rewriter.modifyOpInPlace(op, [&] { op.getInMutable().assign(truncated); });
    return success();
  }
};

/// `remsi` is `x - (x / y) * y` with the quotient rounded toward zero, as
/// the engine divides.
struct ExpandRemSI : OpRewritePattern<arith::RemSIOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemSIOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBodyArithmetic(op))
      return rewriter.notifyMatchFailure(op, "not in a linalg body");
    Location loc = op.getLoc();
    Value quotient =
        arith::DivSIOp::create(rewriter, loc, op.getLhs(), op.getRhs());
    Value product = arith::MulIOp::create(rewriter, loc, quotient, op.getRhs());
    rewriter.replaceOpWithNewOp<arith::SubIOp>(op, op.getLhs(), product);
    return success();
  }
};

/// `remf` (C's fmod) is `x - trunc(x / y) * y`. The quotient rounds up to
/// an integer at most (an integer is a float below 2^24), so where the
/// remainder's sign is not x's, one `|y|` toward x is added back. Exact
/// where `trunc(x / y) * y` rounds exactly (docs/LinalgToBir.md).
struct ExpandRemF : OpRewritePattern<arith::RemFOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(arith::RemFOp op,
                                PatternRewriter &rewriter) const override {
    if (!isBodyArithmetic(op))
      return rewriter.notifyMatchFailure(op, "not in a linalg body");
    Location loc = op.getLoc();
    Value x = op.getLhs(), y = op.getRhs();
    Value quotient = arith::DivFOp::create(rewriter, loc, x, y);
    Rounder rounder{rewriter, loc, quotient};
    Value product = arith::MulFOp::create(rewriter, loc, rounder.trunc(), y);
    Value remainder = arith::SubFOp::create(rewriter, loc, x, product);
    using P = arith::CmpFPredicate;
    Value zero = rounder.constant(0);
    Value xNegative = rounder.compare(P::OLT, x, zero);
    Value flipped = arith::XOrIOp::create(
        rewriter, loc, rounder.compare(P::OLT, remainder, zero), xNegative);
    Value overshot = arith::AndIOp::create(
        rewriter, loc, flipped, rounder.compare(P::UNE, remainder, zero));
    Value magnitude = math::AbsFOp::create(rewriter, loc, y);
    Value towardX = arith::SelectOp::create(
        rewriter, loc, xNegative,
        arith::NegFOp::create(rewriter, loc, magnitude), magnitude);
    Value corrected = arith::AddFOp::create(rewriter, loc, remainder, towardX);
    rewriter.replaceOpWithNewOp<arith::SelectOp>(op, overshot, corrected,
                                                 remainder);
    return success();
  }
};

/// A shift by a constant is a product or a floor quotient by a power of 2
/// (a quantized rescale's `>> shift`, TOSA's apply_scale): `shli` is a
/// product (wrapping alike), `shrsi` a `floordivsi` (rounding toward -inf
/// alike) while the power is positive in the type.
template <typename ShiftOp> struct ShiftByConstant : OpRewritePattern<ShiftOp> {
  using OpRewritePattern<ShiftOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(ShiftOp op,
                                PatternRewriter &rewriter) const override {
    APInt amount;
    if (!isBodyArithmetic(op) ||
        !matchPattern(op.getRhs(), m_ConstantInt(&amount)))
      return rewriter.notifyMatchFailure(op, "not a constant shift in a body");
    unsigned width = op.getType().getIntOrFloatBitWidth();
    bool isLeft = std::is_same_v<ShiftOp, arith::ShLIOp>;
    if (amount.uge(isLeft ? width : width - 1))
      return rewriter.notifyMatchFailure(op, "power past the type");
    Value power = arith::ConstantOp::create(
        rewriter, op.getLoc(),
        rewriter.getIntegerAttr(
            op.getType(), APInt::getOneBitSet(width, amount.getZExtValue())));
    if (isLeft)
      rewriter.replaceOpWithNewOp<arith::MulIOp>(op, op.getLhs(), power);
    else
      rewriter.replaceOpWithNewOp<arith::FloorDivSIOp>(op, op.getLhs(), power);
    return success();
  }
};

/// `powf` / `fpowi` by other than the constants the lowering takes (1, 2,
/// 3, 4, -1, 0.5, -0.5): `exp(y * log|x|)`, negated where x < 0 and y is
/// an odd integer, NaN where x < 0 and y is not an integer, 1 where y is 0
/// or x is 1, as powf. The product `y * log|x|` is rounded before the
/// exponential: a relative error of about `|y log x| * 2^-24`.
template <typename PowOp> struct ExpandPower : OpRewritePattern<PowOp> {
  using OpRewritePattern<PowOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(PowOp op,
                                PatternRewriter &rewriter) const override {
    FloatAttr constant;
    if (matchPattern(op.getRhs(), m_Constant(&constant)) &&
        llvm::is_contained({1.0, 2.0, 3.0, 4.0, -1.0, 0.5, -0.5},
                           constant.getValueAsDouble()))
      return rewriter.notifyMatchFailure(op, "the lowering takes it");
    APInt integer;
    if (matchPattern(op.getRhs(), m_ConstantInt(&integer)) &&
        llvm::is_contained({1, 2, 3, 4, -1}, integer.getSExtValue()))
      return rewriter.notifyMatchFailure(op, "the lowering takes it");
    if (!isBodyArithmetic(op))
      return rewriter.notifyMatchFailure(op, "not in a linalg body");
    Location loc = op.getLoc();
    Value x = op.getLhs(), y = op.getRhs();
    if (!isa<FloatType>(y.getType()))
      y = arith::SIToFPOp::create(rewriter, loc, x.getType(), y);
    using P = arith::CmpFPredicate;
    Rounder exponent(rewriter, loc, y);
    Value logarithm = math::LogOp::create(
        rewriter, loc, math::AbsFOp::create(rewriter, loc, x));
    Value power = math::ExpOp::create(
        rewriter, loc, arith::MulFOp::create(rewriter, loc, y, logarithm));
    Value isInteger = exponent.compare(P::OEQ, exponent.nearest(), y);
    Value half =
        arith::MulFOp::create(rewriter, loc, y, exponent.constant(0.5));
    Rounder halved(rewriter, loc, half);
    Value isOdd =
        arith::AndIOp::create(rewriter, loc, isInteger,
                              halved.compare(P::UNE, halved.nearest(), half));
    auto select = [&](Value condition, Value onTrue, Value onFalse) {
      return arith::SelectOp::create(rewriter, loc, condition, onTrue, onFalse)
          .getResult();
    };
    Value ofNegative = select(
        isInteger,
        select(isOdd, arith::NegFOp::create(rewriter, loc, power), power),
        exponent.constant(std::nan("")));
    Value signed_ = select(exponent.compare(P::OLT, x, exponent.constant(0)),
                           ofNegative, power);
    Value one = exponent.constant(1);
    Value trivial = arith::OrIOp::create(
        rewriter, loc, exponent.compare(P::OEQ, y, exponent.constant(0)),
        exponent.compare(P::OEQ, x, one));
    rewriter.replaceOp(op, select(trivial, one, signed_));
    return success();
  }
};
} // namespace

void walrus::populateRoundingPatterns(RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  patterns.add<ExpandRounding<math::FloorOp>, ExpandRounding<math::CeilOp>,
               ExpandRounding<math::TruncOp>, ExpandRounding<math::RoundOp>,
               TruncateBeforeFPToSI, ExpandRemSI, ExpandRemF,
               ShiftByConstant<arith::ShLIOp>, ShiftByConstant<arith::ShRSIOp>,
               ExpandPower<math::PowFOp>, ExpandPower<math::FPowIOp>>(context);
  // floordivsi and ceildivsi as divsi and compares (upstream).
  arith::populateCeilFloorDivExpandOpsPatterns(patterns);
}

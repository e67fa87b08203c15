//===- RaiseSoftmax.cpp - a decomposed softmax of scores into linalg.softmax =//
//
// torch-mlir writes aten._softmax as four generics: the row maximum, exp of
// the difference, the row sum and the division. Where the rows are the
// scores of a contraction, this pass writes them as one `linalg.softmax`,
// which -convert-linalg-to-bir lowers with the contraction (and the one
// reading the probabilities) as one attention nest (Passes.td,
// RaiseSoftmax).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace walrus {
#define GEN_PASS_DEF_RAISESOFTMAX
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

namespace {
/// The ops of one decomposed softmax of `input` along its last dimension.
struct DecomposedSoftmax {
  Value input;
  SmallVector<Operation *> ops;
};
} // namespace

/// The generic that computes `value` with all loops parallel, or null.
static linalg::GenericOp getParallelGeneric(Value value) {
  auto generic = value.getDefiningOp<linalg::GenericOp>();
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops() ||
      generic.getNumDpsInits() != 1)
    return {};
  return generic;
}

/// The one op of `generic`'s body that its yield returns, with the block
/// arguments it reads, or null where the body holds anything else.
template <typename OpTy> static OpTy getOnlyBodyOp(linalg::GenericOp generic) {
  Block *body = generic.getBody();
  if (body->getOperations().size() != 2)
    return {};
  return dyn_cast<OpTy>(&body->front());
}

/// The input of `generic` that block argument `value` stands for.
static OpOperand *getInputOf(linalg::GenericOp generic, Value value) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != generic.getBody() ||
      argument.getArgNumber() >= generic.getNumDpsInputs())
    return nullptr;
  return generic.getDpsInputOperand(argument.getArgNumber());
}

/// Whether `generic` reads `operand` one value per row of its last
/// dimension: `(d0, ..., 0)` of a [..., 1] tensor, or `(d0, ...)` of one
/// rank lower.
static bool readsPerRow(linalg::GenericOp generic, OpOperand *operand) {
  AffineMap map = generic.getMatchingIndexingMap(operand);
  unsigned rank = map.getNumDims();
  if (rank == 0 || map.getNumSymbols() != 0)
    return false;
  unsigned kept = map.getNumResults();
  if (kept != rank && kept != rank - 1)
    return false;
  for (unsigned i = 0; i + 1 < rank; ++i)
    if (map.getResult(i) != getAffineDimExpr(i, map.getContext()))
      return false;
  return kept == rank - 1 ||
         map.getResult(rank - 1) == getAffineConstantExpr(0, map.getContext());
}

/// `value` without a `tensor.expand_shape` that only appends a unit
/// dimension (torch's keepdim).
static Value lookThroughKeepdim(Value value) {
  auto expand = value.getDefiningOp<tensor::ExpandShapeOp>();
  if (!expand || expand.getResultType().getShape().back() != 1 ||
      expand.getSrcType().getRank() + 1 != expand.getResultType().getRank())
    return value;
  ArrayRef<int64_t> last = expand.getReassociationIndices().back();
  return last.size() == 2 ? expand.getSrc() : value;
}

/// Whether `init` is a fill of a constant equal to `isInit`'s choice.
static bool isFilledWith(Value init, function_ref<bool(APFloat)> isInit) {
  auto fill = init.getDefiningOp<linalg::FillOp>();
  APFloat value(0.0);
  return fill && matchPattern(fill.value(), m_ConstantFloat(&value)) &&
         isInit(value);
}

/// The input of a reduction of `value`'s rows along the last dimension
/// by `Combiner` from an init `isInit` accepts; results beyond the first
/// (an argmax beside the maximum) must be unused. Null otherwise.
template <typename Combiner>
static Value matchRowReduction(Value value, function_ref<bool(APFloat)> isInit,
                               SmallVectorImpl<Operation *> &ops) {
  value = lookThroughKeepdim(value);
  auto reduction = value.getDefiningOp<linalg::GenericOp>();
  if (!reduction || cast<OpResult>(value).getResultNumber() != 0 ||
      !reduction.hasPureTensorSemantics() || reduction.getNumDpsInputs() != 1 ||
      reduction.getNumReductionLoops() != 1)
    return {};
  unsigned rank = reduction.getNumLoops();
  auto iterators = reduction.getIteratorTypesArray();
  for (OpResult other : reduction->getResults().drop_front())
    if (!other.use_empty())
      return {};
  OpOperand *input = reduction.getDpsInputOperand(0);
  OpOperand *init = reduction.getDpsInitOperand(0);
  if (iterators.back() != utils::IteratorType::reduction ||
      !reduction.getMatchingIndexingMap(input).isIdentity() ||
      !readsPerRow(reduction, init) || !isFilledWith(init->get(), isInit) ||
      rank == 0)
    return {};
  auto yield = cast<linalg::YieldOp>(reduction.getBody()->getTerminator());
  auto combine = yield.getOperand(0).getDefiningOp<Combiner>();
  Value in = reduction.getMatchingBlockArgument(input);
  Value out = reduction.getMatchingBlockArgument(init);
  if (!combine || !((combine.getLhs() == in && combine.getRhs() == out) ||
                    (combine.getLhs() == out && combine.getRhs() == in)))
    return {};
  ops.push_back(reduction);
  return input->get();
}

/// The m of `sub` = x - m in `generic`'s body, x read element for element
/// (set into `input`) and m once per row; null otherwise.
static Value matchDifference(linalg::GenericOp generic, arith::SubFOp sub,
                             Value &input) {
  OpOperand *x = getInputOf(generic, sub.getLhs());
  OpOperand *max = getInputOf(generic, sub.getRhs());
  if (!x || !max || !generic.getMatchingIndexingMap(x).isIdentity() ||
      !readsPerRow(generic, max))
    return {};
  input = x->get();
  return max->get();
}

/// exp(x - m) of `value` with m read per row: one generic, or a
/// subtraction and an exp. Sets `input` to x and returns m; null
/// otherwise.
static Value matchExpOfDifference(Value value, Value &input,
                                  SmallVectorImpl<Operation *> &ops) {
  linalg::GenericOp generic = getParallelGeneric(value);
  if (!generic)
    return {};
  auto exp = getOnlyBodyOp<math::ExpOp>(generic);
  if (!exp) {
    // exp(x - m) in one generic.
    Block *body = generic.getBody();
    if (body->getOperations().size() != 3)
      return {};
    auto difference = dyn_cast<arith::SubFOp>(&body->front());
    exp =
        dyn_cast<math::ExpOp>(difference ? difference->getNextNode() : nullptr);
    if (!exp || exp.getOperand() != difference.getResult())
      return {};
    Value max = matchDifference(generic, difference, input);
    if (max)
      ops.push_back(generic);
    return max;
  }
  OpOperand *difference = getInputOf(generic, exp.getOperand());
  if (!difference || !generic.getMatchingIndexingMap(difference).isIdentity() ||
      !difference->get().hasOneUse())
    return {};
  linalg::GenericOp subtract = getParallelGeneric(difference->get());
  auto sub = subtract ? getOnlyBodyOp<arith::SubFOp>(subtract) : nullptr;
  Value max = sub ? matchDifference(subtract, sub, input) : Value();
  if (max)
    ops.append({subtract, generic});
  return max;
}

/// Whether only `readers` read `value`, directly or through keepdim
/// reshapes.
static bool isReadOnlyBy(Value value, ArrayRef<Operation *> readers) {
  return llvm::all_of(value.getUsers(), [&](Operation *user) {
    if (auto expand = dyn_cast<tensor::ExpandShapeOp>(user))
      return isReadOnlyBy(expand.getResult(), readers);
    return llvm::is_contained(readers, user);
  });
}

/// Erases what computed `op`'s operands where nothing else reads it, then
/// `op`.
static void eraseWithDeadProducers(Operation *op) {
  SmallVector<Operation *> worklist = {op};
  while (!worklist.empty()) {
    Operation *dead = worklist.pop_back_val();
    SmallVector<Value> operands(dead->getOperands());
    dead->erase();
    for (Value operand : operands) {
      Operation *producer = operand.getDefiningOp();
      if (producer && !llvm::is_contained(worklist, producer) &&
          isOpTriviallyDead(producer))
        worklist.push_back(producer);
    }
  }
}

/// The softmax whose last op (the division) is `divide`.
static std::optional<DecomposedSoftmax> matchSoftmax(linalg::GenericOp divide) {
  if (divide->getNumResults() != 1 || divide.getNumDpsInputs() != 2 ||
      !getParallelGeneric(divide->getResult(0)))
    return std::nullopt;
  auto quotient = getOnlyBodyOp<arith::DivFOp>(divide);
  if (!quotient)
    return std::nullopt;
  OpOperand *exps = getInputOf(divide, quotient.getLhs());
  OpOperand *sums = getInputOf(divide, quotient.getRhs());
  if (!exps || !sums || !divide.getMatchingIndexingMap(exps).isIdentity() ||
      !readsPerRow(divide, sums))
    return std::nullopt;
  DecomposedSoftmax softmax;
  auto isZero = [](APFloat value) { return value.isZero(); };
  // -inf, or the lowest finite value (what a maximum of finite rows never
  // falls below either).
  auto isLowest = [](APFloat value) {
    return value.isNegative() && (value.isInfinity() || value.isLargest());
  };
  Value e = exps->get();
  if (matchRowReduction<arith::AddFOp>(sums->get(), isZero, softmax.ops) != e)
    return std::nullopt;
  Value max = matchExpOfDifference(e, softmax.input, softmax.ops);
  if (!max || matchRowReduction<arith::MaximumFOp>(
                  max, isLowest, softmax.ops) != softmax.input)
    return std::nullopt;
  // Nothing else may read the intermediates: they are gone afterwards.
  SmallVector<Operation *> readers(softmax.ops);
  readers.push_back(divide);
  for (Operation *op : softmax.ops)
    if (!isReadOnlyBy(op->getResult(0), readers))
      return std::nullopt;
  auto type = cast<RankedTensorType>(softmax.input.getType());
  if (type != divide->getResult(0).getType() || !type.getElementType().isF32())
    return std::nullopt;
  return softmax;
}

/// Elementwise ops between a contraction and its softmax that the scores
/// may pass through (a scaling, a mask): a few, not a whole graph.
static constexpr int kMaxScoreOps = 4;

/// Whether `value` is the result of a contraction, or of up to `depth`
/// elementwise ops of one: the scores of attention.
static bool isScores(Value value, int depth = kMaxScoreOps) {
  if (auto generic = getParallelGeneric(value)) {
    return depth > 0 &&
           llvm::any_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
             return generic.getMatchingIndexingMap(input).isIdentity() &&
                    isScores(input->get(), depth - 1);
           });
  }
  auto linalgOp = value.getDefiningOp<linalg::LinalgOp>();
  return linalgOp && linalg::isaContractionOpInterface(linalgOp);
}

namespace {
struct RaiseSoftmax : walrus::impl::RaiseSoftmaxBase<RaiseSoftmax> {
  using RaiseSoftmaxBase::RaiseSoftmaxBase;

  void runOnOperation() override {
    SmallVector<linalg::GenericOp> divides;
    getOperation()->walk([&](linalg::GenericOp op) { divides.push_back(op); });
    for (linalg::GenericOp divide : divides) {
      std::optional<DecomposedSoftmax> softmax = matchSoftmax(divide);
      if (!softmax || !isScores(softmax->input))
        continue;
      OpBuilder builder(divide);
      auto raised = linalg::SoftmaxOp::create(
          builder, divide.getLoc(), divide->getResult(0).getType(),
          softmax->input, divide.getDpsInitOperand(0)->get(),
          cast<RankedTensorType>(softmax->input.getType()).getRank() - 1);
      if (explain)
        raised->emitRemark("raise-softmax: the maximum, exp, sum and "
                           "division of these scores' rows are one softmax");
      divide->getResult(0).replaceAllUsesWith(raised->getResult(0));
      eraseWithDeadProducers(divide);
    }
  }
};
} // namespace

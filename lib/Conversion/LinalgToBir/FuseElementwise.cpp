//===- FuseElementwise.cpp - elementwise chains into one generic ----------===//
//
// A chain of elementwise generics, one per frontend op, becomes one generic
// so that its intermediates never pass through DRAM (Passes.td,
// FuseElementwise).
//
//===----------------------------------------------------------------------===//

#include "FuseProducer.h"
#include "Walrus/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace walrus {
#define GEN_PASS_DEF_FUSEELEMENTWISE
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

/// An all-parallel generic on tensors whose body computes with arith and
/// math alone: a gather (`tensor.extract`, which -normalize-linalg left in
/// the embedding form the lowering reads) or a body of indices stays
/// as it is.
static bool isElementwiseGeneric(Operation *op) {
  auto generic = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!generic || !generic.hasPureTensorSemantics() ||
      generic.getNumParallelLoops() != generic.getNumLoops())
    return false;
  return walrus::computesWithArithAndMath(generic);
}

bool walrus::computesWithArithAndMath(linalg::GenericOp generic) {
  return llvm::all_of(
      generic.getBody()->without_terminator(), [](Operation &inner) {
        // An unregistered op has no dialect.
        Dialect *dialect = inner.getDialect();
        return dialect && isa<arith::ArithDialect, math::MathDialect>(dialect);
      });
}

/// Whether `use` reads its value element for element: an elementwise
/// generic's input read through a permutation.
static bool isElementwiseRead(OpOperand &use) {
  auto generic = dyn_cast<linalg::GenericOp>(use.getOwner());
  return isElementwiseGeneric(generic) && generic.isDpsInput(&use) &&
         generic.getMatchingIndexingMap(&use).isPermutation();
}

static int64_t getBodyOps(Operation *op) {
  return cast<linalg::GenericOp>(op).getBody()->getOperations().size();
}

LogicalResult
walrus::FuseProducer::matchAndRewrite(linalg::GenericOp consumer,
                                      PatternRewriter &rewriter) const {
  for (OpOperand &operand : consumer->getOpOperands()) {
    if (!linalg::areElementwiseOpsFusable(&operand) || !accept(&operand))
      continue;
    Operation *producer = operand.get().getDefiningOp();
    FailureOr<linalg::ElementwiseOpFusionResult> fused =
        linalg::fuseElementwiseOps(rewriter, &operand);
    if (failed(fused))
      continue;
    for (auto [original, replacement] : fused->replacements)
      rewriter.replaceUsesWithIf(original, replacement, [&](OpOperand &use) {
        return use.get().getDefiningOp() != producer;
      });
    rewriter.eraseOp(consumer);
    return success();
  }
  return rewriter.notifyMatchFailure(consumer, "no producer to fuse");
}

namespace {
/// The generics fusion creates, while they last.
struct FusedOps : RewriterBase::Listener {
  llvm::SetVector<Operation *> ops;
  void notifyOperationInserted(Operation *op, OpBuilder::InsertPoint) override {
    if (isa<linalg::GenericOp>(op))
      ops.insert(op);
  }
  void notifyOperationErased(Operation *op) override { ops.remove(op); }
};

struct FuseElementwise : walrus::impl::FuseElementwiseBase<FuseElementwise> {
  using FuseElementwiseBase::FuseElementwiseBase;

  bool shouldFuse(OpOperand *operand) {
    Operation *producer = operand->get().getDefiningOp();
    Operation *consumer = operand->getOwner();
    if (!isElementwiseGeneric(producer) || !isElementwiseGeneric(consumer) ||
        !isElementwiseRead(*operand))
      return false;
    for (Value result : producer->getResults())
      if (!llvm::all_of(result.getUses(), isElementwiseRead))
        return false;
    if (getBodyOps(producer) + getBodyOps(consumer) > maxBodyOps)
      return false;
    if (explain)
      consumer->emitRemark(
                  "fuse-elementwise: fused an elementwise op into this "
                  "one")
              .attachNote(producer->getLoc())
          << "the op fused in";
    return true;
  }

  void runOnOperation() override {
    MLIRContext *context = &getContext();
    RewritePatternSet fusion(context);
    fusion.add<walrus::FuseProducer>(
        context, [this](OpOperand *operand) { return shouldFuse(operand); });
    FusedOps fused;
    // Each fusion removes a generic: the rewrites end.
    if (failed(
            applyPatternsGreedily(getOperation(), std::move(fusion),
                                  GreedyRewriteConfig().setListener(&fused)))) {
      getOperation()->emitError(
          "fuse-elementwise: the rewrites did not converge");
      return signalPassFailure();
    }
    // Only the fused ops: any other generic stays exactly as written.
    RewritePatternSet cleanup(context);
    linalg::populateEraseUnusedOperandsAndResultsPatterns(cleanup);
    linalg::GenericOp::getCanonicalizationPatterns(cleanup, context);
    SmallVector<Operation *> ops = fused.ops.takeVector();
    if (failed(applyOpPatternsGreedily(ops, std::move(cleanup)))) {
      getOperation()->emitError(
          "fuse-elementwise: the cleanup did not converge");
      signalPassFailure();
    }
  }
};
} // namespace

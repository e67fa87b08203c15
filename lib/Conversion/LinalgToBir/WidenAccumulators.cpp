//===- WidenAccumulators.cpp - 16-bit contractions accumulate in f32 ------===//
//
// MLIR rounds a bf16 or f16 contraction's running sum at every step; the
// tensor engine sums in f32 PSUM. The op is rewritten to what the engine
// computes, visibly: into an f32 init, then truncated once (Passes.td,
// WidenAccumulators).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace walrus {
#define GEN_PASS_DEF_WIDENACCUMULATORS
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

namespace {
/// The 16-bit float tensor `op` accumulates into, if it is a named
/// contraction or convolution on tensors with one such init.
static RankedTensorType getNarrowAccumulator(linalg::LinalgOp op) {
  if (isa<linalg::GenericOp>(op) || !op.hasPureTensorSemantics() ||
      op.getNumReductionLoops() == 0 || op.getNumDpsInits() != 1 ||
      !op.getRegionBuilder())
    return {};
  auto type = dyn_cast<RankedTensorType>(op.getDpsInits()[0].getType());
  if (!type || !isa<BFloat16Type, Float16Type>(type.getElementType()))
    return {};
  return type;
}

/// `init` as f32: a fill of the widened value where it is a fill, else
/// its `arith.extf`.
static Value widen(OpBuilder &builder, Location loc, Value init,
                   RankedTensorType wide) {
  if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
    Value value = arith::ExtFOp::create(builder, loc, wide.getElementType(),
                                        fill.value());
    Value empty = tensor::EmptyOp::create(builder, loc, wide.getShape(),
                                          wide.getElementType());
    return linalg::FillOp::create(builder, loc, value, empty).getResult(0);
  }
  return arith::ExtFOp::create(builder, loc, wide, init);
}

/// The same named op as `op`, reading `init` (f32) and yielding f32: its
/// body rebuilt by the op's own region builder, which casts the operands
/// to the accumulator's type.
static Operation *cloneInto(OpBuilder &builder, linalg::LinalgOp op,
                            Value init) {
  Location loc = op.getLoc();
  OperationState state(loc, op->getName());
  state.addOperands(op.getDpsInputs());
  state.addOperands(init);
  state.addTypes(init.getType());
  state.addAttributes(op->getAttrs());
  Region *region = state.addRegion();
  Block *body = new Block();
  region->push_back(body);
  for (Value input : op.getDpsInputs())
    body->addArgument(getElementTypeOrSelf(input), loc);
  body->addArgument(getElementTypeOrSelf(init), loc);
  ImplicitLocOpBuilder bodyBuilder(loc, builder.getContext());
  bodyBuilder.setInsertionPointToStart(body);
  op.getRegionBuilder()(bodyBuilder, *body, op->getAttrs(),
                        [&] { return op.emitError(); });
  return builder.create(state);
}

struct WidenAccumulatorsPass
    : walrus::impl::WidenAccumulatorsBase<WidenAccumulatorsPass> {
  using WidenAccumulatorsBase::WidenAccumulatorsBase;

  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> narrow;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (getNarrowAccumulator(op))
        narrow.push_back(op);
    });
    for (linalg::LinalgOp op : narrow) {
      RankedTensorType type = getNarrowAccumulator(op);
      if (refuse) {
        op.emitError() << "accumulates in " << type.getElementType()
                       << ", which MLIR rounds at every step and the tensor "
                          "engine cannot (it sums in f32 PSUM): let "
                          "widen-accumulators accumulate in f32";
        return signalPassFailure();
      }
      OpBuilder builder(op);
      auto wide = RankedTensorType::get(type.getShape(),
                                        Float32Type::get(&getContext()));
      Value init = widen(builder, op.getLoc(), op.getDpsInits()[0], wide);
      Operation *widened = cloneInto(builder, op, init);
      Value narrowed = arith::TruncFOp::create(builder, op.getLoc(), type,
                                               widened->getResult(0));
      op->replaceAllUsesWith(ValueRange{narrowed});
      op->erase();
    }
  }
};
} // namespace

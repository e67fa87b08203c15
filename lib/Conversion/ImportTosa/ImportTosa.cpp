//===- ImportTosa.cpp - TOSA into linalg with upstream's pipelines --------===//
//
// A TOSA module (TFLite, torch-mlir's TOSA path) becomes the linalg,
// tensor and arith the rest of -walrus-from-linalg reads, by upstream's
// own lowering; a module without TOSA ops is not touched (Passes.td,
// ImportTosa).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Conversion/Passes.h"

#include "mlir/Conversion/TosaToArith/TosaToArith.h"
#include "mlir/Conversion/TosaToLinalg/TosaToLinalg.h"
#include "mlir/Conversion/TosaToTensor/TosaToTensor.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/PassManager.h"

namespace walrus {
#define GEN_PASS_DEF_IMPORTTOSA
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;

namespace {
/// Upstream's TOSA lowering, as mlir-opt's `tosa-to-linalg-pipeline` and
/// then the constants, reshapes and slices it leaves.
static void buildTosaLowering(OpPassManager &pm) {
  tosa::addTosaToLinalgPasses(pm, TosaToLinalgOptions());
  // A quantized model's rescale as i64 arithmetic, which the engines do
  // exactly (docs/Interpreter.md, "Arithmetic").
  TosaToArithPassOptions arith;
  arith.includeApplyRescale = true;
  pm.addNestedPass<func::FuncOp>(createTosaToArithPass(arith));
  pm.addNestedPass<func::FuncOp>(createTosaToTensorPass());
}

struct ImportTosaPass : walrus::impl::ImportTosaBase<ImportTosaPass> {
  void getDependentDialects(DialectRegistry &registry) const override {
    ImportTosaBase::getDependentDialects(registry);
    OpPassManager pm(ModuleOp::getOperationName());
    buildTosaLowering(pm);
    pm.getDependentDialects(registry);
  }

  void runOnOperation() override {
    auto *tosaDialect = getContext().getLoadedDialect<tosa::TosaDialect>();
    bool hasTosa = getOperation()
                       ->walk([&](Operation *op) {
                         return op->getDialect() == tosaDialect
                                    ? WalkResult::interrupt()
                                    : WalkResult::advance();
                       })
                       .wasInterrupted();
    if (!hasTosa)
      return;
    OpPassManager pm(ModuleOp::getOperationName());
    buildTosaLowering(pm);
    if (failed(runPipeline(pm, getOperation())))
      return signalPassFailure();
    // The shapes reshapes read are left without readers; any other TOSA op
    // left is one upstream does not lower.
    WalkResult left = getOperation()->walk([&](Operation *op) {
      if (op->getDialect() != tosaDialect)
        return WalkResult::advance();
      if (isOpTriviallyDead(op)) {
        op->erase();
        return WalkResult::skip();
      }
      op->emitError() << "'" << op->getName()
                      << "' is not lowered by upstream's TOSA pipelines";
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

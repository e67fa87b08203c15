//===- TestCloneModule.cpp - The -test-clone-module pass ------------------===//
//
// The baseline of the lnc-split benchmark: plain Operation::clone() of every
// module that holds bir.funcs, as many times as lnc-split would clone it.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

namespace walrus {
#define GEN_PASS_DEF_TESTCLONEMODULE
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct TestCloneModulePass
    : walrus::impl::TestCloneModuleBase<TestCloneModulePass> {
  using TestCloneModuleBase::TestCloneModuleBase;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    SmallVector<ModuleOp> sources;
    top->walk([&](ModuleOp module) {
      if (!module.getOps<FuncOp>().empty())
        sources.push_back(module);
    });
    // Clone everything first: a clone inserted into `top` must not be
    // cloned again when `top` itself is a source.
    SmallVector<ModuleOp> clones;
    for (ModuleOp source : sources)
      for (int64_t copy = 0; copy < copies; ++copy)
        clones.push_back(cast<ModuleOp>(source->clone()));
    for (ModuleOp clone : clones) {
      clone.setSymNameAttr(nullptr);
      top.getBody()->push_back(clone);
    }
  }
};
} // namespace

//===- TestCloneModule.cpp - The -test-walrus-clone-module pass
//------------------===//
//
// The baseline of the lnc-split benchmark: plain Operation::clone() of every
// module that holds bir.funcs, as many times as lnc-split would clone it.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

namespace walrus::test {
#define GEN_PASS_DEF_TESTCLONEMODULE
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct TestCloneModulePass
    : walrus::test::impl::TestCloneModuleBase<TestCloneModulePass> {
  using TestCloneModuleBase::TestCloneModuleBase;

  void runOnOperation() override {
    ModuleOp top = getOperation();
    FailureOr<SmallVector<ModuleOp>> sources = findProgramModules(top);
    if (failed(sources))
      return signalPassFailure();
    // Clone everything first: a clone inserted into `top` must not be
    // cloned again when `top` itself is a source.
    SmallVector<ModuleOp> clones;
    for (ModuleOp source : *sources)
      for (int64_t copy = 0; copy < copies; ++copy)
        clones.push_back(cast<ModuleOp>(source->clone()));
    for (ModuleOp clone : clones) {
      clone.setSymNameAttr(nullptr);
      top.getBody()->push_back(clone);
    }
  }
};
} // namespace

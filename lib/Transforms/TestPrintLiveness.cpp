//===- TestPrintLiveness.cpp - The -test-print-liveness pass --------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

#include "llvm/Support/raw_ostream.h"

namespace walrus {
#define GEN_PASS_DEF_TESTPRINTLIVENESS
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct TestPrintLivenessPass
    : walrus::impl::TestPrintLivenessBase<TestPrintLivenessPass> {
  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    forEachFunc(getOperation(), [&](FuncOp func) {
      TensorLiveness liveness(func);
      os << "liveness of @" << func.getSymName() << ": "
         << liveness.getOrder().getNumPoints() << " points\n";
      for (MemlocOp memloc : func.getBody().front().getOps<MemlocOp>()) {
        os << "  " << memloc.getName() << ": ";
        std::optional<LiveRange> range = liveness.getLiveRange(memloc);
        if (!range) {
          os << "never live\n";
          continue;
        }
        os << "[" << range->start << ", " << range->end << "]"
           << (range->loopCarried ? " loop-carried" : "") << "\n";
      }
    });
    markAllAnalysesPreserved();
  }
};
} // namespace

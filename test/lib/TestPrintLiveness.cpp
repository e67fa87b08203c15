//===- TestPrintLiveness.cpp - The -test-walrus-print-liveness pass -------===//

#include "TestPasses.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "llvm/Support/raw_ostream.h"

namespace walrus::test {
#define GEN_PASS_DEF_TESTPRINTLIVENESS
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct TestPrintLivenessPass
    : walrus::test::impl::TestPrintLivenessBase<TestPrintLivenessPass> {
  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    LogicalResult found = forEachKernelFunc(getOperation(), [&](FuncOp func) {
      TensorLiveness liveness(func);
      os << "liveness of @" << func.getSymName() << ": "
         << liveness.getOrder().getNumPoints() << " points\n";
      auto print = [&](std::optional<LiveRange> range) {
        if (!range) {
          os << "never live\n";
          return;
        }
        os << "[" << range->start << ", " << range->end << "]"
           << (range->loopCarried ? " loop-carried" : "") << "\n";
      };
      // Blocks of a quarter of the partitions, as -sb-alloc uses them.
      auto blocks =
          liveness.getBlockRanges(getTarget(func).getSbufPartitions() / 4);
      for (MemlocOp memloc : func.getMemlocs()) {
        os << "  " << memloc.getName() << ": ";
        print(liveness.getLiveRange(memloc));
        for (const RowBlockRange &block : blocks[*liveness.getIndex(memloc)]) {
          os << "    rows [" << block.firstRow << ", " << block.endRow << "): ";
          print(block.range);
        }
      }
    });
    if (failed(found))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

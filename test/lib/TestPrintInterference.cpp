//===- TestPrintInterference.cpp - The -test-walrus-print-interference pass
//------===//

#include "TestPasses.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "llvm/Support/raw_ostream.h"

namespace walrus::test {
#define GEN_PASS_DEF_TESTPRINTINTERFERENCE
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct TestPrintInterferencePass
    : walrus::test::impl::TestPrintInterferenceBase<TestPrintInterferencePass> {
  using TestPrintInterferenceBase::TestPrintInterferenceBase;

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    LogicalResult found = forEachKernelFunc(getOperation(), [&](FuncOp func) {
      TargetAttr target = getTarget(func);
      int64_t partitions = target.getSbufPartitions();
      int64_t budget = sbufBytes > 0 ? sbufBytes.getValue()
                                     : target.getSbufBytesPerPartition();
      TensorLiveness liveness(func);
      SbufProblem built = buildSbufProblem(liveness, {}, partitions);
      const placement::Problem &graph = built.problem;
      os << "interference of @" << func.getSymName() << ": "
         << graph.getNodes().size() << " nodes, " << graph.getNumEdges()
         << " edges, lower bound " << graph.getLowerBound() << " B/partition\n";
      placement::ImpactTable table = placement::computeImpactTable(partitions);
      for (unsigned row = 0; row < placement::kNumBandClasses; ++row) {
        os << "  impact[" << row << "]:";
        for (int64_t value : table[row])
          os << ' ' << value;
        os << '\n';
      }
      for (auto [index, node] : llvm::enumerate(graph.getNodes())) {
        int64_t choices =
            placement::getBandChoices(node.bandClass, partitions).size();
        os << "  node " << index << " "
           << built.members[index].front().getName() << ": " << node.partitions
           << " x " << node.bytes << " B, band class " << node.bandClass
           << ", k = " << choices * (budget - node.bytes + 1);
        if (node.live)
          os << ", live [" << node.range.start << ", " << node.range.end << "]";
        os << ", neighbours";
        auto neighbors = llvm::to_vector(graph.getNeighbors(index));
        llvm::sort(neighbors);
        for (unsigned neighbor : neighbors)
          os << ' ' << neighbor;
        os << '\n';
      }
    });
    if (failed(found))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

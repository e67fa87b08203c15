//===- TestPlace.cpp - The -test-walrus-place pass ------------------------===//
//
// Runs one strategy of the placement library on each function's problem
// and checks its result independently of the strategy.
//
//===----------------------------------------------------------------------===//

#include "TestPasses.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Placement/Coloring.h"
#include "Walrus/Placement/Dense.h"
#include "Walrus/Placement/DenseWindow.h"
#include "Walrus/Placement/Placer.h"
#include "Walrus/Placement/Search.h"

#include "llvm/Support/raw_ostream.h"

namespace walrus::test {
#define GEN_PASS_DEF_TESTPLACE
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::placement;

namespace {
/// The 1-D search over every node, as one problem (all must span every
/// partition).
FailureOr<Placement> searchAll(const Problem &problem, int64_t partitions,
                               int64_t capacity, uint64_t workLimit,
                               FuncOp func) {
  ArrayRef<Node> nodes = problem.getNodes();
  SmallVector<SearchBuffer> buffers;
  SmallVector<unsigned> placedNodes;
  for (auto [index, node] : llvm::enumerate(nodes)) {
    if (!node.live)
      continue;
    if (node.partitions != partitions)
      return func.emitError() << "test-walrus-place: strategy 'search' needs "
                                 "every tensor to span all partitions";
    buffers.push_back({node.range.start, node.range.end, node.bytes});
    placedNodes.push_back(index);
  }
  SearchResult found = searchPlacement(buffers, capacity, workLimit);
  Placement result;
  result.placements.resize(nodes.size());
  for (auto [position, index] : llvm::enumerate(placedNodes)) {
    if (!found.offsets) {
      result.spilled.push_back(index);
      continue;
    }
    int64_t offset = (*found.offsets)[position];
    result.placements[index] = Place{0, offset};
    result.peakBytes = std::max(result.peakBytes, offset + nodes[index].bytes);
  }
  for (auto [index, node] : llvm::enumerate(nodes))
    if (!node.live)
      result.placements[index] = Place{0, 0};
  return result;
}

/// The first rule `placement` breaks, or an empty string.
std::string findViolation(const Problem &problem, const Placement &placement,
                          int64_t partitions, int64_t capacity) {
  ArrayRef<Node> nodes = problem.getNodes();
  for (auto [index, node] : llvm::enumerate(nodes)) {
    const std::optional<Place> &place = placement.placements[index];
    if (!place)
      continue;
    bool inBand = llvm::any_of(
        getBandChoices(node.bandClass, partitions),
        [&](auto choice) { return choice.first == place->basePartition; });
    if (!inBand || place->address < 0 || place->address + node.bytes > capacity)
      return "node " + std::to_string(index) + " outside its band or capacity";
  }
  // Every pair: the test problems are small.
  for (unsigned a = 0; a < nodes.size(); ++a)
    for (unsigned b = a + 1; b < nodes.size(); ++b) {
      const std::optional<Place> &pa = placement.placements[a],
                                 &pb = placement.placements[b];
      if (!pa || !pb || !nodes[a].live || !nodes[b].live)
        continue;
      bool shareBytes = pa->address < pb->address + nodes[b].bytes &&
                        pb->address < pa->address + nodes[a].bytes;
      if (shareBytes && shareRowsInTime(nodes[a], pa->basePartition, nodes[b],
                                        pb->basePartition))
        return "nodes " + std::to_string(a) + " and " + std::to_string(b) +
               " share a byte";
    }
  return "";
}

struct TestPlacePass : walrus::test::impl::TestPlaceBase<TestPlacePass> {
  using TestPlaceBase::TestPlaceBase;

  FailureOr<Placement> run(const Problem &problem, int64_t partitions,
                           int64_t limit, FuncOp func) {
    SmallVector<std::optional<Place>> none(problem.getNodes().size());
    if (strategy == "coloring")
      return colorGraph(problem, partitions, limit, none);
    if (strategy == "first-fit") {
      SmallVector<unsigned> order =
          llvm::to_vector(llvm::seq<unsigned>(0, problem.getNodes().size()));
      ArrayRef<Node> nodes = problem.getNodes();
      llvm::stable_sort(order, [&](unsigned a, unsigned b) {
        return nodes[a].bytes > nodes[b].bytes;
      });
      uint64_t work = 0;
      return placeInOrder(problem, partitions, limit, none, order, work);
    }
    if (strategy == "dense")
      return placeDense(problem, partitions, limit, none, workLimit).coloring;
    if (strategy == "window") {
      WindowPlacement placed =
          placeByWindowSearch(problem, none, {partitions, limit, workLimit});
      if (!placed.coloring)
        return func.emitError()
               << "test-walrus-place: the window search declined";
      return *placed.coloring;
    }
    if (strategy == "search")
      return searchAll(problem, partitions, limit, workLimit, func);
    if (strategy == "ladder") {
      uint64_t workLeft = workLimit;
      PlacerTally tally;
      return Placer({partitions, limit}, workLeft, tally)
          .place(problem, none, none);
    }
    return func.emitError()
           << "test-walrus-place: unknown strategy '" << strategy << "'";
  }

  void runOnOperation() override {
    raw_ostream &os = llvm::outs();
    bool failedOne = false;
    LogicalResult found = forEachKernelFunc(getOperation(), [&](FuncOp func) {
      TargetAttr target = getTarget(func);
      int64_t partitions = target.getSbufPartitions();
      int64_t limit = capacity > 0 ? capacity.getValue()
                                   : target.getSbufBytesPerPartition();
      TensorLiveness liveness(func);
      // No stored edges, as a dense function has: every strategy runs.
      SbufProblem built = buildSbufProblem(
          liveness, {}, partitions,
          strategy == "coloring" || strategy == "ladder" ? EdgeLimits{}
                                                         : EdgeLimits{0, 0});
      FailureOr<Placement> placed = run(built.problem, partitions, limit, func);
      if (failed(placed)) {
        failedOne = true;
        return;
      }
      size_t count = llvm::count_if(
          placed->placements, [](const auto &p) { return p.has_value(); });
      std::string violation =
          findViolation(built.problem, *placed, partitions, limit);
      os << "place " << strategy << " @" << func.getSymName() << ": "
         << built.problem.getNodes().size() << " node(s), " << count
         << " placed, " << placed->spilled.size() << " spilled, peak "
         << placed->peakBytes << ", lower bound "
         << built.problem.getLowerBound() << ", "
         << (violation.empty() ? "valid" : "INVALID: " + violation) << "\n";
    });
    if (failed(found) || failedOne)
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

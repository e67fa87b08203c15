//===- TestSweepFirstFit.cpp - The -test-walrus-sweep-first-fit pass ------===//

#include "Dense/SweepFirstFit.h"
#include "TestPasses.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Placement/Dense.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/ThreadPool.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>
#include <random>

namespace walrus::test {
#define GEN_PASS_DEF_TESTSWEEPFIRSTFIT
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace mlir;
using namespace walrus;
using namespace walrus::placement;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
struct SweepProblem {
  SmallVector<std::optional<Place>> fixed;
  SmallVector<std::pair<unsigned, int64_t>> headAt;
  SmallVector<unsigned> head, forward, backward;
};

/// A problem around a random point: what is live there fixed (placed by
/// first fit, largest first), `headPercent` of the rest placed by first
/// fit around it in random order (headAt), 2% placed first by the sweep's
/// own first fit (head), the others swept by start after the point and by
/// end, latest first, before it.
SweepProblem makeProblem(const Problem &graph, const StartRanks &time,
                         int64_t partitions, int64_t limit,
                         unsigned headPercent, unsigned seed) {
  ArrayRef<Node> nodes = graph.getNodes();
  std::mt19937 random(seed);
  unsigned point = random() % time.points;
  SmallVector<unsigned> live, rest;
  for (auto [index, node] : llvm::enumerate(nodes)) {
    if (!node.live || node.bytes == 0)
      continue;
    auto [first, last] = time.ranks[index];
    (first <= point && point <= last ? live : rest).push_back(index);
  }
  llvm::stable_sort(live, [&](unsigned a, unsigned b) {
    return nodes[a].bytes > nodes[b].bytes;
  });
  uint64_t work = 0;
  SmallVector<std::optional<Place>> none(nodes.size());
  SweepProblem problem;
  problem.fixed =
      placeInOrder(graph, partitions, limit, none, live, work).placements;
  std::shuffle(rest.begin(), rest.end(), random);
  SmallVector<unsigned> before, swept;
  for (unsigned index : rest)
    (random() % 100 < headPercent ? before : swept).push_back(index);
  Placement placedBefore =
      placeInOrder(graph, partitions, limit, problem.fixed, before, work);
  for (unsigned index : before)
    if (std::optional<Place> place = placedBefore.placements[index])
      problem.headAt.push_back({index, place->address});
  for (unsigned index : swept) {
    if (random() % 100 < 2)
      problem.head.push_back(index);
    else
      (time.ranks[index].first > point ? problem.forward : problem.backward)
          .push_back(index);
  }
  llvm::stable_sort(problem.forward, [&](unsigned a, unsigned b) {
    return time.ranks[a].first < time.ranks[b].first;
  });
  llvm::stable_sort(problem.backward, [&](unsigned a, unsigned b) {
    return time.ranks[a].second > time.ranks[b].second;
  });
  return problem;
}

/// Whether the two give every node the same place, or none.
bool samePlaces(ArrayRef<std::optional<Place>> a,
                ArrayRef<std::optional<Place>> b) {
  return llvm::equal(a, b, [](const auto &x, const auto &y) {
    return x && y ? x->address == y->address : !x && !y;
  });
}

struct TestSweepFirstFitPass
    : walrus::test::impl::TestSweepFirstFitBase<TestSweepFirstFitPass> {
  using TestSweepFirstFitBase::TestSweepFirstFitBase;

  void runOnOperation() override {
    LogicalResult found =
        bir::forEachKernelFunc(getOperation(), [&](bir::FuncOp func) {
          int64_t partitions = bir::getTarget(func).getSbufPartitions();
          TensorLiveness liveness(func);
          SbufProblem built = buildSbufProblem(
              liveness, {}, partitions, placement::EdgeLimits{/*maxEdges=*/0});
          const Problem &graph = built.problem;
          StartRanks time = rankByStarts(graph.getNodes());
          // A 64th above the bound (saturating: sizes come from the
          // input): first fit leaves some out.
          int64_t bound = graph.getLowerBound();
          int64_t limit =
              bound +
              std::min(bound / 64, std::numeric_limits<int64_t>::max() - bound);
          unsigned indexed = 0, differed = 0, differedSideBySide = 0;
          llvm::ThreadPoolInterface *threads =
              getContext().isMultithreadingEnabled()
                  ? &getContext().getThreadPool()
                  : nullptr;
          for (unsigned seed = 0; seed < problems; ++seed) {
            SweepProblem problem =
                makeProblem(graph, time, partitions, limit, headPercent, seed);
            uint64_t work = 0, workSideBySide = 0;
            SweepRun run{limit,        problem.fixed,   problem.headAt,
                         problem.head, problem.forward, problem.backward};
            Placement swept = placeSweeping(graph, time, run, work);
            Placement sideBySide =
                placeSweeping(graph, time, run, workSideBySide, threads);
            differedSideBySide +=
                !samePlaces(swept.placements, sideBySide.placements) ||
                swept.spilled != sideBySide.spilled ||
                swept.peakBytes != sideBySide.peakBytes ||
                work != workSideBySide;
            SmallVector<std::optional<Place>> before(problem.fixed);
            for (auto [index, address] : problem.headAt)
              before[index] = Place{0, address};
            SmallVector<unsigned> order(problem.head);
            llvm::append_range(order, problem.forward);
            llvm::append_range(order, problem.backward);
            Placement inOrder =
                placeInOrder(graph, partitions, limit, before, order, work);
            llvm::sort(inOrder.spilled);
            size_t placedBefore = problem.headAt.size() + problem.head.size() -
                                  llvm::count_if(problem.head, [&](unsigned i) {
                                    return !swept.placements[i];
                                  });
            indexed += placedBefore > kMaxListedHead;
            differed += !samePlaces(swept.placements, inOrder.placements) ||
                        swept.spilled != inOrder.spilled;
          }
          llvm::outs() << "@" << func.getSymName() << ": " << problems
                       << " problems, " << indexed << " with a head index, "
                       << differed << " differ, " << differedSideBySide
                       << " differ with the sweeps side by side\n";
        });
    if (failed(found))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace

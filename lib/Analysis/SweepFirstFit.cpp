//===- SweepFirstFit.cpp - First fit of nodes in order of time ------------===//

#include "SweepFirstFit.h"
#include "FirstFit.h"
#include "FreeGaps.h"
#include "OccupancyIndex.h"
#include "Walrus/Analysis/Interference.h"

#include <cassert>
#include <limits>
#include <queue>
#include <tuple>

using namespace walrus;

namespace {
/// One run of placeSweeping.
class SweepPlacer {
public:
  SweepPlacer(const InterferenceGraph &graph, const StartRanks &time,
              int64_t limit, llvm::ArrayRef<std::optional<SbPlacement>> fixed,
              uint64_t &work);

  /// First fit of `head` in turn, around the fixed nodes and the head
  /// placed before; the sweeps look the head up in an index (its nodes
  /// may start after one they meet).
  void placeHead(llvm::ArrayRef<unsigned> head);
  /// Each node of `order` at the lowest offset free both of the gaps (the
  /// nodes open at its start: the fixed ones, which all start before it,
  /// and those placed before it) and of the head's index, if any.
  void sweep(llvm::ArrayRef<unsigned> order, bool latestFirst);
  SbColoring finish();

private:
  /// A node's start ranks [first, last], negated and swapped latest first:
  /// the same sweep.
  std::pair<int64_t, int64_t> getSpan(unsigned node, bool latestFirst) const {
    auto [first, last] = time.ranks[node];
    return latestFirst ? std::make_pair(-int64_t(last), -int64_t(first))
                       : std::make_pair(int64_t(first), int64_t(last));
  }
  void place(unsigned node, int64_t address) {
    result.placements[node] = SbPlacement{0, address};
    result.peakBytes = std::max(result.peakBytes, address + nodes[node].bytes);
  }
  void insert(OccupancyIndex &index, unsigned node, int64_t address) {
    auto [first, last] = time.ranks[node];
    if (nodes[node].live)
      index.insert(first, last, address, address + nodes[node].bytes);
  }
  std::optional<int64_t> findInSweep(const FreeGaps &gaps, unsigned node);

  llvm::ArrayRef<SbNode> nodes;
  int64_t limit;
  llvm::ArrayRef<std::optional<SbPlacement>> fixed;
  uint64_t &work;
  /// Over start ranks, like the index: two ranges meet exactly when their
  /// ranks do, and a sweep by rank is a sweep by time.
  const StartRanks &time;
  /// The head's nodes, when there is a head.
  std::optional<OccupancyIndex> headIndex;
  /// The fixed nodes that take bytes while live.
  llvm::SmallVector<unsigned> fixedNodes;
  llvm::SmallVector<const OccupancyIndex::ByteRanges *, 64> sets;
  SbColoring result;
};
} // namespace

SweepPlacer::SweepPlacer(const InterferenceGraph &graph, const StartRanks &time,
                         int64_t limit,
                         llvm::ArrayRef<std::optional<SbPlacement>> fixed,
                         uint64_t &work)
    : nodes(graph.getNodes()), limit(limit), fixed(fixed), work(work),
      time(time) {
  result.placements.assign(fixed.begin(), fixed.end());
  for (auto [node, placement] : llvm::enumerate(fixed))
    if (placement) {
      result.peakBytes =
          std::max(result.peakBytes, placement->address + nodes[node].bytes);
      if (nodes[node].live && nodes[node].bytes > 0)
        fixedNodes.push_back(node);
    }
}

void SweepPlacer::placeHead(llvm::ArrayRef<unsigned> head) {
  if (head.empty())
    return;
  // A few hundred nodes at most: each looks at the fixed nodes and the head
  // placed before it, rather than at an index of them all (at 60k points,
  // inserting the fixed nodes alone cost more than the sweep).
  headIndex.emplace(time.points);
  llvm::SmallVector<unsigned> placed(fixedNodes);
  FirstFit taken(limit, /*granuleShift=*/0);
  for (unsigned node : head) {
    taken.clear();
    if (nodes[node].live)
      for (unsigned other : placed) {
        ++work;
        int64_t address = result.placements[other]->address;
        if (time.meet(node, other))
          taken.take(address, address + nodes[other].bytes);
      }
    ++work;
    std::optional<int64_t> offset = taken.find(nodes[node].bytes);
    if (!offset) {
      result.spilled.push_back(node);
      continue;
    }
    place(node, *offset);
    insert(*headIndex, node, *offset);
    if (nodes[node].live && nodes[node].bytes > 0)
      placed.push_back(node);
  }
}

std::optional<int64_t> SweepPlacer::findInSweep(const FreeGaps &gaps,
                                                unsigned node) {
  if (!headIndex)
    return gaps.findFrom(0, nodes[node].bytes, work);
  sets.clear();
  auto [first, last] = time.ranks[node];
  headIndex->collect(first, last, sets);
  // Each raises the offset past what the other has in the way, until
  // both leave it in place.
  for (int64_t from = 0;;) {
    std::optional<int64_t> free = gaps.findFrom(from, nodes[node].bytes, work);
    if (!free)
      return std::nullopt;
    std::optional<int64_t> clear =
        OccupancyIndex::findLowest(sets, nodes[node].bytes, limit, work, *free);
    if (!clear || *clear == *free)
      return clear;
    from = *clear;
  }
}

/// How far ahead the sweep prefetches a node's data: the order goes by
/// time, the nodes' data by index, so each node is a cache miss otherwise.
static constexpr size_t kLookahead = 16;

void SweepPlacer::sweep(llvm::ArrayRef<unsigned> order, bool latestFirst) {
  FreeGaps gaps(limit);
  // Open nodes: (last rank they meet, first byte, end byte), soonest
  // closing on top.
  using Open = std::tuple<int64_t, int64_t, int64_t>;
  std::priority_queue<Open, std::vector<Open>, std::greater<Open>> open;
  int64_t now = std::numeric_limits<int64_t>::min();
  auto advanceTo = [&](unsigned node) {
    assert(getSpan(node, latestFirst).first >= now && "not a sweep");
    now = getSpan(node, latestFirst).first;
    for (; !open.empty() && std::get<0>(open.top()) < now; open.pop())
      gaps.release(std::get<1>(open.top()), std::get<2>(open.top()));
  };
  auto take = [&](unsigned node, int64_t address) {
    int64_t end = address + nodes[node].bytes;
    gaps.take(address, end);
    open.push({getSpan(node, latestFirst).second, address, end});
  };
  llvm::sort(fixedNodes, [&](unsigned a, unsigned b) {
    return getSpan(a, latestFirst) < getSpan(b, latestFirst);
  });
  for (unsigned node : fixedNodes) {
    advanceTo(node);
    take(node, fixed[node]->address);
  }
  for (auto [position, node] : llvm::enumerate(order)) {
    if (position + kLookahead < order.size()) {
      unsigned ahead = order[position + kLookahead];
      __builtin_prefetch(&nodes[ahead].bytes);
      __builtin_prefetch(&time.ranks[ahead]);
      __builtin_prefetch(&result.placements[ahead]);
    }
    // Never live, or no bytes: it meets nothing, as in the index (and a
    // node never live has no place in time to sweep to).
    std::optional<int64_t> offset;
    bool takes = nodes[node].live && nodes[node].bytes > 0;
    if (!takes) {
      if (nodes[node].bytes <= limit)
        offset = 0;
    } else {
      advanceTo(node);
      offset = findInSweep(gaps, node);
    }
    if (!offset) {
      result.spilled.push_back(node);
      continue;
    }
    place(node, *offset);
    if (takes)
      take(node, *offset);
  }
}

SbColoring SweepPlacer::finish() {
  if (headIndex)
    work += headIndex->getWork();
  llvm::sort(result.spilled);
  return std::move(result);
}

SbColoring walrus::placeSweeping(
    const InterferenceGraph &graph, const StartRanks &time,
    int64_t bytesPerPartition, llvm::ArrayRef<std::optional<SbPlacement>> fixed,
    llvm::ArrayRef<unsigned> head, llvm::ArrayRef<unsigned> forward,
    llvm::ArrayRef<unsigned> backward, uint64_t &work) {
  SweepPlacer placer(graph, time, bytesPerPartition, fixed, work);
  placer.placeHead(head);
  placer.sweep(forward, /*latestFirst=*/false);
  placer.sweep(backward, /*latestFirst=*/true);
  return placer.finish();
}

//===- Coloring.cpp - Chaitin-Briggs colouring in two dimensions --------===//
//
// Chaitin-Briggs with optimistic colouring (Briggs, Cooper, Torczon 1994),
// where a colour is a (partition band, byte offset) placement: a node has
// k = bands x (budget - bytes + 1) placements, and a placed neighbour takes
// at most impact = bands it can overlap x (bytes_i + bytes_j - 1) of them.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Placement/Coloring.h"
#include "Coloring/FirstFit.h"

#include "llvm/ADT/bit.h"
#include "llvm/Support/ThreadPool.h"

#include <queue>

using namespace llvm;
using namespace walrus;
using namespace walrus::placement;

namespace {
class Colorer {
public:
  Colorer(const Problem &graph, int64_t partitions, int64_t bytes,
          ArrayRef<std::optional<Place>> fixed,
          llvm::ThreadPoolInterface *threads)
      : graph(graph), nodes(graph.getNodes()), partitions(partitions),
        capacity(bytes), lowerBound(graph.getLowerBound()), fixed(fixed),
        threads(threads), impactTable(computeImpactTable(partitions)),
        granuleShift(computeGranuleShift()) {
    for (const Node &node : nodes)
      hasBlocks.push_back(!node.blocks.empty());
    anyBlocks = llvm::is_contained(hasBlocks, true);
  }

  Placement run() {
    // Select in three orders and keep the lowest peak that places every
    // node: left edge (by live-range start, larger first at a tie), which
    // packs chains of short ranges; largest area first, which keeps big
    // tensors from fragmenting the space; and Chaitin's order (the reverse
    // of simplification), which guarantees a place to every node simplify
    // found colourable. If all three leave nodes out, Chaitin's spills.
    // An order that reaches the lower bound cannot be beaten: the rest are
    // skipped, and simplification only runs when Chaitin's order is needed.
    SmallVector<unsigned> unfixed;
    for (unsigned i = 0; i < nodes.size(); ++i)
      if (!fixed[i])
        unfixed.push_back(i);
    // Everything placed already (a search placed the rest): nothing to
    // order or simplify.
    if (unfixed.empty())
      return *selectInOrder({}, std::nullopt);
    auto byKey = [&](auto key) {
      // Keys computed once: comparisons reading nodes[] miss the cache on
      // large graphs.
      SmallVector<std::pair<decltype(key(0u)), unsigned>> keyed;
      keyed.reserve(unfixed.size());
      for (unsigned index : unfixed)
        keyed.push_back({key(index), index});
      llvm::sort(keyed);
      return llvm::to_vector(llvm::make_second_range(keyed));
    };
    // Each order is sorted where it runs (side by side, on two threads).
    auto leftEdge = [&] {
      return byKey([&](unsigned i) {
        return std::make_pair(int64_t(nodes[i].range.start), -nodes[i].bytes);
      });
    };
    auto largestFirst = [&] {
      return byKey([&](unsigned i) {
        return std::make_pair(-nodes[i].bytes * nodes[i].partitions,
                              int64_t(nodes[i].range.start));
      });
    };
    // An order stops as soon as it cannot win: a node left out, or a peak
    // no lower than the best so far.
    std::optional<Placement> best;
    auto getBar = [&] { return best ? best->peakBytes : capacity + 1; };
    if (threads && unfixed.size() >= kNodesWorthThreads) {
      // Side by side, largest first cannot stop at left edge's peak, but
      // wins exactly when it would have: placing all, strictly lower.
      std::optional<Placement> byLeftEdge, byLargest;
      llvm::ThreadPoolTaskGroup group(*threads);
      group.async([&] { byLargest = selectInOrder(largestFirst(), getBar()); });
      byLeftEdge = selectInOrder(leftEdge(), getBar());
      group.wait();
      best = std::move(byLeftEdge);
      if (byLargest && (!best || byLargest->peakBytes < best->peakBytes))
        best = std::move(byLargest);
      if (best && best->peakBytes <= lowerBound)
        return std::move(*best);
    } else {
      for (function_ref<SmallVector<unsigned>()> order :
           {function_ref<SmallVector<unsigned>()>(leftEdge),
            function_ref<SmallVector<unsigned>()>(largestFirst)}) {
        if (std::optional<Placement> coloring =
                selectInOrder(order(), getBar()))
          best = std::move(*coloring);
        if (best && best->peakBytes <= lowerBound)
          return std::move(*best);
      }
    }
    simplify();
    SmallVector<unsigned> chaitin(stack.rbegin(), stack.rend());
    if (best) {
      std::optional<Placement> fallback = selectInOrder(chaitin, getBar());
      return fallback ? std::move(*fallback) : std::move(*best);
    }
    return *selectInOrder(chaitin, std::nullopt);
  }

private:
  int64_t getPlacements(const Node &node) const {
    return int64_t(getBandChoices(node.bandClass, partitions).size()) *
           (capacity - node.bytes + 1);
  }
  int64_t getImpact(unsigned i, unsigned j) const {
    return impactTable[nodes[i].bandClass][nodes[j].bandClass] *
           (nodes[i].bytes + nodes[j].bytes - 1);
  }
  /// The largest power of two dividing every size and fixed address, as
  /// a shift: every offset first fit finds is a multiple of it too.
  unsigned computeGranuleShift() const {
    uint64_t bits = 0;
    for (auto [node, place] : llvm::zip(nodes, fixed)) {
      bits |= uint64_t(node.bytes);
      if (place)
        bits |= uint64_t(place->address);
    }
    return bits ? llvm::countr_zero(bits) : 0;
  }
  /// Whether `i` placed from `baseI` and placed neighbour `j` from `baseJ`
  /// leave each other's bytes free: rows of one that die before the other
  /// lives there (their edge says only that their ranges overlap).
  bool missEachOther(unsigned i, int64_t baseI, unsigned j,
                     int64_t baseJ) const {
    return anyBlocks && (hasBlocks[i] || hasBlocks[j]) &&
           !shareRowsInTime(nodes[i], baseI, nodes[j], baseJ);
  }
  void simplify();
  /// Places nodes in `order`; with `bar`, gives up (nothing) as soon as a
  /// node finds no place or the peak reaches `bar`.
  std::optional<Placement> selectInOrder(ArrayRef<unsigned> order,
                                         std::optional<int64_t> bar) const;
  struct Placements;
  static constexpr size_t kPrefetchDistance = 8;
  void prefetchNode(unsigned index) const {
    __builtin_prefetch(&nodes[index]);
    for (ArrayRef<unsigned> part :
         {graph.getNeighborsBefore(index), graph.getNeighborsAfter(index)})
      for (size_t at = 0; at < part.size(); at += 64 / sizeof(unsigned))
        __builtin_prefetch(&part[at]);
  }
  std::optional<Place> place(unsigned index, Placements &placed) const;

  const Problem &graph;
  ArrayRef<Node> nodes;
  int64_t partitions, capacity, lowerBound;
  ArrayRef<std::optional<Place>> fixed;
  /// With threads, left edge and largest first run side by side on
  /// graphs this large (below, a thread costs more than it saves).
  static constexpr size_t kNodesWorthThreads = 10000;
  llvm::ThreadPoolInterface *threads;
  ImpactTable impactTable;
  unsigned granuleShift;
  /// Per node, whether some of its rows die before the rest (flat: the
  /// place() loop reads it per neighbour).
  std::vector<bool> hasBlocks;
  bool anyBlocks = false;
  SmallVector<unsigned> stack;
};
} // namespace

void Colorer::simplify() {
  size_t count = nodes.size();
  SmallVector<int64_t> pressure(count, 0), degree(count, 0);
  SmallVector<bool> removed(count, false), queued(count, false);
  for (unsigned i = 0; i < count; ++i) {
    degree[i] = graph.getDegree(i);
    for (unsigned j : graph.getNeighbors(i))
      pressure[i] += getImpact(i, j);
  }
  std::queue<unsigned> colorable;
  // Spill candidates by cost / degree^2, lowest first. A key only grows
  // as the degree falls, so an entry is refreshed lazily when it reaches
  // the top with a stale degree: the first current entry on top is the
  // true minimum, and removals cost no heap work.
  using Candidate = std::tuple<double, unsigned, int64_t>;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>>
      candidates;
  auto pushCandidate = [&](unsigned i) {
    double d = double(std::max<int64_t>(degree[i], 1));
    candidates.push({nodes[i].spillCost / (d * d), i, degree[i]});
  };
  auto consider = [&](unsigned i) {
    if (removed[i] || queued[i] || pressure[i] >= getPlacements(nodes[i]))
      return false;
    colorable.push(i);
    queued[i] = true;
    return true;
  };
  // Fixed nodes take no colour: they leave the graph first, and their
  // neighbours will see them placed.
  for (unsigned i = 0; i < count; ++i)
    if (fixed[i])
      removed[i] = true;
  for (unsigned i = 0; i < count; ++i)
    if (!fixed[i])
      for (unsigned j : graph.getNeighbors(i))
        if (fixed[j]) {
          pressure[i] -= getImpact(i, j);
          --degree[i];
        }
  for (unsigned i = 0; i < count; ++i)
    if (!removed[i] && !consider(i))
      pushCandidate(i);
  auto remove = [&](unsigned i) {
    removed[i] = true;
    stack.push_back(i);
    for (unsigned j : graph.getNeighbors(i)) {
      if (removed[j])
        continue;
      pressure[j] -= getImpact(j, i);
      --degree[j];
      consider(j);
    }
  };
  size_t done = llvm::count_if(fixed, [](auto place) { return bool(place); });
  while (done < count) {
    if (!colorable.empty()) {
      unsigned i = colorable.front();
      colorable.pop();
      remove(i);
      ++done;
      continue;
    }
    // Blocked: push the cheapest node optimistically; select may still
    // find it a place.
    auto [key, i, pushedDegree] = candidates.top();
    candidates.pop();
    if (removed[i] || queued[i])
      continue;
    if (pushedDegree != degree[i]) {
      pushCandidate(i);
      continue;
    }
    remove(i);
    ++done;
  }
}

/// Where one order placed each node so far, flat (place() reads it for
/// every neighbour: at millions of edges, a read of Node shows), and
/// scratch space (one per order, so that orders may run at once).
struct Colorer::Placements {
  Placements(size_t count, int64_t capacity, unsigned granuleShift)
      : first(count, -1), end(count, 0), base(count, 0),
        taken(capacity, granuleShift) {}
  /// -1: not placed.
  std::vector<int64_t> first, end, base;
  FirstFit taken;
};

std::optional<Place> Colorer::place(unsigned index, Placements &placed) const {
  const Node &node = nodes[index];
  // Two loops, not one over a concatenation: this is the hottest loop.
  ArrayRef<unsigned> neighbors[] = {graph.getNeighborsBefore(index),
                                    graph.getNeighborsAfter(index)};
  FirstFit &taken = placed.taken;
  // A tensor on all partitions meets every placed neighbour: no band to
  // choose and nothing to filter (every tensor of a 1-D problem).
  if (node.bandClass == unsigned(BandClass::Full)) {
    taken.clear();
    for (ArrayRef<unsigned> part : neighbors)
      for (unsigned j : part)
        if (placed.first[j] >= 0 && !missEachOther(index, 0, j, placed.base[j]))
          taken.take(placed.first[j], placed.end[j]);
    if (std::optional<int64_t> offset = taken.find(node.bytes))
      return Place{0, *offset};
    return std::nullopt;
  }
  std::optional<Place> best;
  for (auto [first, width] : getBandChoices(node.bandClass, partitions)) {
    taken.clear();
    for (ArrayRef<unsigned> part : neighbors)
      for (unsigned j : part) {
        if (placed.first[j] < 0)
          continue;
        int64_t theirFirst = placed.base[j];
        if (theirFirst < first + node.partitions &&
            first < theirFirst + nodes[j].partitions &&
            !missEachOther(index, first, j, theirFirst))
          taken.take(placed.first[j], placed.end[j]);
      }
    std::optional<int64_t> offset = taken.find(node.bytes);
    if (offset && (!best || *offset < best->address))
      best = Place{first, *offset};
  }
  return best;
}

std::optional<Placement>
Colorer::selectInOrder(ArrayRef<unsigned> order,
                       std::optional<int64_t> bar) const {
  Placement result;
  result.placements.assign(fixed.begin(), fixed.end());
  Placements placed(nodes.size(), capacity, granuleShift);
  auto record = [&](unsigned index, const Place &placement) {
    placed.first[index] = placement.address;
    placed.end[index] = placement.address + nodes[index].bytes;
    placed.base[index] = placement.basePartition;
    result.peakBytes = std::max(result.peakBytes, placed.end[index]);
  };
  for (auto [index, place] : llvm::enumerate(fixed))
    if (place)
      record(index, *place);
  for (auto [position, index] : llvm::enumerate(order)) {
    // Orders other than by start jump around the graph: fetch what a node
    // a few places ahead will read (its node and neighbour list), so that
    // the memory is not waited for one node at a time.
    if (position + kPrefetchDistance < order.size())
      prefetchNode(order[position + kPrefetchDistance]);
    std::optional<Place> placement = place(index, placed);
    result.placements[index] = placement;
    if (placement)
      record(index, *placement);
    else
      result.spilled.push_back(index);
    if (bar && (!result.spilled.empty() || result.peakBytes >= *bar))
      return std::nullopt;
  }
  llvm::sort(result.spilled);
  return result;
}

Placement walrus::placement::colorGraph(const Problem &graph,
                                        int64_t partitions, int64_t capacity,
                                        ArrayRef<std::optional<Place>> fixed,
                                        llvm::ThreadPoolInterface *threads) {
  return Colorer(graph, partitions, capacity, fixed, threads).run();
}

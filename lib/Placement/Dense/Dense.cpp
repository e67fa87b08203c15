//===- Dense.cpp - Placement of dense functions without edges -----------===//

#include "Walrus/Placement/Dense.h"
#include "Dense/OccupancyIndex.h"

#include "llvm/Support/MathExtras.h"
#include "llvm/Support/ThreadPool.h"

#include <atomic>

using namespace llvm;
using namespace walrus;
using namespace walrus::placement;

namespace {
/// One order placed: where each node went and what it cost.
struct Attempt {
  Placement coloring;
  uint64_t work = 0;
  /// Stopped before every node had its turn: the placement is partial.
  bool abandoned = false;

  /// Places everything, then lower; `other` wins ties.
  bool isBetterThan(const Attempt &other) const {
    return std::make_pair(coloring.spilled.size(), coloring.peakBytes) <
           std::make_pair(other.coloring.spilled.size(),
                          other.coloring.peakBytes);
  }
};

/// What one chain of orders found: its best attempt and how far it went.
struct Chain {
  Attempt best;
  uint64_t work = 0;
  unsigned orders = 0;
};

class DensePlacer {
public:
  DensePlacer(const Problem &graph, int64_t partitions, int64_t capacity,
              ArrayRef<std::optional<Place>> fixed)
      : nodes(graph.getNodes()), capacity(capacity),
        lowerBound(graph.getLowerBound()), fixed(fixed) {
    // Four lanes (quarters) when some tensor spans fewer partitions than
    // all: two places share a partition exactly when they share a lane,
    // as band choices start on quarter boundaries.
    lanes = graph.isOneDimensional() || partitions % 4 != 0 ? 1 : 4;
    int64_t laneWidth = partitions / lanes;
    StartRanks time = rankByStarts(nodes);
    points = time.points;
    ranks = std::move(time.ranks);
    for (const Node &node : nodes) {
      SmallVector<Choice, 4> &mine = choices.emplace_back();
      for (auto [first, width] : getBandChoices(node.bandClass, partitions)) {
        unsigned firstLane = lanes == 1 ? 0 : unsigned(first / laneWidth);
        unsigned endLane =
            lanes == 1 ? 1
                       : unsigned(llvm::divideCeil(first + node.partitions,
                                                   laneWidth));
        mine.push_back({first, firstLane, endLane});
      }
    }
  }

  SmallVector<unsigned> getLeftEdgeOrder() const {
    return sortUnfixed([&](unsigned i) {
      return std::make_pair(int64_t(nodes[i].range.start), -nodes[i].bytes);
    });
  }
  SmallVector<unsigned> getLargestFirstOrder() const {
    return sortUnfixed([&](unsigned i) {
      return std::make_pair(-nodes[i].bytes * nodes[i].partitions,
                            int64_t(nodes[i].range.start));
    });
  }

  /// Places `order` with `indexes` (one per lane, emptied first: their
  /// storage serves every order of a chain).
  /// With `stop`, gives up once it is set; past `workLimit`, gives up too
  /// (either way the attempt is then `abandoned`).
  Attempt place(ArrayRef<unsigned> order, std::vector<OccupancyIndex> &indexes,
                const std::atomic<bool> *stop = nullptr,
                uint64_t workLimit = UINT64_MAX) const;
  /// How a chain derives the next order from the last one placed.
  enum class Wheel {
    /// Nodes ending above the aim move to the front, as they are.
    ToFront,
    /// Nodes ending above the aim gain priority by how far above it,
    /// accumulated over the chain (the squeaky wheel's blame).
    Blame,
  };
  /// From `order`, new orders while the chain improves and work is left:
  /// the best attempt.
  Chain improve(SmallVector<unsigned> order, Wheel wheel, uint64_t workLimit,
                const std::atomic<bool> *stop) const;
  /// Turns `wheel` from `order` while it improves (at most kPatience
  /// orders in a row without) and `chain` has work left: the best attempt,
  /// with `order` set to the order that reached it.
  Attempt runWheel(SmallVector<unsigned> &order, Wheel wheel,
                   uint64_t workLimit, const std::atomic<bool> *stop,
                   std::vector<OccupancyIndex> &indexes, Chain &chain) const;
  bool isAtBound(const Attempt &attempt) const {
    return attempt.coloring.spilled.empty() &&
           attempt.coloring.peakBytes <= lowerBound;
  }

  /// The smallest nodes, this share of them, fill holes at first (with a
  /// larger share the large ones alone reach the bound and leave the
  /// small ones no room; with a smaller one an order costs more).
  static constexpr double kSmallShare = 0.6;
  std::vector<OccupancyIndex> makeIndexes() const {
    return std::vector<OccupancyIndex>(lanes, OccupancyIndex(points));
  }

private:
  struct Choice {
    int64_t base;
    unsigned firstLane, endLane;
  };

  template <typename Key> SmallVector<unsigned> sortUnfixed(Key key) const {
    SmallVector<std::pair<decltype(key(0u)), unsigned>> keyed;
    for (unsigned index = 0; index < nodes.size(); ++index)
      if (!fixed[index])
        keyed.push_back({key(index), index});
    llvm::sort(keyed);
    return llvm::to_vector(llvm::make_second_range(keyed));
  }

  /// How far above `aim` each node of `order` ends, as a share of the
  /// way from `aim` to `height` (1 for those without a place).
  SmallVector<double> getExcess(ArrayRef<unsigned> order,
                                const Attempt &attempt, int64_t aim,
                                int64_t height) const;

  ArrayRef<Node> nodes;
  int64_t capacity, lowerBound;
  ArrayRef<std::optional<Place>> fixed;
  unsigned lanes = 1, points = 1;
  /// Per node its live range over the distinct starts (rankByStarts).
  std::vector<std::pair<unsigned, unsigned>> ranks;
  SmallVector<SmallVector<Choice, 4>> choices;
  /// Orders in a row that may improve nothing before a chain stops.
  static constexpr unsigned kPatience = 8;
};
} // namespace

Attempt DensePlacer::place(ArrayRef<unsigned> order,
                           std::vector<OccupancyIndex> &indexes,
                           const std::atomic<bool> *stop,
                           uint64_t workLimit) const {
  Attempt attempt;
  Placement &result = attempt.coloring;
  result.placements.assign(fixed.begin(), fixed.end());
  for (OccupancyIndex &index : indexes)
    index.clear();
  auto record = [&](unsigned index, const Choice &choice, int64_t address) {
    const Node &node = nodes[index];
    result.peakBytes = std::max(result.peakBytes, address + node.bytes);
    if (!node.live)
      return;
    for (unsigned lane = choice.firstLane; lane < choice.endLane; ++lane)
      indexes[lane].insert(ranks[index].first, ranks[index].second, address,
                           address + node.bytes);
  };
  for (auto [index, place] : llvm::enumerate(fixed)) {
    if (!place)
      continue;
    // A fixed place takes the lanes of its partitions.
    const Choice *taken = &choices[index].front();
    for (const Choice &choice : choices[index])
      if (choice.base == place->basePartition)
        taken = &choice;
    record(index, *taken, place->address);
  }
  SmallVector<const OccupancyIndex::ByteRanges *, 64> sets;
  // First fit: the lowest offset over the node's band choices.
  auto placeFirstFit = [&](unsigned index) {
    const Node &node = nodes[index];
    std::optional<std::pair<const Choice *, int64_t>> best;
    for (const Choice &choice : choices[index]) {
      sets.clear();
      if (node.live)
        for (unsigned lane = choice.firstLane; lane < choice.endLane; ++lane)
          indexes[lane].collect(ranks[index].first, ranks[index].second, sets);
      std::optional<int64_t> offset =
          OccupancyIndex::findLowest(sets, node.bytes, capacity, attempt.work);
      if (offset && (!best || *offset < best->second))
        best = {&choice, *offset};
    }
    if (!best)
      return false;
    result.placements[index] = Place{best->first->base, best->second};
    record(index, *best->first, best->second);
    return true;
  };
  auto getWork = [&] {
    uint64_t work = attempt.work;
    for (const OccupancyIndex &index : indexes)
      work += index.getWork();
    return work;
  };
  for (auto [position, index] : llvm::enumerate(order)) {
    if (!placeFirstFit(index))
      result.spilled.push_back(index);
    if (position + 1 < order.size() &&
        ((stop && *stop) || getWork() > workLimit)) {
      attempt.abandoned = true;
      break;
    }
  }
  attempt.work = getWork();
  llvm::sort(result.spilled);
  return attempt;
}

SmallVector<double> DensePlacer::getExcess(ArrayRef<unsigned> order,
                                           const Attempt &attempt, int64_t aim,
                                           int64_t height) const {
  SmallVector<double> excess;
  excess.reserve(order.size());
  for (unsigned index : order) {
    const std::optional<Place> &place = attempt.coloring.placements[index];
    if (!place) {
      excess.push_back(1);
      continue;
    }
    int64_t over = place->address + nodes[index].bytes - aim;
    excess.push_back(
        over <= 0 ? 0 : std::min(1.0, double(over) / double(height - aim)));
  }
  return excess;
}

Attempt DensePlacer::runWheel(SmallVector<unsigned> &order, Wheel wheel,
                              uint64_t workLimit, const std::atomic<bool> *stop,
                              std::vector<OccupancyIndex> &indexes,
                              Chain &chain) const {
  Attempt current = place(order, indexes);
  chain.work += current.work;
  ++chain.orders;
  Attempt best = current;
  SmallVector<unsigned> bestOrder = order;
  // Blame: each node's priority (lower goes first), from its first place.
  SmallVector<double> priority(nodes.size(), 0);
  for (auto [position, index] : llvm::enumerate(order))
    priority[index] = double(position);
  for (unsigned stale = 0; stale < kPatience && chain.work < workLimit &&
                           !isAtBound(best) && !(stop && *stop);) {
    // Aim between the lower bound and where this order ended (the
    // budget, if something found no place): blame halfway, to the front a
    // tenth of the way, so that more nodes move (the two chains differ;
    // on step traces this took 60k from 1.00026 to 1.00007 of the bound).
    int64_t height = current.coloring.spilled.empty()
                         ? current.coloring.peakBytes
                         : capacity;
    int64_t aim =
        lowerBound + (height - lowerBound) / (wheel == Wheel::Blame ? 2 : 10);
    SmallVector<double> excess = getExcess(order, current, aim, height);
    // Stable: ties keep the last order.
    SmallVector<std::tuple<double, unsigned, unsigned>> keyed;
    for (auto [position, index] : llvm::enumerate(order)) {
      double key;
      if (wheel == Wheel::ToFront) {
        key = excess[position] > 0 ? 0 : 1;
      } else {
        // Half the order's length at most per round.
        priority[index] -= excess[position] * double(order.size()) / 2;
        key = priority[index];
      }
      keyed.push_back({key, unsigned(position), index});
    }
    llvm::sort(keyed);
    for (auto [position, entry] : llvm::enumerate(keyed))
      order[position] = std::get<2>(entry);
    current = place(order, indexes);
    chain.work += current.work;
    ++chain.orders;
    if (current.isBetterThan(best)) {
      best = current;
      bestOrder = order;
      stale = 0;
    } else {
      ++stale;
    }
  }
  order = std::move(bestOrder);
  return best;
}

Chain DensePlacer::improve(SmallVector<unsigned> order, Wheel wheel,
                           uint64_t workLimit,
                           const std::atomic<bool> *stop) const {
  Chain chain;
  std::vector<OccupancyIndex> indexes = makeIndexes();
  // Small nodes fill holes: the orders place the large ones alone, and the
  // best of those is completed with the small ones, in the order given.
  // While work is left, a third of the small ones then become large and
  // the wheel turns again from the completed order (the small ones may be
  // what ends too high).
  SmallVector<int64_t> sizes;
  for (unsigned index : order)
    sizes.push_back(nodes[index].bytes);
  llvm::sort(sizes);
  std::optional<Attempt> chainBest;
  for (double share = kSmallShare;; share = share * 2 / 3) {
    int64_t smallBelow =
        share < 0.05 || sizes.empty() ? 0 : sizes[size_t(share * sizes.size())];
    SmallVector<unsigned> large, small;
    for (unsigned index : order)
      (nodes[index].bytes < smallBelow ? small : large).push_back(index);
    Attempt best = runWheel(large, wheel, workLimit, stop, indexes, chain);
    order = std::move(large);
    order.append(small.begin(), small.end());
    if (!small.empty()) {
      best = place(order, indexes);
      chain.work += best.work;
      ++chain.orders;
    }
    if (!chainBest || best.isBetterThan(*chainBest))
      chainBest = std::move(best);
    if (isAtBound(*chainBest) || small.empty() || chain.work >= workLimit ||
        (stop && *stop)) {
      chain.best = std::move(*chainBest);
      return chain;
    }
  }
}

/// With room, the blame chain's own capacity: the lower bound and this
/// share of it more (about what first fit loses on dense traces; the
/// window search's margin too).
static constexpr int64_t kOwnLimitShare = 1024;

/// The capacity the blame chain places below. With room, one of its own:
/// the orders that leave a node out there steer its wheel from the first
/// order on, where with room the first order may end far above the bound
/// and the aims come down with the orders. What its best order left out
/// goes above, last. Over partition bands the bound (bytes over all lanes)
/// is often far out of reach, and leaving out is then all its orders would
/// do: only when every node spans every partition.
static int64_t getBlameCapacity(const Problem &graph, int64_t capacity) {
  int64_t lowerBound = graph.getLowerBound(), tight;
  if (graph.isOneDimensional() &&
      !llvm::AddOverflow(lowerBound, lowerBound / kOwnLimitShare + 1, tight))
    return std::min(capacity, tight);
  return capacity;
}

DensePlacement walrus::placement::placeDense(
    const Problem &graph, int64_t partitions, int64_t capacity,
    ArrayRef<std::optional<Place>> fixed, uint64_t workLimit,
    llvm::ThreadPoolInterface *threads) {
  DensePlacer placer(graph, partitions, capacity, fixed);
  int64_t ownLimit = getBlameCapacity(graph, capacity);
  std::optional<DensePlacer> ownPlacer;
  if (ownLimit < capacity)
    ownPlacer.emplace(graph, partitions, ownLimit, fixed);
  const DensePlacer &blamePlacer = ownPlacer ? *ownPlacer : placer;
  // Two chains from the left-edge order, one per wheel, each with the
  // whole budget, and largest first once (the greedy production
  // allocators use), so that no result is worse than it when it completes
  // within half the budget: three tasks, the last on its own thread. On
  // step traces its probes cost the most of any order (1.7 s alone at 60k
  // buffers, more than a chain), so it is abandoned past half the budget,
  // counted in work like everything else: the same on any machine. The
  // second chain and largest first stop early only when the first chain
  // reached the lower bound, where they cannot win: with or without
  // threads, the same result.
  std::atomic<bool> firstDone = false;
  std::optional<Chain> byBlame, toFront;
  std::optional<Attempt> largest;
  auto runFirst = [&] {
    byBlame =
        blamePlacer.improve(blamePlacer.getLeftEdgeOrder(),
                            DensePlacer::Wheel::Blame, workLimit, nullptr);
    firstDone = placer.isAtBound(byBlame->best);
  };
  auto runSecond = [&] {
    toFront =
        placer.improve(placer.getLeftEdgeOrder(), DensePlacer::Wheel::ToFront,
                       workLimit, &firstDone);
  };
  auto runLargest = [&] {
    std::vector<OccupancyIndex> indexes = placer.makeIndexes();
    largest = placer.place(placer.getLargestFirstOrder(), indexes, &firstDone,
                           workLimit / 2);
  };
  if (threads) {
    llvm::ThreadPoolTaskGroup group(*threads);
    group.async(runLargest);
    group.async(runSecond);
    runFirst();
    group.wait();
  } else {
    runFirst();
    if (!firstDone) {
      runSecond();
      runLargest();
    }
  }
  // The best, the first chain winning ties: with or without threads the
  // others ran to the end exactly when it did not reach the bound.
  DensePlacement result;
  result.work = byBlame->work;
  result.orders = byBlame->orders;
  Placement &blamed = byBlame->best.coloring;
  if (ownPlacer && !blamed.spilled.empty())
    blamed = placeInOrder(graph, partitions, capacity, blamed.placements,
                          blamed.spilled, result.work);
  Attempt *best = &byBlame->best;
  if (!firstDone) {
    for (Attempt *other : {&toFront->best, &*largest})
      if (!other->abandoned && other->isBetterThan(*best))
        best = other;
    result.work += toFront->work + largest->work;
    result.orders += toFront->orders + (largest->abandoned ? 0 : 1);
  }
  result.coloring = std::move(best->coloring);
  return result;
}

Placement walrus::placement::placeInOrder(const Problem &graph,
                                          int64_t partitions, int64_t capacity,
                                          ArrayRef<std::optional<Place>> fixed,
                                          ArrayRef<unsigned> order,
                                          uint64_t &work) {
  DensePlacer placer(graph, partitions, capacity, fixed);
  std::vector<OccupancyIndex> indexes = placer.makeIndexes();
  Attempt attempt = placer.place(order, indexes);
  work += attempt.work;
  return std::move(attempt.coloring);
}

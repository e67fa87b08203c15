//===- SbDenseWindow.cpp - Exact search where a dense placement peaks -----===//

#include "Walrus/Analysis/SbDenseWindow.h"
#include "OccupancyIndex.h"
#include "Walrus/Analysis/SbDense.h"
#include "Walrus/Analysis/SbSearch.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace llvm;
using namespace walrus;

namespace {
/// Start ranks [first, last], both included.
struct Window {
  unsigned first, last;
};

class WindowPlacer {
public:
  WindowPlacer(const InterferenceGraph &graph, int64_t partitions,
               uint64_t maxSearchWork, unsigned maxOrders,
               llvm::ThreadPoolInterface *threads)
      : graph(graph), nodes(graph.getNodes()), partitions(partitions),
        maxSearchWork(maxSearchWork), maxOrders(maxOrders), threads(threads),
        time(rankByStarts(nodes)) {}

  /// The bytes live at each start rank (whole ranges: row blocks make the
  /// graph's bound lower, not the dense path's) and their largest sum;
  /// false when a sum does not fit in 64 bits.
  bool computeLoads();
  int64_t getAreaBound() const { return areaBound; }

  /// Every node placed within `height`, the window grown around the points
  /// within `margin` of it, or nothing.
  std::optional<SbColoring> fitUnder(int64_t height, int64_t margin,
                                     WindowPlacement &result);

private:
  enum class Outcome { Placed, SearchFailed, OthersFailed, TooLarge };
  /// Places the tensors live in `window` by the search, then the others
  /// by first fit: `placed` when all fit, else `unplaced` lists the
  /// others that did not.
  Outcome tryWindow(Window window, int64_t height, ArrayRef<unsigned> early,
                    WindowPlacement &result, std::optional<SbColoring> &placed,
                    SmallVectorImpl<unsigned> &unplaced);

  /// Past this many tensors live over part of a window the search rarely
  /// finishes within its budget (hard-1000 instances take it all).
  static constexpr size_t kMaxWindowTensors = 1024;
  /// Start ranks added on each side of the full points at first; doubled
  /// each time first fit cannot place the others around the window.
  static constexpr unsigned kFirstExtent = 8;
  /// Tensors first fit may leave out for the window to grow again.
  static constexpr size_t kMaxUnplaced = 64;

  const InterferenceGraph &graph;
  ArrayRef<SbNode> nodes;
  int64_t partitions;
  uint64_t maxSearchWork;
  unsigned maxOrders;
  llvm::ThreadPoolInterface *threads;
  StartRanks time;
  std::vector<int64_t> loads;
  int64_t areaBound = 0;
};
} // namespace

bool WindowPlacer::computeLoads() {
  std::vector<int64_t> change(time.points + 1, 0);
  for (auto [index, node] : llvm::enumerate(nodes)) {
    if (!node.live)
      continue;
    auto [first, last] = time.ranks[index];
    if (llvm::AddOverflow(change[first], node.bytes, change[first]) ||
        llvm::SubOverflow(change[last + 1], node.bytes, change[last + 1]))
      return false;
  }
  int64_t live = 0;
  for (unsigned point = 0; point < time.points; ++point) {
    if (llvm::AddOverflow(live, change[point], live))
      return false;
    loads.push_back(live);
    areaBound = std::max(areaBound, live);
  }
  return true;
}

WindowPlacer::Outcome
WindowPlacer::tryWindow(Window window, int64_t height, ArrayRef<unsigned> early,
                        WindowPlacement &result,
                        std::optional<SbColoring> &placed,
                        SmallVectorImpl<unsigned> &unplaced) {
  // Tensors live over the whole window can go below all others there
  // (lowering one lifts only what was under it), so they stack at the
  // bottom and the search places those live over part of it.
  SmallVector<unsigned> whole, partial, others;
  for (auto [index, node] : llvm::enumerate(nodes)) {
    auto [first, last] = time.ranks[index];
    if (!node.live || last < window.first || first > window.last)
      others.push_back(index);
    else if (first <= window.first && last >= window.last)
      whole.push_back(index);
    else
      partial.push_back(index);
  }
  if (partial.size() > kMaxWindowTensors)
    return Outcome::TooLarge;
  // No overflow: the whole ones are live together at the window's start.
  int64_t base = 0;
  for (unsigned index : whole)
    base += nodes[index].bytes;
  SmallVector<SearchBuffer> buffers;
  for (unsigned index : partial) {
    auto [first, last] = time.ranks[index];
    buffers.push_back({std::max(first, window.first) - window.first,
                       std::min(last, window.last) - window.first,
                       nodes[index].bytes});
  }
  SearchResult found = searchPlacement(
      buffers, height - base,
      std::min(maxSearchWork - result.searchWork, maxSearchWork / 8), threads);
  result.searchWork += found.work;
  if (!found.offsets)
    return Outcome::SearchFailed;
  ++result.windowsPlaced;

  SmallVector<std::optional<SbPlacement>> fixed(nodes.size());
  // The longest lived lowest: outside the window they are what stays.
  llvm::sort(whole, [&](unsigned a, unsigned b) {
    auto length = [&](unsigned index) {
      return nodes[index].range.end - nodes[index].range.start;
    };
    return length(a) != length(b) ? length(a) > length(b) : a < b;
  });
  int64_t offset = 0;
  for (unsigned index : whole) {
    fixed[index] = SbPlacement{0, offset};
    offset += nodes[index].bytes;
  }
  for (auto [index, address] : llvm::zip_equal(partial, *found.offsets))
    fixed[index] = SbPlacement{0, base + address};
  // The others outwards from the window, by their edges nearest it: left
  // edge order on each side, seen from the window. The nearest are the
  // most constrained, and they still find the bytes around it free.
  auto distance = [&](unsigned index) {
    auto [first, last] = time.ranks[index];
    return first > window.last ? first - window.last : window.first - last;
  };
  llvm::DenseMap<unsigned, unsigned> earlyRank;
  for (auto [rank, index] : llvm::enumerate(early))
    earlyRank.try_emplace(index, rank);
  auto key = [&](unsigned index) {
    return std::make_tuple(earlyRank.lookup_or(index, early.size()),
                           distance(index), -nodes[index].bytes, index);
  };
  llvm::sort(others, [&](unsigned a, unsigned b) { return key(a) < key(b); });
  SbColoring coloring =
      placeInOrder(graph, partitions, height, fixed, others, result.placeWork);
  ++result.orders;
  if (!coloring.spilled.empty()) {
    unplaced = std::move(coloring.spilled);
    return Outcome::OthersFailed;
  }
  placed = std::move(coloring);
  return Outcome::Placed;
}

std::optional<SbColoring> WindowPlacer::fitUnder(int64_t height, int64_t margin,
                                                 WindowPlacement &result) {
  std::optional<Window> window;
  for (unsigned point = 0; point < time.points; ++point)
    if (loads[point] > height - margin)
      window = Window{window ? window->first : point, point};
  if (!window)
    return std::nullopt;
  // Tensors that first fit left out in a roomy place, first in the order.
  SmallVector<unsigned> early;
  for (unsigned extent = kFirstExtent;; extent *= 2) {
    window->first -= std::min(window->first, extent);
    window->last = unsigned(
        std::min<uint64_t>(time.points - 1, uint64_t(window->last) + extent));
    std::optional<SbColoring> placed;
    SmallVector<unsigned> unplaced;
    Outcome outcome =
        tryWindow(*window, height, early, result, placed, unplaced);
    if (outcome == Outcome::Placed)
      return placed;
    // A larger window holds a smaller one's problem: where the search
    // failed on this one, it would fail there too, or run out of work.
    bool whole = window->first == 0 && window->last == time.points - 1;
    // Many left out: the trouble is not around the window (and finding
    // where each one is full costs its whole live range).
    if (outcome != Outcome::OthersFailed || whole ||
        unplaced.size() > kMaxUnplaced || result.searchWork >= maxSearchWork ||
        result.orders >= maxOrders)
      return std::nullopt;
    // A tensor first fit left out where many bytes are free found no
    // hole large enough in that order: it goes first. One left out next
    // to the window where few are, or again though it went first: the
    // window grows up to its near edge (so that the search places it),
    // and further each time.
    unsigned width = window->last - window->first + 1;
    Window grown = *window;
    for (unsigned index : unplaced) {
      auto [first, last] = time.ranks[index];
      int64_t busiest =
          *std::max_element(loads.begin() + first, loads.begin() + last + 1);
      bool after = first > window->last;
      unsigned distance = after ? first - window->last : window->first - last;
      bool roomy =
          busiest <= height - margin && !llvm::is_contained(early, index);
      if (roomy || distance > width)
        early.push_back(index);
      else if (after)
        grown.last = std::max(grown.last, first);
      else
        grown.first = std::min(grown.first, last);
    }
    window = grown;
  }
}

WindowPlacement
walrus::placeByWindowSearch(const InterferenceGraph &graph, int64_t partitions,
                            int64_t bytesPerPartition, uint64_t maxSearchWork,
                            unsigned maxOrders,
                            llvm::ThreadPoolInterface *threads) {
  WindowPlacement result;
  if (llvm::any_of(graph.getNodes(), [](const SbNode &node) {
        return node.bandClass != unsigned(BandClass::Full);
      }))
    return result;
  WindowPlacer placer(graph, partitions, maxSearchWork, maxOrders, threads);
  if (!placer.computeLoads() || placer.getAreaBound() > bytesPerPartition)
    return result;
  // Around the points within a thousandth of the bound: about what first
  // fit loses on dense traces.
  int64_t bound = placer.getAreaBound();
  result.coloring = placer.fitUnder(bound, bound / 1024 + 1, result);
  return result;
}

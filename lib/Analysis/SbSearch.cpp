//===- SbSearch.cpp - Bounded search for a 1-D placement ------------------===//
//
// Time is cut into sections at every buffer's start and end; each section
// has a height (the top of what is placed over it so far). A step takes
// the lowest section that an unplaced buffer still covers and either puts
// there one of the buffers whose floor (the highest section under it) is
// that height, or, when none fits, gives the section up as dead space up
// to the next height around it. Placing in this order is MiniMalloc's
// canonical bottom-up order: offsets never decrease along a branch.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/SbSearch.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <random>
#include <tuple>

using namespace walrus;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
/// How a search orders the candidates at a section: larger then longer
/// first, longer then larger first, or (seed > 0) by a random mix of size
/// and length with random tie-breaks.
struct CandidateOrder {
  bool longestFirst = false;
  uint64_t seed = 0;
};

class Search {
public:
  Search(ArrayRef<SearchBuffer> input, int64_t capacity, uint64_t maxWork,
         CandidateOrder order)
      : capacity(capacity), maxWork(maxWork) {
    SmallVector<SearchBuffer> ranges = compressTime(input);
    SmallVector<unsigned> cuts;
    for (const SearchBuffer &buffer : ranges) {
      cuts.push_back(buffer.start);
      cuts.push_back(buffer.end + 1);
    }
    llvm::sort(cuts);
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    auto sectionOf = [&](unsigned point) {
      return unsigned(llvm::lower_bound(cuts, point) - cuts.begin());
    };
    size_t sections = cuts.empty() ? 0 : cuts.size() - 1;
    height.assign(sections, 0);
    remaining.assign(sections, 0);
    covering.resize(sections);
    for (const SearchBuffer &buffer : ranges) {
      Item item{sectionOf(buffer.start), sectionOf(buffer.end + 1),
                buffer.bytes};
      for (unsigned s = item.first; s < item.last; ++s) {
        remaining[s] += item.bytes;
        covering[s].push_back(items.size());
      }
      items.push_back(item);
    }
    SmallVector<double> mixed = getMixedPriorities(order.seed);
    for (SmallVector<unsigned> &list : covering)
      llvm::sort(list, [&](unsigned a, unsigned b) {
        const Item &x = items[a], &y = items[b];
        int64_t xLength = x.last - x.first, yLength = y.last - y.first;
        if (order.seed)
          return std::make_pair(mixed[a], a) < std::make_pair(mixed[b], b);
        if (order.longestFirst)
          return std::make_tuple(-xLength, -x.bytes, a) <
                 std::make_tuple(-yLength, -y.bytes, b);
        return std::make_tuple(-x.bytes, -xLength, a) <
               std::make_tuple(-y.bytes, -yLength, b);
      });
    offsets.assign(items.size(), -1);
  }

  SearchResult run() {
    SearchResult result;
    for (unsigned s = 0; s < height.size(); ++s)
      if (remaining[s] > capacity)
        return result;
    if (descend(items.size()))
      result.offsets = offsets;
    result.work = work;
    return result;
  }

private:
  /// The same overlaps on the fewest time points: starts move back to the
  /// last end before them. Program points separate instructions, so a
  /// buffer written by the second of two instructions would otherwise leave
  /// a sliver of dead space under the first, which the search must fill.
  static SmallVector<SearchBuffer> compressTime(ArrayRef<SearchBuffer> input) {
    // (point, 0 = start / 1 = end, buffer): closed ranges, so at one point
    // starts come first.
    SmallVector<std::tuple<unsigned, unsigned, unsigned>> events;
    for (auto [index, buffer] : llvm::enumerate(input)) {
      events.push_back({buffer.start, 0, index});
      events.push_back({buffer.end, 1, index});
    }
    llvm::sort(events);
    SmallVector<SearchBuffer> ranges(input.begin(), input.end());
    unsigned time = 0;
    bool afterEnd = false;
    for (auto [point, isEnd, index] : events) {
      if (!isEnd) {
        time += afterEnd;
        afterEnd = false;
        ranges[index].start = time;
      } else {
        ranges[index].end = time;
        afterEnd = true;
      }
    }
    return ranges;
  }

  struct Item {
    unsigned first, last; // sections [first, last)
    int64_t bytes;
  };

  /// Lower first: a random weighting of size against length, plus noise.
  /// std::mt19937_64's output is fixed by the standard, so the order is the
  /// same on every platform.
  SmallVector<double> getMixedPriorities(uint64_t seed) const {
    SmallVector<double> priorities(items.size(), 0);
    if (!seed || items.empty())
      return priorities;
    std::mt19937_64 random(seed);
    auto uniform = [&] { return double(random() >> 11) * 0x1.0p-53; };
    double sizeWeight = uniform();
    int64_t largest = 1, longest = 1;
    for (const Item &item : items) {
      largest = std::max(largest, item.bytes);
      longest = std::max<int64_t>(longest, item.last - item.first);
    }
    for (auto [index, item] : llvm::enumerate(items))
      priorities[index] =
          -(sizeWeight * double(item.bytes) / double(largest) +
            (1 - sizeWeight) * double(item.last - item.first) /
                double(longest)) +
          0.1 * uniform();
    return priorities;
  }

  int64_t getFloor(const Item &item) const {
    int64_t floor = 0;
    for (unsigned s = item.first; s < item.last; ++s)
      floor = std::max(floor, height[s]);
    return floor;
  }

  /// The lowest section some unplaced buffer covers (leftmost on ties).
  std::optional<unsigned> getLowestOpenSection() const {
    std::optional<unsigned> lowest;
    for (unsigned s = 0; s < height.size(); ++s)
      if (remaining[s] > 0 && (!lowest || height[s] < height[*lowest]))
        lowest = s;
    return lowest;
  }

  bool descend(size_t unplaced) {
    if (unplaced == 0)
      return true;
    work += height.size();
    if (work > maxWork)
      return false;
    std::optional<unsigned> section = getLowestOpenSection();
    if (!section)
      return false;
    int64_t level = height[*section];
    for (unsigned index : covering[*section]) {
      Item &item = items[index];
      if (offsets[index] >= 0)
        continue;
      work += item.last - item.first;
      if (getFloor(item) != level)
        continue;
      if (place(index, level)) {
        if (descend(unplaced - 1))
          return true;
        unplace(index);
      }
      if (work > maxWork)
        return false;
    }
    // Nothing sits here at this level: the section stays empty up to the
    // next height beside it or the lowest floor of what covers it.
    int64_t next = capacity + 1;
    for (unsigned neighbor : {*section - 1, *section + 1})
      if (neighbor < height.size() && height[neighbor] > level)
        next = std::min(next, height[neighbor]);
    for (unsigned index : covering[*section])
      if (offsets[index] < 0) {
        int64_t floor = getFloor(items[index]);
        if (floor > level)
          next = std::min(next, floor);
      }
    if (next + remaining[*section] > capacity)
      return false;
    height[*section] = next;
    if (descend(unplaced))
      return true;
    height[*section] = level;
    return false;
  }

  /// Puts item `index` at `offset` unless a section it covers would then
  /// not hold what remains to be placed over it.
  bool place(unsigned index, int64_t offset) {
    const Item &item = items[index];
    for (unsigned s = item.first; s < item.last; ++s)
      if (offset + item.bytes + remaining[s] - item.bytes > capacity)
        return false;
    saved.push_back({});
    for (unsigned s = item.first; s < item.last; ++s) {
      saved.back().push_back(height[s]);
      height[s] = offset + item.bytes;
      remaining[s] -= item.bytes;
    }
    offsets[index] = offset;
    return true;
  }

  void unplace(unsigned index) {
    const Item &item = items[index];
    SmallVector<int64_t> previous = saved.pop_back_val();
    for (unsigned s = item.first; s < item.last; ++s) {
      height[s] = previous[s - item.first];
      remaining[s] += item.bytes;
    }
    offsets[index] = -1;
  }

  int64_t capacity;
  uint64_t maxWork;
  uint64_t work = 0;
  SmallVector<Item> items;
  SmallVector<int64_t> height, remaining, offsets;
  SmallVector<SmallVector<unsigned>> covering;
  SmallVector<SmallVector<int64_t>> saved;
};
} // namespace

SearchResult walrus::searchPlacement(ArrayRef<SearchBuffer> buffers,
                                     int64_t capacity, uint64_t maxWork) {
  // Depth-first search on these problems is heavy-tailed: a search stuck
  // deep in one order's tree is often quick in another's. So a portfolio
  // of restarts shares the budget: the two natural orders first, then
  // seeded random ones (deterministic, like everything else).
  constexpr unsigned kRestarts = 16;
  SearchResult result;
  for (unsigned restart = 0; restart < kRestarts; ++restart) {
    CandidateOrder order{restart == 1, restart < 2 ? 0 : uint64_t(restart)};
    SearchResult attempt =
        Search(buffers, capacity, maxWork / kRestarts, order).run();
    result.work += attempt.work;
    if (attempt.offsets) {
      result.offsets = std::move(attempt.offsets);
      break;
    }
  }
  return result;
}

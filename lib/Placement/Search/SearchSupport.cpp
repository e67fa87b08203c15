//===- SearchSupport.cpp - What the placement searches share -------------===//

#include "Search/SearchSupport.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <random>
#include <tuple>

using namespace walrus;
using namespace walrus::placement;
using llvm::ArrayRef;
using llvm::SmallVector;
using llvm::SmallVectorImpl;

/// The same overlaps on the fewest time points.
static SmallVector<SearchBuffer>
compressLiveRanges(ArrayRef<SearchBuffer> buffers) {
  // (point, 0 = start / 1 = end, buffer): closed ranges, so at one point
  // starts come first.
  SmallVector<std::tuple<unsigned, unsigned, unsigned>> events;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    events.push_back({buffer.start, 0, index});
    events.push_back({buffer.end, 1, index});
  }
  llvm::sort(events);
  SmallVector<SearchBuffer> ranges(buffers.begin(), buffers.end());
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

Sections walrus::placement::cutIntoSections(ArrayRef<SearchBuffer> buffers) {
  SmallVector<SearchBuffer> ranges = compressLiveRanges(buffers);
  SmallVector<unsigned> cuts;
  for (const SearchBuffer &range : ranges) {
    cuts.push_back(range.start);
    cuts.push_back(range.end + 1);
  }
  llvm::sort(cuts);
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  auto sectionOf = [&](unsigned point) {
    return unsigned(llvm::lower_bound(cuts, point) - cuts.begin());
  };
  Sections sections;
  sections.count = cuts.empty() ? 0 : cuts.size() - 1;
  for (const SearchBuffer &range : ranges)
    sections.spans.push_back(
        {sectionOf(range.start), sectionOf(range.end + 1)});
  return sections;
}

SmallVector<double> walrus::placement::getNoisyRanks(ArrayRef<unsigned> order,
                                                     uint64_t seed) {
  SmallVector<double> rank(order.size());
  std::mt19937_64 random(seed);
  double spread = seed ? 0.2 * double(order.size()) : 0;
  for (auto [position, index] : llvm::enumerate(order))
    rank[index] =
        double(position) + spread * double(random() >> 11) * 0x1.0p-53;
  return rank;
}

std::optional<unsigned>
walrus::placement::findIndependentSplit(unsigned first, unsigned last,
                                        ArrayRef<int64_t> left,
                                        ArrayRef<unsigned> crossing) {
  for (unsigned s = first; s + 1 < last; ++s)
    if (left[s] > 0 && crossing[s] == 0)
      return s + 1;
  return std::nullopt;
}

bool FixedLists::sortAndCheck(int64_t capacity) {
  next.assign(lists.size(), 0);
  for (SmallVectorImpl<Fixed> &list : lists) {
    llvm::sort(list, [](const Fixed &a, const Fixed &b) {
      return std::make_tuple(a.offset, a.bytes, a.index) <
             std::make_tuple(b.offset, b.bytes, b.index);
    });
    for (auto [position, fixed] : llvm::enumerate(list)) {
      if (fixed.bytes > capacity || fixed.offset > capacity - fixed.bytes)
        return false;
      if (position > 0 &&
          list[position - 1].offset + list[position - 1].bytes > fixed.offset)
        return false;
    }
  }
  return true;
}

int64_t FixedLists::getEndInTheWay(unsigned place, int64_t level, int64_t bytes,
                                   uint64_t &work) const {
  ArrayRef<Fixed> unplaced = ArrayRef(lists[place]).drop_front(next[place]);
  work += 1 + llvm::Log2_64_Ceil(unplaced.size() + 1);
  auto first = llvm::partition_point(unplaced, [&](const Fixed &fixed) {
    return fixed.offset + fixed.bytes <= level;
  });
  if (first != unplaced.end() && first->offset < level + bytes)
    return first->offset + first->bytes;
  return level;
}

uint64_t walrus::placement::mixBits(uint64_t value) {
  value += 0x9e3779b97f4a7c15ull;
  value = (value ^ (value >> 30)) * 0xbf58476d1ce4e5b9ull;
  value = (value ^ (value >> 27)) * 0x94d049bb133111ebull;
  return value ^ (value >> 31);
}

/// The `index`-th term (from 0) of the universal restart sequence
/// 1 1 2 1 1 2 4 1 1 2 ...
static uint64_t getLubyTerm(uint64_t index) {
  uint64_t size = 1, power = 0;
  while (size < index + 1) {
    ++power;
    size = 2 * size + 1;
  }
  while (size - 1 != index) {
    size = (size - 1) / 2;
    --power;
    index %= size;
  }
  return uint64_t(1) << power;
}

SmallVector<SearchBuffer>
walrus::placement::reverseTime(ArrayRef<SearchBuffer> buffers) {
  unsigned last = 0;
  for (const SearchBuffer &buffer : buffers)
    last = std::max(last, buffer.end);
  SmallVector<SearchBuffer> reversed;
  for (const SearchBuffer &buffer : buffers)
    reversed.push_back({last - buffer.end, last - buffer.start, buffer.bytes,
                        buffer.fixedOffset});
  return reversed;
}

RestartOutcome walrus::placement::runWithRestarts(
    size_t buffers, uint64_t workLimit, bool withBound,
    llvm::ThreadPoolInterface *threads,
    llvm::function_ref<AttemptOutcome(uint64_t, SearchVariant, uint64_t,
                                      const std::atomic<bool> *)>
        attempt) {
  // Large enough that the first attempts get through easy problems
  // without restarting.
  constexpr uint64_t kWorkPerBuffer = 4000;
  uint64_t unit = kWorkPerBuffer * std::max<size_t>(1, buffers);
  unsigned kinds = withBound ? 2 : 1; // at the capacity, at the bound
  RestartOutcome total;
  for (uint64_t pair = 0; total.work < workLimit; ++pair) {
    uint64_t order = pair / kinds;
    bool atBound = pair % kinds == 1;
    uint64_t limit =
        std::min(unit * getLubyTerm(order), (workLimit - total.work + 1) / 2);
    AttemptOutcome given, reversed;
    std::atomic<bool> givenPlaced{false};
    auto runGiven = [&] {
      given = attempt(order, {false, atBound}, limit, nullptr);
      givenPlaced = given.placed;
    };
    auto runReversed = [&] {
      reversed = attempt(order, {true, atBound}, limit, &givenPlaced);
    };
    if (threads) {
      llvm::ThreadPoolTaskGroup group(*threads);
      group.async(runReversed);
      runGiven();
      group.wait();
    } else {
      runGiven();
      if (!given.placed)
        runReversed();
    }
    // Where time as given placed everything, the reversed attempt's work
    // is not counted: how far it got before it was cancelled depends on
    // the threads.
    if (given.placed) {
      total.work += given.work;
      total.placedBy = SearchVariant{false, atBound};
      return total;
    }
    total.work += given.work + reversed.work;
    if (reversed.placed) {
      total.placedBy = SearchVariant{true, atBound};
      return total;
    }
    if (!atBound && (given.work <= limit || reversed.work <= limit))
      break;
  }
  return total;
}

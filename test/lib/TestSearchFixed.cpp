//===- TestSearchFixed.cpp - The -test-walrus-search-fixed pass -----------===//

#include "TestPasses.h"
#include "Walrus/Placement/BandSearch.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <random>

namespace walrus::test {
#define GEN_PASS_DEF_TESTSEARCHFIXED
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace walrus;
using namespace walrus::placement;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
using LaneRange = std::pair<unsigned, unsigned>;

/// A random placement: buffers dropped at random places in a lanes x
/// capacity x time box, kept when they meet none kept before. It is a
/// solution, so the problem it makes has one, whichever buffers stay
/// fixed. Over lanes a buffer is a quarter, a half or all of them wide
/// (as SBUF's bands), and may take any aligned block of that width; a
/// fixed one only its own.
struct Instance {
  SmallVector<BandSearchBuffer> buffers;
  SmallVector<int64_t> solution;
  SmallVector<LaneRange> solutionLanes;
  int64_t capacity = 0;
};

bool meet(const SearchBuffer &a, LaneRange aLanes, int64_t aAt,
          const SearchBuffer &b, LaneRange bLanes, int64_t bAt) {
  return a.start <= b.end && b.start <= a.end && aLanes.first < bLanes.second &&
         bLanes.first < aLanes.second && aAt < bAt + b.bytes &&
         bAt < aAt + a.bytes;
}

/// Adds a buffer over time [start, end] (closed), `bytes` wide, a block
/// of `width` lanes, placed at `offset` in lanes from `firstLane`.
void addBuffer(Instance &instance, SearchBuffer range, unsigned width,
               unsigned firstLane, unsigned lanes, int64_t offset) {
  BandSearchBuffer &buffer = instance.buffers.emplace_back();
  buffer.range = range;
  for (unsigned first = 0; first < lanes; first += width)
    buffer.laneChoices.push_back({first, first + width});
  instance.solution.push_back(offset);
  instance.solutionLanes.push_back({firstLane, firstLane + width});
  instance.capacity = std::max(instance.capacity, offset + range.bytes);
}

/// A perfect packing: a lanes x 64-byte x 32-step box cut into 8 to 40
/// boxes by guillotine cuts (the largest box cut next, along time, bytes
/// or, into halves, lanes), as utils/gen_minimalloc.py's hard and band
/// generators: every lane is full at every time, so a search must place
/// each buffer exactly.
Instance makePerfectInstance(std::mt19937_64 &random, unsigned lanes) {
  auto between = [&](int64_t low, int64_t high) {
    return low + int64_t(random() % uint64_t(high - low + 1));
  };
  struct Box {
    unsigned firstLane, width;
    int64_t offset, bytes;
    unsigned lower, upper; // time [lower, upper)
    int64_t getVolume() const {
      return int64_t(width) * bytes * (upper - lower);
    }
  };
  SmallVector<Box> boxes{{0, lanes, 0, 64, 0, 32}};
  int64_t count = between(8, 40);
  while (int64_t(boxes.size()) < count) {
    auto largest = llvm::max_element(boxes, [](const Box &a, const Box &b) {
      return a.getVolume() < b.getVolume();
    });
    Box box = *largest;
    SmallVector<int, 3> axes;
    if (box.upper - box.lower > 1)
      axes.push_back(0);
    if (box.bytes > 1)
      axes.push_back(1);
    if (box.width > 1)
      axes.push_back(2);
    if (axes.empty())
      break;
    Box other = box;
    switch (axes[between(0, axes.size() - 1)]) {
    case 0:
      box.upper = other.lower = between(box.lower + 1, box.upper - 1);
      break;
    case 1:
      box.bytes = between(1, box.bytes - 1);
      other.offset += box.bytes;
      other.bytes -= box.bytes;
      break;
    default:
      box.width = other.width = box.width / 2;
      other.firstLane += box.width;
    }
    *largest = box;
    boxes.push_back(other);
  }
  Instance instance;
  for (const Box &box : boxes)
    addBuffer(instance, {box.lower, box.upper - 1, box.bytes}, box.width,
              box.firstLane, lanes, box.offset);
  return instance;
}

/// Small ones (`scale` 1) place a few buffers in a few points; larger
/// ones (2) tens of buffers, longer lived, where buffers wait above fixed
/// ones across many sections.
Instance makeInstance(std::mt19937_64 &random, int64_t scale, unsigned lanes) {
  auto between = [&](int64_t low, int64_t high) {
    return low + int64_t(random() % uint64_t(high - low + 1));
  };
  Instance instance;
  bool large = scale > 1;
  int64_t points = large ? between(10, 40) : between(4, 12);
  int64_t width = large ? between(16, 64) : between(8, 24);
  int64_t tries = large ? between(10, 40) * 6 : between(3, 14) * 4;
  for (int64_t attempt = 0; attempt < tries; ++attempt) {
    unsigned start = between(0, points - 1);
    unsigned end = std::min(points - 1, start + between(0, large ? 12 : 5));
    int64_t bytes = between(1, large ? 16 : 8);
    int64_t offset = between(0, width - bytes);
    // Drawn only over lanes: one lane keeps the 1-D problems as they were.
    unsigned laneWidth = lanes > 1 ? lanes >> between(0, 2) : lanes;
    unsigned firstLane =
        lanes > 1 ? laneWidth * between(0, lanes / laneWidth - 1) : 0;
    SearchBuffer range{start, end, bytes};
    LaneRange mine{firstLane, firstLane + laneWidth};
    bool meets = false;
    for (auto [other, otherLanes, at] :
         llvm::zip(instance.buffers, instance.solutionLanes, instance.solution))
      meets |= meet(range, mine, offset, other.range, otherLanes, at);
    if (meets)
      continue;
    addBuffer(instance, range, laneWidth, firstLane, lanes, offset);
  }
  return instance;
}

/// Fixes `fixedPercent` of the buffers where the solution has them.
void fixSome(std::mt19937_64 &random, Instance &instance,
             unsigned fixedPercent) {
  for (auto [buffer, lanesAt, at] :
       llvm::zip(instance.buffers, instance.solutionLanes, instance.solution))
    if (random() % 100 < fixedPercent) {
      buffer.range.fixedOffset = at;
      buffer.laneChoices = {lanesAt};
    }
}

/// Whether `placements` (band choice, offset) puts every buffer inside
/// the capacity in one of its choices, the fixed ones where they must be,
/// no two co-live ones on a common lane and byte.
bool isValid(const Instance &instance,
             ArrayRef<std::pair<unsigned, int64_t>> placements) {
  ArrayRef<BandSearchBuffer> buffers = instance.buffers;
  auto lanesOf = [&](size_t index) {
    return buffers[index].laneChoices[placements[index].first];
  };
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    auto [choice, at] = placements[index];
    const SearchBuffer &range = buffer.range;
    if (choice >= buffer.laneChoices.size() || at < 0 ||
        at + range.bytes > instance.capacity ||
        (range.fixedOffset >= 0 && at != range.fixedOffset))
      return false;
    for (size_t other = 0; other < index; ++other)
      if (meet(range, lanesOf(index), at, buffers[other].range, lanesOf(other),
               placements[other].second))
        return false;
  }
  return true;
}

/// Places `instance` with the 1-D search (one lane) or the search over
/// partition bands.
std::optional<SmallVector<std::pair<unsigned, int64_t>>>
search(const Instance &instance, unsigned lanes, uint64_t maxWork) {
  if (lanes > 1)
    return searchBandPlacement(instance.buffers, lanes, instance.capacity,
                               maxWork)
        .placements;
  SmallVector<SearchBuffer> ranges;
  for (const BandSearchBuffer &buffer : instance.buffers)
    ranges.push_back(buffer.range);
  SearchResult found = searchPlacement(ranges, instance.capacity, maxWork);
  if (!found.offsets)
    return std::nullopt;
  SmallVector<std::pair<unsigned, int64_t>> placements;
  for (int64_t offset : *found.offsets)
    placements.push_back({0, offset});
  return placements;
}

struct TestSearchFixedPass
    : walrus::test::impl::TestSearchFixedBase<TestSearchFixedPass> {
  using Base::Base;

  void runOnOperation() override {
    uint64_t buffers = 0, fixed = 0, placed = 0, invalid = 0;
    for (unsigned seed = 0; seed < instances; ++seed) {
      std::mt19937_64 random(seed);
      Instance instance = perfect ? makePerfectInstance(random, lanes)
                                  : makeInstance(random, scale, lanes);
      fixSome(random, instance, fixedPercent);
      buffers += instance.buffers.size();
      fixed += llvm::count_if(instance.buffers, [](const BandSearchBuffer &b) {
        return b.range.fixedOffset >= 0;
      });
      auto found = search(instance, lanes, maxWork);
      if (!found)
        continue;
      ++placed;
      invalid += !isValid(instance, *found);
    }
    // Problems with no placement: two fixed buffers on a common byte, and
    // one fixed past the capacity (at the largest offset there is).
    constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
    LaneRange all{0, std::max<unsigned>(lanes, 1)};
    Instance meeting{
        {{{0, 3, 4, 2}, {all}}, {{2, 5, 4, 5}, {all}}, {{0, 5, 1}, {all}}},
        {},
        {},
        16};
    Instance past{{{{0, 3, 4, kLast}, {all}}, {{0, 5, 1}, {all}}}, {}, {}, 16};
    unsigned declined = !search(meeting, lanes, maxWork);
    declined += !search(past, lanes, maxWork);
    llvm::outs() << "search with fixed buffers: " << declined
                 << " of 2 impossible declined\n";
    // Fixed buffers stacked one on another, each placed once the one below
    // is: a recursion per buffer overflowed the stack here.
    if (stacked > 0) {
      unsigned width = std::max<unsigned>(lanes, 1);
      Instance tower;
      for (int64_t offset = 0; offset <= stacked; ++offset)
        addBuffer(tower, {0, 9, 1}, width, 0, width, offset);
      std::mt19937_64 random(0);
      fixSome(random, tower, 100);
      tower.buffers.back().range.fixedOffset = -1;
      bool placedTower = search(tower, lanes, maxWork).has_value();
      llvm::outs() << "search with fixed buffers: " << stacked
                   << " stacked and one more "
                   << (placedTower ? "placed" : "not placed") << "\n";
    }
    llvm::outs() << "search with fixed buffers: " << instances << " instances, "
                 << buffers << " buffers, " << fixed << " fixed, " << placed
                 << " placed, " << invalid << " invalid\n";
    markAllAnalysesPreserved();
  }
};
} // namespace

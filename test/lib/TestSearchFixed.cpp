//===- TestSearchFixed.cpp - The -test-walrus-search-fixed pass -----------===//

#include "TestPasses.h"
#include "Walrus/Analysis/SbSearch.h"

#include "llvm/Support/raw_ostream.h"

#include <limits>
#include <random>

namespace walrus::test {
#define GEN_PASS_DEF_TESTSEARCHFIXED
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace walrus;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {
/// A random placement: buffers dropped at random places in a capacity x
/// time rectangle, kept when they meet none kept before. It is a solution,
/// so the problem it makes has one, whichever buffers stay fixed.
struct Instance {
  SmallVector<SearchBuffer> buffers;
  SmallVector<int64_t> solution;
  int64_t capacity = 0;
};

/// Small ones (`scale` 1) place a few buffers in a few points; larger
/// ones (2) tens of buffers, longer lived, where buffers wait above fixed
/// ones across many sections.
Instance makeInstance(std::mt19937_64 &random, unsigned fixedPercent,
                      int64_t scale) {
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
    bool meets = false;
    for (auto [other, at] : llvm::zip(instance.buffers, instance.solution))
      meets |= start <= other.end && other.start <= end &&
               offset < at + other.bytes && at < offset + bytes;
    if (meets)
      continue;
    instance.buffers.push_back({start, end, bytes});
    instance.solution.push_back(offset);
    instance.capacity = std::max(instance.capacity, offset + bytes);
  }
  for (auto [buffer, at] : llvm::zip(instance.buffers, instance.solution))
    if (random() % 100 < fixedPercent)
      buffer.fixedOffset = at;
  return instance;
}

/// Whether `offsets` places every buffer inside the capacity, the fixed
/// ones where they must be, no two co-live ones on a common byte.
bool isValid(const Instance &instance, ArrayRef<int64_t> offsets) {
  ArrayRef<SearchBuffer> buffers = instance.buffers;
  for (auto [index, buffer] : llvm::enumerate(buffers)) {
    int64_t at = offsets[index];
    if (at < 0 || at + buffer.bytes > instance.capacity ||
        (buffer.fixedOffset >= 0 && at != buffer.fixedOffset))
      return false;
    for (size_t other = 0; other < index; ++other)
      if (buffer.start <= buffers[other].end &&
          buffers[other].start <= buffer.end &&
          at < offsets[other] + buffers[other].bytes &&
          offsets[other] < at + buffer.bytes)
        return false;
  }
  return true;
}

struct TestSearchFixedPass
    : walrus::test::impl::TestSearchFixedBase<TestSearchFixedPass> {
  using Base::Base;

  void runOnOperation() override {
    uint64_t buffers = 0, fixed = 0, placed = 0, invalid = 0;
    for (unsigned seed = 0; seed < instances; ++seed) {
      std::mt19937_64 random(seed);
      Instance instance = makeInstance(random, fixedPercent, scale);
      buffers += instance.buffers.size();
      fixed += llvm::count_if(instance.buffers, [](const SearchBuffer &b) {
        return b.fixedOffset >= 0;
      });
      SearchResult found =
          searchPlacement(instance.buffers, instance.capacity, maxWork);
      if (!found.offsets)
        continue;
      ++placed;
      invalid += !isValid(instance, *found.offsets);
    }
    // Problems with no placement: two fixed buffers on a common byte, and
    // one fixed past the capacity (at the largest offset there is).
    constexpr int64_t kLast = std::numeric_limits<int64_t>::max();
    SearchBuffer meeting[] = {{0, 3, 4, 2}, {2, 5, 4, 5}, {0, 5, 1}};
    SearchBuffer past[] = {{0, 3, 4, kLast}, {0, 5, 1}};
    unsigned declined = !searchPlacement(meeting, 16, maxWork).offsets;
    declined += !searchPlacement(past, 16, maxWork).offsets;
    llvm::outs() << "search with fixed buffers: " << declined
                 << " of 2 impossible declined\n";
    llvm::outs() << "search with fixed buffers: " << instances << " instances, "
                 << buffers << " buffers, " << fixed << " fixed, " << placed
                 << " placed, " << invalid << " invalid\n";
    markAllAnalysesPreserved();
  }
};
} // namespace

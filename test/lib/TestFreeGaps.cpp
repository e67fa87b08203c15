//===- TestFreeGaps.cpp - The -test-walrus-free-gaps pass -----------------===//

#include "Dense/FreeGaps.h"
#include "TestPasses.h"

#include "llvm/Support/raw_ostream.h"

#include <map>
#include <random>

namespace walrus::test {
#define GEN_PASS_DEF_TESTFREEGAPS
#include "TestPasses.h.inc"
} // namespace walrus::test

using namespace walrus;
using namespace walrus::placement;

namespace {
/// The gaps as a map from first byte to end, searched one by one: what
/// FreeGaps must answer.
class GapModel {
public:
  explicit GapModel(int64_t limit) { gaps.emplace(0, limit); }

  std::optional<int64_t> findFrom(int64_t from, int64_t bytes) const {
    for (auto [first, end] : gaps)
      if (end - std::max(first, from) >= bytes)
        return std::max(first, from);
    return std::nullopt;
  }
  void take(int64_t first, int64_t end) {
    auto gap = std::prev(gaps.upper_bound(first));
    int64_t gapEnd = gap->second;
    if (gap->first < first)
      gap->second = first;
    else
      gaps.erase(gap);
    if (end < gapEnd)
      gaps.emplace(end, gapEnd);
  }
  void release(int64_t first, int64_t end) {
    auto next = gaps.find(end);
    if (next != gaps.end()) {
      end = next->second;
      gaps.erase(next);
    }
    auto gap = gaps.lower_bound(first);
    if (gap != gaps.begin() && std::prev(gap)->second == first)
      std::prev(gap)->second = end;
    else
      gaps.emplace(first, end);
  }
  /// A random byte range inside a random gap, or nothing when none is free.
  std::optional<std::pair<int64_t, int64_t>> pick(std::mt19937_64 &random) {
    if (gaps.empty())
      return std::nullopt;
    auto gap = std::next(gaps.begin(), random() % gaps.size());
    int64_t first = gap->first + random() % (gap->second - gap->first);
    // Mostly small pieces, so that many gaps stay free.
    int64_t most = std::max<int64_t>(1, (gap->second - first) /
                                            int64_t(1 + random() % 16));
    return std::make_pair(first, first + 1 + int64_t(random() % most));
  }
  size_t size() const { return gaps.size(); }

private:
  std::map<int64_t, int64_t> gaps;
};

struct TestFreeGapsPass
    : walrus::test::impl::TestFreeGapsBase<TestFreeGapsPass> {
  using Base::Base;

  void runOnOperation() override {
    uint64_t operations = 0, mismatches = 0, work = 0;
    size_t mostGaps = 0;
    for (unsigned seed = 0; seed < sequences; ++seed) {
      std::mt19937_64 random(seed);
      int64_t limit = 1 + random() % 1000000;
      FreeGaps gaps(limit);
      GapModel model(limit);
      std::vector<std::pair<int64_t, int64_t>> taken;
      auto query = [&] {
        int64_t from = random() % (limit + 1);
        int64_t bytes =
            1 + random() % (limit / int64_t(1 + random() % 256) + 1);
        if (random() % 2)
          from = 0;
        mismatches +=
            gaps.findFrom(from, bytes, work) != model.findFrom(from, bytes);
      };
      for (unsigned step = 0; step < 4000; ++step, ++operations) {
        // Mostly taking in the first half, mostly releasing in the second.
        unsigned takeShare = step < 2000 ? 70 : 25;
        if (random() % 100 < takeShare || taken.empty()) {
          if (auto range = model.pick(random)) {
            gaps.take(range->first, range->second);
            model.take(range->first, range->second);
            taken.push_back(*range);
          }
        } else {
          size_t index = random() % taken.size();
          std::swap(taken[index], taken.back());
          gaps.release(taken.back().first, taken.back().second);
          model.release(taken.back().first, taken.back().second);
          taken.pop_back();
        }
        mostGaps = std::max(mostGaps, model.size());
        query();
      }
    }
    llvm::outs() << "free gaps: " << sequences << " sequences, " << operations
                 << " operations, at most " << mostGaps << " gaps, "
                 << mismatches << " mismatches\n";
    markAllAnalysesPreserved();
  }
};
} // namespace

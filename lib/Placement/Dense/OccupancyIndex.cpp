//===- OccupancyIndex.cpp - Placed rectangles over time x bytes -----------===//

#include "Dense/OccupancyIndex.h"
#include "Walrus/Placement/Problem.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <limits>

using namespace walrus;
using namespace walrus::placement;

StartRanks walrus::placement::rankByStarts(llvm::ArrayRef<Node> nodes) {
  // Counted over program points rather than sorted: the points are as many
  // as the function's instructions, and a count is one pass over each.
  unsigned lastPoint = 0;
  for (const Node &node : nodes)
    if (node.live)
      lastPoint = std::max(lastPoint, node.range.end);
  // startsBefore[p]: the distinct starts below point p.
  std::vector<unsigned> startsBefore(size_t(lastPoint) + 2, 0);
  for (const Node &node : nodes)
    if (node.live)
      startsBefore[node.range.start + 1] = 1;
  for (size_t point = 1; point < startsBefore.size(); ++point)
    startsBefore[point] += startsBefore[point - 1];
  StartRanks result;
  result.points = std::max(startsBefore.back(), 1u);
  result.ranks.assign(nodes.size(), {0, 0});
  for (auto [index, node] : llvm::enumerate(nodes))
    if (node.live)
      result.ranks[index] = {startsBefore[node.range.start],
                             startsBefore[node.range.end + 1] - 1};
  return result;
}

/// Adds [first, end) to `ranges`, merging what it meets or touches.
static void addRange(OccupancyIndex::ByteRanges &ranges, int64_t first,
                     int64_t end) {
  // The ranges from the first that ends at or after `first` to the last
  // that starts at or before `end` merge with it.
  auto merged = llvm::partition_point(
      ranges, [&](const auto &range) { return range.second < first; });
  auto after =
      std::partition_point(merged, ranges.end(), [&](const auto &range) {
        return range.first <= end;
      });
  if (merged == after) {
    ranges.insert(merged, {first, end});
    return;
  }
  merged->first = std::min(merged->first, first);
  merged->second = std::max(end, std::prev(after)->second);
  ranges.erase(std::next(merged), after);
}

/// The first position from `from` of `ranges` whose range starts at or
/// after `end`, when every one before `from` starts before it: gallops
/// from `from`, then bisects (a window that moved a little needs a few
/// nearby reads, not a search over the whole set).
static size_t findFirstFrom(const OccupancyIndex::ByteRanges &ranges,
                            size_t from, int64_t end) {
  size_t low = from, step = 1;
  while (low + step < ranges.size() && ranges[low + step].first < end) {
    low += step;
    step *= 2;
  }
  auto first = ranges.begin() + low;
  auto last = ranges.begin() + std::min(low + step, ranges.size());
  return std::partition_point(
             first, last,
             [&](const auto &range) { return range.first < end; }) -
         ranges.begin();
}

/// Moves `offset` past the ranges of `ranges` that [offset, offset +
/// bytes) meets, and returns where the next range starts (nothing in
/// between): until the window reaches it, the set cannot be in the way.
/// `cursor`: a position every range before which starts before the
/// window's end (offsets only grow in one search); left at the next range.
static int64_t skipBlockers(const OccupancyIndex::ByteRanges &ranges,
                            int64_t &offset, int64_t bytes, size_t &cursor) {
  // Past the last range, or before the first: nothing in the way (most
  // probes), without a search.
  if (ranges.empty() || ranges.back().second <= offset)
    return std::numeric_limits<int64_t>::max();
  if (offset + bytes <= ranges.front().first)
    return ranges.front().first;
  // The last range starting before the window's end is the only one that
  // can meet it; once past it, the next ones in turn.
  size_t next = findFirstFrom(ranges, cursor, offset + bytes);
  if (next != 0 && ranges[next - 1].second > offset) {
    offset = ranges[next - 1].second;
    for (; next != ranges.size() && ranges[next].first < offset + bytes; ++next)
      offset = ranges[next].second;
  }
  cursor = next;
  return next == ranges.size() ? std::numeric_limits<int64_t>::max()
                               : ranges[next].first;
}

OccupancyIndex::OccupancyIndex(unsigned points)
    : points(std::max(points, 1u)),
      // Halving [low, high) at low + (high - low) / 2 keeps every node
      // index below twice the next power of two.
      covering(2 * llvm::PowerOf2Ceil(this->points)),
      within(2 * llvm::PowerOf2Ceil(this->points)) {}

void OccupancyIndex::clear() {
  for (ByteRanges &ranges : covering)
    ranges.clear();
  for (ByteRanges &ranges : within)
    ranges.clear();
  work = 0;
}

void OccupancyIndex::insert(unsigned start, unsigned last, int64_t first,
                            int64_t end) {
  insert(1, 0, points, start, last, first, end);
}

void OccupancyIndex::insert(unsigned node, unsigned low, unsigned high,
                            unsigned start, unsigned last, int64_t first,
                            int64_t end) {
  if (last < low || start >= high)
    return;
  ++work;
  // A point's `within` is its `covering`: kept once (half the nodes).
  if (high - low > 1)
    addRange(within[node], first, end);
  if (start <= low && high - 1 <= last) {
    ++work;
    addRange(covering[node], first, end);
    return;
  }
  unsigned middle = low + (high - low) / 2;
  insert(2 * node, low, middle, start, last, first, end);
  insert(2 * node + 1, middle, high, start, last, first, end);
}

void OccupancyIndex::collect(
    unsigned start, unsigned last,
    llvm::SmallVectorImpl<const ByteRanges *> &sets) const {
  collect(1, 0, points, start, last, sets);
}

void OccupancyIndex::collect(
    unsigned node, unsigned low, unsigned high, unsigned start, unsigned last,
    llvm::SmallVectorImpl<const ByteRanges *> &sets) const {
  const ByteRanges &under = high - low > 1 ? within[node] : covering[node];
  if (last < low || start >= high || under.empty())
    return;
  // Inside the range: everything under the node meets it in time.
  if (start <= low && high - 1 <= last) {
    sets.push_back(&under);
    return;
  }
  // Across its edge: only what covers the whole node surely does.
  if (!covering[node].empty())
    sets.push_back(&covering[node]);
  unsigned middle = low + (high - low) / 2;
  collect(2 * node, low, middle, start, last, sets);
  collect(2 * node + 1, middle, high, start, last, sets);
}

std::optional<int64_t>
OccupancyIndex::findLowest(llvm::ArrayRef<const ByteRanges *> sets,
                           int64_t bytes, int64_t limit, uint64_t &work,
                           int64_t from) {
  // Raise the offset past whatever a set has in the way, round the sets,
  // until a whole round leaves it in place. A set whose next range starts
  // beyond the window is passed without a look: most of a round is.
  int64_t offset = from;
  uint64_t probes = 0;
  llvm::SmallVector<int64_t, 64> nextStart(sets.size(),
                                           std::numeric_limits<int64_t>::min());
  llvm::SmallVector<size_t, 64> cursors(sets.size(), 0);
  size_t clean = 0;
  for (size_t at = 0; clean < sets.size() && offset <= limit - bytes;
       at = at + 1 == sets.size() ? 0 : at + 1) {
    if (offset + bytes <= nextStart[at]) {
      ++clean;
      continue;
    }
    ++probes;
    int64_t before = offset;
    nextStart[at] = skipBlockers(*sets[at], offset, bytes, cursors[at]);
    clean = offset != before ? 1 : clean + 1;
  }
  work += probes;
  if (offset > limit - bytes)
    return std::nullopt;
  return offset;
}

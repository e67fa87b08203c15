//===- Problem.cpp - A placement problem's edges and lower bound ----------===//

#include "Walrus/Placement/Problem.h"

#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace llvm;
using namespace walrus::placement;

SmallVector<std::pair<int64_t, int64_t>, 4>
walrus::placement::getBandChoices(unsigned bandClass, int64_t partitions) {
  int64_t quarter = partitions / 4, half = partitions / 2;
  switch (bandClass) {
  case 0:
    return {{0, quarter},
            {quarter, quarter},
            {2 * quarter, quarter},
            {3 * quarter, quarter}};
  case 1:
  case 2:
  case 3:
  case 4:
    return {{(bandClass - 1) * quarter, quarter}};
  case 5:
    return {{0, half}, {half, half}};
  case 6:
  case 7:
    return {{(bandClass - 6) * half, half}};
  default:
    return {{0, partitions}};
  }
}

unsigned walrus::placement::getBandClass(int64_t partitions,
                                         int64_t targetPartitions) {
  if (partitions <= targetPartitions / 4)
    return static_cast<unsigned>(BandClass::AnyQuarter);
  if (partitions <= targetPartitions / 2)
    return static_cast<unsigned>(BandClass::AnyHalf);
  return static_cast<unsigned>(BandClass::Full);
}

ImpactTable walrus::placement::computeImpactTable(int64_t partitions) {
  ImpactTable table;
  for (unsigned i = 0; i < kNumBandClasses; ++i) {
    auto mine = getBandChoices(i, partitions);
    for (unsigned j = 0; j < kNumBandClasses; ++j) {
      int64_t worst = 0;
      for (auto theirs : getBandChoices(j, partitions)) {
        int64_t hit = llvm::count_if(mine, [&](auto band) {
          return band.first < theirs.first + theirs.second &&
                 theirs.first < band.first + band.second;
        });
        worst = std::max(worst, hit);
      }
      table[i][j] = worst;
    }
  }
  return table;
}

bool walrus::placement::shareRowsInTime(const Node &a, int64_t baseA,
                                        const Node &b, int64_t baseB) {
  RowBlockRange wholeA{0, a.partitions, a.range},
      wholeB{0, b.partitions, b.range};
  ArrayRef<RowBlockRange> blocksA =
      a.blocks.empty() ? ArrayRef(wholeA) : ArrayRef(a.blocks);
  ArrayRef<RowBlockRange> blocksB =
      b.blocks.empty() ? ArrayRef(wholeB) : ArrayRef(b.blocks);
  for (const RowBlockRange &x : blocksA)
    for (const RowBlockRange &y : blocksB)
      if (x.range && y.range && baseA + x.firstRow < baseB + y.endRow &&
          baseB + y.firstRow < baseA + x.endRow && x.range->overlaps(*y.range))
        return true;
  return false;
}

Problem::Problem(SmallVector<Node> problemNodes, int64_t targetPartitions,
                 EdgeLimits limits)
    : nodes(std::move(problemNodes)) {
  PointCounts counts = countPoints(targetPartitions);
  sortByStart(counts);
  sizeAdjacency(counts);
  // Dense: past the limit and many per node (a long sparse trace keeps
  // its edges, which cost little per node there), or past what may be
  // stored whatever the limits say. Saturating: the limits are options.
  size_t edges = firstEarlier.back();
  if (edges > kMaxStoredEdges ||
      (edges > limits.maxEdges &&
       edges > SaturatingMultiply(limits.maxEdgesPerNode, byStart.size())))
    return;
  storeEdges();
}

Problem::PointCounts Problem::countPoints(int64_t targetPartitions) {
  unsigned lastPoint = 0;
  for (const Node &node : nodes)
    if (node.live)
      lastPoint = std::max(lastPoint, node.range.end);
  PointCounts counts;
  counts.startsUpTo.assign(lastPoint + 2, 0);
  counts.endsBefore.assign(lastPoint + 2, 0);
  std::vector<int64_t> areaChange(lastPoint + 2, 0);
  // Every partial sum below lies within the area live at some point, so
  // an overflow anywhere means more than 2^63 bytes live at once: the
  // bound is then at least what 2^63 - 1 bytes give (hostile sizes reach
  // it with 2^15 tensors of 2^48 bytes).
  bool overflowed = false;
  auto addArea = [&](int64_t &sum, int64_t rows, int64_t bytes, int sign) {
    int64_t area;
    overflowed |=
        MulOverflow(rows, bytes, area) || AddOverflow(sum, sign * area, sum);
  };
  for (const Node &node : nodes) {
    if (!node.live)
      continue;
    ++counts.startsUpTo[node.range.start];
    ++counts.endsBefore[node.range.end + 1];
    if (node.blocks.empty()) {
      addArea(areaChange[node.range.start], node.partitions, node.bytes, 1);
      addArea(areaChange[node.range.end + 1], node.partitions, node.bytes, -1);
    }
    for (const RowBlockRange &block : node.blocks)
      if (block.range) {
        int64_t rows = block.endRow - block.firstRow;
        addArea(areaChange[block.range->start], rows, node.bytes, 1);
        addArea(areaChange[block.range->end + 1], rows, node.bytes, -1);
      }
  }
  int64_t liveArea = 0;
  for (unsigned point = 0; point <= lastPoint + 1; ++point) {
    if (point > 0) {
      counts.startsUpTo[point] += counts.startsUpTo[point - 1];
      counts.endsBefore[point] += counts.endsBefore[point - 1];
    }
    overflowed |= AddOverflow(liveArea, areaChange[point], liveArea);
    if (!overflowed)
      lowerBound =
          std::max(lowerBound, divideCeilSigned(liveArea, targetPartitions));
  }
  if (overflowed)
    lowerBound = std::max(lowerBound,
                          divideCeilSigned(std::numeric_limits<int64_t>::max(),
                                           targetPartitions));
  return counts;
}

void Problem::sortByStart(const PointCounts &counts) {
  size_t lastPoint = counts.startsUpTo.size() - 2;
  std::vector<size_t> nextSlot(lastPoint + 1, 0);
  for (unsigned point = 1; point <= lastPoint; ++point)
    nextSlot[point] = counts.startsUpTo[point - 1];
  byStart.resize(counts.startsUpTo.back());
  for (unsigned index = 0; index < nodes.size(); ++index)
    if (nodes[index].live)
      byStart[nextSlot[nodes[index].range.start]++] = index;
}

void Problem::sizeAdjacency(const PointCounts &counts) {
  laterSlice.assign(nodes.size(), {0, 0});
  firstEarlier.assign(nodes.size() + 1, 0);
  for (auto [position, index] : llvm::enumerate(byStart))
    laterSlice[index] = {unsigned(position + 1),
                         unsigned(counts.startsUpTo[nodes[index].range.end])};
  for (unsigned index = 0; index < nodes.size(); ++index) {
    const LiveRange &range = nodes[index].range;
    // Those ahead of it in `byStart` less those ended before it starts.
    size_t before = nodes[index].live ? laterSlice[index].first - 1 -
                                            counts.endsBefore[range.start]
                                      : 0;
    firstEarlier[index + 1] = firstEarlier[index] + before;
  }
}

void Problem::storeEdges() {
  earlier.reset(new unsigned[firstEarlier.back()]);
  SmallVector<std::pair<unsigned, unsigned>> open; // (end, node)
  for (unsigned index : byStart) {
    const LiveRange &range = nodes[index].range;
    llvm::erase_if(open, [&](auto other) { return other.first < range.start; });
    unsigned *list = earlier.get() + firstEarlier[index];
    for (auto [end, other] : open)
      *list++ = other;
    open.push_back({range.end, index});
  }
}

void Problem::collectNeighbors(unsigned node,
                               SmallVectorImpl<unsigned> &neighbors) const {
  if (hasEdges()) {
    llvm::append_range(neighbors, getNeighbors(node));
    return;
  }
  if (!nodes[node].live)
    return;
  for (unsigned other : byStart)
    if (other != node && nodes[other].range.overlaps(nodes[node].range))
      neighbors.push_back(other);
}

SmallVector<unsigned> Problem::getIndependentParts() const {
  SmallVector<unsigned> order;
  for (unsigned index = 0; index < nodes.size(); ++index)
    if (nodes[index].live)
      order.push_back(index);
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    return std::make_pair(nodes[lhs].range.start, lhs) <
           std::make_pair(nodes[rhs].range.start, rhs);
  });
  SmallVector<unsigned> parts(nodes.size(), ~0u);
  unsigned part = 0;
  std::optional<unsigned> reach; // the latest end seen in this part
  for (unsigned index : order) {
    const LiveRange &range = nodes[index].range;
    if (reach && range.start > *reach)
      ++part;
    reach = std::max(reach.value_or(0), range.end);
    parts[index] = part;
  }
  return parts;
}

//===- Interference.cpp - The 2-D interference graph of SBUF tensors ------===//

#include "Walrus/Analysis/Interference.h"

#include <limits>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

SmallVector<std::pair<int64_t, int64_t>, 4>
walrus::getBandChoices(unsigned bandClass, int64_t partitions) {
  int64_t quarter = partitions / 4, half = partitions / 2;
  switch (bandClass) {
  case 0:
    return {{0, quarter}, {quarter, quarter}, {2 * quarter, quarter},
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

unsigned walrus::getBandClass(int64_t partitions, int64_t targetPartitions) {
  if (partitions <= targetPartitions / 4)
    return static_cast<unsigned>(BandClass::AnyQuarter);
  if (partitions <= targetPartitions / 2)
    return static_cast<unsigned>(BandClass::AnyHalf);
  return static_cast<unsigned>(BandClass::Full);
}

ImpactTable walrus::computeImpactTable(int64_t partitions) {
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

InterferenceGraph::InterferenceGraph(
    FuncOp func, const TensorLiveness &liveness,
    ArrayRef<SmallVector<MemlocOp, 2>> groups, int64_t targetPartitions) {
  DenseMap<Operation *, unsigned> nodeOf;
  auto addNode = [&](ArrayRef<MemlocOp> members) {
    SbNode &node = nodes.emplace_back();
    for (MemlocOp memloc : members) {
      node.members.push_back(memloc);
      nodeOf[memloc] = nodes.size() - 1;
      MemoryType type = memloc.getMemoryType();
      node.partitions = std::max(node.partitions, type.getPartitions());
      node.bytes = std::max(node.bytes, type.getBytesPerPartition());
      if (std::optional<LiveRange> range = liveness.getLiveRange(memloc)) {
        if (!node.live)
          node.range = *range;
        node.range.start = std::min(node.range.start, range->start);
        node.range.end = std::max(node.range.end, range->end);
        node.live = true;
      }
    }
    node.bandClass = getBandClass(node.partitions, targetPartitions);
  };
  for (ArrayRef<MemlocOp> group : groups)
    addNode(group);
  for (MemlocOp memloc : func.getBody().front().getOps<MemlocOp>())
    if (memloc.getMemoryType().getMemorySpace() == MemorySpace::SBUF &&
        !nodeOf.count(memloc))
      addNode(memloc);

  // Spill costs: every access, weighted by the trip counts around it.
  func.walk([&](InstructionOpInterface instruction) {
    double weight = 1;
    for (LoopOp loop : getEnclosingLoops(instruction))
      weight *= loop.getTripCount();
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses)
      if (MemlocOp memloc = getDefiningMemloc(access.getMemloc())) {
        auto it = nodeOf.find(memloc);
        if (it != nodeOf.end())
          nodes[it->second].spillCost +=
              weight * double(nodes[it->second].bytes);
      }
  });

  // Tensors whose contents cross the program boundary cannot spill.
  for (SbNode &node : nodes)
    if (llvm::any_of(node.members, [](MemlocOp memloc) {
          return memloc.getKind() != TensorKind::Internal;
        }))
      node.spillCost = std::numeric_limits<double>::infinity();

  // Edges: live ranges that overlap in time. Sweeping by start, a node
  // meets exactly the nodes whose range is still open, so each edge is
  // found once and no bit matrix is needed to deduplicate.
  SmallVector<unsigned> order;
  for (unsigned index = 0; index < nodes.size(); ++index)
    if (nodes[index].live)
      order.push_back(index);
  llvm::sort(order, [&](unsigned lhs, unsigned rhs) {
    return std::make_pair(nodes[lhs].range.start, lhs) <
           std::make_pair(nodes[rhs].range.start, rhs);
  });
  SmallVector<unsigned> open;
  for (unsigned index : order) {
    SbNode &node = nodes[index];
    llvm::erase_if(open, [&](unsigned other) {
      return nodes[other].range.end < node.range.start;
    });
    for (unsigned other : open) {
      node.neighbors.push_back(other);
      nodes[other].neighbors.push_back(index);
      ++numEdges;
    }
    open.push_back(index);
  }

  // Lower bound: the largest live area at one point, over all partitions.
  SmallVector<std::pair<unsigned, int64_t>> events; // (point, +-area)
  for (unsigned index : order) {
    const SbNode &node = nodes[index];
    int64_t area = node.partitions * node.bytes;
    events.push_back({2 * node.range.start, area});
    events.push_back({2 * node.range.end + 1, -area});
  }
  llvm::sort(events);
  int64_t liveArea = 0;
  for (auto [point, area] : events) {
    liveArea += area;
    lowerBound = std::max(
        lowerBound, (liveArea + targetPartitions - 1) / targetPartitions);
  }
}

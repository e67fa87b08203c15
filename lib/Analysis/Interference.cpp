//===- Interference.cpp - SBUF tensors as a placement problem -------------===//

#include "Walrus/Analysis/Interference.h"

#include <limits>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using placement::Node;

SbufProblem
walrus::buildSbufProblem(const TensorLiveness &liveness,
                         ArrayRef<SmallVector<MemlocOp, 2>> groups,
                         int64_t targetPartitions, placement::EdgeLimits limits,
                         ArrayRef<SmallVector<RowBlockRange, 0>> rowBlocks) {
  SmallVector<Node> nodes;
  std::vector<SmallVector<MemlocOp, 2>> members;
  ArrayRef<MemlocOp> memlocs = liveness.getMemlocs();
  // By the liveness's index of each location: no map keyed by operation.
  std::vector<bool> grouped(memlocs.size(), false);
  auto addNode = [&](ArrayRef<unsigned> group) {
    Node &node = nodes.emplace_back();
    SmallVector<MemlocOp, 2> &tensors = members.emplace_back();
    double accessWeight = 0;
    for (unsigned index : group) {
      MemlocOp memloc = memlocs[index];
      tensors.push_back(memloc);
      MemoryType type = memloc.getMemoryType();
      node.partitions = std::max(node.partitions, type.getPartitions());
      node.bytes = std::max(node.bytes, type.getBytesPerPartition());
      accessWeight += liveness.getAccessWeight(index);
      if (std::optional<LiveRange> range = liveness.getLiveRange(index)) {
        if (!node.live)
          node.range = *range;
        node.range.start = std::min(node.range.start, range->start);
        node.range.end = std::max(node.range.end, range->end);
        node.live = true;
      }
    }
    node.bandClass = placement::getBandClass(node.partitions, targetPartitions);
    if (group.size() == 1 && group.front() < rowBlocks.size())
      node.blocks = rowBlocks[group.front()];
    // Spilling moves the bytes of every access. Tensors whose contents
    // cross the program boundary cannot spill.
    node.spillCost = accessWeight * double(node.bytes);
    if (llvm::any_of(tensors, [](MemlocOp memloc) {
          return memloc.getKind() != TensorKind::Internal;
        }))
      node.spillCost = std::numeric_limits<double>::infinity();
  };
  SmallVector<unsigned, 2> indices;
  for (ArrayRef<MemlocOp> group : groups) {
    indices.clear();
    for (MemlocOp memloc : group) {
      std::optional<unsigned> index = liveness.getIndex(memloc);
      assert(index && "a partner outside the function");
      indices.push_back(*index);
      grouped[*index] = true;
    }
    addNode(indices);
  }
  nodes.reserve(nodes.size() + memlocs.size());
  for (unsigned index = 0; index < memlocs.size(); ++index)
    if (!grouped[index] &&
        MemlocOp(memlocs[index]).getMemoryType().getMemorySpace() ==
            MemorySpace::SBUF)
      addNode(index);
  return {placement::Problem(std::move(nodes), targetPartitions, limits),
          std::move(members)};
}

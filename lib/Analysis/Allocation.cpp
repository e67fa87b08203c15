//===- Allocation.cpp - A function's SBUF allocation as data --------------===//

#include "Walrus/Analysis/Allocation.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/RowAlignment.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// The tensors -sb-alloc gives a band from their matmult rows
/// (RowAlignment.h); their class follows from where they were placed.
static DenseSet<Operation *> getRowTied(FuncOp func) {
  SmallVector<RowAlignment> alignments;
  SmallVector<MatmultOp> movingApart;
  collectRowAlignments(func, alignments, movingApart);
  DenseSet<Operation *> tied;
  for (RowAlignment alignment : alignments) {
    tied.insert(alignment.stationary);
    tied.insert(alignment.moving);
  }
  return tied;
}

FunctionAllocation walrus::getAllocation(FuncOp func) {
  TensorLiveness liveness(func);
  TargetAttr target = getTarget(func);
  // The lower bound -sb-alloc reports: rows that die apart counted apart.
  // Only the nodes are read: no pair is stored (on a dense function, tens
  // of millions).
  SbufProblem built = buildSbufProblem(
      liveness, {}, target.getSbufPartitions(),
      placement::EdgeLimits{/*maxEdges=*/0, /*maxEdgesPerNode=*/0},
      liveness.getBlockRanges(target.getSbufPartitions() / 4));
  const placement::Problem &graph = built.problem;
  FunctionAllocation allocation;
  allocation.function = getQualifiedName(func);
  allocation.core = getNeuronCoreId(func);
  allocation.lowerBound = graph.getLowerBound();
  allocation.sbufPartitions = target.getSbufPartitions();
  allocation.sbufBytesPerPartition = target.getSbufBytesPerPartition();
  allocation.points = liveness.getOrder().getNumPoints();
  DenseSet<Operation *> rowTied = getRowTied(func);
  int64_t peak = 0;
  bool placed = true;
  for (auto [index, node] : llvm::enumerate(graph.getNodes())) {
    TensorPlacement &tensor = allocation.tensors.emplace_back();
    for (MemlocOp member : built.members[index])
      tensor.tensors.push_back(member.getName().str());
    tensor.partitions = node.partitions;
    tensor.bytes = node.bytes;
    tensor.bandClass = node.bandClass;
    if (node.live) {
      tensor.start = node.range.start;
      tensor.end = node.range.end;
    }
    MemlocOp memloc = built.members[index].front();
    if (memloc.getAddress() && memloc.getBasePartition()) {
      tensor.address = *memloc.getAddress();
      tensor.basePartition = *memloc.getBasePartition();
      peak = std::max(peak, *tensor.address + node.bytes);
      if (rowTied.contains(memloc))
        if (std::optional<unsigned> band =
                getPinnedBandClass(*tensor.basePartition, node.partitions,
                                   target.getSbufPartitions()))
          tensor.bandClass = *band;
    } else {
      placed = false;
    }
  }
  if (placed)
    allocation.peak = peak;
  for (MemlocOp memloc : func.getMemlocs())
    allocation.spills += memloc->hasAttr(BIRDialect::kSpillHomeAttrName);
  return allocation;
}

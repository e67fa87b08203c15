//===- Allocation.cpp - A function's SBUF allocation as data --------------===//

#include "Walrus/Analysis/Allocation.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/RowAlignment.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// The band classes -sb-alloc stamps on matmult operands (RowAlignment.h);
/// none when they cannot be aligned (-sb-alloc reports that itself).
static DenseMap<Operation *, unsigned> getRowBands(FuncOp func,
                                                   int64_t partitions) {
  SmallVector<RowAlignment> alignments;
  SmallVector<MatmultOp> movingApart;
  collectRowAlignments(func, alignments, movingApart);
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<DenseMap<Operation *, unsigned>> bands =
      computeRowBands(alignments, partitions);
  if (!movingApart.empty() || failed(bands))
    return DenseMap<Operation *, unsigned>();
  return std::move(*bands);
}

FunctionAllocation walrus::getAllocation(FuncOp func) {
  TensorLiveness liveness(func);
  TargetAttr target = getTarget(func);
  // The lower bound -sb-alloc reports: rows that die apart counted apart.
  InterferenceGraph graph(
      liveness, {}, target.getSbufPartitions(),
      std::numeric_limits<size_t>::max(), 0,
      liveness.getBlockRanges(target.getSbufPartitions() / 4));
  FunctionAllocation allocation;
  allocation.function = getQualifiedName(func);
  allocation.core = getNeuronCoreId(func);
  allocation.lowerBound = graph.getLowerBound();
  allocation.sbufPartitions = target.getSbufPartitions();
  allocation.sbufBytesPerPartition = target.getSbufBytesPerPartition();
  allocation.points = liveness.getOrder().getNumPoints();
  DenseMap<Operation *, unsigned> rowBands =
      getRowBands(func, target.getSbufPartitions());
  int64_t peak = 0;
  bool placed = true;
  for (const SbNode &node : graph.getNodes()) {
    TensorPlacement &tensor = allocation.tensors.emplace_back();
    for (MemlocOp member : node.members)
      tensor.tensors.push_back(member.getName().str());
    tensor.partitions = node.partitions;
    tensor.bytes = node.bytes;
    tensor.bandClass = rowBands.lookup_or(node.members.front(), node.bandClass);
    if (node.live) {
      tensor.start = node.range.start;
      tensor.end = node.range.end;
    }
    MemlocOp memloc = node.members.front();
    if (memloc.getAddress() && memloc.getBasePartition()) {
      tensor.address = *memloc.getAddress();
      tensor.basePartition = *memloc.getBasePartition();
      peak = std::max(peak, *tensor.address + node.bytes);
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

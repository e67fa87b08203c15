//===- Allocation.cpp - A function's SBUF allocation as data --------------===//

#include "Walrus/Analysis/Allocation.h"
#include "Walrus/Analysis/Interference.h"
#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

FunctionAllocation walrus::getAllocation(FuncOp func) {
  TensorLiveness liveness(func);
  TargetAttr target = getTarget(func);
  InterferenceGraph graph(liveness, {}, target.getSbufPartitions());
  FunctionAllocation allocation;
  allocation.function = getQualifiedName(func);
  allocation.core = getNeuronCoreId(func);
  allocation.lowerBound = graph.getLowerBound();
  allocation.sbufPartitions = target.getSbufPartitions();
  allocation.sbufBytesPerPartition = target.getSbufBytesPerPartition();
  allocation.points = liveness.getOrder().getNumPoints();
  int64_t peak = 0;
  bool placed = true;
  for (const SbNode &node : graph.getNodes()) {
    TensorPlacement &tensor = allocation.tensors.emplace_back();
    for (MemlocOp member : node.members)
      tensor.tensors.push_back(member.getName().str());
    tensor.partitions = node.partitions;
    tensor.bytes = node.bytes;
    tensor.bandClass = node.bandClass;
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

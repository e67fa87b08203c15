//===- SbPartners.cpp - find_partners of -sb-alloc ------------------------===//
//
// Conservative coalescing (the reference's find_partners): tensors an
// identity copy moves between, whose lives only meet at the copy, may share
// one place, which makes the copy move nothing.
//
//===----------------------------------------------------------------------===//

#include "SbAllocSteps.h"

#include "llvm/ADT/EquivalenceClasses.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

static bool isPlainSbufTensor(MemlocOp memloc) {
  return memloc && memloc.getMemoryType().getMemorySpace() == MemorySpace::SBUF &&
         memloc.getKind() == TensorKind::Internal && !memloc.getAddress() &&
         !memloc.getSet();
}

SmallVector<SmallVector<MemlocOp, 2>>
walrus::findPartners(ArrayRef<std::pair<TensorCopyOp, unsigned>> copies,
                     const TensorLiveness &liveness, int64_t budget,
                     bool explain) {
  llvm::EquivalenceClasses<Operation *> groups;
  for (auto [copy, point] : copies) {
    auto source = copy.getSrc().getDefiningOp<MemlocOp>();
    auto destination = copy.getDst().getDefiningOp<MemlocOp>();
    if (!isPlainSbufTensor(source) || !isPlainSbufTensor(destination) ||
        source == destination || copy.getMaskAttr() ||
        source.getMemoryType() != destination.getMemoryType() ||
        copy.getSrcAp() != copy.getDstAp())
      continue;
    std::optional<LiveRange> from = liveness.getLiveRange(source);
    std::optional<LiveRange> to = liveness.getLiveRange(destination);
    // Move-related: the source dies at the copy, the destination is born.
    if (!from || !to || from->end != point || to->start != point)
      continue;
    groups.unionSets(source, destination);
  }
  SmallVector<SmallVector<MemlocOp, 2>> result;
  for (auto it = groups.begin(); it != groups.end(); ++it) {
    if (!(*it)->isLeader())
      continue;
    SmallVector<MemlocOp, 2> members;
    int64_t requires = 0;
    for (auto member = groups.member_begin(**it);
         member != groups.member_end(); ++member) {
      auto memloc = cast<MemlocOp>(*member);
      members.push_back(memloc);
      requires += memloc.getMemoryType().getBytesPerPartition();
    }
    llvm::sort(members, [&](MemlocOp lhs, MemlocOp rhs) {
      return liveness.getLiveRange(lhs)->start <
             liveness.getLiveRange(rhs)->start;
    });
    if (requires > budget) {
      MemlocOp largest = *llvm::max_element(members, [](MemlocOp lhs,
                                                         MemlocOp rhs) {
        return lhs.getMemoryType().getBytesPerPartition() <
               rhs.getMemoryType().getBytesPerPartition();
      });
      if (explain)
        emitRemark(members.front().getLoc())
            << "sb-alloc: accumulation group is too large for SB: "
            << members.size() << " tensors, largest = '"
            << largest.getName() << "', requires " << requires
            << " bytes/partition";
      continue;
    }
    if (explain)
      emitRemark(members.front().getLoc())
          << "sb-alloc: partners: " << members.size()
          << " tensors share one place, requires " << requires
          << " bytes/partition";
    result.push_back(std::move(members));
  }
  return result;
}

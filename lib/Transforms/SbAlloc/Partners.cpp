//===- Partners.cpp - find_partners of -sb-alloc --------------------------===//
//
// The reference's find_partners: conservative coalescing (tensors an
// identity copy moves between, whose lives only meet at the copy, may share
// one place, which makes the copy move nothing), and the accumulation
// groups' partition bands (the tensors matmults read on the same PE rows).
// The reference: docs/Reference.md, the allocator page, "What it coalesces".
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "Walrus/Analysis/RowAlignment.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

static bool isPlainSbufTensor(MemlocOp memloc) {
  return memloc &&
         memloc.getMemoryType().getMemorySpace() == MemorySpace::SBUF &&
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
    int64_t bytesNeeded = 0;
    for (auto member = groups.member_begin(**it); member != groups.member_end();
         ++member) {
      auto memloc = cast<MemlocOp>(*member);
      members.push_back(memloc);
      // Saturating: sizes come from the input.
      bytesNeeded =
          llvm::checkedAdd(bytesNeeded,
                           memloc.getMemoryType().getBytesPerPartition())
              .value_or(std::numeric_limits<int64_t>::max());
    }
    llvm::sort(members, [&](MemlocOp lhs, MemlocOp rhs) {
      return liveness.getLiveRange(lhs)->start <
             liveness.getLiveRange(rhs)->start;
    });
    if (bytesNeeded > budget) {
      MemlocOp largest =
          *llvm::max_element(members, [](MemlocOp lhs, MemlocOp rhs) {
            return lhs.getMemoryType().getBytesPerPartition() <
                   rhs.getMemoryType().getBytesPerPartition();
          });
      if (explain)
        emitRemark(members.front().getLoc())
            << "sb-alloc: accumulation group is too large for SB: "
            << members.size() << " tensors, largest = '" << largest.getName()
            << "', requires " << bytesNeeded << " bytes/partition";
      continue;
    }
    if (explain)
      emitRemark(members.front().getLoc())
          << "sb-alloc: partners: " << members.size()
          << " tensors share one place, requires " << bytesNeeded
          << " bytes/partition";
    result.push_back(std::move(members));
  }
  return result;
}

/// Remarks naming each PSUM tensor's accumulation group, as the
/// reference's find_partners logs them.
static void explainAccumulationGroups(FuncOp func,
                                      ArrayRef<RowAlignment> alignments) {
  llvm::MapVector<Operation *, llvm::SetVector<MemlocOp>> groups;
  for (RowAlignment alignment : alignments) {
    auto &members = groups[alignment.matmult.getDst().getDefiningOp()];
    members.insert(alignment.stationary);
    members.insert(alignment.moving);
  }
  emitRemark(func.getLoc())
      << "sb-alloc: found " << groups.size() << " accumulation group(s)";
  for (auto &[accumulator, members] : groups) {
    int64_t bytesNeeded = 0;
    MemlocOp largest = members.front();
    for (MemlocOp member : members) {
      bytesNeeded =
          llvm::checkedAdd(bytesNeeded,
                           member.getMemoryType().getBytesPerPartition())
              .value_or(std::numeric_limits<int64_t>::max());
      if (member.getMemoryType().getBytesPerPartition() >
          largest.getMemoryType().getBytesPerPartition())
        largest = member;
    }
    emitRemark(accumulator->getLoc())
        << "sb-alloc: accumulation group of '"
        << getDefiningMemloc(accumulator->getResult(0)).getName()
        << "': largest = '" << largest.getName()
        << "', tensors = " << members.size() << ", requires " << bytesNeeded
        << " bytes/partition";
  }
}

FailureOr<RowBands> walrus::stampRowBands(FuncOp func, int64_t partitions,
                                          bool explain) {
  SmallVector<RowAlignment> alignments;
  SmallVector<MatmultOp> movingApart, unconstrained;
  collectRowAlignments(func, alignments, movingApart, &unconstrained);
  if (explain)
    for (MatmultOp matmult : unconstrained)
      emitRemark(matmult.getLoc())
          << "sb-alloc: matmult rows not followed (a replicated operand, "
             "rows not whole partitions in order, or too many iterations): "
             "its operands get no band from it";
  if (!movingApart.empty())
    return movingApart.front().emitError()
           << "sb-alloc: matmult reads 'stationary' and 'moving' rows that "
              "move apart across iterations: no placement keeps both on the "
              "same tensor-engine rows"
           << onCore(movingApart.front());
  if (explain && !alignments.empty())
    explainAccumulationGroups(func, alignments);
  return computeRowBands(alignments, partitions);
}

void walrus::explainRowBands(const RowBands &rowBands, int64_t partitions) {
  for (MemlocOp memloc : rowBands.tensors) {
    // Wide and placed tensors start where they must; the others where the
    // rows of their partners put them.
    if (getFixedBase(memloc, partitions))
      continue;
    const RowBand &band = rowBands.bands.at(memloc);
    emitRemark(memloc.getLoc())
        << "sb-alloc: '" << memloc.getName() << "' starts at partition "
        << band.base << " (Height " << band.bandClass
        << "): the tensor engine reads its rows with its partners'";
  }
}

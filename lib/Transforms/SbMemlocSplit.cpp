//===- SbMemlocSplit.cpp - memloc_split of -sb-alloc ----------------------===//
//
// Live-range splitting (the reference's memloc_split): a tensor reused for
// independent values, each written whole before it is read, becomes one
// tensor per value, so that the allocator may place them apart.
//
//===----------------------------------------------------------------------===//

#include "SbAllocSteps.h"

#include "Walrus/Analysis/AccessFootprint.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// An instruction using the tensor, with what it reads and writes of it.
struct Use {
  InstructionOpInterface instruction;
  SmallVector<Access, 2> accesses;
  TensorBox read, written;
  bool readsAny = false, plainWrite = true;
};
} // namespace

/// The instructions using `memloc`, in program order, or nothing if the
/// tensor cannot be segmented (nested uses, views, unknown footprints).
static std::optional<SmallVector<Use>> getUses(FuncOp func, MemlocOp memloc) {
  SmallVector<Use> uses;
  MemoryType type = memloc.getMemoryType();
  for (Operation &op : func.getBody().front()) {
    bool nestedUse = false;
    op.walk([&](InstructionOpInterface nested) {
      if (nested.getOperation() == &op)
        return;
      for (Value operand : nested->getOperands())
        if (operand == memloc.getResult())
          nestedUse = true;
    });
    if (nestedUse)
      return std::nullopt; // uses inside loops are not segmented
    auto instruction = dyn_cast<InstructionOpInterface>(op);
    if (!instruction)
      continue;
    Use use{instruction, {}, {}, {}, false, true};
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    for (const Access &access : accesses) {
      if (access.getMemloc() != memloc.getResult())
        continue;
      AccessFootprint footprint =
          getAccessFootprint(instruction, access.getPattern(), type);
      if (footprint.issue != FootprintIssue::None)
        return std::nullopt;
      use.accesses.push_back(access);
      if (access.reads()) {
        use.readsAny = true;
        use.read.unite(footprint.box);
      }
      if (access.writes())
        use.written.unite(footprint.box);
      if (access.kind != AccessKind::Write)
        use.plainWrite = false;
    }
    if (!use.accesses.empty())
      uses.push_back(std::move(use));
  }
  return uses;
}

static bool contains(const TensorBox &outer, const TensorBox &inner) {
  return inner.empty() || (outer.firstPartition <= inner.firstPartition &&
                           inner.lastPartition <= outer.lastPartition &&
                           outer.firstColumn <= inner.firstColumn &&
                           inner.lastColumn <= outer.lastColumn);
}

unsigned walrus::splitDisjointSegments(FuncOp func, bool explain) {
  unsigned clones = 0;
  SmallVector<MemlocOp> memlocs =
      llvm::to_vector(func.getBody().front().getOps<MemlocOp>());
  for (MemlocOp memloc : memlocs) {
    if (memloc.getMemoryType().getMemorySpace() != MemorySpace::SBUF ||
        memloc.getKind() != TensorKind::Internal || memloc.getAddress() ||
        memloc.getSet())
      continue;
    if (llvm::any_of(memloc->getUsers(),
                     [](Operation *user) { return isa<ViewOp>(user); }))
      continue;
    std::optional<SmallVector<Use>> uses = getUses(func, memloc);
    if (!uses || uses->size() < 2)
      continue;
    // Cut before a use that writes, without reading, everything read up to
    // the next cut: the value before the cut is dead there. From the last
    // use back, so that each cut knows where its segment ends.
    SmallVector<size_t> cuts;
    TensorBox readLater;
    for (size_t index = uses->size(); index-- > 1;) {
      Use &use = (*uses)[index];
      readLater.unite(use.read);
      if (use.readsAny || !use.plainWrite || use.instruction.getMaskAttr() ||
          !contains(use.written, readLater))
        continue;
      cuts.push_back(index);
      readLater = TensorBox();
    }
    if (cuts.empty())
      continue;
    std::reverse(cuts.begin(), cuts.end());
    OpBuilder builder(memloc);
    builder.setInsertionPointAfter(memloc);
    for (auto [segment, cut] : llvm::enumerate(cuts)) {
      size_t end = segment + 1 < cuts.size() ? cuts[segment + 1] : uses->size();
      std::string name = getUnusedName(
          func, (memloc.getName() + "_S" + Twine(segment + 1)).str());
      auto clone = cast<MemlocOp>(builder.clone(*memloc));
      clone.setName(name);
      for (size_t index = cut; index < end; ++index)
        for (const Access &access : (*uses)[index].accesses)
          access.setMemloc(clone.getResult());
      ++clones;
    }
    if (explain)
      emitRemark(memloc.getLoc())
          << "sb-alloc: split '" << memloc.getName() << "' into "
          << cuts.size() + 1 << " independent segments";
  }
  return clones;
}

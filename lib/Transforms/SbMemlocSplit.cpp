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
#include "llvm/ADT/MapVector.h"

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

/// Whether memloc_split may give `memloc`'s segments clones of their own.
static bool maySegment(MemlocOp memloc) {
  return memloc.getMemoryType().getMemorySpace() == MemorySpace::SBUF &&
         memloc.getKind() == TensorKind::Internal && !memloc.getAddress() &&
         !memloc.getSet();
}

/// The tensors that may be cut at all: rewritten, after their first
/// instruction, by one that writes them without reading, unmasked (the
/// liveness walk notes it). Most are not, and collecting every tensor's
/// uses costs several times that walk.
static DenseSet<Operation *> getCutCandidates(const TensorLiveness &liveness) {
  DenseSet<Operation *> candidates;
  for (auto [index, memloc] : llvm::enumerate(liveness.getMemlocs()))
    if (liveness.isRewritten(index) && maySegment(memloc))
      candidates.insert(memloc);
  return candidates;
}

/// The instructions using each of `candidates`, in program order, without
/// their footprints yet; tensors used inside loops or through views are
/// left out (they are not segmented). One walk over the function for all
/// tensors.
static llvm::MapVector<Operation *, SmallVector<Use>>
getUses(FuncOp func, const DenseSet<Operation *> &candidates) {
  llvm::MapVector<Operation *, SmallVector<Use>> uses;
  DenseSet<Operation *> excluded;
  for (Operation &op : func.getBody().front()) {
    // A view names its source: cheaper than every tensor's use list.
    if (auto view = dyn_cast<ViewOp>(op)) {
      if (auto source = view.getSource().getDefiningOp<MemlocOp>())
        excluded.insert(source);
      continue;
    }
    if (isa<MemlocOp>(op))
      continue;
    if (isa<LoopOp>(op)) {
      op.walk([&](InstructionOpInterface nested) {
        for (Value operand : nested->getOperands())
          if (MemlocOp memloc = getDefiningMemloc(operand))
            excluded.insert(memloc);
      });
      continue;
    }
    auto instruction = dyn_cast<InstructionOpInterface>(op);
    if (!instruction)
      continue;
    SmallVector<Access> accesses;
    instruction.getAccesses(accesses);
    // An instruction names a few tensors: a short list, in the order the
    // accesses first name them (deterministic), beats a map.
    SmallVector<std::pair<Operation *, Use>, 4> byMemloc;
    for (const Access &access : accesses) {
      auto memloc = access.getMemloc().getDefiningOp<MemlocOp>();
      if (!memloc || !candidates.contains(memloc) || excluded.contains(memloc))
        continue;
      auto *it = llvm::find_if(
          byMemloc, [&](const auto &entry) { return entry.first == memloc; });
      if (it == byMemloc.end()) {
        byMemloc.push_back({memloc, Use{instruction, {}, {}, {}, false, true}});
        it = std::prev(byMemloc.end());
      }
      Use &use = it->second;
      use.accesses.push_back(access);
      use.readsAny |= access.reads();
      if (access.kind != AccessKind::Write)
        use.plainWrite = false;
    }
    for (auto &[memloc, use] : byMemloc)
      uses[memloc].push_back(std::move(use));
  }
  for (Operation *memloc : excluded)
    uses.erase(memloc);
  return uses;
}

/// Fills in what each use reads and writes of `memloc`; fails when some
/// footprint is unknown (the tensor is then not segmented).
static bool computeBoxes(MemlocOp memloc, MutableArrayRef<Use> uses) {
  for (Use &use : uses)
    for (const Access &access : use.accesses) {
      AccessFootprint footprint = getAccessFootprint(
          use.instruction, access.getPattern(), memloc.getMemoryType());
      if (footprint.issue != FootprintIssue::None)
        return false;
      if (access.reads())
        use.read.unite(footprint.box);
      if (access.writes())
        use.written.unite(footprint.box);
    }
  return true;
}

/// A use that may start a new value: it writes without reading, unmasked.
static bool mayCut(const Use &use) {
  InstructionOpInterface instruction = use.instruction;
  return !use.readsAny && use.plainWrite && !instruction.getMaskAttr();
}

static bool contains(const TensorBox &outer, const TensorBox &inner) {
  return inner.empty() || (outer.firstPartition <= inner.firstPartition &&
                           inner.lastPartition <= outer.lastPartition &&
                           outer.firstColumn <= inner.firstColumn &&
                           inner.lastColumn <= outer.lastColumn);
}

unsigned walrus::splitDisjointSegments(FuncOp func,
                                       const TensorLiveness &liveness,
                                       MemlocNamer &namer, bool explain) {
  unsigned clones = 0;
  DenseSet<Operation *> candidates = getCutCandidates(liveness);
  if (candidates.empty())
    return 0;
  auto usesByMemloc = getUses(func, candidates);
  for (auto &[op, memlocUses] : usesByMemloc) {
    auto memloc = cast<MemlocOp>(op);
    SmallVector<Use> *uses = &memlocUses;
    // Footprints are computed only where a cut is possible at all.
    if (uses->size() < 2 || llvm::none_of(llvm::drop_begin(*uses), mayCut) ||
        !computeBoxes(memloc, *uses))
      continue;
    // Cut before a use that writes, without reading, everything read up to
    // the next cut: the value before the cut is dead there. From the last
    // use back, so that each cut knows where its segment ends.
    SmallVector<size_t> cuts;
    TensorBox readLater;
    for (size_t index = uses->size(); index-- > 1;) {
      Use &use = (*uses)[index];
      readLater.unite(use.read);
      if (!mayCut(use) || !contains(use.written, readLater))
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
      std::string name = namer.getUnusedName(
          (memloc.getName() + "_S" + Twine(segment + 1)).str());
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

//===- MemlocSplit.cpp - memloc_split of -sb-alloc ------------------------===//
//
// Live-range splitting (the reference's memloc_split, loop-aware:
// docs/Reference.md, the allocator page, "memloc_split"): a tensor reused for
// independent values, each written whole before it is read, becomes one
// tensor per value, so that the allocator may place them apart. A loop
// nest counts as one use: it starts a value when its first access of the
// tensor writes, in every iteration, all the nest reads.
//
//===----------------------------------------------------------------------===//

#include "Steps.h"

#include "Walrus/Analysis/AccessFootprint.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {

/// A top-level use of the tensor: one instruction, or one loop nest (a
/// region: its accesses in program order), with what it reads and writes.
struct Use {
  SmallVector<InstructionAccess, 2> accesses;
  bool isRegion = false;
  TensorBox read, written;
  /// Whether the value before this use is dead at it: the use writes,
  /// without reading first, everything it reads (computeBoxes).
  bool startsValue = false;
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

/// Adds `instruction`'s accesses of `candidates` to their tensors' uses in
/// the top-level operation being walked (a loop nest when `isRegion`).
static void noteAccesses(InstructionOpInterface instruction,
                         const DenseSet<Operation *> &candidates,
                         SmallVectorImpl<std::pair<Operation *, Use>> &uses,
                         bool isRegion) {
  SmallVector<Access> accesses;
  instruction.getAccesses(accesses);
  for (const Access &access : accesses) {
    auto memloc = access.getMemloc().getDefiningOp<MemlocOp>();
    if (!memloc || !candidates.contains(memloc))
      continue;
    // A few tensors per use: a short list, in the order the accesses first
    // name them (deterministic), beats a map.
    auto *it = llvm::find_if(
        uses, [&](const auto &entry) { return entry.first == memloc; });
    if (it == uses.end()) {
      uses.push_back({memloc, Use()});
      it = std::prev(uses.end());
      it->second.isRegion = isRegion;
    }
    it->second.accesses.push_back({instruction, access});
  }
}

/// The top-level uses of each of `candidates`, in program order, without
/// their footprints yet; a loop nest is one use. Tensors used through views
/// are left out (they are not segmented). One walk over the function for
/// all tensors.
static llvm::MapVector<Operation *, SmallVector<Use>>
getUses(FuncOp func, const DenseSet<Operation *> &candidates) {
  llvm::MapVector<Operation *, SmallVector<Use>> uses;
  DenseSet<Operation *> excluded;
  SmallVector<std::pair<Operation *, Use>, 4> current;
  for (Operation &op : func.getBody().front()) {
    // A view names its source: cheaper than every tensor's use list.
    if (auto view = dyn_cast<ViewOp>(op)) {
      if (auto source = view.getSource().getDefiningOp<MemlocOp>())
        excluded.insert(source);
      continue;
    }
    current.clear();
    if (isa<LoopOp>(op))
      op.walk([&](InstructionOpInterface nested) {
        noteAccesses(nested, candidates, current, /*isRegion=*/true);
      });
    else if (auto instruction = dyn_cast<InstructionOpInterface>(op))
      noteAccesses(instruction, candidates, current, /*isRegion=*/false);
    for (auto &[memloc, use] : current)
      uses[memloc].push_back(std::move(use));
  }
  for (Operation *memloc : excluded)
    uses.erase(memloc);
  return uses;
}

/// Fills in what each use reads and writes of `memloc`, and whether it
/// starts a new value: an instruction that writes without reading,
/// unmasked; a loop nest whose first access of the tensor is such a write,
/// of a fixed rectangle (the same in every iteration) holding everything
/// the nest reads. Fails when some footprint is unknown (the tensor is
/// then not segmented).
static bool computeBoxes(MemlocOp memloc, MutableArrayRef<Use> uses) {
  FootprintCache footprints(memloc.getMemoryType());
  for (Use &use : uses) {
    bool readsAny = false, plainWrites = true;
    for (const auto &[instruction, access] : use.accesses) {
      AccessFootprint footprint =
          footprints.get(instruction, access.getPattern());
      if (footprint.issue != FootprintIssue::None)
        return false;
      if (access.reads())
        use.read.unite(footprint.box);
      if (access.writes())
        use.written.unite(footprint.box);
      readsAny |= access.reads();
      plainWrites &= access.kind == AccessKind::Write;
    }
    if (use.isRegion) {
      std::optional<TensorBox> written =
          getValueStartingWrite(memloc, use.accesses, footprints);
      use.startsValue = written.has_value();
      use.written = written.value_or(TensorBox());
      continue;
    }
    auto instruction =
        cast<InstructionOpInterface>(use.accesses.front().instruction);
    use.startsValue = !readsAny && plainWrites && !instruction.getMaskAttr();
  }
  return true;
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
    // A rotating buffer keeps its place from its first use to its last, so
    // that the next buffer's loads never wait for this one's readers.
    if (memloc->hasAttr(BIRDialect::kRotatingAttrName))
      continue;
    SmallVector<Use> *uses = &memlocUses;
    // Footprints are computed only where a cut is possible at all.
    if (uses->size() < 2 || !computeBoxes(memloc, *uses) ||
        llvm::none_of(llvm::drop_begin(*uses),
                      [](const Use &use) { return use.startsValue; }))
      continue;
    // Cut before a use that starts a value holding everything read up to
    // the next cut: the value before the cut is dead there. From the last
    // use back, so that each cut knows where its segment ends.
    SmallVector<size_t> cuts;
    TensorBox readLater;
    for (size_t index = uses->size(); index-- > 1;) {
      Use &use = (*uses)[index];
      readLater.unite(use.read);
      if (!use.startsValue || !use.written.contains(readLater))
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
        for (const InstructionAccess &use : (*uses)[index].accesses)
          use.access.setMemloc(clone.getResult());
      ++clones;
    }
    if (explain)
      emitRemark(memloc.getLoc())
          << "sb-alloc: split '" << memloc.getName() << "' into "
          << cuts.size() + 1 << " independent segments";
  }
  return clones;
}

//===- Dependences.cpp - Which instructions must stay in order ------------===//
//
// Each op's accesses, reduced to one per tensor and direction (a loop's are
// those of the instructions inside), are compared with the earlier ones of
// the tensors they may share bytes with.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Dependences.h"
#include "Walrus/Analysis/AccessFootprint.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

bool walrus::isReorderable(Operation *op) {
  if (isa<LoopOp>(op))
    return true;
  return isa<InstructionOpInterface>(op) && !isCrossCore(op);
}

SmallVector<SmallVector<Operation *>> walrus::getReorderableRuns(Block &block) {
  SmallVector<SmallVector<Operation *>> runs(1);
  for (Operation &op : block) {
    if (isReorderable(&op)) {
      runs.back().push_back(&op);
    } else if (!runs.back().empty()) {
      runs.emplace_back();
    }
  }
  if (runs.back().empty())
    runs.pop_back();
  return runs;
}

namespace {
/// What one op does to one tensor: the rectangle it reads or writes over
/// every iteration, or anything of it (`whole`).
struct TensorAccess {
  MemlocOp root;
  bool write = false;
  bool whole = false;
  TensorBox box;
  unsigned node = 0;
};

/// Collects the accesses of the ops of a run, one per tensor and
/// direction per op.
class AccessCollector {
public:
  SmallVector<TensorAccess> collect(Operation *op, unsigned node) {
    SmallVector<TensorAccess> merged;
    op->walk([&](InstructionOpInterface inst) {
      SmallVector<Access> accesses;
      inst.getAccesses(accesses);
      for (const Access &access : accesses)
        add(merged, describe(inst, access, node));
    });
    return merged;
  }

private:
  TensorAccess describe(InstructionOpInterface inst, const Access &access,
                        unsigned node) {
    TensorAccess described;
    described.root = getDefiningMemloc(access.getMemloc());
    described.write = access.writes();
    described.node = node;
    if (described.root.getResult() != access.getMemloc()) {
      described.whole = true;
      return described;
    }
    auto [it, inserted] =
        caches.try_emplace(described.root.getResult(), access.getMemoryType());
    AccessFootprint footprint = it->second.get(inst, access.getPattern());
    described.whole = footprint.issue != FootprintIssue::None;
    described.box = footprint.box;
    return described;
  }

  static void add(SmallVectorImpl<TensorAccess> &merged,
                  const TensorAccess &access) {
    for (TensorAccess &each : merged) {
      if (each.root != access.root || each.write != access.write)
        continue;
      each.whole |= access.whole;
      each.box.unite(access.box);
      return;
    }
    merged.push_back(access);
  }

  DenseMap<Value, FootprintCache> caches;
};
} // namespace

/// The tensors an access may share bytes with are those of its class: a
/// placed on-chip tensor's memory (the space, plus one), else its storage
/// set, else itself.
using AliasClass = std::pair<const void *, unsigned>;
static AliasClass getAliasClass(MemlocOp memloc) {
  MemoryType type = memloc.getMemoryType();
  if (memloc.getAddress() && type.isOnChip())
    return {nullptr, unsigned(type.getMemorySpace()) + 1};
  if (memloc.getSetAttr())
    return {memloc.getSetAttr().getAsOpaquePointer(), 0};
  return {memloc.getOperation(), 0};
}

/// Whether two placed on-chip tensors share a byte of a partition.
static bool placedBytesOverlap(MemlocOp a, MemlocOp b) {
  int64_t aStart = int64_t(*a.getAddress()), bStart = int64_t(*b.getAddress());
  int64_t aEnd = aStart + a.getMemoryType().getBytesPerPartition();
  int64_t bEnd = bStart + b.getMemoryType().getBytesPerPartition();
  int64_t aFirst = a.getBasePartition().value_or(0);
  int64_t bFirst = b.getBasePartition().value_or(0);
  int64_t aLast = aFirst + a.getMemoryType().getPartitions();
  int64_t bLast = bFirst + b.getMemoryType().getPartitions();
  return aStart < bEnd && bStart < aEnd && aFirst < bLast && bFirst < aLast;
}

static bool mayConflict(TensorAccess a, TensorAccess b) {
  if (!a.write && !b.write)
    return false;
  if (a.root != b.root) {
    // Placed tensors of one memory conflict where their bytes meet; two of
    // one storage set anywhere.
    if (a.root.getAddress() && b.root.getAddress())
      return placedBytesOverlap(a.root, b.root);
    return true;
  }
  return a.whole || b.whole || a.box.overlaps(b.box);
}

SmallVector<SmallVector<unsigned, 4>>
walrus::getDependences(ArrayRef<Operation *> run) {
  SmallVector<SmallVector<unsigned, 4>> predecessors(run.size());
  DenseMap<AliasClass, SmallVector<TensorAccess>> earlier;
  AccessCollector collector;
  for (auto [node, op] : llvm::enumerate(run)) {
    SmallVector<TensorAccess> accesses = collector.collect(op, node);
    SmallVector<unsigned, 4> &before = predecessors[node];
    for (const TensorAccess &access : accesses)
      for (const TensorAccess &other : earlier[getAliasClass(access.root)])
        if (other.node != node && mayConflict(access, other))
          before.push_back(other.node);
    llvm::sort(before);
    before.erase(std::unique(before.begin(), before.end()), before.end());
    for (const TensorAccess &access : accesses)
      earlier[getAliasClass(access.root)].push_back(access);
  }
  return predecessors;
}

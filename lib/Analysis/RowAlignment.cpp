//===- RowAlignment.cpp - Matmult operands on the same PE rows ------------===//

#include "Walrus/Analysis/RowAlignment.h"
#include "Walrus/Analysis/AccessFootprint.h"
#include "Walrus/Analysis/Interference.h"

#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::placement;

/// The first partition `pattern` reads of `operand` at each point of
/// getStartsByPoint over `numLoops` loops, when its rows are whole
/// partitions in order. An on-chip view keeps its source's partitions, so
/// its rows are the source's.
static std::optional<SmallVector<int64_t>>
getFirstRows(Operation *op, Value operand, AccessPatternAttr pattern,
             unsigned numLoops) {
  int64_t freeSize = cast<MemoryType>(operand.getType()).getFreeSize();
  if (pattern.getNums().front() > 1 && pattern.getSteps().front() != freeSize)
    return std::nullopt;
  FailureOr<SmallVector<int64_t>> starts =
      getStartsByPoint(op, pattern, numLoops);
  if (failed(starts))
    return std::nullopt;
  for (int64_t &start : *starts)
    start = llvm::divideFloorSigned(start, freeSize);
  return std::move(*starts);
}

void walrus::collectRowAlignments(FuncOp func,
                                  SmallVectorImpl<RowAlignment> &alignments,
                                  SmallVectorImpl<MatmultOp> &movingApart,
                                  SmallVectorImpl<MatmultOp> *unconstrained) {
  func.walk([&](MatmultOp matmult) {
    MemlocOp stationary = getDefiningMemloc(matmult.getStationary());
    MemlocOp moving = getDefiningMemloc(matmult.getMoving());
    std::optional<SmallVector<int64_t>> stationaryRows, movingRows;
    if (stationary && moving && !matmult.getReplicationAttr()) {
      // Both over the same loops, so that their points line up.
      unsigned numLoops = 0;
      for (AccessPatternAttr pattern :
           {matmult.getStationaryAp(), matmult.getMovingAp()})
        if (!isa<PhysicalAccessPatternAttr>(pattern))
          numLoops = std::max(numLoops, pattern.getStartMap().getNumDims());
      stationaryRows = getFirstRows(matmult, matmult.getStationary(),
                                    matmult.getStationaryAp(), numLoops);
      movingRows = getFirstRows(matmult, matmult.getMoving(),
                                matmult.getMovingAp(), numLoops);
    }
    if (!stationaryRows || !movingRows) {
      if (unconstrained)
        unconstrained->push_back(matmult);
      return;
    }
    // A physical pattern has one start for all points; the others have
    // as many as each other.
    size_t points = std::max(stationaryRows->size(), movingRows->size());
    assert((stationaryRows->size() == 1 || movingRows->size() == 1 ||
            stationaryRows->size() == movingRows->size()) &&
           "starts over different loops");
    auto rowAt = [&](ArrayRef<int64_t> rows, size_t point) {
      return rows[rows.size() == 1 ? 0 : point];
    };
    int64_t difference = movingRows->front() - stationaryRows->front();
    for (size_t point = 1; point < points; ++point)
      if (rowAt(*movingRows, point) - rowAt(*stationaryRows, point) !=
          difference) {
        movingApart.push_back(matmult);
        return;
      }
    alignments.push_back({matmult, stationary, moving, stationaryRows->front(),
                          movingRows->front()});
  });
}

std::optional<unsigned> walrus::getPinnedBandClass(int64_t base,
                                                   int64_t partitions,
                                                   int64_t targetPartitions) {
  // The narrowest fixed band that starts at `base` and holds the tensor,
  // as getBandChoices draws them (no quarter on a target of fewer than
  // four partitions).
  for (BandClass band :
       {BandClass::Quarter0, BandClass(2), BandClass(3), BandClass(4),
        BandClass::Half0, BandClass(7), BandClass::Full}) {
    auto [first, width] =
        getBandChoices(unsigned(band), targetPartitions).front();
    if (first == base && partitions <= width)
      return unsigned(band);
  }
  return std::nullopt;
}

namespace {
/// Union-find over tensors that also keeps each one's base partition
/// relative to its set's root.
class RelativeBases {
public:
  unsigned getIndex(MemlocOp memloc) {
    auto [it, inserted] = indexOf.try_emplace(memloc, members.size());
    if (inserted) {
      members.push_back(memloc);
      parent.push_back(it->second);
      offset.push_back(0);
    }
    return it->second;
  }
  /// The root of `index` and base(index) - base(root). Iterative: a chain
  /// of matmults can tie a hundred thousand tensors in a line.
  std::pair<unsigned, int64_t> find(unsigned index) {
    unsigned root = index;
    int64_t toRoot = 0;
    for (; parent[root] != root; root = parent[root])
      toRoot += offset[root];
    // Path compression: each tensor on the way points at the root.
    for (int64_t left = toRoot; parent[index] != index;) {
      unsigned next = parent[index];
      int64_t step = offset[index];
      parent[index] = root;
      offset[index] = left;
      left -= step;
      index = next;
    }
    return {root, toRoot};
  }
  /// Records base(a) - base(b) == difference; false when it contradicts
  /// what is recorded.
  bool relate(unsigned a, unsigned b, int64_t difference) {
    auto [rootA, offsetA] = find(a);
    auto [rootB, offsetB] = find(b);
    if (rootA == rootB)
      return offsetA - offsetB == difference;
    // base(rootB) = base(rootA) + offsetA - offsetB - difference.
    parent[rootB] = rootA;
    offset[rootB] = offsetA - offsetB - difference;
    return true;
  }
  ArrayRef<MemlocOp> getMembers() const { return members; }

private:
  DenseMap<Operation *, unsigned> indexOf;
  SmallVector<MemlocOp> members;
  SmallVector<unsigned> parent;
  SmallVector<int64_t> offset;
};
} // namespace

std::optional<int64_t> walrus::getFixedBase(MemlocOp memloc,
                                            int64_t partitions) {
  if (std::optional<uint64_t> base = memloc.getBasePartition())
    return int64_t(*base);
  if (memloc.getMemoryType().getPartitions() > partitions / 2)
    return 0;
  return std::nullopt;
}

/// base(root) of the set `indices` when a member's fixed base decides it;
/// failure (with an error) when two members decide differently.
static FailureOr<std::optional<int64_t>>
getFixedAnchor(RelativeBases &bases, ArrayRef<unsigned> indices,
               int64_t partitions) {
  std::optional<int64_t> anchor;
  for (unsigned index : indices) {
    MemlocOp memloc = bases.getMembers()[index];
    std::optional<int64_t> fixed = getFixedBase(memloc, partitions);
    if (!fixed)
      continue;
    int64_t offset = bases.find(index).second;
    if (anchor && *anchor + offset != *fixed)
      return memloc.emitError()
             << "sb-alloc: '" << memloc.getName()
             << "' must start at partition " << *fixed
             << (memloc.getBasePartition() ? " (placed there)"
                                           : " (it spans more than half the "
                                             "partitions)")
             << ", but the matmults reading it need it at partition "
             << *anchor + offset << onCore(memloc);
    anchor = *fixed - offset;
  }
  return anchor;
}

/// Every base(root) for a set nothing fixes where each member finds a
/// band, its lowest member (`lowest` from the root) on a quarter start:
/// the quarters in turn from `nextQuarter`, so that sets spread over the
/// row tiles (and partitions) instead of piling on the first. None when
/// no quarter fits.
static SmallVector<int64_t, 4>
getFreeAnchors(RelativeBases &bases, ArrayRef<unsigned> indices,
               int64_t partitions, int64_t lowest, unsigned nextQuarter) {
  auto fitsAt = [&](int64_t anchor) {
    return llvm::all_of(indices, [&](unsigned index) {
      MemlocOp memloc = bases.getMembers()[index];
      return getPinnedBandClass(anchor + bases.find(index).second,
                                memloc.getMemoryType().getPartitions(),
                                partitions)
          .has_value();
    });
  };
  SmallVector<int64_t, 4> anchors;
  for (unsigned attempt = 0; attempt < 4; ++attempt) {
    int64_t anchor = ((nextQuarter + attempt) % 4) * (partitions / 4) - lowest;
    if (fitsAt(anchor) && !llvm::is_contained(anchors, anchor))
      anchors.push_back(anchor);
  }
  return anchors;
}

FailureOr<RowBands> walrus::computeRowBands(ArrayRef<RowAlignment> alignments,
                                            int64_t partitions) {
  RelativeBases bases;
  for (RowAlignment alignment : alignments) {
    unsigned stationary = bases.getIndex(alignment.stationary);
    unsigned moving = bases.getIndex(alignment.moving);
    // base(stationary) + stationaryRow == base(moving) + movingRow.
    if (!bases.relate(stationary, moving,
                      alignment.movingRow - alignment.stationaryRow))
      return alignment.matmult.emitError()
             << "sb-alloc: matmult reads rows from partition "
             << alignment.stationaryRow << " of '"
             << alignment.stationary.getName() << "' and from partition "
             << alignment.movingRow << " of '" << alignment.moving.getName()
             << "': no placement puts both on the same tensor-engine rows "
                "(with the other matmults reading them)"
             << onCore(alignment.matmult);
  }
  llvm::MapVector<unsigned, SmallVector<unsigned>> sets;
  for (unsigned index = 0; index < bases.getMembers().size(); ++index)
    sets[bases.find(index).first].push_back(index);
  RowBands result;
  unsigned nextQuarter = 0;
  for (auto &[root, indices] : sets) {
    FailureOr<std::optional<int64_t>> fixed =
        getFixedAnchor(bases, indices, partitions);
    if (failed(fixed))
      return failure();
    int64_t lowest = 0;
    for (unsigned index : indices)
      lowest = std::min(lowest, bases.find(index).second);
    SmallVector<int64_t, 4> anchors;
    if (fixed->has_value())
      anchors.push_back(**fixed);
    else
      anchors =
          getFreeAnchors(bases, indices, partitions, lowest, nextQuarter++);
    // Without a fitting quarter, the lowest member at 0 names the misfit.
    int64_t anchor = anchors.empty() ? -lowest : anchors.front();
    FreeRowSet set;
    for (unsigned index : indices) {
      MemlocOp memloc = bases.getMembers()[index];
      int64_t offset = bases.find(index).second;
      int64_t base = anchor + offset;
      int64_t rows = memloc.getMemoryType().getPartitions();
      std::optional<unsigned> band = getPinnedBandClass(base, rows, partitions);
      if (!band)
        return memloc.emitError()
               << "sb-alloc: '" << memloc.getName()
               << "' must start at partition " << base
               << " for the matmults reading it, where no partition band of "
               << rows << " partitions starts" << onCore(memloc);
      result.bands[memloc] = {base, *band};
      result.tensors.push_back(memloc);
      set.members.push_back({memloc, offset});
    }
    if (!fixed->has_value()) {
      set.anchors = std::move(anchors);
      result.freeSets.push_back(std::move(set));
    }
  }
  return result;
}

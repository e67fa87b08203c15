//===- SbAllocVerify.cpp - The -sb-alloc-verify pass ----------------------===//
//
// An allocation is right when every SBUF tensor has a place inside the
// target, no two tensors that are live at the same time share a byte, and
// every matmult reads its operands' rows on the same partitions.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/RowAlignment.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Transforms/Passes.h"

#include "FunctionPass.h"

#include <map>
#include <queue>

namespace walrus {
#define GEN_PASS_DEF_SBALLOCVERIFY
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
/// Where a placed tensor sits and when it is live.
struct Placement {
  MemlocOp memloc;
  int64_t firstPartition, endPartition; // [first, end)
  int64_t firstByte, endByte;           // [first, end)
  LiveRange range;
  /// Rows that live over less than `range` (empty: none).
  ArrayRef<RowBlockRange> blocks;
};

struct SbAllocVerifyPass
    : FunctionPass<walrus::impl::SbAllocVerifyBase<SbAllocVerifyPass>> {
  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override {
    for (ModuleOp program : programs)
      if (failed(expectSplit(program, "sb-alloc-verify")))
        return failure();
    return success();
  }

  void runOnFunction(FuncOp func) override {
    if (failed(expectSplit(func->getParentOfType<ModuleOp>(),
                           "sb-alloc-verify")) ||
        !verifyFunc(func))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }

  bool verifyFunc(FuncOp func);
};
} // namespace

/// Whether every matmult's operands, where placed, put their contraction
/// rows on the same partitions (RowAlignment.h).
static bool verifyRowAlignments(FuncOp func) {
  SmallVector<RowAlignment> alignments;
  SmallVector<MatmultOp> movingApart;
  collectRowAlignments(func, alignments, movingApart);
  for (MatmultOp matmult : movingApart)
    matmult.emitError() << "sb-alloc-verify: matmult reads 'stationary' and "
                           "'moving' rows that move apart across iterations"
                        << onCore(matmult);
  bool ok = movingApart.empty();
  for (RowAlignment alignment : alignments) {
    std::optional<uint64_t> stationaryBase =
        alignment.stationary.getBasePartition();
    std::optional<uint64_t> movingBase = alignment.moving.getBasePartition();
    if (!stationaryBase || !movingBase)
      continue; // reported as not placed
    int64_t stationaryRow = int64_t(*stationaryBase) + alignment.stationaryRow;
    int64_t movingRow = int64_t(*movingBase) + alignment.movingRow;
    if (stationaryRow == movingRow)
      continue;
    alignment.matmult.emitError()
        << "sb-alloc-verify: matmult reads 'stationary' rows from partition "
        << stationaryRow << " and 'moving' rows from partition " << movingRow
        << ": the tensor engine needs them on the same partitions"
        << onCore(alignment.matmult);
    ok = false;
  }
  return ok;
}

/// Whether `a` and `b`, live together only at one point, share bytes only
/// through the identity copy at that point from the one ending there to the
/// one starting there, both at the same place: the copy then moves nothing
/// (-sb-alloc's partners).
static bool isInPlaceCopy(const Placement &a, const Placement &b,
                          ArrayRef<Operation *> instructions) {
  const Placement *from = &a, *to = &b;
  if (from->range.end != to->range.start)
    std::swap(from, to);
  if (from->range.end != to->range.start ||
      from->range.end >= instructions.size())
    return false;
  auto copy = dyn_cast_if_present<TensorCopyOp>(instructions[from->range.end]);
  return copy && copy.getSrc() == MemlocOp(from->memloc).getResult() &&
         copy.getDst() == MemlocOp(to->memloc).getResult() &&
         copy.getSrcAp() == copy.getDstAp() && !copy.getMaskAttr() &&
         from->firstPartition == to->firstPartition &&
         from->firstByte == to->firstByte &&
         MemlocOp(from->memloc).getMemoryType() ==
             MemlocOp(to->memloc).getMemoryType();
}

/// Whether some partition of both holds a live value of each at one point,
/// following the rows that die before the rest.
static bool meetInRows(const Placement &a, const Placement &b) {
  auto rowsOf = [](const Placement &p) {
    SmallVector<RowBlockRange, 4> rows(p.blocks.begin(), p.blocks.end());
    if (rows.empty())
      rows.push_back({0, p.endPartition - p.firstPartition, p.range});
    return rows;
  };
  for (const RowBlockRange &x : rowsOf(a))
    for (const RowBlockRange &y : rowsOf(b))
      if (x.range && y.range && x.range->overlaps(*y.range) &&
          a.firstPartition + x.firstRow < b.firstPartition + y.endRow &&
          b.firstPartition + y.firstRow < a.firstPartition + x.endRow)
        return true;
  return false;
}

/// The placements of `func`'s live SBUF tensors, with their ranges and
/// row blocks (which point into `blocks`, by liveness index); false after
/// an error for a tensor not placed or placed outside the target's SBUF
/// (those are left out).
static bool collectPlacements(FuncOp func, const TensorLiveness &liveness,
                              ArrayRef<SmallVector<RowBlockRange, 0>> blocks,
                              SmallVectorImpl<Placement> &placements) {
  TargetAttr target = getTarget(func);
  bool ok = true;
  for (MemlocOp memloc : func.getMemlocs()) {
    MemoryType type = memloc.getMemoryType();
    if (type.getMemorySpace() != MemorySpace::SBUF)
      continue;
    if (!memloc.getAddress() || !memloc.getBasePartition()) {
      memloc.emitError() << "sb-alloc-verify: '" << memloc.getName()
                         << "' is not placed" << onCore(memloc);
      ok = false;
      continue;
    }
    Placement placement{
        memloc,
        int64_t(*memloc.getBasePartition()),
        int64_t(*memloc.getBasePartition()) + type.getPartitions(),
        int64_t(*memloc.getAddress()),
        int64_t(*memloc.getAddress()) + type.getBytesPerPartition(),
        {},
        {}};
    if (placement.endPartition > target.getSbufPartitions() ||
        placement.endByte > target.getSbufBytesPerPartition()) {
      memloc.emitError() << "sb-alloc-verify: '" << memloc.getName()
                         << "' lies outside the target's SBUF"
                         << onCore(memloc);
      ok = false;
      continue;
    }
    std::optional<LiveRange> range = liveness.getLiveRange(memloc);
    if (!range)
      continue; // never live: it conflicts with nothing
    placement.range = *range;
    placement.blocks = blocks[*liveness.getIndex(memloc)];
    placements.push_back(placement);
  }
  return ok;
}

/// Whether no two of `placements` (in order of live-range start) share a
/// byte of a partition while both are live, proved without listing the
/// pairs live at once (millions on dense traces): the partitions are cut
/// into runs that each placement covers whole or not at all, and each run
/// keeps the byte ranges of its open tensors by first byte. While those
/// are disjoint, a new range meets one of them only if it meets one of its
/// two neighbours. False when one does (a conflict, but also an in-place
/// copy or rows that die apart, which the exact check excuses).
static bool provesApart(ArrayRef<Placement> placements) {
  SmallVector<int64_t> cuts;
  for (const Placement &placement : placements)
    cuts.append({placement.firstPartition, placement.endPartition});
  llvm::sort(cuts);
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  auto runsOf = [&](const Placement &placement) {
    return std::make_pair(
        llvm::lower_bound(cuts, placement.firstPartition) - cuts.begin(),
        llvm::lower_bound(cuts, placement.endPartition) - cuts.begin());
  };
  // Per run, the open byte ranges: first byte -> end byte.
  std::vector<std::map<int64_t, int64_t>> open(cuts.size());
  // Open placements by the end of their range, soonest first.
  using Closing = std::pair<unsigned, const Placement *>;
  std::priority_queue<Closing, std::vector<Closing>, std::greater<Closing>>
      closing;
  for (const Placement &placement : placements) {
    // No bytes, nothing to share (and no first byte of its own to key).
    if (placement.endByte <= placement.firstByte)
      continue;
    for (; !closing.empty() && closing.top().first < placement.range.start;
         closing.pop()) {
      auto [first, end] = runsOf(*closing.top().second);
      for (auto run = first; run < end; ++run)
        open[run].erase(closing.top().second->firstByte);
    }
    auto [first, end] = runsOf(placement);
    for (auto run = first; run < end; ++run) {
      std::map<int64_t, int64_t> &ranges = open[run];
      auto next = ranges.lower_bound(placement.firstByte);
      if ((next != ranges.end() && next->first < placement.endByte) ||
          (next != ranges.begin() &&
           std::prev(next)->second > placement.firstByte))
        return false;
      ranges.emplace_hint(next, placement.firstByte, placement.endByte);
    }
    closing.push({placement.range.end, &placement});
  }
  return true;
}

/// Reports every two placements that share bytes of a partition while
/// both are live (an in-place copy's operands aside); false if any do.
static bool checkOverlaps(MutableArrayRef<Placement> placements,
                          ArrayRef<Operation *> instructions) {
  // Sweep in order of live-range start; a tensor only meets those whose
  // range is still open.
  llvm::sort(placements, [](const Placement &lhs, const Placement &rhs) {
    return std::make_pair(lhs.range.start, lhs.firstByte) <
           std::make_pair(rhs.range.start, rhs.firstByte);
  });
  if (provesApart(placements))
    return true;
  bool ok = true;
  SmallVector<const Placement *> open;
  for (const Placement &placement : placements) {
    llvm::erase_if(open, [&](const Placement *other) {
      return other->range.end < placement.range.start;
    });
    for (const Placement *other : open) {
      int64_t partitionLo =
          std::max(placement.firstPartition, other->firstPartition);
      int64_t partitionHi =
          std::min(placement.endPartition, other->endPartition);
      int64_t byteLo = std::max(placement.firstByte, other->firstByte);
      int64_t byteHi = std::min(placement.endByte, other->endByte);
      if (partitionLo >= partitionHi || byteLo >= byteHi ||
          isInPlaceCopy(placement, *other, instructions) ||
          !meetInRows(placement, *other))
        continue;
      MemlocOp later = placement.memloc, earlier = other->memloc;
      later.emitError() << "sb-alloc-verify: '" << later.getName() << "' and '"
                        << earlier.getName()
                        << "' are live at the same time (points "
                        << std::max(placement.range.start, other->range.start)
                        << " to "
                        << std::min(placement.range.end, other->range.end)
                        << ") and share partitions [" << partitionLo << ", "
                        << partitionHi << ") x bytes [" << byteLo << ", "
                        << byteHi << ")" << onCore(later);
      ok = false;
    }
    open.push_back(&placement);
  }
  return ok;
}

bool SbAllocVerifyPass::verifyFunc(FuncOp func) {
  // The instruction at each program point (loops' points stay null).
  SmallVector<Operation *> instructions;
  TensorLiveness liveness(func, [&](InstructionOpInterface instruction,
                                    unsigned point, ArrayRef<LoopOp>) {
    instructions.resize(point + 1, nullptr);
    instructions[point] = instruction;
  });
  instructions.resize(liveness.getOrder().getNumPoints(), nullptr);
  std::vector<SmallVector<RowBlockRange, 0>> blocks =
      liveness.getBlockRanges(getTarget(func).getSbufPartitions() / 4);
  SmallVector<Placement> placements;
  bool placed = collectPlacements(func, liveness, blocks, placements);
  bool apart = checkOverlaps(placements, instructions);
  return verifyRowAlignments(func) && placed && apart;
}

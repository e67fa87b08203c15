//===- Liveness.cpp - Live ranges of tensors in program order -------------===//

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/AccessFootprint.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

ProgramOrder::ProgramOrder(FuncOp func, InstructionVisitor visit,
                           function_ref<void(MemlocOp)> visitMemloc) {
  SmallVector<LoopOp, 4> loops; // around the operation being numbered
  std::function<void(Block &)> number = [&](Block &block) {
    for (Operation &op : block) {
      if (auto loop = dyn_cast<LoopOp>(op)) {
        loopHeaders[loop] = numPoints++;
        loops.push_back(loop);
        number(loop.getBody().front());
        loops.pop_back();
        loopEnds[loop] = numPoints++;
      } else if (auto instruction = dyn_cast<InstructionOpInterface>(op)) {
        if (visit)
          visit(instruction, numPoints, loops);
        ++numPoints;
      } else if (auto memloc = dyn_cast<MemlocOp>(op); memloc && visitMemloc) {
        visitMemloc(memloc);
      }
    }
  };
  number(func.getBody().front());
}

namespace {

/// What the walk keeps of one location's accesses: enough for its range
/// without a record per access, which at 100k tensors costs more than the
/// walk itself.
struct AccessSummary {
  Operation *first = nullptr, *last = nullptr;
  unsigned firstPoint = 0, lastPoint = 0;
  /// The loops around the first and the last access.
  SmallVector<LoopOp, 0> firstLoops, lastLoops;
  /// How many of the outermost loops every access sits in.
  size_t common = 0;
  /// Every access, kept only when the first one sits in a loop: only then
  /// can all of them share one (getValueStartingWrite looks at them all).
  SmallVector<InstructionAccess, 0> accesses;
  /// Whether every access of the last instruction so far writes.
  bool lastWritesOnly = false;
  /// Whether an instruction after the first wrote the location without
  /// reading it, unmasked.
  bool rewritten = false;

  /// Called when the last instruction is done with the location.
  void settleLast() {
    if (last && last != first && lastWritesOnly &&
        !cast<InstructionOpInterface>(last).getMaskAttr())
      rewritten = true;
  }

  /// Adds `access`, by `instruction` at `point` inside `loops`.
  void add(Operation *instruction, unsigned point, ArrayRef<LoopOp> loops,
           const Access &access) {
    if (!first) {
      first = instruction;
      firstPoint = point;
      firstLoops.assign(loops.begin(), loops.end());
      common = loops.size();
    } else {
      const LoopOp *mine = std::mismatch(loops.begin(), loops.end(),
                                         firstLoops.begin(), firstLoops.end())
                               .first;
      common = std::min<size_t>(common, mine - loops.begin());
    }
    if (last != instruction) {
      settleLast();
      last = instruction;
      lastPoint = point;
      lastLoops.assign(loops.begin(), loops.end());
      lastWritesOnly = access.kind == AccessKind::Write;
    } else {
      lastWritesOnly &= access.kind == AccessKind::Write;
    }
    if (!firstLoops.empty())
      accesses.push_back({instruction, access});
  }

  /// The range of `memloc`'s value over these accesses (the rules of
  /// TensorLiveness), or nothing when there were none.
  std::optional<LiveRange> getRange(MemlocOp memloc,
                                    const ProgramOrder &order) const;
};
} // namespace

std::optional<LiveRange>
AccessSummary::getRange(MemlocOp memloc, const ProgramOrder &order) const {
  unsigned lastPoint = order.getNumPoints() ? order.getNumPoints() - 1 : 0;
  TensorKind kind = memloc.getKind();
  if (!first) {
    if (kind != TensorKind::Internal)
      return LiveRange{0, lastPoint, false};
    return std::nullopt;
  }
  // An access nested deeper than the loops all accesses share counts from
  // the header to the end of its loop at that depth. Those loops are
  // disjoint and in program order, so the first and last accesses bound
  // the range.
  LiveRange range{firstPoint, this->lastPoint, false};
  if (firstLoops.size() > common)
    range.start = order.getLoopHeader(firstLoops[common]);
  if (lastLoops.size() > common)
    range.end = order.getLoopEnd(lastLoops[common]);
  // Accessed only inside a loop: the value stays inside one iteration
  // when the body's first access starts it (getValueStartingWrite). A
  // rotating buffer holds the loop whole: its turn comes back every
  // iteration, and buffers sharing bytes would wait for each other.
  FootprintCache footprints(memloc.getMemoryType());
  bool rotating = memloc->hasAttr(BIRDialect::kRotatingAttrName);
  if (common > 0 &&
      (rotating || !getValueStartingWrite(memloc, accesses, footprints))) {
    LoopOp loop = firstLoops[common - 1];
    range.start = std::min(range.start, order.getLoopHeader(loop));
    range.end = std::max(range.end, order.getLoopEnd(loop));
    range.loopCarried = true;
  }
  if (kind == TensorKind::Input)
    range.start = 0;
  if (kind == TensorKind::Output)
    range.end = lastPoint;
  return range;
}

TensorLiveness::TensorLiveness(FuncOp func,
                               ProgramOrder::InstructionVisitor visit)
    : func(func) {
  // Indexed like `memlocs`: at 100k locations, maps keyed by operation
  // cost more than the walk itself.
  std::vector<AccessSummary> summaries;
  // Read once here, where the walk passes the location anyway.
  std::vector<int64_t> partitions;
  auto addMemloc = [&](MemlocOp memloc) {
    indexOf[memloc.getResult()] = memlocs.size();
    partitions.push_back(memloc.getMemoryType().getPartitions());
    memlocs.push_back(memloc);
    summaries.emplace_back();
    accessWeights.push_back(0);
    partialRows.push_back(false);
    inLoops.push_back(false);
  };
  SmallVector<Access> accesses;
  order = ProgramOrder(
      func,
      [&](InstructionOpInterface instruction, unsigned point,
          ArrayRef<LoopOp> loops) {
        if (visit)
          visit(instruction, point, loops);
        double weight = 1;
        for (LoopOp loop : loops)
          weight *= loop.getTripCount();
        accesses.clear();
        instruction.getAccesses(accesses);
        for (const Access &access : accesses) {
          // Through views, the viewed location.
          auto found = indexOf.find(access.getMemloc());
          bool direct = found != indexOf.end();
          if (!direct)
            if (MemlocOp memloc = getDefiningMemloc(access.getMemloc()))
              found = indexOf.find(memloc.getResult());
          if (found == indexOf.end())
            continue; // not one of this function's locations
          unsigned index = found->second;
          accessWeights[index] += weight;
          summaries[index].add(instruction, point, loops, access);
          // A block of rows may die before the rest: see getBlockRanges.
          if (direct && !partialRows[index] &&
              access.getPattern().getPartitionCount() < partitions[index])
            partialRows[index] = true;
          if (!loops.empty())
            inLoops[index] = true;
        }
      },
      addMemloc);

  ranges.resize(memlocs.size());
  rewritten.reserve(memlocs.size());
  for (auto [memloc, summary, range] : llvm::zip(memlocs, summaries, ranges)) {
    summary.settleLast();
    rewritten.push_back(summary.rewritten);
    range = summary.getRange(memloc, order);
  }
}

/// The blocks of `blockRows` rows that `access` of `memloc` touches, as
/// [first, end): all of them when it spans every row or its rows are not
/// known (a view, or a pattern that leaves its partitions).
static std::pair<int64_t, int64_t> getTouchedBlocks(Operation *instruction,
                                                    const Access &access,
                                                    MemlocOp memloc,
                                                    int64_t blockRows) {
  MemoryType type = memloc.getMemoryType();
  int64_t numBlocks = llvm::divideCeil(type.getPartitions(), blockRows);
  if (access.getMemloc() != memloc.getResult() ||
      access.getPattern().getPartitionCount() >= type.getPartitions())
    return {0, numBlocks};
  AccessFootprint footprint =
      getAccessFootprint(instruction, access.getPattern(), type);
  if (footprint.issue != FootprintIssue::None || footprint.box.empty())
    return {0, numBlocks};
  return {std::max<int64_t>(0, footprint.box.firstPartition / blockRows),
          std::min(numBlocks, footprint.box.lastPartition / blockRows + 1)};
}

namespace {
/// What getBlockRanges follows of one location's blocks: the first and
/// last point touching each (every access at the function's top level),
/// or a summary per block (accesses in loops, where the loop rules apply).
struct BlockSummaries {
  unsigned numBlocks = 0;
  std::vector<std::pair<unsigned, unsigned>> firstLast; // top level
  std::vector<AccessSummary> summaries;                 // in loops
};
} // namespace

/// The row blocks of `memloc` from their accesses' summaries, each range
/// within `whole` (the location's); none when every block lives as long
/// as the location.
static SmallVector<RowBlockRange, 0>
getRowBlocks(BlockSummaries &candidate, MemlocOp memloc, const LiveRange &whole,
             int64_t blockRows, const ProgramOrder &order) {
  int64_t partitions = memloc.getMemoryType().getPartitions();
  SmallVector<RowBlockRange, 0> rows;
  bool differ = false;
  for (unsigned block = 0; block < candidate.numBlocks; ++block) {
    RowBlockRange &range = rows.emplace_back();
    range.firstRow = int64_t(block) * blockRows;
    range.endRow = std::min(partitions, range.firstRow + blockRows);
    if (!candidate.summaries.empty()) {
      candidate.summaries[block].settleLast();
      range.range = candidate.summaries[block].getRange(memloc, order);
    } else if (auto [first, last] = candidate.firstLast[block]; first != ~0u) {
      range.range = LiveRange{first, last, false};
    }
    // A block's accesses are some of the location's: its range lies in
    // the location's (clamped all the same: callers index by it).
    if (range.range) {
      range.range->start = std::max(range.range->start, whole.start);
      range.range->end = std::min(range.range->end, whole.end);
    }
    differ |= !range.range || range.range->start != whole.start ||
              range.range->end != whole.end;
  }
  if (!differ)
    rows.clear();
  return rows;
}

std::vector<SmallVector<RowBlockRange, 0>>
TensorLiveness::getBlockRanges(int64_t blockRows) const {
  std::vector<SmallVector<RowBlockRange, 0>> blocks(memlocs.size());
  std::vector<unsigned> candidateOf(memlocs.size(), ~0u);
  std::vector<BlockSummaries> candidates;
  for (unsigned index = 0; index < memlocs.size(); ++index) {
    MemlocOp memloc = memlocs[index];
    MemoryType type = memloc.getMemoryType();
    if (!partialRows[index] || blockRows <= 0 ||
        memloc.getKind() != TensorKind::Internal ||
        type.getMemorySpace() != MemorySpace::SBUF ||
        type.getPartitions() <= blockRows)
      continue;
    candidateOf[index] = candidates.size();
    BlockSummaries &candidate = candidates.emplace_back();
    candidate.numBlocks = llvm::divideCeil(type.getPartitions(), blockRows);
    if (inLoops[index])
      candidate.summaries.resize(candidate.numBlocks);
    else
      candidate.firstLast.assign(candidate.numBlocks, {~0u, 0});
  }
  if (candidates.empty())
    return blocks;
  SmallVector<Access> accesses;
  ProgramOrder(func, [&](InstructionOpInterface instruction, unsigned point,
                         ArrayRef<LoopOp> loops) {
    accesses.clear();
    instruction.getAccesses(accesses);
    for (const Access &access : accesses) {
      MemlocOp memloc = getDefiningMemloc(access.getMemloc());
      std::optional<unsigned> index = memloc ? getIndex(memloc) : std::nullopt;
      if (!index || candidateOf[*index] == ~0u)
        continue;
      BlockSummaries &candidate = candidates[candidateOf[*index]];
      auto [first, end] =
          getTouchedBlocks(instruction, access, memloc, blockRows);
      for (int64_t block = first; block < end; ++block) {
        if (candidate.summaries.empty()) {
          auto &[firstPoint, lastPoint] = candidate.firstLast[block];
          firstPoint = std::min(firstPoint, point);
          lastPoint = std::max(lastPoint, point);
        } else {
          candidate.summaries[block].add(instruction, point, loops, access);
        }
      }
    }
  });
  for (unsigned index = 0; index < memlocs.size(); ++index)
    if (candidateOf[index] != ~0u)
      blocks[index] =
          getRowBlocks(candidates[candidateOf[index]], memlocs[index],
                       *ranges[index], blockRows, order);
  return blocks;
}

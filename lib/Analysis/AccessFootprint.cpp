//===- AccessFootprint.cpp - Where accesses land in a tensor --------------===//

#include "Walrus/Analysis/AccessFootprint.h"

#include "Walrus/Dialect/BIR/IR/ShardBinding.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// Enumerating more start points than this gives up (TooManyIterations).
static constexpr int64_t kMaxStarts = 1 << 16;

void TensorBox::unite(const TensorBox &other) {
  if (other.empty())
    return;
  if (empty()) {
    *this = other;
    return;
  }
  firstPartition = std::min(firstPartition, other.firstPartition);
  lastPartition = std::max(lastPartition, other.lastPartition);
  firstColumn = std::min(firstColumn, other.firstColumn);
  lastColumn = std::max(lastColumn, other.lastColumn);
}

SmallVector<int64_t> walrus::getShardIds(Operation *op) {
  if (std::optional<int64_t> core = getNeuronCoreId(op))
    return {*core};
  return llvm::to_vector(llvm::seq<int64_t>(0, getLncSize(op)));
}

FailureOr<SmallVector<int64_t>>
walrus::getStartsByPoint(Operation *op, AccessPatternAttr pattern,
                         unsigned numLoops) {
  if (auto physical = dyn_cast<PhysicalAccessPatternAttr>(pattern))
    return SmallVector<int64_t>{physical.getOffset()};
  AffineMap start = pattern.getStartMap();
  SmallVector<LoopOp, 4> loops = getEnclosingLoops(op);
  // The loops the start depends on, or more (the outermost first).
  unsigned numDims = std::max(start.getNumDims(), numLoops);
  if (numDims > loops.size())
    return failure();
  // Checked: trip counts reach 2^48 each, and a few nested ones wrap.
  SmallVector<int64_t> shards = getShardIds(op);
  std::optional<int64_t> total = int64_t(shards.size());
  for (unsigned dim = 0; dim < numDims && total && *total <= kMaxStarts; ++dim)
    total = llvm::checkedMul(*total, loops[dim].getTripCount());
  if (!total || *total > kMaxStarts)
    return failure();
  int64_t points = *total / int64_t(shards.size());
  SmallVector<int64_t> starts;
  for (int64_t shard : shards) {
    SmallVector<int64_t> ivs(numDims);
    for (int64_t point = 0; point < points; ++point) {
      int64_t rest = point;
      for (unsigned dim = numDims; dim-- > 0;) {
        LoopOp loop = loops[dim];
        ivs[dim] = loop.getLowerBound() +
                   (rest % loop.getTripCount()) * loop.getStepSize();
        rest /= loop.getTripCount();
      }
      std::optional<int64_t> value =
          evaluate(start.getResult(0),
                   ArrayRef(ivs).take_front(start.getNumDims()), {shard});
      if (!value)
        return failure();
      starts.push_back(*value);
    }
  }
  return starts;
}

/// Every distinct start of `pattern` over the loops around `op` and its
/// shard ids, or failure past kMaxStarts.
static FailureOr<SmallVector<int64_t>> getStarts(Operation *op,
                                                 AccessPatternAttr pattern) {
  FailureOr<SmallVector<int64_t>> starts =
      getStartsByPoint(op, pattern, /*numLoops=*/0);
  if (failed(starts))
    return failure();
  llvm::SetVector<int64_t> distinct(starts->begin(), starts->end());
  return SmallVector<int64_t>(distinct.begin(), distinct.end());
}

AccessFootprint walrus::getAccessFootprint(Operation *op,
                                           AccessPatternAttr pattern,
                                           MemoryType type) {
  AccessFootprint footprint;
  int64_t freeSize = type.getFreeSize();
  ArrayRef<int64_t> steps = pattern.getSteps(), nums = pattern.getNums();
  if (nums.front() > 1 && steps.front() != freeSize) {
    footprint.issue = FootprintIssue::NonContiguousPartitions;
    return footprint;
  }
  // Column extent of the free dimensions relative to the start.
  int64_t low = 0, high = 0;
  for (size_t dim = 1; dim < nums.size(); ++dim) {
    int64_t span = steps[dim] * (nums[dim] - 1);
    (span < 0 ? low : high) += span;
  }
  FailureOr<SmallVector<int64_t>> starts = getStarts(op, pattern);
  if (failed(starts)) {
    footprint.issue = FootprintIssue::TooManyIterations;
    return footprint;
  }
  for (int64_t start : *starts) {
    int64_t partition = start / freeSize, column = start % freeSize;
    if (column + low < 0 || column + high >= freeSize) {
      footprint.issue = FootprintIssue::CrossesPartitions;
      return footprint;
    }
    footprint.box.unite(
        {partition, partition + nums.front() - 1, column + low, column + high});
  }
  return footprint;
}

AccessFootprint FootprintCache::get(Operation *op, AccessPatternAttr pattern) {
  if (!isa<PhysicalAccessPatternAttr>(pattern))
    return getAccessFootprint(op, pattern, type);
  auto [it, inserted] = physical.try_emplace(pattern);
  if (inserted)
    it->second = getAccessFootprint(op, pattern, type);
  return it->second;
}

AccessPatternAttr walrus::rebaseIntoBox(Operation *op,
                                        AccessPatternAttr pattern,
                                        const TensorBox &box,
                                        int64_t freeSize) {
  MLIRContext *context = pattern.getContext();
  int64_t newFreeSize = box.getColumns();
  SmallVector<int64_t> steps(pattern.getSteps());
  steps.front() = newFreeSize;
  auto rebaseConstant = [&](int64_t start) {
    return (start / freeSize - box.firstPartition) * newFreeSize +
           start % freeSize - box.firstColumn;
  };
  if (auto physical = dyn_cast<PhysicalAccessPatternAttr>(pattern))
    return PhysicalAccessPatternAttr::get(context,
                                          rebaseConstant(physical.getOffset()),
                                          steps, pattern.getNums());

  // Pick the simplest exact form: a start that stays in one partition (or
  // one column) over all iterations rebases by a constant (or by a
  // division MLIR folds for starts that step whole partitions).
  auto symbolic = cast<SymbolicAccessPatternAttr>(pattern);
  AffineMap startMap = symbolic.getStartMap();
  AffineExpr start = startMap.getResult(0);
  FailureOr<SmallVector<int64_t>> starts = getStarts(op, pattern);
  auto same = [&](auto key) {
    return succeeded(starts) && llvm::all_of(*starts, [&](int64_t value) {
             return key(value) == key(starts->front());
           });
  };
  AffineExpr rebased;
  if (newFreeSize == freeSize && box.firstColumn == 0) {
    rebased = start - box.firstPartition * freeSize;
  } else if (same([&](int64_t value) { return value / freeSize; })) {
    int64_t partition = starts->front() / freeSize;
    rebased =
        start + (rebaseConstant(partition * freeSize) - partition * freeSize);
  } else if (same([&](int64_t value) { return value % freeSize; })) {
    int64_t column = starts->front() % freeSize;
    rebased = ((start - column).floorDiv(freeSize) - box.firstPartition) *
                  newFreeSize +
              (column - box.firstColumn);
  } else {
    rebased = (start.floorDiv(freeSize) - box.firstPartition) * newFreeSize +
              start % freeSize - box.firstColumn;
  }
  rebased = simplifyAffineExpr(rebased, startMap.getNumDims(),
                               startMap.getNumSymbols());
  if (auto constant = dyn_cast<AffineConstantExpr>(rebased))
    return PhysicalAccessPatternAttr::get(context, constant.getValue(), steps,
                                          pattern.getNums());
  return SymbolicAccessPatternAttr::get(
      context,
      AffineMap::get(startMap.getNumDims(), startMap.getNumSymbols(), rebased),
      steps, pattern.getNums(), AffineMap(), AffineMap());
}

std::optional<TensorBox>
walrus::getValueStartingWrite(MemlocOp memloc,
                              ArrayRef<InstructionAccess> accesses,
                              FootprintCache &footprints) {
  if (accesses.empty())
    return std::nullopt;
  const InstructionAccess &first = accesses.front();
  if (first.access.kind != AccessKind::Write ||
      cast<InstructionOpInterface>(first.instruction).getMaskAttr() ||
      first.access.getMemloc() != memloc.getResult() ||
      !isa<PhysicalAccessPatternAttr>(first.access.getPattern()))
    return std::nullopt;
  AccessFootprint written =
      footprints.get(first.instruction, first.access.getPattern());
  if (written.issue != FootprintIssue::None)
    return std::nullopt;
  for (const InstructionAccess &use : accesses) {
    if (!use.access.reads())
      continue;
    // A read by the first writer sees the value from before it.
    if (use.instruction == first.instruction ||
        use.access.getMemloc() != memloc.getResult())
      return std::nullopt;
    AccessFootprint read =
        footprints.get(use.instruction, use.access.getPattern());
    if (read.issue != FootprintIssue::None || !written.box.contains(read.box))
      return std::nullopt;
  }
  return written.box;
}

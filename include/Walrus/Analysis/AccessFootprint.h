//===- AccessFootprint.h - Where accesses land in a tensor -------*- C++
//-*-===//
//
// The partitions x columns rectangle an access touches over every loop
// iteration and shard id, and whether it stays inside its partitions. The
// layout passes (vn-split, shrink-dn) decide and rebase with it.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_ACCESSFOOTPRINT_H
#define WALRUS_ANALYSIS_ACCESSFOOTPRINT_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

namespace walrus {

/// A rectangle of a tensor: rows are partitions (DRAM: the first
/// dimension), columns the elements within one.
struct TensorBox {
  int64_t firstPartition = 0, lastPartition = -1;
  int64_t firstColumn = 0, lastColumn = -1;

  bool empty() const { return lastPartition < firstPartition; }
  int64_t getPartitions() const { return lastPartition - firstPartition + 1; }
  int64_t getColumns() const { return lastColumn - firstColumn + 1; }
  bool overlaps(const TensorBox &other) const {
    return firstPartition <= other.lastPartition &&
           other.firstPartition <= lastPartition &&
           firstColumn <= other.lastColumn && other.firstColumn <= lastColumn;
  }
  /// Whether every element of `inner` is in this box (an empty one is).
  bool contains(const TensorBox &inner) const {
    return inner.empty() ||
           (firstPartition <= inner.firstPartition &&
            inner.lastPartition <= lastPartition &&
            firstColumn <= inner.firstColumn && inner.lastColumn <= lastColumn);
  }
  void unite(const TensorBox &other);
};

/// Why an access cannot be described by a rectangle of whole rows.
enum class FootprintIssue {
  None,
  /// The partition dimension does not step by one partition.
  NonContiguousPartitions,
  /// The free dimensions run past the end (or start) of a partition.
  CrossesPartitions,
  /// The loop nest has too many iterations to enumerate.
  TooManyIterations,
};

struct AccessFootprint {
  FootprintIssue issue = FootprintIssue::None;
  TensorBox box;
};

/// The footprint of `pattern` on a tensor of `type`, accessed by `op`, over
/// its loops' iterations and the shard ids it can run as.
AccessFootprint getAccessFootprint(mlir::Operation *op,
                                   bir::AccessPatternAttr pattern,
                                   bir::MemoryType type);

/// getAccessFootprint over the many accesses of one tensor: a physical
/// pattern's footprint does not depend on where it is used, so each is
/// computed once (a tile may be accessed the same way thousands of times).
class FootprintCache {
public:
  explicit FootprintCache(bir::MemoryType type) : type(type) {}
  AccessFootprint get(mlir::Operation *op, bir::AccessPatternAttr pattern);

private:
  bir::MemoryType type;
  llvm::DenseMap<mlir::Attribute, AccessFootprint> physical;
};

/// The start of `pattern` at each shard id `op` runs as and each
/// iteration of the loops its start depends on, or of the `numLoops`
/// outermost loops around `op` if more, in one order (shards, then
/// iterations in loop order): two patterns of one instruction enumerated
/// over the same loops line up. A physical pattern has one start.
/// Failure past 65536 starts or on overflow.
mlir::FailureOr<llvm::SmallVector<int64_t>>
getStartsByPoint(mlir::Operation *op, bir::AccessPatternAttr pattern,
                 unsigned numLoops);

/// The shard ids `op` can run as: its core once concretized, else every
/// core of its module.
llvm::SmallVector<int64_t> getShardIds(mlir::Operation *op);

/// `pattern` of `op`, which lies inside `box` of a tensor with `freeSize`
/// elements per partition, rewritten for a tensor holding just `box`
/// (row-major): partition p, column c becomes element
/// (p - first partition) * box columns + (c - first column).
bir::AccessPatternAttr rebaseIntoBox(mlir::Operation *op,
                                     bir::AccessPatternAttr pattern,
                                     const TensorBox &box, int64_t freeSize);

/// One access of a tensor and the instruction making it.
struct InstructionAccess {
  mlir::Operation *instruction;
  bir::Access access;
};

/// The rectangle the first of `accesses` (one tensor's, in program order)
/// writes when that write starts a new value holding everything the
/// accesses read: a plain, unmasked write of a fixed rectangle (a physical
/// pattern) by an instruction that does not also read the tensor (an
/// instruction reads before it writes), every read on `memloc` itself (not
/// through a view) and inside the rectangle. Nothing otherwise. Liveness
/// (a value that stays inside one loop iteration) and memloc_split (a loop
/// nest that starts a value) ask the same question.
std::optional<TensorBox>
getValueStartingWrite(bir::MemlocOp memloc,
                      llvm::ArrayRef<InstructionAccess> accesses,
                      FootprintCache &footprints);

} // namespace walrus

#endif // WALRUS_ANALYSIS_ACCESSFOOTPRINT_H

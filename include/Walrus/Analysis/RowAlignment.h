//===- RowAlignment.h - Matmult operands on the same PE rows ---*- C++ -*-===//
//
// The tensor engine multiplies row k of the stationary operand with row k
// of the moving one in PE row k, which reads one SBUF partition: both
// operands' contraction rows must sit on the same partitions (its row
// tiles are 32 or 64 partitions, NKI's nc_matmul "tiling mode"). The
// reference's find_partners gathers a PSUM tensor's matmult operands into
// an accumulation group and stamps each member's partition band (Height)
// from its base partition (docs/Reference.md, the allocator page,
// "What it coalesces"). -sb-alloc stamps the bands, -sb-alloc-verify checks
// the placed partitions. Never mutates the IR.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_ROWALIGNMENT_H
#define WALRUS_ANALYSIS_ROWALIGNMENT_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

namespace walrus {

/// One matmult's requirement: base(stationary) + stationaryRow ==
/// base(moving) + movingRow.
struct RowAlignment {
  bir::MatmultOp matmult;
  bir::MemlocOp stationary, moving;
  /// The first partition each operand reads, within its tensor, at the
  /// first iteration: at every other the difference is the same.
  int64_t stationaryRow = 0, movingRow = 0;
};

/// The row alignments of `func`'s matmults on SBUF tensors. Matmults
/// whose operands' rows move apart across loop iterations or shard ids go
/// to `movingApart` (no placement aligns them). Views are followed to
/// their source (an on-chip view keeps its partitions). A replicated
/// matmult, or one whose rows are not whole partitions in order or whose
/// loops have too many iterations to follow, constrains nothing
/// (`unconstrained`).
void collectRowAlignments(
    bir::FuncOp func, llvm::SmallVectorImpl<RowAlignment> &alignments,
    llvm::SmallVectorImpl<bir::MatmultOp> &movingApart,
    llvm::SmallVectorImpl<bir::MatmultOp> *unconstrained = nullptr);

/// The partition band class (BandClass in Interference.h) of a tensor of
/// `partitions` rows that must start at partition `base`: the narrowest
/// band of the target's `targetPartitions` holding exactly it (a quarter,
/// a half, or all partitions from 0). None when no band starts there.
std::optional<unsigned> getPinnedBandClass(int64_t base, int64_t partitions,
                                           int64_t targetPartitions);

/// The base partition of `memloc` fixed before any choice, on a target of
/// `partitions`: a tensor wider than half of them starts at 0, a placed
/// one where it is.
std::optional<int64_t> getFixedBase(bir::MemlocOp memloc, int64_t partitions);

/// Where a tensor the tensor engine reads must start, and its band.
struct RowBand {
  int64_t base = 0;
  unsigned bandClass = 0;
};

/// Tensors tied by their rows that no fixed base places: the set may start
/// at any of `anchors` (each member at anchor + its offset finds a band),
/// the first being the one RowBands::bands holds.
struct FreeRowSet {
  llvm::SmallVector<std::pair<bir::MemlocOp, int64_t>, 4> members;
  llvm::SmallVector<int64_t, 4> anchors;
};

struct RowBands {
  /// Per tensor a matmult reads (by memloc): its base and band.
  llvm::DenseMap<mlir::Operation *, RowBand> bands;
  /// Those tensors, set by set.
  llvm::SmallVector<bir::MemlocOp> tensors;
  llvm::SmallVector<FreeRowSet> freeSets;
};

/// The bands of every tensor `alignments` tie. A tensor wider than half
/// the partitions starts at 0 and a placed one where it is; tied tensors
/// nothing fixes start in the quarters in turn (the other quarters where
/// they fit are listed in freeSets). Fails, with an error at the matmult
/// or tensor, when no placement aligns them.
mlir::FailureOr<RowBands>
computeRowBands(llvm::ArrayRef<RowAlignment> alignments, int64_t partitions);

} // namespace walrus

#endif // WALRUS_ANALYSIS_ROWALIGNMENT_H

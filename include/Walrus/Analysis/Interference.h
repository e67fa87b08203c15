//===- Interference.h - SBUF tensors as a placement problem -----*- C++ -*-===//
//
// The allocator's view of a function (after the reference SB_Allocator's
// front half): one node per SBUF tensor, or per group of tensors that
// share storage, with its 2-D footprint (partitions x bytes per partition),
// its partition-band class and its live range; edges between nodes whose
// live ranges overlap in time (placement::Problem). Never mutates the IR.
// The reference: docs/Reference.md, "SB allocator".
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_INTERFERENCE_H
#define WALRUS_ANALYSIS_INTERFERENCE_H

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Placement/Problem.h"

namespace walrus {

/// One function's SBUF tensors as a placement problem, and per node the
/// tensors it stands for (they share its place).
struct SbufProblem {
  placement::Problem problem;
  std::vector<llvm::SmallVector<bir::MemlocOp, 2>> members;
};

/// The problem of the function `liveness` covers: `groups` lists the
/// tensors that must share a placement (partners); every other SBUF tensor
/// is a node of its own. `rowBlocks`, by liveness index
/// (TensorLiveness::getBlockRanges), gives a tensor of its own the blocks
/// of rows that die apart.
SbufProblem buildSbufProblem(
    const TensorLiveness &liveness,
    llvm::ArrayRef<llvm::SmallVector<bir::MemlocOp, 2>> groups,
    int64_t targetPartitions, placement::EdgeLimits limits = {},
    llvm::ArrayRef<llvm::SmallVector<RowBlockRange, 0>> rowBlocks = {});

} // namespace walrus

#endif // WALRUS_ANALYSIS_INTERFERENCE_H

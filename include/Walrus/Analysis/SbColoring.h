//===- SbColoring.h - Chaitin-Briggs colouring in two dimensions -*- C++
//-*-===//
//
// The back half of the SBUF allocator: simplify by impact-weighted degree
// against each node's own number of placements, push optimistically, then
// select a band and a byte offset per node. Computes placements only; the
// -sb-alloc pass writes them (or spill code) into the IR.
// docs/SbAlloc.md describes the algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_SBCOLORING_H
#define WALRUS_ANALYSIS_SBCOLORING_H

#include "Walrus/Analysis/Interference.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace walrus {

struct SbPlacement {
  int64_t basePartition = 0;
  int64_t address = 0;
};

struct SbColoring {
  /// Per node: its placement, or nothing if it must spill.
  llvm::SmallVector<std::optional<SbPlacement>> placements;
  /// Nodes that found no place, in node order.
  llvm::SmallVector<unsigned> spilled;
  /// Highest byte any placed node reaches in its partitions.
  int64_t peakBytes = 0;
};

/// Colours `graph` on `partitions` x `bytesPerPartition` bytes. Nodes with
/// a `fixed` placement keep it. With `threads`, independent orders of a
/// large graph run side by side; the result is the same without.
SbColoring colorGraph(const InterferenceGraph &graph, int64_t partitions,
                      int64_t bytesPerPartition,
                      llvm::ArrayRef<std::optional<SbPlacement>> fixed,
                      llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus

#endif // WALRUS_ANALYSIS_SBCOLORING_H

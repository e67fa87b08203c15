//===- Coloring.h - Chaitin-Briggs colouring in two dimensions -*- C++
//-*-===//
//
// The back half of the SBUF allocator: simplify by impact-weighted degree
// against each node's own number of placements, push optimistically, then
// select a band and a byte offset per node. Computes placements only; the
// -sb-alloc pass writes them (or spill code) into the IR.
// docs/placement/Coloring.md describes the algorithm.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_COLORING_H
#define WALRUS_PLACEMENT_COLORING_H

#include "Walrus/Placement/Problem.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace walrus::placement {

/// Colours `graph` on `partitions` x `capacity` bytes. Nodes with
/// a `fixed` placement keep it. With `threads`, independent orders of a
/// large graph run side by side; the result is the same without.
Placement colorGraph(const Problem &graph, int64_t partitions, int64_t capacity,
                     llvm::ArrayRef<std::optional<Place>> fixed,
                     llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_COLORING_H

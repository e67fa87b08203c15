//===- SbDense.h - Placement of dense functions without edges ---*- C++ -*-===//
//
// When thousands of tensors are live at once, the interference graph's
// edges (every pair live together) cost more time and memory than placing
// does. This path places a graph built without edges: first fit through an
// OccupancyIndex in colouring's orders, then a squeaky-wheel improvement
// (Joslin and Clements, "Squeaky Wheel Optimization", JAIR 1999): the
// tensors that set the height move to the front of the order and the
// order is placed again, while a deterministic work budget lasts.
// docs/SbAlloc.md, "Dense functions".
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_SBDENSE_H
#define WALRUS_ANALYSIS_SBDENSE_H

#include "Walrus/Analysis/SbColoring.h"

namespace walrus {

struct DensePlacement {
  SbColoring coloring;
  /// Index probes and insertions, over every order placed.
  uint64_t work = 0;
  /// Orders placed, and the height (peak) each improving one reached.
  unsigned orders = 0;
  llvm::SmallVector<int64_t> improvements;
};

/// Places every node of `graph` (edges not needed) on `partitions` x
/// `bytesPerPartition` bytes; `fixed` nodes keep their place. Each order
/// places a node where colouring's select would (first fit, the first
/// band on ties). Improvement stops at the lower bound, after `maxWork`,
/// or when several orders in a row improve nothing. With `threads`, two
/// chains of orders run side by side; the result is the same without.
DensePlacement placeDense(const InterferenceGraph &graph, int64_t partitions,
                          int64_t bytesPerPartition,
                          llvm::ArrayRef<std::optional<SbPlacement>> fixed,
                          uint64_t maxWork,
                          llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus

#endif // WALRUS_ANALYSIS_SBDENSE_H

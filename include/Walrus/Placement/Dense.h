//===- Dense.h - Placement of dense functions without edges ---*- C++ -*-===//
//
// When thousands of tensors are live at once, the interference graph's
// edges (every pair live together) cost more time and memory than placing
// does. This path places a graph built without edges: first fit through an
// OccupancyIndex, from colouring's left-edge order improved by squeaky-wheel
// optimisation (Joslin and Clements, "Squeaky Wheel Optimization", JAIR
// 1999): the tensors that end too high go earlier in the next order, while
// a deterministic work budget lasts.
// docs/placement/Dense.md.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_DENSE_H
#define WALRUS_PLACEMENT_DENSE_H

#include "Walrus/Placement/Coloring.h"

namespace walrus::placement {

struct DensePlacement {
  Placement coloring;
  /// Index probes and insertions, over every order placed.
  uint64_t work = 0;
  /// Orders placed to the end, over both chains and largest first.
  unsigned orders = 0;
};

/// Places every node of `graph` (edges not needed) on `partitions` x
/// `capacity` bytes; `fixed` nodes keep their place. Each order
/// places a node where colouring's select would (first fit, the first
/// band on ties). Each of two chains of orders stops at the lower bound,
/// after `workLimit`, or when several orders in a row improve nothing; the
/// result is never above largest-first first fit when that completes
/// within `workLimit` / 2. With room, when every node spans all partitions,
/// one chain's orders place below a capacity of their own (the lower bound
/// and a 1024th of it), and what its best order leaves out there goes
/// above, last. With `threads`, the chains
/// run side by side; the result is the same without.
DensePlacement placeDense(const Problem &graph, int64_t partitions,
                          int64_t capacity,
                          llvm::ArrayRef<std::optional<Place>> fixed,
                          uint64_t workLimit,
                          llvm::ThreadPoolInterface *threads = nullptr);

/// One order of placeDense: first fit of the nodes of `order`, in turn,
/// around the `fixed` places; those left out are `spilled`, the other
/// nodes neither placed nor spilled. Adds its work to `work`.
Placement placeInOrder(const Problem &graph, int64_t partitions,
                       int64_t capacity,
                       llvm::ArrayRef<std::optional<Place>> fixed,
                       llvm::ArrayRef<unsigned> order, uint64_t &work);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_DENSE_H

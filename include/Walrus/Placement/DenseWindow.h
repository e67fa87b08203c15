//===- DenseWindow.h - Exact search where a dense trace peaks -*- C++ -*-===//
//
// First fit ends above the lower bound of a dense trace where a few points
// in time are nearly full. The exact search (Search.h) solves the
// tensors live in windows of time around those points, where they are a
// few hundred, and first fit places every other tensor around that, where
// there is room to spare. docs/placement/Dense.md.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_DENSEWINDOW_H
#define WALRUS_PLACEMENT_DENSEWINDOW_H

#include "Walrus/Placement/Coloring.h"

namespace walrus::placement {

struct WindowPlacement {
  /// Every node placed within the area bound (or a little above it, where
  /// the search placed no window at the bound), if the search and first
  /// fit managed.
  std::optional<Placement> coloring;
  /// The search's work, and first fit's (index probes and insertions).
  uint64_t searchWork = 0, placeWork = 0;
  /// Windows whose tensors the search placed, and first fit orders.
  unsigned windowsPlaced = 0, orders = 0;
};

/// Where and how long the window search places.
struct WindowSearchOptions {
  int64_t partitions = 128;
  /// Bytes per partition.
  int64_t capacity = 0;
  /// Search work at most, an eighth of it per window.
  uint64_t workLimit = 0;
  /// First fit orders at most.
  unsigned maxOrders = 4;
  /// Runs each search's two directions side by side (same result without).
  llvm::ThreadPoolInterface *threads = nullptr;
};

/// Tries to place `graph`'s nodes (all spanning every partition, those
/// `pinned` where they are) within the area bound (the most bytes live at
/// once over whole live ranges). The search places the tensors live in a
/// window of time around the points nearest to the bound (a window per run
/// of such points, when they are separate problems), first fit the others
/// around them; where first fit leaves one out, the next try grows the
/// window up to it or places it first, and where it is left out again
/// though first and far away, it goes where the tensors stacked below the
/// window leave room at its time, or else the search places it with the
/// window's tensors (at points of its own). Where the search fails on a
/// widened window after placing a smaller one, the window goes back to its
/// size before that widening and from then on grows only up to tensors left
/// out. Where the search places no window at the bound, it tries again with
/// a little room (a 65536th of the bound, then a 16384th and a 4096th,
/// within the capacity).
WindowPlacement placeByWindowSearch(const Problem &graph,
                                    llvm::ArrayRef<std::optional<Place>> pinned,
                                    const WindowSearchOptions &options);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_DENSEWINDOW_H

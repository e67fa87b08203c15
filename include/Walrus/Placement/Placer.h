//===- Placer.h - The strategy ladder of -sb-alloc --------------*- C++ -*-===//
//
// One round of placement as -sb-alloc runs it, on a Problem: colouring,
// then, where it leaves a node out, an exact search of the contended
// region (1-D, or over partition bands); without stored edges, the window
// search and then the chains of first fit orders. docs/SbAlloc.md, "The
// strategy ladder".
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_PLACER_H
#define WALRUS_PLACEMENT_PLACER_H

#include "Walrus/Placement/DenseWindow.h"
#include "Walrus/Placement/Problem.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace walrus::placement {

/// What a Placer places in and may spend.
struct PlacerOptions {
  int64_t partitions = 128;
  /// Bytes per partition.
  int64_t capacity = 0;
  /// Work per node each of a dense problem's chains of orders may do.
  uint64_t denseWorkPerNode = 450;
  /// Runs independent attempts side by side (same result without).
  llvm::ThreadPoolInterface *threads = nullptr;
};

/// What a Placer did, summed over its calls.
struct PlacerTally {
  uint64_t searchWork = 0, denseWork = 0;
  unsigned denseOrders = 0, denseWindows = 0;
  /// Whether a search of a contended region ran to the end, and then, in
  /// the last one, the nodes it had to place and the most one of its
  /// placements held.
  bool searched = false;
  unsigned searchTensors = 0, searchPlaced = 0;
};

/// The contended nodes as the searches see them (Placer.cpp).
struct SearchProblem;

/// What the nodes `placement` leaves out would cost to spill.
double getSpillCost(llvm::ArrayRef<Node> nodes, const Placement &placement);

class Placer {
public:
  /// `workLeft`, the searches' work limit, is shared with the caller's
  /// other Placers (a function's spill rounds share one).
  Placer(const PlacerOptions &options, uint64_t &workLeft, PlacerTally &tally)
      : options(options), workLeft(workLeft), tally(tally) {}

  /// Places `problem` around the `fixed` places. `pinned` are the places
  /// nodes came with (a subset of `fixed`): the searches place around
  /// them, but not around other fixed places (ones a spill round kept).
  Placement place(const Problem &problem,
                  llvm::ArrayRef<std::optional<Place>> fixed,
                  llvm::ArrayRef<std::optional<Place>> pinned);
  /// Places what `stay` leaves free around it: as place() on a problem
  /// with edges, by one first fit order (largest first) on a dense one.
  Placement placeAround(const Problem &problem,
                        llvm::ArrayRef<std::optional<Place>> stay,
                        llvm::ArrayRef<std::optional<Place>> pinned);

private:
  /// Per chosen node its band choice and offset (-1: left out): the
  /// complete placement, or each direction's best partial one.
  struct SearchOutcome {
    llvm::SmallVector<llvm::SmallVector<std::pair<unsigned, int64_t>>, 2>
        candidates;
    bool complete = false;
  };
  /// Runs the 1-D search when every buffer spans all partitions, else the
  /// search over partition bands, within the work left.
  SearchOutcome searchProblem(const SearchProblem &problem);
  /// Replaces an overflowing colouring by a search's placement of the
  /// contended region: the independent parts of the problem (runs of time
  /// no live range crosses out of) where colouring left a node out.
  /// Elsewhere the colouring stands. Both searches place around `pinned`;
  /// where another `fixed` place is in the region, neither runs. When the
  /// search cannot place everything, colouring completes the most it
  /// placed, and that stands if it spills less (not around pinned nodes:
  /// there only a complete placement counts).
  void searchBeforeSpilling(const Problem &problem,
                            llvm::ArrayRef<std::optional<Place>> fixed,
                            llvm::ArrayRef<std::optional<Place>> pinned,
                            Placement &coloring);
  /// Where the search of the contended region still leaves nodes out, the
  /// window search of the whole problem (DenseWindow.h; it needs every
  /// node to span all partitions), placing around `pinned` only; its
  /// placement replaces colouring's when it places every node.
  void searchWindowsBeforeSpilling(const Problem &problem,
                                   llvm::ArrayRef<std::optional<Place>> fixed,
                                   llvm::ArrayRef<std::optional<Place>> pinned,
                                   Placement &coloring);
  /// The window search of the whole problem around `pinned`, within the
  /// work left, its work and windows counted.
  WindowPlacement searchWindows(const Problem &problem,
                                llvm::ArrayRef<std::optional<Place>> pinned);
  void spendSearchWork(uint64_t work) {
    tally.searchWork += work;
    workLeft -= std::min(workLeft, work);
  }
  void countDenseWork(uint64_t work, unsigned orders) {
    tally.denseWork += work;
    tally.denseOrders += orders;
  }

  PlacerOptions options;
  uint64_t &workLeft;
  PlacerTally &tally;
};

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_PLACER_H

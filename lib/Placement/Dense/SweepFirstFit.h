//===- SweepFirstFit.h - First fit of nodes in order of time ----*- C++ -*-===//
//
// First fit in an order that sweeps through time needs no index over time:
// when the nodes come by start, every node placed before one that meets it
// is still live at its start, so the bytes free at that start are all that
// matter. They are kept as coalesced gaps (FreeGaps.h), and a node takes
// the lowest gap it fits in. An index over time rounds O(log points) sets
// instead, and climbs through the fragments of each: on the dense traces'
// window placements, 3-6 times the work and twice the time
// (docs/placement/Dense.md, "Dense functions").
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_SWEEPFIRSTFIT_H
#define WALRUS_PLACEMENT_SWEEPFIRSTFIT_H

#include "Dense/OccupancyIndex.h"
#include "Walrus/Placement/Coloring.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

namespace walrus::placement {

/// Past this many placed nodes in the head, the sweeps look them up in an
/// index rather than each one waiting by address.
constexpr size_t kMaxListedHead = 256;

/// One placeSweeping run: its sweeps' orders and what it placed (a place
/// per node, or the record is not used). The next run at the same limit
/// copies the end of a sweep from it: once every node still open has the
/// place it had, and the rest of the order is the same, first fit places
/// the rest as it did (it sees nothing else).
struct SweepRecord {
  int64_t limit = 0;
  llvm::SmallVector<unsigned> forward, backward;
  llvm::SmallVector<std::optional<Place>> placements;
};

/// One placeSweeping run: the capacity, the nodes that keep their place,
/// the head's nodes and places, the orders, and the run it may copy from.
struct SweepRun {
  int64_t capacity = 0;
  llvm::ArrayRef<std::optional<Place>> fixed;
  llvm::ArrayRef<std::pair<unsigned, int64_t>> headAt;
  llvm::ArrayRef<unsigned> head, forward, backward;
  const SweepRecord *previous = nullptr;
};

/// What placeInOrder(graph, partitions, capacity, fixed + headAt,
/// head ++ merge(forward, backward), work) places, for a graph whose nodes
/// all span every partition (the names are `run`'s): the nodes of `headAt`
/// where it says (each clear of the fixed nodes and of the others there),
/// those of `head` by first fit in turn, then those of `forward` by start
/// and those of `backward` by end, latest first. Every fixed node must
/// start before every node of `forward` and end after every node of
/// `backward`, and no node of `forward` may meet one of `backward` (they
/// then never compete, so how the two interleave makes no difference); the
/// nodes of `headAt` may lie anywhere in time (past a few hundred placed in
/// the head, the sweeps look them up in an index). `time` is rankByStarts
/// of the graph's nodes. Adds its work (blocks and gaps looked at, fixed
/// nodes looked at for the head, head nodes looked at by the sweeps, or the
/// index's insertions and probes) to `work`. With `previous` (a run on the
/// same graph whose every node placed before a node of a sweep was also
/// placed before it then, if it has the same place now), the ends of the
/// sweeps it placed alike are copied, at no work. With `threads`, the two
/// sweeps run side by side: the result and the work are the same.
Placement placeSweeping(const Problem &graph, const StartRanks &time,
                        const SweepRun &run, uint64_t &work,
                        llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_SWEEPFIRSTFIT_H

//===- Search.h - Bounded search for a 1-D placement -----------*- C++
//-*-===//
//
// When colouring overflows the budget, a depth-first search over offsets
// before anything spills, after MiniMalloc (Moffitt, ASPLOS 2023): buffers
// are placed bottom-up, each at the floor of the time sections it covers,
// branching on the buffers that can sit at the bottom of one valley, and a
// branch is cut as soon as an inference shows it cannot succeed. Applies
// to buffers that all span the full partition range (a 1-D problem over
// time x bytes; BandSearch.h has the search over partition bands).
// Deterministic: the budget counts work (time sections and candidates
// examined), not seconds, so it bounds the time on any size of problem.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_SEARCH_H
#define WALRUS_PLACEMENT_SEARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class ThreadPoolInterface;
} // namespace llvm

#include <cstdint>
#include <optional>

namespace walrus::placement {

struct SearchBuffer {
  /// Live over program points [start, end] (inclusive, as LiveRange).
  unsigned start = 0, end = 0;
  int64_t bytes = 0;
  /// The offset it must take, or -1 for the search to choose.
  int64_t fixedOffset = -1;
};

struct SearchResult {
  /// Per buffer its offset, if the search placed all within the budget.
  std::optional<llvm::SmallVector<int64_t>> offsets;
  /// Otherwise, per direction in time, the placement of the most buffers
  /// x time it reached (-1: unplaced), the larger first; none that placed
  /// nothing.
  llvm::SmallVector<llvm::SmallVector<int64_t>, 2> partials;
  /// Work done: time sections and candidates examined.
  uint64_t work = 0;
};

/// Places every buffer in [0, capacity) with no two co-live buffers
/// sharing a byte, the fixed ones at their offsets (none placed when two
/// of those meet), examining at most `workLimit` time sections. With
/// `threads`, attempts over time as given and reversed run side by side;
/// the result is the same without.
SearchResult searchPlacement(llvm::ArrayRef<SearchBuffer> buffers,
                             int64_t capacity, uint64_t workLimit,
                             llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_SEARCH_H

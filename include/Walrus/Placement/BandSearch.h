//===- BandSearch.h - Bounded search over partition bands -----*- C++ -*-===//
//
// The search before spilling for tensors that do not all span every
// partition. SBUF's partitions fall into lanes (the quarters a band choice
// is made of); a tensor occupies, for its live range and at one byte
// offset, the lanes of the band choice it gets. The search places tensors
// bottom-up in each lane, as the 1-D search (Search.h) does in time,
// branching over tensor and band choice at the lowest free cell.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_BANDSEARCH_H
#define WALRUS_PLACEMENT_BANDSEARCH_H

#include "Walrus/Placement/Search.h"

namespace walrus::placement {

struct BandSearchBuffer {
  /// Live range and bytes per partition.
  SearchBuffer range;
  /// Per band choice, the lanes [first, last) it occupies.
  llvm::SmallVector<std::pair<unsigned, unsigned>, 4> laneChoices;
};

struct BandSearchResult {
  /// Per buffer its band choice (an index into laneChoices) and offset, if
  /// the search placed all within the budget.
  std::optional<llvm::SmallVector<std::pair<unsigned, int64_t>>> placements;
  /// Otherwise, per direction in time, the placement of the most buffers
  /// x lanes x time it reached (offset -1: unplaced), the larger first;
  /// none that placed nothing.
  llvm::SmallVector<llvm::SmallVector<std::pair<unsigned, int64_t>>, 2>
      partials;
  /// Work done: cells and candidates examined.
  uint64_t work = 0;
};

/// Places every buffer in lanes [0, lanes) x bytes [0, capacity) with no
/// two co-live buffers sharing a lane and a byte, doing at most `workLimit`.
/// With `threads`, attempts over time as given and reversed run side by
/// side; the result is the same without. A fixed buffer
/// (`range.fixedOffset`) stays at that offset in its only band choice (with
/// more than one choice, nothing is placed).
BandSearchResult
searchBandPlacement(llvm::ArrayRef<BandSearchBuffer> buffers, unsigned lanes,
                    int64_t capacity, uint64_t workLimit,
                    llvm::ThreadPoolInterface *threads = nullptr);

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_BANDSEARCH_H

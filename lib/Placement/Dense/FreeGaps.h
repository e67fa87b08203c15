//===- FreeGaps.h - Free byte ranges, lowest fit first ----------*- C++ -*-===//
//
// The bytes below a limit that nothing holds, as coalesced gaps by address,
// for a first fit that takes and frees them one node at a time. On the
// dense traces a node passes 10-30 gaps too small for it before the one it
// takes, so the gaps lie in short sorted runs (blocks) that know their
// largest gap: a first fit skips a block too small as a whole with one
// read, and the runs are contiguous memory rather than a tree's nodes.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_FREEGAPS_H
#define WALRUS_PLACEMENT_FREEGAPS_H

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace walrus::placement {

class FreeGaps {
public:
  /// Everything below `limit` free.
  explicit FreeGaps(int64_t limit);

  /// The lowest offset from `from` with `bytes` free above it; counts each
  /// block and each gap looked at in `work`.
  std::optional<int64_t> findFrom(int64_t from, int64_t bytes,
                                  uint64_t &work) const;
  /// Takes [first, end), which lies within one gap.
  void take(int64_t first, int64_t end);
  /// Frees [first, end), which touches no gap but those at its ends.
  void release(int64_t first, int64_t end);

private:
  using Gap = std::pair<int64_t, int64_t>;
  struct Block {
    llvm::SmallVector<Gap, 0> gaps;
    int64_t largest = 0;
  };
  /// A gap's place: its block and its position there.
  struct Place {
    size_t block, gap;
  };

  /// The last block whose first gap starts at or before `offset` (the
  /// first block when none does).
  size_t findBlock(int64_t offset) const;
  /// Recomputes the largest gap of `block` after one shrank or left.
  void refresh(size_t block);
  /// Splits `block` when it grew past twice the usual size; drops it when
  /// it is empty.
  void rebalance(size_t block);
  Gap &at(Place place) { return blocks[place.block].gaps[place.gap]; }

  /// Gaps a block holds after a split: enough that skipping one saves many
  /// reads, few enough that inserting into one stays a short move.
  static constexpr size_t kBlockGaps = 16;

  /// Non-empty, in address order.
  std::vector<Block> blocks;
};

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_FREEGAPS_H

//===- FirstFit.h - Lowest free byte range among taken ones -----*- C++ -*-===//
//
// The placement step of colouring: given the byte ranges that placed
// neighbours take, the lowest offset where a tensor fits. Ranges are kept
// as a bitmap of granules when every size and address is a multiple of one
// power-of-two granule and the budget holds few of them (no sorting; tile-sized
// tensors on big graphs), and as a list sorted per query otherwise. Both give
// the same offset.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_PLACEMENT_FIRSTFIT_H
#define WALRUS_PLACEMENT_FIRSTFIT_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace walrus::placement {

class FirstFit {
public:
  /// 2^`granuleShift` bytes divide every size and address that will be
  /// given.
  FirstFit(int64_t capacity, unsigned granuleShift);

  /// Forgets every taken range.
  void clear() {
    if (useBitmap)
      takenGranules.reset();
    else
      takenRanges.clear();
  }
  /// Marks [first, end) taken.
  void take(int64_t first, int64_t end) {
    if (!useBitmap) {
      takenRanges.push_back({first, end});
      return;
    }
    // Granules past the budget never matter: nothing may reach them.
    int64_t size = takenGranules.size();
    int64_t firstGranule = std::min(first >> granuleShift, size);
    int64_t endGranule = std::min(end >> granuleShift, size);
    if (firstGranule < endGranule)
      takenGranules.set(firstGranule, endGranule);
  }
  /// The lowest offset at which `bytes` bytes fit inside the budget
  /// without touching a taken range.
  std::optional<int64_t> find(int64_t bytes);

  /// Budgets of at most this many granules use the bitmap.
  static constexpr int64_t kMaxGranules = 4096;

private:
  int64_t capacity;
  unsigned granuleShift;
  bool useBitmap;
  llvm::BitVector takenGranules;
  llvm::SmallVector<std::pair<int64_t, int64_t>> takenRanges;
};

} // namespace walrus::placement

#endif // WALRUS_PLACEMENT_FIRSTFIT_H

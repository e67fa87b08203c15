//===- FirstFit.h - Lowest free byte range among taken ones -----*- C++ -*-===//
//
// The placement step of colouring: given the byte ranges that placed
// neighbours take, the lowest offset where a tensor fits. Ranges are kept
// as a bitmap of granules when every size and address is a multiple of one
// granule and the budget holds few of them (no sorting; tile-sized tensors
// on big graphs), and as a list sorted per query otherwise. Both give the
// same offset.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_FIRSTFIT_H
#define WALRUS_ANALYSIS_FIRSTFIT_H

#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace walrus {

class FirstFit {
public:
  /// `granule` divides every size and address that will be given (1 when
  /// nothing coarser is known).
  FirstFit(int64_t budget, int64_t granule);

  /// Forgets every taken range.
  void clear();
  /// Marks [first, end) taken.
  void take(int64_t first, int64_t end);
  /// The lowest offset at which `bytes` bytes fit inside the budget
  /// without touching a taken range.
  std::optional<int64_t> find(int64_t bytes);

  /// Budgets of at most this many granules use the bitmap.
  static constexpr int64_t kMaxGranules = 4096;

private:
  int64_t budget;
  /// 0: the list is in use.
  int64_t granule = 0;
  llvm::BitVector takenGranules;
  llvm::SmallVector<std::pair<int64_t, int64_t>> takenRanges;
};

} // namespace walrus

#endif // WALRUS_ANALYSIS_FIRSTFIT_H

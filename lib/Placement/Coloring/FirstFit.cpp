//===- FirstFit.cpp - Lowest free byte range among taken ones -------------===//

#include "Coloring/FirstFit.h"

#include "llvm/ADT/STLExtras.h"

using namespace walrus;
using namespace walrus::placement;

FirstFit::FirstFit(int64_t capacity, unsigned granuleShift)
    : capacity(capacity), granuleShift(granuleShift),
      useBitmap((capacity >> granuleShift) <= kMaxGranules) {
  if (useBitmap)
    takenGranules.resize(capacity >> granuleShift);
}

std::optional<int64_t> FirstFit::find(int64_t bytes) {
  if (!useBitmap) {
    // By first byte only: the scan takes the furthest end either way.
    llvm::sort(takenRanges, llvm::less_first());
    int64_t offset = 0;
    for (auto [first, end] : takenRanges) {
      if (first >= offset + bytes)
        break;
      offset = std::max(offset, end);
    }
    if (offset + bytes > capacity)
      return std::nullopt;
    return offset;
  }
  int64_t length = bytes >> granuleShift, size = takenGranules.size();
  if (length > size)
    return std::nullopt;
  if (length == 0)
    return 0;
  // From each free granule, the run up to the next taken one.
  for (int free = takenGranules.find_first_unset();
       free >= 0 && free + length <= size;
       free = takenGranules.find_first_unset_in(free, size)) {
    int taken = takenGranules.find_first_in(free, free + length);
    if (taken < 0)
      return int64_t(free) << granuleShift;
    free = taken;
  }
  return std::nullopt;
}

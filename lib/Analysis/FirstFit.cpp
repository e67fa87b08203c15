//===- FirstFit.cpp - Lowest free byte range among taken ones -------------===//

#include "Walrus/Analysis/FirstFit.h"

#include "llvm/ADT/STLExtras.h"

using namespace walrus;

FirstFit::FirstFit(int64_t budget, int64_t granule) : budget(budget) {
  if (granule > 0 && budget / granule <= kMaxGranules) {
    this->granule = granule;
    takenGranules.resize(budget / granule);
  }
}

void FirstFit::clear() {
  if (granule)
    takenGranules.reset();
  else
    takenRanges.clear();
}

void FirstFit::take(int64_t first, int64_t end) {
  if (!granule) {
    takenRanges.push_back({first, end});
    return;
  }
  // Granules past the budget never matter: nothing may reach them.
  int64_t size = takenGranules.size();
  int64_t firstGranule = std::min(first / granule, size);
  int64_t endGranule = std::min(end / granule, size);
  if (firstGranule < endGranule)
    takenGranules.set(firstGranule, endGranule);
}

std::optional<int64_t> FirstFit::find(int64_t bytes) {
  if (!granule) {
    // By first byte only: the scan takes the furthest end either way.
    llvm::sort(takenRanges, llvm::less_first());
    int64_t offset = 0;
    for (auto [first, end] : takenRanges) {
      if (first >= offset + bytes)
        break;
      offset = std::max(offset, end);
    }
    if (offset + bytes > budget)
      return std::nullopt;
    return offset;
  }
  int64_t length = bytes / granule, size = takenGranules.size();
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
      return free * granule;
    free = taken;
  }
  return std::nullopt;
}

//===- DmaEngines.cpp - A core's DMA engines and queues -------------------===//

#include "DmaEngines.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <numeric>

using namespace walrus::timeline;

std::pair<double, int64_t> DmaEngines::earliest(unsigned lane, double from,
                                                double duration) const {
  const std::deque<Busy> &busy = lanes[lane];
  int64_t waitedFor = -1;
  // Before the oldest interval kept, the engine counts as busy.
  if (busy.size() == kBusyKept && from < busy.front().start) {
    from = busy.front().start;
    waitedFor = busy.front().id;
  }
  // Intervals do not overlap, so their ends ascend as their starts do.
  auto at = std::partition_point(busy.begin(), busy.end(),
                                 [&](const Busy &b) { return b.end <= from; });
  for (; at != busy.end() && at->start < from + duration; ++at) {
    from = at->end;
    waitedFor = at->id;
  }
  return {from, waitedFor};
}

void DmaEngines::reserve(unsigned lane, double start, double end, int64_t id) {
  std::deque<Busy> &busy = lanes[lane];
  auto at = llvm::upper_bound(
      busy, start, [](double value, const Busy &b) { return value < b.start; });
  busy.insert(at, Busy{start, end, id});
  if (busy.size() > kBusyKept)
    busy.pop_front();
}

DmaEngines::Placement DmaEngines::place(DmaQueue queue, double ready,
                                        unsigned count, double duration,
                                        int64_t id) {
  std::vector<double> &inOrder = queueFree[unsigned(queue)];
  unsigned engines = unsigned(lanes.size());
  count = std::clamp(count, 1u, engines);
  // Each engine's earliest start; take the `count` earliest, then move
  // to the latest of theirs until all of them are free there together.
  double from = ready;
  llvm::SmallVector<unsigned, 16> order(engines);
  llvm::SmallVector<std::pair<double, int64_t>, 16> starts(engines);
  for (unsigned round = 0;; ++round) {
    for (unsigned lane = 0; lane < engines; ++lane)
      starts[lane] = earliest(lane, std::max(from, inOrder[lane]), duration);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
      return starts[a].first < starts[b].first;
    });
    double start = starts[order[count - 1]].first;
    bool together = llvm::all_of(
        llvm::ArrayRef<unsigned>(order).take_front(count), [&](unsigned lane) {
          return earliest(lane, start, duration).first == start;
        });
    if (together || round == 16) {
      if (!together) // rare: past the latest end of every engine
        for (unsigned lane = 0; lane < engines; ++lane)
          if (!lanes[lane].empty())
            start = std::max(start, lanes[lane].back().end);
      Placement placement{start, -1, 0};
      for (unsigned lane : llvm::ArrayRef<unsigned>(order).take_front(count)) {
        // What the start waited for, when not its data: the transfer that
        // held an engine until then.
        if (start > ready && placement.waitedFor < 0) {
          const std::deque<Busy> &busy = lanes[lane];
          auto at = std::partition_point(
              busy.begin(), busy.end(),
              [&](const Busy &b) { return b.end < start; });
          if (at != busy.end() && at->end == start)
            placement.waitedFor = at->id;
        }
        reserve(lane, start, start + duration, id);
        inOrder[lane] = start + duration;
        placement.lanes |= uint64_t(1) << lane;
      }
      return placement;
    }
    from = start;
  }
}

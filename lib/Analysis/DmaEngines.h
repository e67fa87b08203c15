//===- DmaEngines.h - A core's DMA engines and queues -----------*- C++ -*-===//
//
// Transfers wait in DMA queues and run on the 16 DMA engines of a core.
// The NKI DMA overview ("DMA Queues") says what the model keeps: a queue
// is tied to the engine that triggers its transfers, transfers of one queue
// run in order on each DMA engine, and the engines serve the queues in turn.
// So a transfer that waits for its data does not hold back a transfer of
// another queue that is ready: that one runs on the engines' idle time
// before it.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_ANALYSIS_DMAENGINES_H
#define WALRUS_LIB_ANALYSIS_DMAENGINES_H

#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

namespace walrus::timeline {

/// The queue a transfer waits in: loads (from DRAM) are triggered by one
/// engine, stores (to DRAM) by the engines that made their data, on-chip
/// copies and collectives by a third.
enum class DmaQueue : unsigned { Load, Store, OnChip };
constexpr unsigned kNumDmaQueues = 3;

class DmaEngines {
public:
  explicit DmaEngines(unsigned engines)
      : lanes(engines),
        queueFree(kNumDmaQueues, std::vector<double>(engines, 0.0)) {}

  struct Placement {
    double start;
    /// The transfer whose end the start waited for (-1: none, only its
    /// readiness).
    int64_t waitedFor;
    /// The engines it holds, one bit each.
    uint64_t lanes;
  };

  /// Places transfer `id` of `queue`, ready at `ready`, on the `count`
  /// engines where it can start first, each held for `duration`.
  Placement place(DmaQueue queue, double ready, unsigned count, double duration,
                  int64_t id);

private:
  struct Busy {
    double start, end;
    int64_t id;
  };
  /// The earliest start at or after `from` on `lane` for `duration`, and
  /// the transfer that ends there (-1 when none).
  std::pair<double, int64_t> earliest(unsigned lane, double from,
                                      double duration) const;
  void reserve(unsigned lane, double start, double end, int64_t id);

  /// Each engine's busy intervals, by start. Only the latest kBusyKept
  /// are kept; before the first kept, the engine counts as busy, so a
  /// transfer may start later than it could, never earlier.
  static constexpr size_t kBusyKept = 64;
  std::vector<std::deque<Busy>> lanes;
  /// Per queue and engine: when its last transfer there ends.
  std::vector<std::vector<double>> queueFree;
};

} // namespace walrus::timeline

#endif // WALRUS_LIB_ANALYSIS_DMAENGINES_H

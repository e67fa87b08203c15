//===- ListScheduler.h - Order tasks over engines ---------------*- C++ -*-===//
//
// List scheduling of tasks on resources of several units (the engines of a
// core; a transfer holds several DMA engines), under a bound on the bytes
// of buffers live at once. It knows no IR: -bir-schedule builds a Problem
// from a block's instructions and their dependences (docs/Schedule.md).
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_SCHEDULE_LISTSCHEDULER_H
#define WALRUS_SCHEDULE_LISTSCHEDULER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <vector>

namespace walrus::schedule {

/// A task that holds every unit of every resource while it runs (a loop,
/// whose body uses all the engines).
constexpr unsigned kEveryResource = ~0u;

struct Task {
  /// The resource it runs on, or kEveryResource.
  unsigned resource = 0;
  /// The units of that resource it holds at once.
  unsigned units = 1;
  /// How long it holds them, and how long after that its result is ready.
  double duration = 0, latency = 0;
  /// A load the prefetch heuristic issues as soon as it may.
  bool prefetch = false;
  /// Tasks that must come before it: earlier ones (the given order is a
  /// valid one).
  llvm::SmallVector<unsigned, 4> predecessors;
  /// The buffers it touches: each is live from the first task that touches
  /// it to the last.
  llvm::SmallVector<unsigned, 4> buffers;
};

struct Problem {
  std::vector<Task> tasks;
  /// Units per resource.
  std::vector<unsigned> resourceUnits;
  /// Bytes per buffer.
  std::vector<int64_t> bufferBytes;
  /// The bytes of buffers that may be live at once.
  int64_t pressureLimit = INT64_MAX;
};

/// How the next task is chosen among those whose predecessors are issued.
enum class Heuristic {
  /// The one that can start first.
  Asap,
  /// Among those that can start first, the one with the longest path of
  /// durations and latencies to the end.
  CriticalPath,
  /// Prefetch tasks first, in the given order, then as CriticalPath.
  DmaPrefetch,
};

struct Schedule {
  /// Task indices in issue order.
  std::vector<unsigned> order;
  /// The most bytes of buffers live at once.
  int64_t peakPressure = 0;
  /// When the last task's result is ready, in the scheduler's model.
  double makespan = 0;
};

/// Issues every task of `problem` in an order that respects the
/// predecessors, chosen by `heuristic`, never starting a buffer past the
/// pressure limit while another task could go instead (the result's peak
/// says whether the limit held).
Schedule listSchedule(const Problem &problem, Heuristic heuristic);

/// The peak pressure and makespan of issuing `problem`'s tasks in `order`
/// (each task at the earliest its predecessors and units allow).
Schedule evaluateOrder(const Problem &problem, llvm::ArrayRef<unsigned> order);

} // namespace walrus::schedule

#endif // WALRUS_SCHEDULE_LISTSCHEDULER_H

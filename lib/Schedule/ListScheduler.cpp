//===- ListScheduler.cpp - Order tasks over engines -----------------------===//
//
// A simulation issues tasks one at a time: each starts when its
// predecessors' results are ready and its resource has the units free
// (the ones that free first), and the buffers it touches are live from
// their first task to their last. The scheduler asks the simulation which
// ready task could start first and what it would add to the pressure.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Schedule/ListScheduler.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <limits>

using namespace walrus::schedule;

namespace {
class Simulation {
public:
  explicit Simulation(const Problem &problem)
      : problem(problem), ready(problem.tasks.size(), 0.0),
        usersLeft(problem.bufferBytes.size(), 0),
        started(problem.bufferBytes.size(), false) {
    for (unsigned units : problem.resourceUnits)
      unitFree.emplace_back(units, 0.0);
    for (const Task &task : problem.tasks)
      for (unsigned buffer : task.buffers)
        ++usersLeft[buffer];
  }

  /// When `task` could start if issued next.
  double earliestStart(unsigned index) const {
    const Task &task = problem.tasks[index];
    double start = 0;
    for (unsigned predecessor : task.predecessors)
      start = std::max(start, ready[predecessor]);
    if (task.resource == kEveryResource) {
      for (const std::vector<double> &units : unitFree)
        for (double free : units)
          start = std::max(start, free);
      return start;
    }
    return std::max(start, getUnitsFree(task));
  }

  /// The bytes of buffers `task` would start.
  int64_t newBytes(unsigned index) const {
    int64_t bytes = 0;
    for (unsigned buffer : problem.tasks[index].buffers)
      if (!started[buffer])
        bytes += problem.bufferBytes[buffer];
    return bytes;
  }
  int64_t getLiveBytes() const { return live; }

  void issue(unsigned index) {
    const Task &task = problem.tasks[index];
    double start = earliestStart(index);
    double end = start + task.duration;
    if (task.resource == kEveryResource) {
      for (std::vector<double> &units : unitFree)
        std::fill(units.begin(), units.end(), end);
    } else {
      std::vector<double> &units = unitFree[task.resource];
      std::sort(units.begin(), units.end());
      unsigned held = std::min<unsigned>(task.units, units.size());
      std::fill(units.begin(), units.begin() + held, end);
    }
    ready[index] = end + task.latency;
    makespan = std::max(makespan, ready[index]);
    live += newBytes(index);
    for (unsigned buffer : task.buffers)
      started[buffer] = true;
    peak = std::max(peak, live);
    for (unsigned buffer : task.buffers)
      if (--usersLeft[buffer] == 0)
        live -= problem.bufferBytes[buffer];
  }

  Schedule take(std::vector<unsigned> order) const {
    return {std::move(order), peak, makespan};
  }

private:
  /// When the `units` of its resource that free first are all free.
  double getUnitsFree(const Task &task) const {
    std::vector<double> units = unitFree[task.resource];
    unsigned held = std::clamp<unsigned>(task.units, 1, units.size());
    std::nth_element(units.begin(), units.begin() + (held - 1), units.end());
    return units[held - 1];
  }

  const Problem &problem;
  std::vector<std::vector<double>> unitFree;
  std::vector<double> ready;
  std::vector<unsigned> usersLeft;
  std::vector<bool> started;
  int64_t live = 0, peak = 0;
  double makespan = 0;
};
} // namespace

/// Per task, the longest path of durations and latencies from its start to
/// the end (predecessors are earlier tasks, so one backward sweep).
static std::vector<double> getPathsToEnd(const Problem &problem) {
  std::vector<double> path(problem.tasks.size(), 0.0);
  for (unsigned index = problem.tasks.size(); index-- > 0;) {
    const Task &task = problem.tasks[index];
    path[index] += task.duration + task.latency;
    for (unsigned predecessor : task.predecessors)
      path[predecessor] = std::max(path[predecessor], path[index]);
  }
  return path;
}

/// The task to issue next among `candidates` (not empty).
static unsigned pick(const Problem &problem, const Simulation &simulation,
                     llvm::ArrayRef<unsigned> candidates,
                     llvm::ArrayRef<double> pathToEnd, Heuristic heuristic) {
  if (heuristic == Heuristic::DmaPrefetch)
    for (unsigned index : candidates)
      if (problem.tasks[index].prefetch)
        return index;
  double first = std::numeric_limits<double>::infinity();
  for (unsigned index : candidates)
    first = std::min(first, simulation.earliestStart(index));
  unsigned best = ~0u;
  for (unsigned index : candidates) {
    if (simulation.earliestStart(index) > first)
      continue;
    if (best == ~0u ||
        (heuristic != Heuristic::Asap && pathToEnd[index] > pathToEnd[best]))
      best = index;
  }
  return best;
}

Schedule walrus::schedule::listSchedule(const Problem &problem,
                                        Heuristic heuristic) {
  size_t count = problem.tasks.size();
  std::vector<double> pathToEnd = getPathsToEnd(problem);
  std::vector<std::vector<unsigned>> successors(count);
  std::vector<unsigned> waitingOn(count, 0);
  for (auto [index, task] : llvm::enumerate(problem.tasks)) {
    for (unsigned predecessor : task.predecessors)
      successors[predecessor].push_back(index);
    waitingOn[index] = task.predecessors.size();
  }
  // Ready tasks, kept in the given order (ties go to the earlier task).
  std::vector<unsigned> readyTasks;
  for (unsigned index = 0; index < count; ++index)
    if (!waitingOn[index])
      readyTasks.push_back(index);
  Simulation simulation(problem);
  std::vector<unsigned> order;
  while (!readyTasks.empty()) {
    // Those that keep the pressure within the limit; if none does, the one
    // that starts the fewest bytes.
    std::vector<unsigned> candidates;
    for (unsigned index : readyTasks)
      if (simulation.getLiveBytes() + simulation.newBytes(index) <=
          problem.pressureLimit)
        candidates.push_back(index);
    if (candidates.empty())
      candidates.push_back(
          *llvm::min_element(readyTasks, [&](unsigned a, unsigned b) {
            return simulation.newBytes(a) < simulation.newBytes(b);
          }));
    unsigned next = pick(problem, simulation, candidates, pathToEnd, heuristic);
    simulation.issue(next);
    order.push_back(next);
    readyTasks.erase(llvm::find(readyTasks, next));
    for (unsigned successor : successors[next])
      if (--waitingOn[successor] == 0)
        readyTasks.insert(llvm::upper_bound(readyTasks, successor), successor);
  }
  return simulation.take(std::move(order));
}

Schedule walrus::schedule::evaluateOrder(const Problem &problem,
                                         llvm::ArrayRef<unsigned> order) {
  Simulation simulation(problem);
  for (unsigned index : order)
    simulation.issue(index);
  return simulation.take(std::vector<unsigned>(order.begin(), order.end()));
}

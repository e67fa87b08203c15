//===- BirSchedule.cpp - The -bir-schedule pass ---------------------------===//
//
// Each run of reorderable ops of a block (Dependences.h) becomes a list
// scheduling problem (ListScheduler.h): one task per op on its engine with
// the timing model's cost, a loop holding every engine for its busy time,
// the SBUF tensors the run alone touches as buffers. The function keeps
// the new order only when the timeline estimates it no slower.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Dependences.h"
#include "Walrus/Analysis/Execution.h"
#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Transforms/Passes.h"

#include "FunctionPass.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/FormatVariadic.h"

#include <numeric>

namespace walrus {
#define GEN_PASS_DEF_BIRSCHEDULE
#include "Walrus/Transforms/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

namespace {
struct BirSchedulePass
    : FunctionPass<walrus::impl::BirScheduleBase<BirSchedulePass>> {
  using FunctionPass::FunctionPass;

  void runOnFunction(FuncOp func) override;
  LogicalResult beforeFunctions(ArrayRef<ModuleOp> programs) override;

private:
  TimelineLimits getLimits(FuncOp func) const;
  /// Per function, its share of the timeline's nodes (TimelineLimits): the
  /// functions run in parallel, and together stay within one budget.
  DenseMap<Operation *, int64_t> nodeShares;
};

/// A run of a block's ops and the order the scheduler gave it.
struct ScheduledRun {
  SmallVector<Operation *> ops;
  std::vector<unsigned> order;
};
} // namespace

/// The cores the estimate of `func` runs: its own, or each core of its
/// symbolic module.
static TimedKernel getEstimatedCores(FuncOp func) {
  auto module = func->getParentOfType<ModuleOp>();
  TimedKernel cores;
  if (std::optional<int64_t> core = getNeuronCoreId(module))
    cores.push_back({*core, func});
  else
    for (int64_t shard = 0; shard < getLncSize(module); ++shard)
      cores.push_back({shard, func});
  return cores;
}

/// The function's estimated time, ns: each core that runs it on its own.
static FailureOr<double> estimate(FuncOp func, const TimingModel &model,
                                  const TimelineLimits &limits) {
  FailureOr<KernelTimeline> timeline = computeTimeline(
      getEstimatedCores(func), model, limits, /*keepEvents=*/false);
  if (failed(timeline))
    return failure();
  return timeline->finish();
}

/// The time each engine is busy running `block` once (loops unrolled), ns;
/// a DMA engine's share of a transfer counted for each engine it holds.
static FailureOr<std::array<double, kNumEngines>>
getBusyTime(Block &block, const TimingModel &model) {
  std::array<double, kNumEngines> busy{};
  for (Operation &op : block) {
    if (auto loop = dyn_cast<LoopOp>(op)) {
      auto inner = getBusyTime(loop.getBody().front(), model);
      if (failed(inner))
        return failure();
      for (unsigned engine = 0; engine < kNumEngines; ++engine)
        busy[engine] += (*inner)[engine] * double(loop.getTripCount());
      continue;
    }
    if (!isa<InstructionOpInterface>(op))
      continue;
    FailureOr<InstructionCost> cost = getInstructionCost(&op, model);
    if (failed(cost))
      return failure();
    double share = cost->engine == Engine::DMA
                       ? double(cost->dmaEngines) / model.dmaEngines
                       : 1.0;
    busy[unsigned(cost->engine)] += cost->duration * share;
  }
  return busy;
}

/// The task of one op: an instruction on its engine, a loop on all of them
/// for its busiest engine's time.
static FailureOr<schedule::Task> getTask(Operation *op,
                                         const TimingModel &model) {
  schedule::Task task;
  if (auto loop = dyn_cast<LoopOp>(op)) {
    auto busy = getBusyTime(loop.getBody().front(), model);
    if (failed(busy))
      return failure();
    task.resource = schedule::kEveryResource;
    task.duration = *llvm::max_element(*busy) * double(loop.getTripCount());
    return task;
  }
  FailureOr<InstructionCost> cost = getInstructionCost(op, model);
  if (failed(cost))
    return failure();
  task.resource = unsigned(cost->engine);
  task.units = cost->engine == Engine::DMA ? cost->dmaEngines : 1;
  task.duration = cost->duration;
  task.latency = cost->latency;
  if (auto copy = dyn_cast<DmaOp>(op))
    task.prefetch = !cast<MemoryType>(copy.getSrc().getType()).isOnChip();
  task.prefetch |= isa<DmaGatherOp>(op);
  return task;
}

/// Whether `memloc` is an SBUF tensor the allocator has yet to place: one
/// the order decides the pressure of.
static bool isUnplacedSbuf(MemlocOp memloc) {
  return memloc && !memloc.getAddress() &&
         memloc.getMemoryType().getMemorySpace() == MemorySpace::SBUF;
}

/// Per unplaced SBUF tensor, the accesses of it under `op`.
static void countSbufAccesses(Operation *op,
                              DenseMap<MemlocOp, unsigned> &counts) {
  op->walk([&](InstructionOpInterface inst) {
    SmallVector<Access> accesses;
    inst.getAccesses(accesses);
    for (const Access &access : accesses)
      if (MemlocOp memloc = getDefiningMemloc(access.getMemloc());
          isUnplacedSbuf(memloc))
        ++counts[memloc];
  });
}

/// The SBUF tensors of `run`: a buffer for each that no op outside it
/// touches; those that others do too are live throughout, so their bytes
/// come off the limit.
static void addBuffers(ArrayRef<Operation *> run,
                       const DenseMap<MemlocOp, unsigned> &functionCounts,
                       schedule::Problem &problem) {
  DenseMap<MemlocOp, unsigned> runCounts, bufferIds;
  for (Operation *op : run)
    countSbufAccesses(op, runCounts);
  for (auto [memloc, count] : runCounts) {
    int64_t bytes = memloc.getMemoryType().getBytesPerPartition();
    if (count != functionCounts.lookup(memloc)) {
      problem.pressureLimit -= bytes;
      continue;
    }
    bufferIds[memloc] = problem.bufferBytes.size();
    problem.bufferBytes.push_back(bytes);
  }
  for (auto [index, op] : llvm::enumerate(run)) {
    DenseMap<MemlocOp, unsigned> touched;
    countSbufAccesses(op, touched);
    for (auto [memloc, count] : touched)
      if (auto it = bufferIds.find(memloc); it != bufferIds.end())
        problem.tasks[index].buffers.push_back(it->second);
    llvm::sort(problem.tasks[index].buffers);
  }
}

/// The scheduling problem of `run`, or an error at an op the model cannot
/// time.
static FailureOr<schedule::Problem>
buildProblem(ArrayRef<Operation *> run, const TimingModel &model,
             int64_t sbufLimit,
             const DenseMap<MemlocOp, unsigned> &functionCounts) {
  schedule::Problem problem;
  problem.resourceUnits.assign(kNumEngines, 1);
  problem.resourceUnits[unsigned(Engine::DMA)] = model.dmaEngines;
  problem.pressureLimit = sbufLimit;
  SmallVector<SmallVector<unsigned, 4>> predecessors = getDependences(run);
  for (auto [op, before] : llvm::zip(run, predecessors)) {
    FailureOr<schedule::Task> task = getTask(op, model);
    if (failed(task))
      return failure();
    task->predecessors = std::move(before);
    problem.tasks.push_back(std::move(*task));
  }
  addBuffers(run, functionCounts, problem);
  return problem;
}

/// Puts the ops of `run`, consecutive in their block with `last` the last
/// of them, in the order `sequence` gives.
static void reorder(ArrayRef<Operation *> run, Operation *last,
                    ArrayRef<unsigned> sequence) {
  Block *block = last->getBlock();
  Operation *after = last->getNextNode();
  for (unsigned index : sequence) {
    if (after)
      run[index]->moveBefore(after);
    else
      run[index]->moveBefore(block, block->end());
  }
}

/// Gives a run its original order back.
static void restoreOrder(const ScheduledRun &run) {
  std::vector<unsigned> given(run.ops.size());
  std::iota(given.begin(), given.end(), 0u);
  reorder(run.ops, run.ops[run.order.back()], given);
}

/// The options are checked, and the estimates of all functions bounded
/// together, before any function starts: the per-core functions run in
/// parallel, each estimating its own core.
LogicalResult BirSchedulePass::beforeFunctions(ArrayRef<ModuleOp> programs) {
  if (sbufLimit < 0 || maxInstructions < 1)
    return emitError(getOperation()->getLoc(),
                     "bir-schedule: sbuf-limit must be 0 or more and "
                     "max-instructions positive");
  TimedKernel all;
  for (ModuleOp program : programs)
    for (FuncOp func : program.getOps<FuncOp>())
      llvm::append_range(all, getEstimatedCores(func));
  FailureOr<int64_t> total = checkExecuted(all, maxInstructions);
  if (failed(total))
    return failure();
  // Nodes in proportion to instructions, with a floor for the small.
  const int64_t allNodes = TimelineLimits().maxNodes, floor = 4096;
  for (ModuleOp program : programs)
    for (FuncOp func : program.getOps<FuncOp>()) {
      int64_t count = 0;
      for (auto [shard, core] : getEstimatedCores(func))
        count += countExecuted(core.getBody().front(), shard);
      double share = *total ? double(count) / double(*total) : 1.0;
      nodeShares[func] = std::max(floor, int64_t(share * double(allNodes)));
    }
  return success();
}

TimelineLimits BirSchedulePass::getLimits(FuncOp func) const {
  TimelineLimits limits;
  limits.maxInstructions = maxInstructions;
  if (auto share = nodeShares.find(func); share != nodeShares.end())
    limits.maxNodes = share->second;
  return limits;
}

void BirSchedulePass::runOnFunction(FuncOp func) {
  if (sbufLimit < 0 || maxInstructions < 1) {
    func.emitError("bir-schedule: sbuf-limit must be 0 or more and "
                   "max-instructions positive");
    return signalPassFailure();
  }
  TimingModel model = TimingModel::forTarget(getTarget(func));
  TimelineLimits limits = getLimits(func);
  FailureOr<double> before = estimate(func, model, limits);
  if (failed(before))
    return signalPassFailure();
  int64_t limit = sbufLimit > 0 ? int64_t(sbufLimit)
                                : getTarget(func).getSbufBytesPerPartition();
  DenseMap<MemlocOp, unsigned> functionCounts;
  countSbufAccesses(func, functionCounts);
  SmallVector<Block *> blocks;
  func->walk([&](Block *block) { blocks.push_back(block); });
  std::vector<ScheduledRun> changed;
  unsigned runs = 0, atLimit = 0;
  for (Block *block : blocks) {
    for (SmallVector<Operation *> &run : getReorderableRuns(*block)) {
      if (run.size() < 2)
        continue;
      ++runs;
      FailureOr<schedule::Problem> problem =
          buildProblem(run, model, limit, functionCounts);
      if (failed(problem))
        return signalPassFailure();
      std::vector<unsigned> given(run.size());
      std::iota(given.begin(), given.end(), 0u);
      schedule::Schedule original = schedule::evaluateOrder(*problem, given);
      schedule::Schedule scheduled =
          schedule::listSchedule(*problem, heuristic);
      // A run keeps its order unless the scheduler's model finds the new
      // one faster.
      if (scheduled.order == given ||
          (!keepSlower && scheduled.makespan >= original.makespan))
        continue;
      // Past the limit only where the given order was already.
      if (scheduled.peakPressure >
          std::max(problem->pressureLimit, original.peakPressure)) {
        ++atLimit;
        continue;
      }
      reorder(run, run.back(), scheduled.order);
      changed.push_back({std::move(run), std::move(scheduled.order)});
    }
  }
  FailureOr<double> after = estimate(func, model, limits);
  if (failed(after))
    return signalPassFailure();
  bool keep = keepSlower || *after <= *before;
  if (!keep)
    for (ScheduledRun &run : changed)
      restoreOrder(run);
  if (!report)
    return;
  InFlightDiagnostic remark = emitRemark(func.getLoc());
  remark << "bir-schedule: " << getQualifiedName(func) << ": "
         << llvm::formatv("estimate {0:F1} us -> {1:F1} us", *before / 1000,
                          (keep ? *after : *before) / 1000)
                .str();
  if (keep)
    remark << "; " << changed.size() << " of " << runs
           << " runs of a block reordered, " << atLimit
           << " kept at the SBUF limit";
  else
    remark << llvm::formatv("; the new order ({0:F1} us) was slower and is "
                            "undone",
                            *after / 1000)
                  .str();
}

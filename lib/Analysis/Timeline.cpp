//===- Timeline.cpp - How long per-core programs would take ---------------===//
//
// Each core's executed instructions (loops unrolled, masks applied) are
// placed on their engines one by one: an instruction starts when its
// engine has issued the one before it and when every earlier instruction
// it depends on (read-after-write, write-after-read, write-after-write
// over the bytes they touch) has finished; the cores meet at barriers and
// collectives (docs/TimingModel.md).
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Timeline.h"
#include "Walrus/Analysis/Execution.h"
#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "DmaEngines.h"
#include "TimelineSpace.h"

#include <map>

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <algorithm>
#include <limits>
#include <numeric>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

StringRef walrus::getEngineName(Engine engine) {
  static const char *names[] = {"PE", "ACT", "DVE", "Pool", "DMA"};
  return names[unsigned(engine)];
}

StringRef walrus::getRooflineLimitName(RooflineLimit limit) {
  static const char *names[] = {"nothing", "the PE bf16 peak",
                                "the PE fp32 peak",
                                "the PE bf16 and fp32 peaks", "the DMA peak"};
  return names[unsigned(limit)];
}

TimingModel TimingModel::forTarget(TargetAttr target) {
  // docs/TimingModel.md gives each number's source.
  TimingModel model;
  model.matmulMinCycles = 64;
  model.fp32Factor = 4;
  model.stationaryLoadSpeedup = 4;
  model.instructionOverheadCycles = 60;
  model.twoInputCycles = 2;
  // Fitted to NKIBench's silu and gqa_full vector-engine active times
  // (bench/calibration.py --fit dve).
  model.divideCycles = 2.58;
  model.dmaEngines = 16;
  model.dmaPartitionsPerEngine = 8;
  model.dmaFixedNs = 1300;
  StringRef name = target ? target.getName() : "trn2";
  // Fitted to the NKI tutorial's tiled kernel on trn1, to its fp32 version
  // on trn2 (bench/calibration.py --fit dma, --fit dma-trn2); trn3 keeps
  // trn2's.
  model.dmaPacketBytes = name == "trn1" ? 990 : 400;
  if (name == "trn1") {
    model.peGhz = 2.8, model.actGhz = 1.4, model.dveGhz = 1.12,
    model.poolGhz = 1.4;
    model.dmaBytesPerNsPerEngine = 17;
    model.peBf16FlopsPerNs = 92000, model.peFp32FlopsPerNs = 23000;
  } else if (name == "trn3") {
    model.peGhz = 2.4, model.actGhz = 1.2, model.dveGhz = 1.2,
    model.poolGhz = 1.2;
    model.dmaBytesPerNsPerEngine = 33;
    model.peBf16FlopsPerNs = 79000, model.peFp32FlopsPerNs = 20000;
  } else {
    model.peGhz = 2.4, model.actGhz = 1.2, model.dveGhz = 0.96,
    model.poolGhz = 1.2;
    model.dmaBytesPerNsPerEngine = 23;
    model.peBf16FlopsPerNs = 79000, model.peFp32FlopsPerNs = 20000;
  }
  return model;
}

double KernelTimeline::finish() const {
  double slowest = 0;
  for (const CoreTimeline &core : cores)
    slowest = std::max(slowest, core.finish);
  return slowest;
}

namespace {
using timeline::Cause;
using timeline::Space;

/// A core being placed on the model.
class CoreModel {
public:
  CoreModel(int64_t shard, const TimingModel &model, bool keepEvents,
            timeline::NodeBudget &budget)
      : shard(shard), model(model), keepEvents(keepEvents),
        dma(model.dmaEngines), budget(budget) {
    timeline.core = shard;
    for (Space &quadrant : sbufQuadrants)
      quadrant.setBudget(&budget);
  }

  /// Places instruction `op`, run with induction variables `ivs`; failure
  /// at an instruction it cannot time.
  LogicalResult place(Operation *op, ArrayRef<int64_t> ivs);
  /// Everything issued so far has finished by then.
  double quiesced() const { return timeline.finish; }
  /// Nothing after a barrier starts before `release`.
  void releaseAt(double release) {
    timeline.barrierWait += release - quiesced();
    floor = std::max(floor, release);
    timeline.finish = std::max(timeline.finish, release);
  }
  /// Fills the timeline's critical path.
  void criticalPath();
  CoreTimeline take() {
    criticalPath();
    return std::move(timeline);
  }

private:
  /// Each access's address space and byte (or element) range.
  struct Range {
    Space *space;
    int64_t lo, hi;
    bool write;
  };
  SmallVector<Range> getRanges(InstructionOpInterface inst,
                               ArrayRef<int64_t> ivs,
                               TimelineEvent::AccessStarts &starts);
  int64_t shard;
  const TimingModel &model;
  bool keepEvents;
  CoreTimeline timeline;
  double floor = 0;
  std::array<double, kNumEngines> engineFree{};
  std::array<int64_t, kNumEngines> engineLast{-1, -1, -1, -1, -1};
  timeline::DmaEngines dma;
  /// Per instruction placed: what its start waited for, where and when it
  /// ran (the critical path walks back through these).
  struct Placed {
    int64_t cause;
    Engine engine;
    double start, engineFinish, finish;
  };
  std::vector<Placed> placed;
  /// The stationary operand the tensor engine holds.
  std::pair<Value, Attribute> stationary;
  /// Each memory location's space. A node-based map: the ranges of one
  /// instruction point into spaces while new ones are added, which would
  /// move them in a DenseMap.
  std::map<void *, Space> memlocSpaces;
  std::array<Space, 4> sbufQuadrants;
  /// The nodes all the kernel's spaces share.
  timeline::NodeBudget &budget;
  Space *getSpace(Value root) {
    Space &space = memlocSpaces[root.getAsOpaquePointer()];
    space.setBudget(&budget);
    return &space;
  }
};
} // namespace

/// The memory location a view sees into.
static Value getRootMemloc(Value tensor) {
  while (auto view = tensor.getDefiningOp<ViewOp>())
    tensor = view.getSource();
  return tensor;
}

SmallVector<CoreModel::Range>
CoreModel::getRanges(InstructionOpInterface inst, ArrayRef<int64_t> ivs,
                     TimelineEvent::AccessStarts &starts) {
  SmallVector<Access> accesses;
  inst.getAccesses(accesses);
  SmallVector<Range> ranges;
  for (auto [index, access] : llvm::enumerate(accesses)) {
    AccessPatternAttr pattern = access.getPattern();
    AffineMap startMap = pattern.getStartMap();
    int64_t start = evaluate(startMap.getResult(0),
                             ivs.take_front(startMap.getNumDims()), {shard})
                        .value_or(0);
    if (index < starts.size())
      starts[index] = start;
    ArrayRef<int64_t> steps = pattern.getSteps(), nums = pattern.getNums();
    int64_t lo = start, hi = start, freeExtent = 0;
    for (auto [index, pair] : llvm::enumerate(llvm::zip(steps, nums))) {
      auto [step, num] = pair;
      int64_t span = step * (num - 1);
      (span < 0 ? lo : hi) += span;
      if (index)
        freeExtent += std::abs(span);
    }
    MemoryType type = access.getMemoryType();
    Value root = getRootMemloc(access.getMemloc());
    auto memloc = root.getDefiningOp<MemlocOp>();
    bool write = access.writes();
    if (access.reads() && access.writes())
      write = true;
    if (!type.isOnChip()) {
      ranges.push_back({getSpace(root), lo, hi + 1, write});
      continue;
    }
    // On chip, the columns of a partition the access touches (all of
    // them when it does not stay within one row's span).
    int64_t free = std::max<int64_t>(1, type.getFreeSize());
    int64_t bytes = type.getElementBytes();
    int64_t firstColumn = 0, lastColumn = free - 1;
    int64_t partitionStep = steps.empty() ? 0 : steps.front();
    if (partitionStep % free == 0 && start >= 0 &&
        start % free + freeExtent < free) {
      firstColumn = start % free;
      lastColumn = firstColumn + freeExtent;
    }
    // Placed SBUF tensors share one byte space per partition quadrant:
    // what an allocation makes share bytes depends there.
    if (memloc && memloc.getAddress() &&
        type.getMemorySpace() == MemorySpace::SBUF) {
      int64_t base = int64_t(*memloc.getAddress());
      int64_t firstPartition = std::max<int64_t>(0, lo / free);
      int64_t lastPartition = std::max<int64_t>(firstPartition, hi / free);
      int64_t basePartition = memloc.getBasePartition().value_or(0);
      for (int64_t q = (basePartition + firstPartition) / 32;
           q <= std::min<int64_t>(3, (basePartition + lastPartition) / 32); ++q)
        ranges.push_back({&sbufQuadrants[q], base + firstColumn * bytes,
                          base + (lastColumn + 1) * bytes, write});
      continue;
    }
    ranges.push_back({getSpace(root), firstColumn, lastColumn + 1, write});
  }
  return ranges;
}

/// The queue a transfer waits in: loads from DRAM, stores to it, or
/// on-chip copies and collectives.
static timeline::DmaQueue getDmaQueue(Operation *op) {
  auto isDram = [](Value value) {
    return !cast<MemoryType>(value.getType()).isOnChip();
  };
  if (auto copy = dyn_cast<DmaOp>(op))
    return isDram(copy.getSrc()) ? timeline::DmaQueue::Load
                                 : timeline::DmaQueue::Store;
  if (isa<DmaGatherOp>(op))
    return timeline::DmaQueue::Load;
  return timeline::DmaQueue::OnChip;
}

LogicalResult CoreModel::place(Operation *op, ArrayRef<int64_t> ivs) {
  auto inst = cast<InstructionOpInterface>(op);
  // The tensor engine keeps its stationary operand until a matmult loads
  // another or a transpose (a matmult by the identity) replaces it.
  bool loadsStationary = false;
  if (auto matmult = dyn_cast<MatmultOp>(op)) {
    std::pair<Value, Attribute> operand{matmult.getStationary(),
                                        matmult.getStationaryApAttr()};
    loadsStationary = operand != stationary;
    stationary = operand;
  } else if (isa<TransposeOp>(op)) {
    stationary = {};
  }
  FailureOr<InstructionCost> costed =
      getInstructionCost(op, model, loadsStationary);
  if (failed(costed))
    return failure();
  Engine engine = costed->engine;
  double duration = costed->duration;
  timeline.flops += costed->flops;
  timeline.peFlops += costed->peFlops;
  if (costed->fp32)
    timeline.peFp32Flops += costed->peFlops;
  timeline.dmaBytes += costed->dmaBytes;
  TimelineEvent::AccessStarts starts{};
  SmallVector<Range> ranges = getRanges(inst, ivs, starts);
  // What the start waits for: the barrier floor, a dependency, or the
  // engine (or DMA engines) finishing the instruction before.
  int64_t id = int64_t(placed.size());
  Cause cause{floor, -1};
  for (const Range &range : ranges) {
    Cause dependency = range.space->ready(range.lo, range.hi, range.write);
    cause.raise(dependency.time, dependency.instruction);
  }
  uint64_t queues = 0;
  if (engine == Engine::DMA) {
    // A transfer waits in its queue and takes the engines where it can
    // start first (DmaEngines.h).
    timeline::DmaEngines::Placement placement = dma.place(
        getDmaQueue(op), cause.time, costed->dmaEngines, duration, id);
    cause.raise(placement.start, placement.waitedFor);
    queues = placement.lanes;
  } else {
    cause.raise(engineFree[unsigned(engine)], engineLast[unsigned(engine)]);
    engineFree[unsigned(engine)] = cause.time + duration;
    engineLast[unsigned(engine)] = id;
  }
  double start = cause.time;
  double finish = start + duration + costed->latency;
  for (const Range &range : ranges)
    range.space->record(range.lo, range.hi, range.write, finish, id);
  placed.push_back(
      {cause.instruction, engine, start, start + duration, finish});
  timeline.busy[unsigned(engine)] += duration;
  timeline.finish = std::max(timeline.finish, finish);
  ++timeline.instructions;
  if (keepEvents)
    timeline.events.push_back(
        {op, engine, queues, start, start + duration, finish, starts});
  return success();
}

void CoreModel::criticalPath() {
  // From the instruction that ends last back through what each one's start
  // waited for: the engines' time along that chain bounds the core.
  auto last = std::max_element(
      placed.begin(), placed.end(),
      [](const Placed &a, const Placed &b) { return a.finish < b.finish; });
  // An instruction counts until the next on the chain starts: a DMA's
  // latency overlaps the transfer its engines start next.
  double until = last == placed.end() ? 0 : last->finish;
  for (int64_t at = last == placed.end() ? -1 : last - placed.begin(); at >= 0;
       at = placed[at].cause) {
    const Placed &step = placed[at];
    double busyUntil = std::min(step.engineFinish, until);
    timeline.critical[unsigned(step.engine)] +=
        std::max(0.0, busyUntil - step.start);
    timeline.criticalDmaLatency +=
        std::max(0.0, std::min(step.finish, until) - busyUntil);
    until = step.start;
    ++timeline.criticalInstructions;
    if (keepEvents)
      timeline.criticalEvents.push_back(at);
  }
}

FailureOr<int64_t>
walrus::checkExecuted(ArrayRef<std::pair<int64_t, FuncOp>> cores,
                      int64_t maxInstructions, StringRef option) {
  constexpr int64_t kSaturated = std::numeric_limits<int64_t>::max();
  int64_t total = 0, busiest = -1, busiestCore = 0;
  HeaviestInstruction heaviest;
  for (auto [shard, func] : cores) {
    HeaviestInstruction own;
    int64_t count = countExecuted(func.getBody().front(), shard, &own);
    total = llvm::checkedAdd(total, count).value_or(kSaturated);
    if (count > busiest)
      busiest = count, busiestCore = shard, heaviest = own;
  }
  if (total <= maxInstructions || !heaviest.op)
    return total;
  auto number = [](int64_t value) {
    return value == kSaturated ? std::string("more than 2^63")
                               : std::to_string(value);
  };
  return heaviest.op->emitError()
         << "timing model: the kernel executes " << number(total)
         << " instructions on " << cores.size() << " core(s), more than "
         << option << " (" << maxInstructions << "): core " << busiestCore
         << " runs " << number(busiest) << ", this one "
         << number(heaviest.times) << " times";
}

/// The roofline: the tensor engine runs 4-byte operands at the fp32 rate
/// and narrower ones at the bf16 rate; the DMA engines move bytes at their
/// peak.
static void setRoofline(CoreTimeline &timeline, const TimingModel &model) {
  double fp32 = timeline.peFp32Flops, narrow = timeline.peFlops - fp32;
  double pe = narrow / model.peBf16FlopsPerNs + fp32 / model.peFp32FlopsPerNs;
  double dma = timeline.dmaBytes / model.dmaPeakBytesPerNs();
  timeline.rooflineNs = std::max(pe, dma);
  if (timeline.rooflineNs <= 0)
    timeline.rooflineLimit = RooflineLimit::None;
  else if (dma >= pe)
    timeline.rooflineLimit = RooflineLimit::DMA;
  else
    timeline.rooflineLimit = fp32 <= 0     ? RooflineLimit::PEBf16
                             : narrow <= 0 ? RooflineLimit::PEFp32
                                           : RooflineLimit::PEMixed;
}

static bool isSync(Operation *op) {
  return isa<CoreBarrierOp, CollectiveOp>(op);
}

FailureOr<KernelTimeline>
walrus::computeTimeline(ArrayRef<std::pair<int64_t, FuncOp>> cores,
                        const TimingModel &model, const TimelineLimits &limits,
                        bool keepEvents) {
  if (failed(checkExecuted(cores, limits.maxInstructions)))
    return failure();
  timeline::NodeBudget budget{limits.maxNodes};
  std::vector<ExecutionCursor> cursors;
  std::vector<CoreModel> models;
  models.reserve(cores.size());
  for (auto [shard, func] : cores) {
    cursors.emplace_back(func.getBody().front(), shard);
    models.emplace_back(shard, model, keepEvents, budget);
  }
  // Segment by segment between the points where the cores meet.
  SmallVector<Operation *> syncs(cores.size());
  while (true) {
    for (auto [index, cursor] : llvm::enumerate(cursors)) {
      Operation *op;
      while ((op = cursor.next()) && !isSync(op))
        if (failed(models[index].place(op, cursor.getIvs())))
          return failure();
      syncs[index] = op;
    }
    auto reached = llvm::find_if(syncs, [](Operation *op) { return op; });
    if (reached == syncs.end())
      break;
    if (llvm::is_contained(syncs, nullptr))
      return (*reached)->emitError("timing model: not every core reaches "
                                   "this barrier or collective");
    // Every core arrives when all it issued before is done; they leave
    // together, and a collective then moves its data on each.
    double release = 0;
    for (CoreModel &core : models)
      release = std::max(release, core.quiesced());
    for (auto [index, core] : llvm::enumerate(models)) {
      core.releaseAt(release);
      if (isa<CollectiveOp>(syncs[index]) &&
          failed(core.place(syncs[index], cursors[index].getIvs())))
        return failure();
    }
  }
  KernelTimeline result;
  for (auto [index, core] : llvm::enumerate(models)) {
    CoreTimeline timeline = core.take();
    auto module = cores[index].second->getParentOfType<ModuleOp>();
    timeline.module = module.getSymName().value_or("").str();
    if (auto kernel = module->getParentOfType<KernelOp>())
      timeline.kernel = kernel.getSymName().str();
    setRoofline(timeline, model);
    timeline.bound =
        Engine(std::max_element(timeline.busy.begin(), timeline.busy.end()) -
               timeline.busy.begin());
    result.cores.push_back(std::move(timeline));
  }
  return result;
}

FailureOr<SmallVector<TimedKernel>> walrus::findTimedKernels(Operation *root) {
  FailureOr<SmallVector<ModuleOp>> modules = findProgramModules(root);
  if (failed(modules))
    return failure();
  SmallVector<TimedKernel> kernels;
  Block *lastBlock = nullptr;
  for (ModuleOp module : *modules) {
    auto main = module.lookupSymbol<FuncOp>("main");
    if (!main)
      return module.emitError("print-bir-timeline: no bir.func @main");
    std::optional<int64_t> core = getNeuronCoreId(module);
    if (!core) {
      TimedKernel &kernel = kernels.emplace_back();
      for (int64_t shard = 0; shard < getLncSize(module); ++shard)
        kernel.push_back({shard, main});
      lastBlock = nullptr;
      continue;
    }
    if (module->getBlock() != lastBlock || *core == 0)
      kernels.emplace_back();
    kernels.back().push_back({*core, main});
    lastBlock = module->getBlock();
  }
  return kernels;
}

LogicalResult walrus::walkKernelTimelines(
    Operation *root, function_ref<void(FuncOp, const CoreTimeline &)> callback,
    const TimelineLimits &limits) {
  FailureOr<SmallVector<TimedKernel>> kernels = findTimedKernels(root);
  if (failed(kernels))
    return failure();
  bool allTimed = true;
  for (const TimedKernel &kernel : *kernels) {
    FailureOr<KernelTimeline> timeline = computeTimeline(
        kernel,
        TimingModel::forTarget(getTarget(kernel.front().second->getParentOp())),
        limits, /*keepEvents=*/false);
    if (failed(timeline)) {
      allTimed = false;
      continue;
    }
    for (auto [entry, core] : llvm::zip(kernel, timeline->cores))
      callback(entry.second, core);
  }
  return success(allTimed);
}

FailureOr<CoreTimeline>
walrus::getFunctionTimeline(FuncOp func, int64_t core,
                            const TimelineLimits &limits) {
  auto module = func->getParentOfType<ModuleOp>();
  // The kernel: the modules of the block the function's module sits in.
  Operation *scope =
      module->getParentOp() ? module->getParentOp() : module.getOperation();
  FailureOr<SmallVector<TimedKernel>> kernels = findTimedKernels(scope);
  if (failed(kernels))
    return failure();
  std::optional<int64_t> own = getNeuronCoreId(module);
  for (const TimedKernel &kernel : *kernels) {
    if (!llvm::any_of(kernel,
                      [&](auto &entry) { return entry.second == func; }))
      continue;
    FailureOr<KernelTimeline> timeline = computeTimeline(
        kernel, TimingModel::forTarget(getTarget(module)), limits, false);
    if (failed(timeline))
      return failure();
    int64_t wanted = own.value_or(core);
    for (CoreTimeline &entry : timeline->cores)
      if (entry.core == wanted)
        return std::move(entry);
  }
  return func.emitError() << "print-bir-timeline: no core " << core
                          << " runs this function";
}

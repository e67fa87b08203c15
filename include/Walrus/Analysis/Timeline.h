//===- Timeline.h - How long per-core programs would take -------*- C++ -*-===//
//
// An engine timing model and the timeline it gives a kernel: every
// executed instruction (loops unrolled) on its engine, in program order per
// engine, after the instructions whose bytes it depends on, with the cores
// meeting at barriers and collectives (docs/TimingModel.md). Never mutates
// the IR.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_TIMELINE_H
#define WALRUS_ANALYSIS_TIMELINE_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/ADT/SmallVector.h"

#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>
#include <vector>

namespace walrus {

/// The engines an instruction can run on: the tensor engine (PE), scalar
/// (ACT), vector (DVE) and GpSimd (Pool) engines, and the DMA engines.
enum class Engine : unsigned { PE, ACT, DVE, Pool, DMA };
constexpr unsigned kNumEngines = 5;
/// The most DMA engines a core may have on the model (a trace records a
/// transfer's engines as bits of one word).
constexpr unsigned kMaxDmaEngines = 64;
llvm::StringRef getEngineName(Engine engine);

/// Every number the timeline uses, per target generation; each one's
/// public source is in docs/TimingModel.md.
struct TimingModel {
  /// Engine clocks, GHz (cycles per nanosecond), PE, ACT, DVE, Pool.
  double peGhz, actGhz, dveGhz, poolGhz;
  /// A matmult's initiation interval is max(moving columns, this) PE
  /// cycles for 2-byte operands; 4-byte (fp32) operands cost `fp32Factor`
  /// times as much. Loading a new stationary operand costs its columns
  /// over `stationaryLoadSpeedup` cycles.
  double matmulMinCycles, fp32Factor, stationaryLoadSpeedup;
  /// The static cost of an ACT, DVE or Pool instruction, cycles (tensor
  /// access overhead); the data-path cost is one cycle per element of a
  /// partition, `twoInputCycles` for an operation of two streamed inputs
  /// and `divideCycles` for a division (fitted: docs/TimingModel.md).
  double instructionOverheadCycles, twoInputCycles, divideCycles;
  /// DMA: engines per core, bytes per nanosecond per engine, partitions one
  /// engine serves in a transfer, the fixed latency of a transfer (ns: it
  /// delays the transfer's end, not its engines) and the cost of each
  /// packet (a contiguous run of a partition) on its engine, as the bytes
  /// the engine would move in that time.
  unsigned dmaEngines;
  double dmaBytesPerNsPerEngine, dmaPartitionsPerEngine, dmaFixedNs,
      dmaPacketBytes;
  /// Tensor-engine peaks, FLOPs per nanosecond (TFLOPS / 1000), for
  /// 2-byte and for fp32 operands: the roofline.
  double peBf16FlopsPerNs, peFp32FlopsPerNs;

  /// The model of `target`'s generation (trn1, trn2, trn3; a custom target
  /// is modelled as trn2).
  static TimingModel forTarget(bir::TargetAttr target);
  double dmaPeakBytesPerNs() const {
    return dmaBytesPerNsPerEngine * dmaEngines;
  }
};

/// What one instruction costs on the model, out of context.
struct InstructionCost {
  Engine engine = Engine::PE;
  /// How long its engine (a transfer: each of its DMA engines) is busy, ns.
  double duration = 0;
  /// The DMA engines a transfer holds at once.
  unsigned dmaEngines = 1;
  /// How long after its engines free its result is ready (a transfer's
  /// fixed latency), ns.
  double latency = 0;
  /// A matmult's FLOPs, and whether its operands are 4-byte (they run at
  /// the fp32 rate).
  double flops = 0, peFlops = 0, dmaBytes = 0;
  bool fp32 = false;
};

/// What bounds a roofline: nothing (no FLOPs or bytes), the tensor engine
/// at its rate for the operands' types, or the DMA engines at their peak.
enum class RooflineLimit : unsigned { None, PEBf16, PEFp32, PEMixed, DMA };
llvm::StringRef getRooflineLimitName(RooflineLimit limit);

/// The cost of instruction `op` on `model`; `loadsStationary` says whether
/// a matmult loads its stationary operand (the tensor engine held another).
/// An error at an instruction the model has no timing for.
mlir::FailureOr<InstructionCost>
getInstructionCost(mlir::Operation *op, const TimingModel &model,
                   bool loadsStationary = true);

/// Accesses of an instruction whose first element a trace event records.
constexpr unsigned kTracedAccesses = 4;

/// One executed instruction: where it ran and when (nanoseconds).
struct TimelineEvent {
  mlir::Operation *op;
  Engine engine;
  /// A transfer's DMA engines, one bit each (at most kMaxDmaEngines).
  uint64_t dmaQueues = 0;
  /// When it starts, when its engine is free again and when its result is
  /// ready (after a transfer's fixed latency).
  double start, engineFinish, finish;
  /// The element offset of the first element of each access, in the order
  /// of getAccesses (the first kTracedAccesses).
  using AccessStarts = std::array<int64_t, kTracedAccesses>;
  AccessStarts accessStarts{};
};

/// One core's program on the model.
struct CoreTimeline {
  int64_t core = 0;
  /// The program module's name, and the bir.kernel's holding it (or "").
  std::string module, kernel;
  /// When its last instruction finishes, ns.
  double finish = 0;
  std::array<double, kNumEngines> busy{};
  /// Time spent waiting at barriers and collectives for other cores.
  double barrierWait = 0;
  int64_t instructions = 0;
  /// PE FLOPs in all and those of 4-byte operands.
  double dmaBytes = 0, flops = 0, peFlops = 0, peFp32Flops = 0;
  /// max(PE FLOPs at the peak of their operands' type, DMA bytes at the
  /// DMA peak), ns, and which of the two it is.
  double rooflineNs = 0;
  RooflineLimit rooflineLimit = RooflineLimit::None;
  /// The engine busiest over the run: what bounds it.
  Engine bound = Engine::PE;
  /// The critical path: from the instruction that ends last back through
  /// what each one's start waited for (a dependency, or its engine's
  /// previous instruction); each engine's time along it, and its length.
  /// A DMA's time along the path counts while its engines move its bytes;
  /// the fixed latency after that counts apart.
  std::array<double, kNumEngines> critical{};
  double criticalDmaLatency = 0;
  int64_t criticalInstructions = 0;
  /// With events kept: every executed instruction in placement order and
  /// the critical path as event indices from its last instruction back.
  std::vector<TimelineEvent> events;
  std::vector<int64_t> criticalEvents;
};

/// A kernel's cores on the model.
struct KernelTimeline {
  std::vector<CoreTimeline> cores;
  /// The slowest core's finish, ns.
  double finish() const;
};

/// What an estimate may use, for all the cores of a kernel together.
struct TimelineLimits {
  /// Executed instructions: past it, an error before any is placed.
  /// Each costs 40 bytes (120 with events kept).
  int64_t maxInstructions = 10000000;
  /// Nodes of the bookkeeping of the bytes instructions touch (64 bytes
  /// each): past it an access is recorded over a wider range, so an
  /// instruction may wait longer than it must, never less.
  int64_t maxNodes = int64_t(1) << 22;
};

/// The timeline of the per-core functions `cores` (core i runs cores[i];
/// a symbolic module's one function for each of its lnc cores), or an error
/// at the first instruction it cannot time, or (checkExecuted) when they
/// execute more than `limits.maxInstructions` in all. `keepEvents` keeps
/// each event (for a trace).
mlir::FailureOr<KernelTimeline>
computeTimeline(llvm::ArrayRef<std::pair<int64_t, bir::FuncOp>> cores,
                const TimingModel &model, const TimelineLimits &limits,
                bool keepEvents);

/// How many instructions `cores` execute in all (saturated at INT64_MAX),
/// or one error, at the op of the busiest core that accounts for most of
/// them, when that is more than `maxInstructions` (named after `option`).
/// Costs a walk of the IR per core, however many iterations the loops have.
mlir::FailureOr<int64_t>
checkExecuted(llvm::ArrayRef<std::pair<int64_t, bir::FuncOp>> cores,
              int64_t maxInstructions,
              llvm::StringRef option = "max-instructions");

/// The cores of one kernel: each core's shard and function.
using TimedKernel = llvm::SmallVector<std::pair<int64_t, bir::FuncOp>>;

/// The kernels at or under `root`: a symbolic module is one kernel on each
/// of its lnc cores; per-core modules side by side in one block are one
/// kernel. An error when a program module has no @main.
mlir::FailureOr<llvm::SmallVector<TimedKernel>>
findTimedKernels(mlir::Operation *root);

/// Each kernel at or under `root` estimated once, on its target's model:
/// `callback` gets each core's function and timeline. A kernel the model
/// cannot time is skipped, its error emitted; failure if any was. Walking
/// every function with getFunctionTimeline estimates a kernel of C cores C
/// times.
mlir::LogicalResult walkKernelTimelines(
    mlir::Operation *root,
    llvm::function_ref<void(bir::FuncOp, const CoreTimeline &)> callback,
    const TimelineLimits &limits = TimelineLimits());

/// The timeline, on its target's model, of the core that runs `func`
/// (`core` picks one of a symbolic module's cores), its kernel's other
/// cores taken into account; an error past `limits`.
mlir::FailureOr<CoreTimeline>
getFunctionTimeline(bir::FuncOp func, int64_t core = 0,
                    const TimelineLimits &limits = TimelineLimits());

} // namespace walrus

#endif // WALRUS_ANALYSIS_TIMELINE_H

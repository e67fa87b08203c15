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
  /// partition per input.
  double instructionOverheadCycles;
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
  double flops = 0, peFlops = 0, dmaBytes = 0;
};

/// The cost of instruction `op` on `model`; `loadsStationary` says whether
/// a matmult loads its stationary operand (the tensor engine held another).
/// An error at an instruction the model has no timing for.
mlir::FailureOr<InstructionCost>
getInstructionCost(mlir::Operation *op, const TimingModel &model,
                   bool loadsStationary = true);

/// One executed instruction: where it ran and when (nanoseconds).
struct TimelineEvent {
  mlir::Operation *op;
  Engine engine;
  unsigned queue; // the DMA engine, or 0
  double start, finish;
};

/// One core's program on the model.
struct CoreTimeline {
  int64_t core = 0;
  std::string module;
  /// When its last instruction finishes, ns.
  double finish = 0;
  std::array<double, kNumEngines> busy{};
  /// Time spent waiting at barriers and collectives for other cores.
  double barrierWait = 0;
  int64_t instructions = 0;
  double dmaBytes = 0, flops = 0, peFlops = 0;
  /// max(PE FLOPs / PE peak, DMA bytes / DMA peak), ns.
  double rooflineNs = 0;
  /// The engine busiest over the run: what bounds it.
  Engine bound = Engine::PE;
  /// The critical path: from the instruction that ends last back through
  /// what each one's start waited for (a dependency, or its engine's
  /// previous instruction); each engine's time along it, and its length.
  std::array<double, kNumEngines> critical{};
  int64_t criticalInstructions = 0;
  std::vector<TimelineEvent> events;
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
  /// Each costs 32 bytes (64 with events kept).
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

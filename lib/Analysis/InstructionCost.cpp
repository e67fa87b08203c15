//===- InstructionCost.cpp - One instruction on the timing model ----------===//
//
// The engine an instruction runs on and how long it keeps it busy, from
// the numbers of docs/TimingModel.md. The timeline places these costs in
// time; the scheduler (-bir-schedule) orders instructions by them.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Analysis/Timeline.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;

/// The partitions of the on-chip side of a copy from or to `a`.
static int64_t getOnChipPartitions(Value a, AccessPatternAttr aAp,
                                   AccessPatternAttr bAp) {
  bool aOnChip = cast<MemoryType>(a.getType()).isOnChip();
  return (aOnChip ? aAp : bAp).getPartitionCount();
}

// A transfer is split over E engines, each moving its partitions' rows as
// packets (one per contiguous run) at a cost per packet and per byte; its
// fixed latency delays its end, not the engines (it overlaps with other
// transfers).
static InstructionCost costDma(const TimingModel &model, double elements,
                               int64_t elementBytes, int64_t partitions,
                               AccessPatternAttr side) {
  double bytes = elements * double(elementBytes);
  double engines =
      std::clamp(std::ceil(double(partitions) / model.dmaPartitionsPerEngine),
                 1.0, double(model.dmaEngines));
  ArrayRef<int64_t> steps = side.getSteps(), nums = side.getNums();
  double run = steps.size() > 1 && steps.back() == 1 ? double(nums.back()) : 1;
  double packets = std::ceil(double(partitions) / engines) *
                   std::max(1.0, double(side.getFreeCount()) / run);
  InstructionCost cost;
  cost.engine = Engine::DMA;
  cost.duration =
      packets * model.dmaPacketBytes / model.dmaBytesPerNsPerEngine +
      bytes / (engines * model.dmaBytesPerNsPerEngine);
  cost.dmaEngines = unsigned(engines);
  cost.latency = model.dmaFixedNs;
  cost.dmaBytes = bytes;
  return cost;
}

/// The elements a collective moves through each core: a ring over the
/// cores passes on cores - 1 slices of the whole, twice for all_reduce (a
/// reduce_scatter, then an all_gather: Patarasuk and Yuan, "Bandwidth
/// optimal all-reduce algorithms for clusters of workstations").
static double getCollectiveElements(CollectiveOp collective) {
  double cores = double(getLncSize(collective));
  double dst = double(collective.getDstAp().getNumElements());
  switch (collective.getKind()) {
  case CollectiveKind::ReduceScatter:
    return (cores - 1) * dst;
  case CollectiveKind::AllGather:
    return (cores - 1) * double(collective.getSrcAp().getNumElements());
  case CollectiveKind::AllReduce:
    break;
  }
  return 2 * (cores - 1) / cores * dst;
}

static InstructionCost costMatmult(const TimingModel &model, MatmultOp matmult,
                                   bool loadsStationary) {
  AccessPatternAttr moving = matmult.getMovingAp();
  AccessPatternAttr held = matmult.getStationaryAp();
  int64_t k = held.getPartitionCount(), m = held.getFreeCount(),
          n = moving.getFreeCount();
  bool fp32 =
      cast<MemoryType>(matmult.getMoving().getType()).getElementBytes() >= 4;
  double factor = fp32 ? model.fp32Factor : 1.0;
  double cycles = std::max(double(n), model.matmulMinCycles) * factor;
  if (loadsStationary)
    cycles += double(m) / model.stationaryLoadSpeedup * factor;
  InstructionCost cost;
  cost.engine = Engine::PE;
  cost.duration = cycles / model.peGhz;
  cost.flops = cost.peFlops = 2.0 * k * m * n;
  cost.fp32 = fp32;
  return cost;
}

// A matmult by the identity: the source streams as the moving operand.
static InstructionCost costTranspose(const TimingModel &model,
                                     TransposeOp transpose) {
  bool fp32 =
      cast<MemoryType>(transpose.getSrc().getType()).getElementBytes() >= 4;
  double cycles = std::max(double(transpose.getSrcAp().getPartitionCount()),
                           model.matmulMinCycles) *
                  (fp32 ? model.fp32Factor : 1.0);
  InstructionCost cost;
  cost.engine = Engine::PE;
  cost.duration = cycles / model.peGhz;
  return cost;
}

// `cyclesPerElement` per element of a partition after the static
// overhead; one FLOP per element.
static InstructionCost costVector(const TimingModel &model, Engine engine,
                                  double ghz, AccessPatternAttr pattern,
                                  double cyclesPerElement) {
  InstructionCost cost;
  cost.engine = engine;
  cost.duration = (model.instructionOverheadCycles +
                   double(pattern.getFreeCount()) * cyclesPerElement) /
                  ghz;
  cost.flops = double(pattern.getNumElements());
  return cost;
}

/// Whether an operand streams elements: a pattern that steps 0 along every
/// free dimension reads one value per partition (a broadcast).
static bool streams(AccessPatternAttr pattern) {
  return llvm::any_of(pattern.getSteps().drop_front(),
                      [](int64_t step) { return step != 0; });
}

/// The data-path cycles per element of an elementwise operation.
static double getElementCycles(const TimingModel &model, AluOp op,
                               bool twoInputs) {
  if (op == AluOp::Divide)
    return model.divideCycles;
  return twoInputs ? model.twoInputCycles : 1.0;
}

/// The engine an elementwise instruction runs on and its clock: the one
/// it names, else `fallback`.
static std::pair<Engine, double>
getComputeEngine(const TimingModel &model, std::optional<ComputeEngine> named,
                 Engine fallback) {
  Engine engine = fallback;
  if (named)
    engine = *named == ComputeEngine::Scalar   ? Engine::ACT
             : *named == ComputeEngine::Gpsimd ? Engine::Pool
                                               : Engine::DVE;
  double ghz = engine == Engine::ACT    ? model.actGhz
               : engine == Engine::Pool ? model.poolGhz
                                        : model.dveGhz;
  return {engine, ghz};
}

FailureOr<InstructionCost> walrus::getInstructionCost(Operation *op,
                                                      const TimingModel &model,
                                                      bool loadsStationary) {
  using Result = FailureOr<InstructionCost>;
  return TypeSwitch<Operation *, Result>(op)
      .Case([&](DmaOp copy) -> Result {
        MemoryType type = cast<MemoryType>(copy.getDst().getType());
        bool dramDst = !type.isOnChip();
        return costDma(model, copy.getDstAp().getNumElements(),
                       type.getElementBytes(),
                       getOnChipPartitions(copy.getDst(), copy.getDstAp(),
                                           copy.getSrcAp()),
                       dramDst ? copy.getDstAp() : copy.getSrcAp());
      })
      .Case([&](DmaGatherOp gather) -> Result {
        MemoryType type = cast<MemoryType>(gather.getDst().getType());
        return costDma(
            model, gather.getDstAp().getNumElements(), type.getElementBytes(),
            gather.getDstAp().getPartitionCount(), gather.getSrcAp());
      })
      .Case([&](Sb2SbOp copy) -> Result {
        MemoryType type = cast<MemoryType>(copy.getDst().getType());
        return costDma(model, copy.getDstAp().getNumElements(),
                       type.getElementBytes(),
                       copy.getDstAp().getPartitionCount(), copy.getDstAp());
      })
      .Case([&](CollectiveOp collective) -> Result {
        MemoryType type = cast<MemoryType>(collective.getDst().getType());
        return costDma(
            model, getCollectiveElements(collective), type.getElementBytes(),
            collective.getDstAp().getPartitionCount(), collective.getDstAp());
      })
      .Case([&](MatmultOp matmult) -> Result {
        return costMatmult(model, matmult, loadsStationary);
      })
      .Case([&](TransposeOp transpose) -> Result {
        return costTranspose(model, transpose);
      })
      .Case([&](ActivationOp activation) -> Result {
        return costVector(model, Engine::ACT, model.actGhz,
                          activation.getSrcAp(), 1);
      })
      .Case([&](TensorTensorOp tensor) -> Result {
        auto [engine, ghz] =
            getComputeEngine(model, tensor.getEngine(), Engine::DVE);
        bool twoInputs =
            streams(tensor.getLhsAp()) && streams(tensor.getRhsAp());
        return costVector(model, engine, ghz, tensor.getDstAp(),
                          getElementCycles(model, tensor.getOp(), twoInputs));
      })
      // NKI documents no cost for tensor_tensor_scan; it streams two
      // inputs as a tensor_tensor does.
      .Case([&](TensorTensorScanOp scan) -> Result {
        return costVector(model, Engine::DVE, model.dveGhz, scan.getDstAp(),
                          model.twoInputCycles);
      })
      // nki.isa.tensor_copy_predicated: max(MIN_II, 2N) cycles with both
      // operands in SBUF, as a tensor_tensor reads two.
      .Case([&](TensorCopyPredicatedOp copy) -> Result {
        return costVector(model, Engine::DVE, model.dveGhz, copy.getSrcAp(),
                          model.twoInputCycles);
      })
      .Case([&](TensorScalarOp scalar) -> Result {
        auto [engine, ghz] =
            getComputeEngine(model, scalar.getEngine(), Engine::DVE);
        return costVector(model, engine, ghz, scalar.getSrcAp(),
                          getElementCycles(model, scalar.getOp(), false));
      })
      .Case([&](TensorCopyOp copy) -> Result {
        auto [engine, ghz] =
            getComputeEngine(model, copy.getEngine(), Engine::DVE);
        return costVector(model, engine, ghz, copy.getSrcAp(), 1);
      })
      .Case([&](TensorReduceOp reduce) -> Result {
        return costVector(model, Engine::DVE, model.dveGhz, reduce.getSrcAp(),
                          1);
      })
      .Case([&](MemsetOp memset) -> Result {
        auto [engine, ghz] =
            getComputeEngine(model, memset.getEngine(), Engine::Pool);
        return costVector(model, engine, ghz, memset.getDstAp(), 1);
      })
      .Default([&](Operation *other) -> Result {
        return other->emitError()
               << "timing model: no timing for '" << other->getName() << "'";
      });
}

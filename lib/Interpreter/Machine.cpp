//===- Machine.cpp - Cores, their memories and instruction execution ------===//

#include "Machine.h"
#include "Elements.h"

#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <cmath>
#include <cstring>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::interp;

//===----------------------------------------------------------------------===//
// Core: memory and control flow
//===----------------------------------------------------------------------===//

LogicalResult MemoryBudget::take(int64_t bytes, Operation *op, StringRef what) {
  if (bytes >= 0 && bytes <= left) {
    left -= bytes;
    return success();
  }
  return op->emitError() << "walrus-run: " << what << " needs " << bytes
                         << " bytes, past the run's limit (--max-bytes)";
}

LogicalResult MemoryBudget::process(int64_t elements, Operation *op) {
  elementsLeft -= elements;
  if (elementsLeft >= 0)
    return success();
  return op->emitError() << "walrus-run: the run passed its limit of operand "
                            "elements processed (--max-elements)";
}

Core::Core(int64_t shard, FuncOp func, uint8_t fill, MemoryBudget &budget)
    : shard(shard), func(func), fill(fill), budget(&budget) {
  for (MemlocOp memloc : func.getMemlocs())
    memlocsByName[memloc.getName()] = memloc;
  enterBlock(func.getBody().front(), nullptr);
}

void Core::enterBlock(Block &block, LoopOp loop) {
  frames.push_back({block.begin(), block.end(), loop});
}

void Core::resume() {
  assert(waitingAt && "resuming a core that does not wait");
  waitingAt = nullptr;
  ++frames.back().next;
}

FailureOr<Storage> Core::resolve(Value tensor, Dram &dram) {
  auto cached = storages.find(tensor);
  if (cached != storages.end())
    return cached->second;
  auto type = cast<MemoryType>(tensor.getType());
  Storage storage;
  storage.elementType = type.getElementType();
  storage.elementBytes = type.getElementBytes();
  storage.freeSize = type.getFreeSize();
  storage.numElements = type.getNumElements();
  storage.onChip = type.isOnChip();
  if (auto view = tensor.getDefiningOp<ViewOp>()) {
    // Same bytes, same partitions, another element type and free shape.
    FailureOr<Storage> source = resolve(view.getSource(), dram);
    if (failed(source))
      return failure();
    storage.base = source->base;
    storage.pitch = source->pitch;
  } else if (auto memloc = tensor.getDefiningOp<MemlocOp>()) {
    if (!storage.onChip) {
      storage.base = dram.find(memloc.getName())->second.bytes.data();
    } else if (std::optional<uint64_t> address = memloc.getAddress()) {
      TargetAttr target = getTarget(memloc);
      bool inSbuf = type.getMemorySpace() == MemorySpace::SBUF;
      storage.pitch = inSbuf ? target.getSbufBytesPerPartition()
                             : target.getPsumBytesPerPartition();
      std::vector<uint8_t> &memory = inSbuf ? sbuf : psum;
      if (memory.empty()) {
        std::optional<int64_t> bytes = llvm::checkedMul(
            inSbuf ? target.getSbufPartitions() : target.getPsumPartitions(),
            storage.pitch);
        if (failed(budget->take(bytes.value_or(-1), memloc,
                                inSbuf ? "this core's SBUF" : "its PSUM")))
          return failure();
        memory.assign(*bytes, fill);
      }
      storage.base =
          memory.data() + *memloc.getBasePartition() * storage.pitch + *address;
    } else {
      int64_t bytes = type.getNumElements() * type.getElementBytes();
      if (failed(budget->take(bytes, memloc, "the tensor")))
        return failure();
      std::vector<uint8_t> &own = ownBuffers[memloc];
      own.assign(bytes, fill);
      storage.pitch = type.getBytesPerPartition();
      storage.base = own.data();
    }
  } else {
    return func.emitError("walrus-run: a tensor is not defined by "
                          "bir.memloc or bir.view");
  }
  storages[tensor] = storage;
  return storage;
}

FailureOr<Storage> Core::resolveByName(Value tensor, Dram &dram) {
  if (auto view = tensor.getDefiningOp<ViewOp>()) {
    FailureOr<Storage> source = resolveByName(view.getSource(), dram);
    if (failed(source))
      return failure();
    auto type = cast<MemoryType>(tensor.getType());
    Storage storage = *source;
    storage.elementType = type.getElementType();
    storage.elementBytes = type.getElementBytes();
    storage.freeSize = type.getFreeSize();
    storage.numElements = type.getNumElements();
    return storage;
  }
  StringRef name = getDefiningMemloc(tensor).getName();
  auto local = memlocsByName.find(name);
  if (local == memlocsByName.end())
    return tensor.getDefiningOp()->emitError()
           << "walrus-run: core " << shard << " has no memloc '" << name << "'";
  return resolve(local->second.getResult(), dram);
}

LogicalResult Core::runUntilSync(Machine &machine) {
  while (!frames.empty()) {
    Frame &frame = frames.back();
    if (frame.next == frame.end) {
      LoopOp loop = frame.loop;
      if (!loop) {
        frames.pop_back();
        continue;
      }
      // Next iteration, or leave the loop.
      if (--budget->iterationsLeft < 0)
        return loop.emitError() << "walrus-run: the run passed its limit of "
                                   "loop iterations (--max-iterations)";
      int64_t next = ivs.back() + loop.getStepSize();
      if (next < loop.getUpperBound()) {
        ivs.back() = next;
        frame.next = loop.getBody().front().begin();
        continue;
      }
      ivs.pop_back();
      frames.pop_back();
      ++frames.back().next;
      continue;
    }
    Operation *op = &*frame.next;
    if (auto loop = dyn_cast<LoopOp>(op)) {
      ivs.push_back(loop.getLowerBound());
      enterBlock(loop.getBody().front(), loop);
      continue;
    }
    auto instruction = dyn_cast<InstructionOpInterface>(op);
    if (!instruction) {
      ++frame.next; // memlocs and views
      continue;
    }
    if (IntegerSetAttr mask = instruction.getMaskAttr())
      if (!isMaskTrueAt(mask.getValue(), shard)) {
        ++frame.next;
        continue;
      }
    if (isa<CoreBarrierOp, CollectiveOp>(op)) {
      waitingAt = op;
      return success();
    }
    if (failed(machine.execute(*this, op)))
      return failure();
    ++frame.next;
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

/// The elements one access touches, in pattern order.
struct walrus::interp::Operand {
  Storage storage;
  std::vector<uint8_t *> elements;

  size_t size() const { return elements.size(); }
  double load(size_t i) const {
    return loadElement(storage.elementType, elements[i]);
  }
  void store(size_t i, double value) const {
    storeElement(storage.elementType, elements[i], value);
  }
  std::vector<double> loadAll() const {
    std::vector<double> values(size());
    for (size_t i = 0; i < size(); ++i)
      values[i] = load(i);
    return values;
  }
};

static int64_t evaluateStart(AccessPatternAttr pattern, ArrayRef<int64_t> ivs,
                             int64_t shard) {
  if (auto physical = dyn_cast<PhysicalAccessPatternAttr>(pattern))
    return physical.getOffset();
  AffineMap start = pattern.getStartMap();
  // Verified starts stay within +-2^62; the bounds check after this
  // refuses INT64_MIN should one not.
  return evaluate(start.getResult(0), ivs.take_front(start.getNumDims()),
                  {shard})
      .value_or(INT64_MIN);
}

/// The elements `pattern` touches from `start`, in pattern order, checked
/// against the tensor's size.
static FailureOr<std::vector<int64_t>>
getElementIndices(Operation *op, const Storage &storage,
                  AccessPatternAttr pattern, int64_t start, int64_t shard) {
  ArrayRef<int64_t> steps = pattern.getSteps(), nums = pattern.getNums();
  SmallVector<int64_t> index(nums.size(), 0);
  int64_t total = pattern.getNumElements();
  // An index and a pointer per element, held while the instruction runs.
  if (total > (int64_t(1) << 28))
    return op->emitError() << "walrus-run: an operand of " << total
                           << " elements is past the interpreter's 2^28";
  std::vector<int64_t> elements;
  elements.reserve(total);
  for (int64_t position = 0; position < total; ++position) {
    int64_t element = start;
    for (size_t dim = 0; dim < nums.size(); ++dim)
      element += steps[dim] * index[dim];
    if (element < 0 || element >= storage.numElements)
      return op->emitError() << "walrus-run: element " << element
                             << " is outside the tensor on core " << shard;
    elements.push_back(element);
    for (size_t dim = nums.size(); dim-- > 0;) {
      if (++index[dim] < nums[dim])
        break;
      index[dim] = 0;
    }
  }
  return elements;
}

static FailureOr<Operand> getOperand(Operation *op, const Storage &storage,
                                     AccessPatternAttr pattern,
                                     ArrayRef<int64_t> ivs, int64_t shard) {
  FailureOr<std::vector<int64_t>> elements = getElementIndices(
      op, storage, pattern, evaluateStart(pattern, ivs, shard), shard);
  if (failed(elements))
    return failure();
  Operand operand{storage, {}};
  operand.elements.reserve(elements->size());
  for (int64_t element : *elements)
    operand.elements.push_back(storage.element(element));
  return operand;
}

/// The moving operand of a replicated matmult as the contraction sees it:
/// replica r at partitions [r * S, r * S + C) holds the operand shifted
/// r * H columns (0 past the end of a partition); gaps between replicas
/// are 0. docs/ExpandReplication.md gives the semantics.
static FailureOr<std::vector<double>> loadReplicated(Core &core, Dram &dram,
                                                     MatmultOp matmult) {
  ReplicationAttr replication = matmult.getReplicationAttr();
  FailureOr<Storage> storage = core.resolve(matmult.getMoving(), dram);
  if (failed(storage))
    return failure();
  AccessPatternAttr pattern = matmult.getMovingAp();
  FailureOr<std::vector<int64_t>> elements = getElementIndices(
      matmult, *storage, pattern,
      evaluateStart(pattern, core.getInductionVariables(), core.getShard()),
      core.getShard());
  if (failed(elements))
    return failure();
  int64_t channels = pattern.getPartitionCount();
  int64_t columns = pattern.getFreeCount();
  int64_t contraction = matmult.getStationaryAp().getPartitionCount();
  std::vector<double> values(contraction * columns, 0.0);
  for (int64_t replica = 0; replica < replication.getFactor(); ++replica) {
    int64_t shift = replica * replication.getShift();
    int64_t firstRow = replica * replication.getPartitionStride();
    for (int64_t p = 0; p < channels; ++p)
      for (int64_t n = 0; n < columns; ++n) {
        int64_t element = (*elements)[p * columns + n];
        if (element % storage->freeSize + shift >= storage->freeSize)
          continue;
        values[(firstRow + p) * columns + n] = loadElement(
            storage->elementType, storage->element(element + shift));
      }
  }
  return values;
}

static FailureOr<Operand> getOperand(Core &core, Dram &dram, Operation *op,
                                     Value tensor, AccessPatternAttr pattern) {
  FailureOr<Storage> storage = core.resolve(tensor, dram);
  if (failed(storage) ||
      failed(core.getBudget().process(pattern.getNumElements(), op)))
    return failure();
  return getOperand(op, *storage, pattern, core.getInductionVariables(),
                    core.getShard());
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

static double applyAlu(AluOp op, double lhs, double rhs) {
  switch (op) {
  case AluOp::Add:
    return lhs + rhs;
  case AluOp::Subtract:
    return lhs - rhs;
  case AluOp::Multiply:
    return lhs * rhs;
  case AluOp::Divide:
    return lhs / rhs;
  case AluOp::Max:
    return std::max(lhs, rhs);
  case AluOp::Min:
    return std::min(lhs, rhs);
  }
  llvm_unreachable("unknown ALU op");
}

static double applyActivation(ActivationFunction function, double x) {
  switch (function) {
  case ActivationFunction::Identity:
    return x;
  case ActivationFunction::Exp:
    return std::exp(x);
  case ActivationFunction::Relu:
    return x > 0 ? x : 0;
  case ActivationFunction::Gelu:
    return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0)));
  case ActivationFunction::Silu:
    return x / (1 + std::exp(-x));
  case ActivationFunction::Tanh:
    return std::tanh(x);
  case ActivationFunction::Sigmoid:
    return 1 / (1 + std::exp(-x));
  case ActivationFunction::Square:
    return x * x;
  case ActivationFunction::Rsqrt:
    return 1 / std::sqrt(x);
  case ActivationFunction::Reciprocal:
    return 1 / x;
  }
  llvm_unreachable("unknown activation function");
}

/// Copies `src` to `dst` element by element: bytes when the element types
/// match (bit exact), values otherwise. All reads happen before any write.
static void copyElements(const Operand &dst, const Operand &src) {
  if (dst.storage.elementType == src.storage.elementType) {
    size_t bytes = src.storage.elementBytes;
    std::vector<uint8_t> staged(src.size() * bytes);
    for (size_t i = 0; i < src.size(); ++i)
      std::memcpy(&staged[i * bytes], src.elements[i], bytes);
    for (size_t i = 0; i < dst.size(); ++i)
      std::memcpy(dst.elements[i], &staged[i * bytes], bytes);
    return;
  }
  std::vector<double> values = src.loadAll();
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, values[i]);
}

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

static void fill(Operand &dst, double value) {
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, value);
}

/// dst[f][p] = src[p][f] over `partitions` x `columns` elements.
static void transposeInto(Operand &dst, Operand &src, int64_t partitions,
                          int64_t columns) {
  std::vector<double> values = src.loadAll();
  for (int64_t p = 0; p < partitions; ++p)
    for (int64_t f = 0; f < columns; ++f)
      dst.store(f * partitions + p, values[p * columns + f]);
}

/// dst (m x n) = lhs^T (m x k) * rhs (k x n), added to dst unless `start`:
/// products and their sum in double, then one rounding into the
/// accumulator's element type.
static void multiplyInto(Operand &dst, ArrayRef<double> lhs,
                         ArrayRef<double> rhs, int64_t k, int64_t m, int64_t n,
                         bool start) {
  std::vector<double> sums(m * n, 0.0);
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t mm = 0; mm < m; ++mm) {
      double weight = lhs[kk * m + mm];
      for (int64_t nn = 0; nn < n; ++nn)
        sums[mm * n + nn] += weight * rhs[kk * n + nn];
    }
  for (int64_t i = 0; i < m * n; ++i)
    dst.store(i, start ? sums[i] : dst.load(i) + sums[i]);
}

static void activate(Operand &dst, Operand &src, ActivationFunction function,
                     double scale) {
  std::vector<double> values = src.loadAll();
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, applyActivation(function, values[i] * scale));
}

static void combine(Operand &dst, Operand &lhs, Operand &rhs, AluOp op) {
  std::vector<double> left = lhs.loadAll(), right = rhs.loadAll();
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, applyAlu(op, left[i], right[i]));
}

static void combineScalar(Operand &dst, Operand &src, AluOp op, double scalar) {
  std::vector<double> values = src.loadAll();
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, applyAlu(op, values[i], scalar));
}

/// dst[row] = src[row][0] op src[row][1] op ... over rows of `width`.
static void reduceRows(Operand &dst, Operand &src, AluOp op, int64_t width) {
  std::vector<double> values = src.loadAll();
  for (size_t row = 0; row < dst.size(); ++row) {
    double result = values[row * width];
    for (int64_t i = 1; i < width; ++i)
      result = applyAlu(op, result, values[row * width + i]);
    dst.store(row, result);
  }
}

LogicalResult Machine::fetchAndRun(
    Core &core, Operation *op,
    ArrayRef<std::pair<Value, AccessPatternAttr>> tensors,
    function_ref<LogicalResult(MutableArrayRef<Operand>)> run) {
  SmallVector<Operand, 3> operands;
  for (auto [tensor, pattern] : tensors) {
    FailureOr<Operand> operand = getOperand(core, dram, op, tensor, pattern);
    if (failed(operand))
      return failure();
    operands.push_back(std::move(*operand));
  }
  return run(operands);
}

LogicalResult Machine::executeMatmult(Core &core, MatmultOp matmult,
                                      MutableArrayRef<Operand> operands) {
  Operand &dst = operands[0], &stationary = operands[1], &moving = operands[2];
  std::vector<double> rhs;
  if (matmult.getReplicationAttr()) {
    FailureOr<std::vector<double>> replicated =
        loadReplicated(core, dram, matmult);
    if (failed(replicated))
      return failure();
    rhs = std::move(*replicated);
  } else {
    rhs = moving.loadAll();
  }
  multiplyInto(dst, stationary.loadAll(), rhs,
               matmult.getStationaryAp().getPartitionCount(),
               matmult.getStationaryAp().getFreeCount(),
               matmult.getMovingAp().getFreeCount(), matmult.getStart());
  return success();
}

/// The destination is the peer core's tensor of the same name.
LogicalResult Machine::executeSb2Sb(Core &core, Sb2SbOp copy) {
  int64_t peer =
      bindShard(copy.getPeer(), core.getShard()).getSingleConstantResult();
  if (peer < 0 || peer >= static_cast<int64_t>(cores.size()))
    return copy.emitError()
           << "walrus-run: peer core " << peer << " does not exist";
  FailureOr<Storage> target = cores[peer].resolveByName(copy.getDst(), dram);
  if (failed(target))
    return failure();
  FailureOr<Operand> dst =
      getOperand(copy, *target, copy.getDstAp(), core.getInductionVariables(),
                 core.getShard());
  FailureOr<Operand> src =
      getOperand(core, dram, copy, copy.getSrc(), copy.getSrcAp());
  if (failed(dst) || failed(src))
    return failure();
  copyElements(*dst, *src);
  return success();
}

LogicalResult Machine::execute(Core &core, Operation *op) {
  // Each instruction's operands, destination first, then what it computes.
  auto run = [&](ArrayRef<std::pair<Value, AccessPatternAttr>> tensors,
                 auto compute) {
    return fetchAndRun(core, op, tensors, [&](MutableArrayRef<Operand> o) {
      compute(o);
      return success();
    });
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case<DmaOp, TensorCopyOp>([&](auto copy) {
        return run({{copy.getDst(), copy.getDstAp()},
                    {copy.getSrc(), copy.getSrcAp()}},
                   [](auto o) { copyElements(o[0], o[1]); });
      })
      .Case([&](MemsetOp memset) {
        return run({{memset.getDst(), memset.getDstAp()}}, [&](auto o) {
          fill(o[0], memset.getValue().convertToDouble());
        });
      })
      .Case([&](TransposeOp transpose) {
        AccessPatternAttr src = transpose.getSrcAp();
        return run({{transpose.getDst(), transpose.getDstAp()},
                    {transpose.getSrc(), src}},
                   [&](auto o) {
                     transposeInto(o[0], o[1], src.getPartitionCount(),
                                   src.getFreeCount());
                   });
      })
      .Case([&](MatmultOp matmult) {
        return fetchAndRun(
            core, op,
            {{matmult.getDst(), matmult.getDstAp()},
             {matmult.getStationary(), matmult.getStationaryAp()},
             {matmult.getMoving(), matmult.getMovingAp()}},
            [&](MutableArrayRef<Operand> o) {
              return executeMatmult(core, matmult, o);
            });
      })
      .Case([&](ActivationOp activation) {
        return run({{activation.getDst(), activation.getDstAp()},
                    {activation.getSrc(), activation.getSrcAp()}},
                   [&](auto o) {
                     activate(o[0], o[1], activation.getFunction(),
                              activation.getScale().convertToDouble());
                   });
      })
      .Case([&](TensorTensorOp tt) {
        return run({{tt.getDst(), tt.getDstAp()},
                    {tt.getLhs(), tt.getLhsAp()},
                    {tt.getRhs(), tt.getRhsAp()}},
                   [&](auto o) { combine(o[0], o[1], o[2], tt.getOp()); });
      })
      .Case([&](TensorScalarOp ts) {
        return run({{ts.getDst(), ts.getDstAp()}, {ts.getSrc(), ts.getSrcAp()}},
                   [&](auto o) {
                     combineScalar(o[0], o[1], ts.getOp(),
                                   ts.getScalar().convertToDouble());
                   });
      })
      .Case([&](TensorReduceOp reduce) {
        return run({{reduce.getDst(), reduce.getDstAp()},
                    {reduce.getSrc(), reduce.getSrcAp()}},
                   [&](auto o) {
                     reduceRows(o[0], o[1], reduce.getOp(),
                                reduce.getSrcAp().getNums().back());
                   });
      })
      .Case([&](Sb2SbOp copy) { return executeSb2Sb(core, copy); })
      .Default([&](Operation *other) {
        return other->emitError("walrus-run: cannot execute this operation");
      });
}

/// Every core waits at its own instance of one collective: reads all
/// sources, then writes every destination.
LogicalResult Machine::executeCollective() {
  auto first = cast<CollectiveOp>(cores.front().getWaitingAt());
  std::vector<Operand> dsts, srcs;
  std::vector<int64_t> offsets;
  for (Core &core : cores) {
    auto collective = cast<CollectiveOp>(core.getWaitingAt());
    FailureOr<Operand> dst = getOperand(
        core, dram, collective, collective.getDst(), collective.getDstAp());
    FailureOr<Operand> src = getOperand(
        core, dram, collective, collective.getSrc(), collective.getSrcAp());
    if (failed(dst) || failed(src))
      return failure();
    dsts.push_back(*dst);
    srcs.push_back(*src);
    offsets.push_back(
        collective.getShardOffsetAttr()
            ? bindShard(collective.getShardOffsetAttr().getValue(),
                        core.getShard())
                  .getSingleConstantResult()
            : 0);
  }
  std::vector<std::vector<double>> values;
  for (const Operand &src : srcs)
    values.push_back(src.loadAll());
  AluOp reduction = first.getReduction().value_or(AluOp::Add);
  auto reduceAt = [&](size_t position) {
    double result = values.front()[position];
    for (size_t core = 1; core < values.size(); ++core)
      result = applyAlu(reduction, result, values[core][position]);
    return result;
  };
  auto outOfRange = [&](size_t core) {
    return cores[core].getWaitingAt()->emitError()
           << "walrus-run: the slice of core " << cores[core].getShard()
           << " at position " << offsets[core] << " does not fit";
  };
  switch (first.getKind()) {
  case CollectiveKind::AllReduce:
    for (Operand &dst : dsts) {
      if (dst.size() != values.front().size())
        return outOfRange(0);
      for (size_t i = 0; i < dst.size(); ++i)
        dst.store(i, reduceAt(i));
    }
    return success();
  case CollectiveKind::AllGather:
    for (size_t source = 0; source < srcs.size(); ++source) {
      for (Operand &dst : dsts) {
        if (offsets[source] < 0 ||
            offsets[source] + values[source].size() > dst.size())
          return outOfRange(source);
        for (size_t i = 0; i < values[source].size(); ++i)
          dst.store(offsets[source] + i, values[source][i]);
      }
    }
    return success();
  case CollectiveKind::ReduceScatter:
    for (size_t core = 0; core < dsts.size(); ++core) {
      if (offsets[core] < 0 ||
          offsets[core] + dsts[core].size() > values.front().size())
        return outOfRange(core);
      for (size_t i = 0; i < dsts[core].size(); ++i)
        dsts[core].store(i, reduceAt(offsets[core] + i));
    }
    return success();
  }
  llvm_unreachable("unknown collective kind");
}

/// All cores wait at a barrier or collective: check that it is the same one
/// everywhere, then perform it.
LogicalResult Machine::synchronize() {
  Operation *first = cores.front().getWaitingAt();
  for (Core &core : cores) {
    Operation *at = core.getWaitingAt();
    bool same = at->getName() == first->getName();
    if (same)
      if (auto barrier = dyn_cast<CoreBarrierOp>(at))
        same = barrier.getName() == cast<CoreBarrierOp>(first).getName();
    if (same)
      if (auto collective = dyn_cast<CollectiveOp>(at))
        same = collective.getKind() == cast<CollectiveOp>(first).getKind();
    if (!same)
      return at->emitError()
             << "walrus-run: core " << core.getShard()
             << " waits here while core " << cores.front().getShard()
             << " waits at another barrier or collective";
  }
  if (isa<CollectiveOp>(first) && failed(executeCollective()))
    return failure();
  for (Core &core : cores)
    core.resume();
  return success();
}

LogicalResult Machine::run() {
  while (true) {
    // Between synchronization points the cores run in core order.
    for (Core &core : cores)
      if (!core.isFinished() && !core.getWaitingAt())
        if (failed(core.runUntilSync(*this)))
          return failure();
    Core *finished = nullptr, *waiting = nullptr;
    for (Core &core : cores)
      (core.isFinished() ? finished : waiting) = &core;
    if (!waiting)
      return success();
    if (finished)
      return waiting->getWaitingAt()->emitError()
             << "walrus-run: core " << waiting->getShard()
             << " waits here but core " << finished->getShard()
             << " has finished";
    if (failed(synchronize()))
      return failure();
  }
}

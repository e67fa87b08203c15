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

  /// The integer element type, or null for floats.
  IntegerType integerType() const {
    return dyn_cast<IntegerType>(storage.elementType);
  }
  int64_t loadInt(size_t i) const {
    return loadInteger(integerType(), elements[i]);
  }
  void storeInt(size_t i, int64_t value) const {
    storeInteger(integerType(), elements[i], value);
  }
  std::vector<int64_t> loadAllInts() const {
    std::vector<int64_t> values(size());
    for (size_t i = 0; i < size(); ++i)
      values[i] = loadInt(i);
    return values;
  }
};

/// Whether an instruction over `operands` computes on integers: every
/// operand is an integer tensor (docs/Interpreter.md, "Arithmetic").
static bool isIntegerDomain(ArrayRef<const Operand *> operands) {
  return llvm::all_of(operands,
                      [](const Operand *o) { return bool(o->integerType()); });
}

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

/// IEEE 754-2019 maximum (`max`) or maximumNumber (`maxnum`), or the
/// minimum forms when `min`: -0 orders below +0; a NaN operand is the
/// result (`propagateNaN`) or is ignored.
static double selectExtreme(double lhs, double rhs, bool min,
                            bool propagateNaN) {
  if (std::isnan(lhs) || std::isnan(rhs)) {
    if (propagateNaN)
      return std::isnan(lhs) ? lhs : rhs;
    return std::isnan(lhs) ? rhs : lhs;
  }
  if (lhs == rhs)
    return std::signbit(lhs) == min ? lhs : rhs;
  return (lhs < rhs) == min ? lhs : rhs;
}

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
    return selectExtreme(lhs, rhs, /*min=*/false, /*propagateNaN=*/true);
  case AluOp::Min:
    return selectExtreme(lhs, rhs, /*min=*/true, /*propagateNaN=*/true);
  case AluOp::MaxNum:
    return selectExtreme(lhs, rhs, /*min=*/false, /*propagateNaN=*/false);
  case AluOp::MinNum:
    return selectExtreme(lhs, rhs, /*min=*/true, /*propagateNaN=*/false);
  // IEEE 754 comparisons: false on a NaN, but for not_equal.
  case AluOp::IsEqual:
    return lhs == rhs;
  case AluOp::NotEqual:
    return lhs != rhs;
  case AluOp::IsGt:
    return lhs > rhs;
  case AluOp::IsGe:
    return lhs >= rhs;
  case AluOp::IsLt:
    return lhs < rhs;
  case AluOp::IsLe:
    return lhs <= rhs;
  }
  llvm_unreachable("unknown ALU op");
}

/// Two's complement arithmetic on 64 bits (the store keeps the element's
/// low bits, so it wraps at every width); fails on a division by zero.
static std::optional<int64_t> applyIntegerAlu(AluOp op, int64_t lhs,
                                              int64_t rhs, bool isUnsigned) {
  uint64_t a = uint64_t(lhs), b = uint64_t(rhs);
  switch (op) {
  case AluOp::Add:
    return int64_t(a + b);
  case AluOp::Subtract:
    return int64_t(a - b);
  case AluOp::Multiply:
    return int64_t(a * b);
  case AluOp::Divide:
    if (rhs == 0)
      return std::nullopt;
    if (isUnsigned)
      return int64_t(a / b);
    if (lhs == INT64_MIN && rhs == -1)
      return INT64_MIN;
    return lhs / rhs;
  case AluOp::Max:
  case AluOp::MaxNum:
    return (isUnsigned ? a < b : lhs < rhs) ? rhs : lhs;
  case AluOp::Min:
  case AluOp::MinNum:
    return (isUnsigned ? a < b : lhs < rhs) ? lhs : rhs;
  case AluOp::IsEqual:
    return lhs == rhs;
  case AluOp::NotEqual:
    return lhs != rhs;
  case AluOp::IsGt:
    return isUnsigned ? a > b : lhs > rhs;
  case AluOp::IsGe:
    return isUnsigned ? a >= b : lhs >= rhs;
  case AluOp::IsLt:
    return isUnsigned ? a < b : lhs < rhs;
  case AluOp::IsLe:
    return isUnsigned ? a <= b : lhs <= rhs;
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
  case ActivationFunction::Sqrt:
    return std::sqrt(x);
  case ActivationFunction::Log:
    return std::log(x);
  case ActivationFunction::Erf:
    return std::erf(x);
  case ActivationFunction::Abs:
    return std::fabs(x);
  case ActivationFunction::GeluApproxTanh:
    return 0.5 * x *
           (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
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
  if (isIntegerDomain({&dst, &src})) {
    std::vector<int64_t> values = src.loadAllInts();
    for (size_t i = 0; i < dst.size(); ++i)
      dst.storeInt(
          i, saturateInteger(values[i], src.integerType(), dst.integerType()));
    return;
  }
  std::vector<double> values = src.loadAll();
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, values[i]);
}

/// dst[i] = src[i], bit for bit, where predicate[i] is nonzero (zero when
/// `reverse`); the other elements of dst keep their values.
static void copyPredicated(const Operand &dst, const Operand &src,
                           const Operand &predicate, bool reverse) {
  std::vector<int64_t> conditions = predicate.loadAllInts();
  size_t bytes = src.storage.elementBytes;
  std::vector<uint8_t> staged(src.size() * bytes);
  for (size_t i = 0; i < src.size(); ++i)
    std::memcpy(&staged[i * bytes], src.elements[i], bytes);
  for (size_t i = 0; i < dst.size(); ++i)
    if ((conditions[i] != 0) != reverse)
      std::memcpy(dst.elements[i], &staged[i * bytes], bytes);
}

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

/// Writes `immediate` to every element: an integer immediate into integers
/// as its low bits, anything else as a value.
static void fill(Operand &dst, Attribute immediate) {
  std::optional<int64_t> integer = getImmediateAsInteger(immediate);
  for (size_t i = 0; i < dst.size(); ++i) {
    if (integer && dst.integerType())
      dst.storeInt(i, *integer);
    else
      dst.store(i, getImmediateAsDouble(immediate));
  }
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

/// multiplyInto on integers: products and sums wrap as two's complement.
static void multiplyIntegersInto(Operand &dst, ArrayRef<int64_t> lhs,
                                 ArrayRef<int64_t> rhs, int64_t k, int64_t m,
                                 int64_t n, bool start) {
  std::vector<uint64_t> sums(m * n, 0);
  for (int64_t kk = 0; kk < k; ++kk)
    for (int64_t mm = 0; mm < m; ++mm) {
      uint64_t weight = uint64_t(lhs[kk * m + mm]);
      for (int64_t nn = 0; nn < n; ++nn)
        sums[mm * n + nn] += weight * uint64_t(rhs[kk * n + nn]);
    }
  for (int64_t i = 0; i < m * n; ++i)
    dst.storeInt(i,
                 int64_t(start ? sums[i] : uint64_t(dst.loadInt(i)) + sums[i]));
}

/// dst = function(src * scale * scales + bias), `bias` and `scales` null
/// for none.
static void activate(Operand &dst, Operand &src, Operand *bias, Operand *scales,
                     ActivationFunction function, double scale) {
  // The identity between integers converts exactly (saturating).
  if (function == ActivationFunction::Identity && scale == 1.0 && !bias &&
      !scales && isIntegerDomain({&dst, &src})) {
    copyElements(dst, src);
    return;
  }
  std::vector<double> values = src.loadAll();
  std::vector<double> offsets =
      bias ? bias->loadAll() : std::vector<double>(values.size(), 0.0);
  std::vector<double> factors =
      scales ? scales->loadAll() : std::vector<double>(values.size(), scale);
  // An f32 product is exact in double: one rounding, at the store.
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i,
              applyActivation(function, values[i] * factors[i] + offsets[i]));
}

/// Where an integer operation divides by zero.
static LogicalResult divisionByZero(Operation *op) {
  return op->emitError("walrus-run: integer division by zero");
}

/// dst[i] = left(i) op right(i) on integers.
static LogicalResult combineIntegers(Operation *op, const Operand &dst,
                                     AluOp alu,
                                     function_ref<int64_t(size_t)> left,
                                     function_ref<int64_t(size_t)> right) {
  bool isUnsigned = dst.integerType().isUnsigned();
  for (size_t i = 0; i < dst.size(); ++i) {
    std::optional<int64_t> value =
        applyIntegerAlu(alu, left(i), right(i), isUnsigned);
    if (!value)
      return divisionByZero(op);
    dst.storeInt(i, *value);
  }
  return success();
}

/// dst[i] = left(i) op right(i) on doubles, rounded once into dst.
static void combineDoubles(const Operand &dst, AluOp alu,
                           function_ref<double(size_t)> left,
                           function_ref<double(size_t)> right) {
  for (size_t i = 0; i < dst.size(); ++i)
    dst.store(i, applyAlu(alu, left(i), right(i)));
}

static LogicalResult combine(Operation *op, Operand &dst, Operand &lhs,
                             Operand &rhs, AluOp alu) {
  if (isIntegerDomain({&dst, &lhs, &rhs})) {
    std::vector<int64_t> left = lhs.loadAllInts(), right = rhs.loadAllInts();
    return combineIntegers(
        op, dst, alu, [&](size_t i) { return left[i]; },
        [&](size_t i) { return right[i]; });
  }
  std::vector<double> left = lhs.loadAll(), right = rhs.loadAll();
  combineDoubles(
      dst, alu, [&](size_t i) { return left[i]; },
      [&](size_t i) { return right[i]; });
  return success();
}

/// dst = src op scalar, or scalar op src when `reverse`: on integers when
/// the tensors are integers and the scalar an integer immediate.
static LogicalResult combineScalar(Operation *op, Operand &dst, Operand &src,
                                   AluOp alu, Attribute scalar, bool reverse) {
  std::optional<int64_t> integer = getImmediateAsInteger(scalar);
  if (integer && isIntegerDomain({&dst, &src})) {
    std::vector<int64_t> values = src.loadAllInts();
    auto element = [&](size_t i) { return values[i]; };
    auto constant = [&](size_t) { return *integer; };
    return reverse ? combineIntegers(op, dst, alu, constant, element)
                   : combineIntegers(op, dst, alu, element, constant);
  }
  std::vector<double> values = src.loadAll();
  double immediate = getImmediateAsDouble(scalar);
  auto element = [&](size_t i) { return values[i]; };
  auto constant = [&](size_t) { return immediate; };
  if (reverse)
    combineDoubles(dst, alu, constant, element);
  else
    combineDoubles(dst, alu, element, constant);
  return success();
}

/// dst[row] = src[row][0] op src[row][1] op ... over rows of `width`.
static LogicalResult reduceRows(Operation *op, Operand &dst, Operand &src,
                                AluOp alu, int64_t width) {
  if (isIntegerDomain({&dst, &src})) {
    std::vector<int64_t> values = src.loadAllInts();
    bool isUnsigned = src.integerType().isUnsigned();
    for (size_t row = 0; row < dst.size(); ++row) {
      int64_t result = values[row * width];
      for (int64_t i = 1; i < width; ++i) {
        std::optional<int64_t> next =
            applyIntegerAlu(alu, result, values[row * width + i], isUnsigned);
        if (!next)
          return divisionByZero(op);
        result = *next;
      }
      dst.storeInt(row, result);
    }
    return success();
  }
  std::vector<double> values = src.loadAll();
  for (size_t row = 0; row < dst.size(); ++row) {
    double result = values[row * width];
    for (int64_t i = 1; i < width; ++i)
      result = applyAlu(alu, result, values[row * width + i]);
    dst.store(row, result);
  }
  return success();
}

/// The recurrence of `scan` along each row of its patterns' last dimension,
/// in double, each result rounded as it is stored (and read back rounded,
/// as the next step reads it from the engine's output).
static void scanRows(Operand &dst, Operand &data0, Operand &data1,
                     TensorTensorScanOp scan) {
  std::vector<double> a = data0.loadAll(), b = data1.loadAll();
  auto apply = [](AluOp alu, double lhs, double rhs, bool reverse) {
    return reverse ? applyAlu(alu, rhs, lhs) : applyAlu(alu, lhs, rhs);
  };
  size_t width = size_t(scan.getDstAp().getNums().back());
  double initial = scan.getInitial().convertToDouble();
  for (size_t row = 0; row * width < dst.size(); ++row) {
    double previous = initial;
    for (size_t i = row * width; i < (row + 1) * width; ++i) {
      double inner = apply(scan.getOp0(), a[i], previous, scan.getReverse0());
      dst.store(i, apply(scan.getOp1(), inner, b[i], scan.getReverse1()));
      previous = dst.load(i);
    }
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
  int64_t k = matmult.getStationaryAp().getPartitionCount(),
          m = matmult.getStationaryAp().getFreeCount(),
          n = matmult.getMovingAp().getFreeCount();
  if (isIntegerDomain({&dst, &stationary, &moving}) &&
      !matmult.getReplicationAttr()) {
    multiplyIntegersInto(dst, stationary.loadAllInts(), moving.loadAllInts(), k,
                         m, n, matmult.getStart());
    return success();
  }
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
  multiplyInto(dst, stationary.loadAll(), rhs, k, m, n, matmult.getStart());
  return success();
}

/// Row `indices[p]` of the table `src_ap` describes into partition `p` of
/// `dst`, each index checked against the table's rows.
LogicalResult Machine::executeGather(Core &core, DmaGatherOp gather) {
  FailureOr<Operand> dst =
      getOperand(core, dram, gather, gather.getDst(), gather.getDstAp());
  FailureOr<Operand> indices = getOperand(
      core, dram, gather, gather.getIndices(), gather.getIndicesAp());
  FailureOr<Storage> table = core.resolve(gather.getSrc(), dram);
  if (failed(dst) || failed(indices) || failed(table))
    return failure();
  AccessPatternAttr src = gather.getSrcAp();
  int64_t rowStep = src.getSteps()[0], rows = src.getNums()[0],
          step = src.getSteps()[1], width = src.getNums()[1];
  int64_t start =
      evaluateStart(src, core.getInductionVariables(), core.getShard());
  std::vector<int64_t> rowOf = indices->loadAllInts();
  for (auto [partition, row] : llvm::enumerate(rowOf)) {
    if (row < 0 || row >= rows)
      return gather.emitError()
             << "walrus-run: dma_gather: partition " << partition
             << " asks for row " << row << " of a table of " << rows
             << " rows, on core " << core.getShard();
    for (int64_t i = 0; i < width; ++i) {
      std::optional<int64_t> rowStart = llvm::checkedMul(row, rowStep);
      std::optional<int64_t> offset = llvm::checkedMul(i, step);
      std::optional<int64_t> element = rowStart && offset
                                           ? llvm::checkedAdd(start, *rowStart)
                                           : std::nullopt;
      element = element ? llvm::checkedAdd(*element, *offset) : std::nullopt;
      if (!element || *element < 0 || *element >= table->numElements)
        return gather.emitError()
               << "walrus-run: dma_gather: row " << row
               << " reaches outside the table on core " << core.getShard();
      std::memcpy(dst->elements[partition * width + i],
                  table->element(*element), table->elementBytes);
    }
  }
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
      .Case([&](DmaGatherOp gather) { return executeGather(core, gather); })
      .Case<DmaOp, TensorCopyOp>([&](auto copy) {
        return run({{copy.getDst(), copy.getDstAp()},
                    {copy.getSrc(), copy.getSrcAp()}},
                   [](auto o) { copyElements(o[0], o[1]); });
      })
      .Case([&](TensorCopyPredicatedOp copy) {
        return run({{copy.getDst(), copy.getDstAp()},
                    {copy.getSrc(), copy.getSrcAp()},
                    {copy.getPredicate(), copy.getPredicateAp()}},
                   [&](auto o) {
                     copyPredicated(o[0], o[1], o[2], copy.getReverse());
                   });
      })
      .Case([&](MemsetOp memset) {
        return run({{memset.getDst(), memset.getDstAp()}},
                   [&](auto o) { fill(o[0], memset.getValue()); });
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
      .Case<ActivationOp, TensorTensorOp, TensorScalarOp, TensorReduceOp,
            TensorTensorScanOp>(
          [&](Operation *) { return executeVector(core, op); })
      .Case([&](Sb2SbOp copy) { return executeSb2Sb(core, copy); })
      .Default([&](Operation *other) {
        return other->emitError("walrus-run: cannot execute this operation");
      });
}
LogicalResult Machine::executeVector(Core &core, Operation *op) {
  // Each instruction's operands, destination first, then what it computes
  // (which can fail: integer division by zero).
  auto run = [&](ArrayRef<std::pair<Value, AccessPatternAttr>> tensors,
                 auto compute) {
    return fetchAndRun(core, op, tensors, compute);
  };
  return TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](ActivationOp activation) {
        SmallVector<std::pair<Value, AccessPatternAttr>, 4> tensors = {
            {activation.getDst(), activation.getDstAp()},
            {activation.getSrc(), activation.getSrcAp()}};
        bool bias = bool(activation.getBias());
        if (bias)
          tensors.push_back({activation.getBias(), activation.getBiasApAttr()});
        if (activation.getScales())
          tensors.push_back(
              {activation.getScales(), activation.getScalesApAttr()});
        return run(tensors, [&](MutableArrayRef<Operand> o) {
          Operand *scales = activation.getScales() ? &o.back() : nullptr;
          activate(o[0], o[1], bias ? &o[2] : nullptr, scales,
                   activation.getFunction(),
                   activation.getScale().convertToDouble());
          return success();
        });
      })
      .Case([&](TensorTensorOp tt) {
        return run({{tt.getDst(), tt.getDstAp()},
                    {tt.getLhs(), tt.getLhsAp()},
                    {tt.getRhs(), tt.getRhsAp()}},
                   [&](MutableArrayRef<Operand> o) {
                     return combine(op, o[0], o[1], o[2], tt.getOp());
                   });
      })
      .Case([&](TensorScalarOp ts) {
        return run({{ts.getDst(), ts.getDstAp()}, {ts.getSrc(), ts.getSrcAp()}},
                   [&](MutableArrayRef<Operand> o) {
                     return combineScalar(op, o[0], o[1], ts.getOp(),
                                          ts.getScalar(), ts.getReverse());
                   });
      })
      .Case([&](TensorTensorScanOp scan) {
        return run({{scan.getDst(), scan.getDstAp()},
                    {scan.getData0(), scan.getData0Ap()},
                    {scan.getData1(), scan.getData1Ap()}},
                   [&](MutableArrayRef<Operand> o) {
                     scanRows(o[0], o[1], o[2], scan);
                     return success();
                   });
      })
      .Case([&](TensorReduceOp reduce) {
        return run({{reduce.getDst(), reduce.getDstAp()},
                    {reduce.getSrc(), reduce.getSrcAp()}},
                   [&](MutableArrayRef<Operand> o) {
                     return reduceRows(op, o[0], o[1], reduce.getOp(),
                                       reduce.getSrcAp().getNums().back());
                   });
      })
      .Default([&](Operation *other) {
        return other->emitError("walrus-run: not a vector engine operation");
      });
}

/// Every core waits at its own instance of one collective: reads all
/// sources, then writes every destination.
namespace walrus::interp {
/// Every core's operands of one collective, its sources loaded.
struct CollectiveOperands {
  std::vector<Operand> dsts, srcs;
  /// Per core, where its slice sits (the shard offset; 0 without).
  std::vector<int64_t> offsets;
  /// Integers end to end when every source and destination is one.
  bool integers = false, isUnsigned = false;
  std::vector<std::vector<double>> values;
  std::vector<std::vector<int64_t>> ints;
  AluOp reduction = AluOp::Add;

  /// Stores at `dst[i]` source `core`'s element `position`, or (core -1)
  /// every source's, reduced. False on an integer division by zero.
  bool storeAt(const Operand &dst, size_t i, int64_t core,
               size_t position) const {
    size_t from = std::max<int64_t>(core, 0);
    if (integers) {
      std::optional<int64_t> result = ints[from][position];
      for (size_t other = 1; core < 0 && other < ints.size(); ++other)
        if (result)
          result = applyIntegerAlu(reduction, *result, ints[other][position],
                                   isUnsigned);
      if (result)
        dst.storeInt(i, *result);
      return result.has_value();
    }
    double result = values[from][position];
    for (size_t other = 1; core < 0 && other < values.size(); ++other)
      result = applyAlu(reduction, result, values[other][position]);
    dst.store(i, result);
    return true;
  }
};
} // namespace walrus::interp

/// Every waiting core's operands of its collective, sources loaded; fails
/// (with an error) when the cores give sources of different sizes.
FailureOr<CollectiveOperands> Machine::loadCollective() {
  auto first = cast<CollectiveOp>(cores.front().getWaitingAt());
  CollectiveOperands data;
  for (Core &core : cores) {
    auto collective = cast<CollectiveOp>(core.getWaitingAt());
    FailureOr<Operand> dst = getOperand(
        core, dram, collective, collective.getDst(), collective.getDstAp());
    FailureOr<Operand> src = getOperand(
        core, dram, collective, collective.getSrc(), collective.getSrcAp());
    if (failed(dst) || failed(src))
      return failure();
    data.dsts.push_back(*dst);
    data.srcs.push_back(*src);
    data.offsets.push_back(
        collective.getShardOffsetAttr()
            ? bindShard(collective.getShardOffsetAttr().getValue(),
                        core.getShard())
                  .getSingleConstantResult()
            : 0);
  }
  SmallVector<const Operand *> all;
  for (const Operand &operand :
       llvm::concat<const Operand>(data.dsts, data.srcs))
    all.push_back(&operand);
  data.integers = isIntegerDomain(all);
  for (const Operand &src : data.srcs) {
    if (data.integers)
      data.ints.push_back(src.loadAllInts());
    else
      data.values.push_back(src.loadAll());
  }
  data.reduction = first.getReduction().value_or(AluOp::Add);
  data.isUnsigned =
      data.integers && data.srcs.front().integerType().isUnsigned();
  // Reductions read every core's source at the same positions.
  for (size_t core = 1; core < data.srcs.size(); ++core)
    if (data.srcs[core].size() != data.srcs.front().size())
      return cores[core].getWaitingAt()->emitError()
             << "walrus-run: core " << cores[core].getShard() << " gives "
             << data.srcs[core].size()
             << " source elements to the collective, core "
             << cores.front().getShard() << " " << data.srcs.front().size();
  return data;
}

LogicalResult Machine::executeCollective() {
  auto first = cast<CollectiveOp>(cores.front().getWaitingAt());
  FailureOr<CollectiveOperands> loaded = loadCollective();
  if (failed(loaded))
    return failure();
  const CollectiveOperands &data = *loaded;
  auto sourceSize = [&](size_t core) { return data.srcs[core].size(); };
  auto outOfRange = [&](size_t core) {
    return cores[core].getWaitingAt()->emitError()
           << "walrus-run: the slice of core " << cores[core].getShard()
           << " at position " << data.offsets[core] << " does not fit";
  };
  auto fits = [&](int64_t offset, size_t size, size_t within) {
    return offset >= 0 && uint64_t(offset) <= within && size <= within - offset;
  };
  switch (first.getKind()) {
  case CollectiveKind::AllReduce:
    for (const Operand &dst : data.dsts) {
      if (dst.size() != sourceSize(0))
        return outOfRange(0);
      for (size_t i = 0; i < dst.size(); ++i)
        if (!data.storeAt(dst, i, -1, i))
          return divisionByZero(first);
    }
    return success();
  case CollectiveKind::AllGather:
    for (size_t source = 0; source < data.srcs.size(); ++source)
      for (const Operand &dst : data.dsts) {
        if (!fits(data.offsets[source], sourceSize(source), dst.size()))
          return outOfRange(source);
        for (size_t i = 0; i < sourceSize(source); ++i)
          (void)data.storeAt(dst, data.offsets[source] + i, source, i);
      }
    return success();
  case CollectiveKind::ReduceScatter:
    for (size_t core = 0; core < data.dsts.size(); ++core) {
      const Operand &dst = data.dsts[core];
      if (!fits(data.offsets[core], dst.size(), sourceSize(0)))
        return outOfRange(core);
      for (size_t i = 0; i < dst.size(); ++i)
        if (!data.storeAt(dst, i, -1, data.offsets[core] + i))
          return divisionByZero(first);
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

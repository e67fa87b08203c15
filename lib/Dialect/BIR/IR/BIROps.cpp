//===- BIROps.cpp - bir operations ----------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus::bir;

#include "Walrus/Dialect/BIR/IR/BIROpInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static Access readOf(OpOperand &operand, StringAttr patternName,
                     AccessPatternAttr &pattern) {
  return {&operand, patternName, &pattern, AccessKind::Read};
}

static MemoryType memoryTypeOf(Value value) {
  return cast<MemoryType>(value.getType());
}
static bool isDram(Value value) {
  return memoryTypeOf(value).getMemorySpace() == MemorySpace::DRAM;
}

/// `role` names the operand in diagnostics ("dst", "src", ...).
static LogicalResult expectOnChip(Operation *op, Value value, StringRef role) {
  if (isDram(value))
    return op->emitOpError() << "'" << role << "' must be an on-chip tensor";
  return success();
}

/// The engine an elementwise instruction names must be one that runs it
/// (`allowed`), and GpSimd reaches no PSUM (the architecture guide's
/// "GpSimd Engine" section; NKI's `tensor_tensor` documentation).
static LogicalResult verifyEngine(Operation *op,
                                  std::optional<ComputeEngine> engine,
                                  ArrayRef<ComputeEngine> allowed,
                                  ValueRange tensors) {
  if (!engine)
    return success();
  if (!llvm::is_contained(allowed, *engine)) {
    InFlightDiagnostic diagnostic = op->emitOpError()
                                    << "cannot run on the "
                                    << stringifyComputeEngine(*engine)
                                    << " engine; it runs on";
    for (auto [index, candidate] : llvm::enumerate(allowed))
      diagnostic << (index ? (index + 1 == allowed.size() ? " or " : ", ")
                           : " ")
                 << stringifyComputeEngine(candidate);
    return diagnostic;
  }
  if (*engine == ComputeEngine::Gpsimd)
    for (Value tensor : tensors)
      if (cast<MemoryType>(tensor.getType()).getMemorySpace() ==
          MemorySpace::PSUM)
        return op->emitOpError(
            "cannot run on the gpsimd engine: it reads or writes PSUM, which "
            "GpSimd cannot reach");
  return success();
}

static LogicalResult expectSameElementCount(Operation *op, StringRef lhsRole,
                                            AccessPatternAttr lhs,
                                            StringRef rhsRole,
                                            AccessPatternAttr rhs) {
  if (lhs.getNumElements() != rhs.getNumElements())
    return op->emitOpError() << "'" << lhsRole << "' touches "
                             << lhs.getNumElements() << " elements but '"
                             << rhsRole << "' touches " << rhs.getNumElements();
  return success();
}

static LogicalResult expectSameElementType(Operation *op, StringRef lhsRole,
                                           Value lhs, StringRef rhsRole,
                                           Value rhs) {
  Type lhsType = memoryTypeOf(lhs).getElementType();
  Type rhsType = memoryTypeOf(rhs).getElementType();
  if (lhsType != rhsType)
    return op->emitOpError()
           << "element types of '" << lhsRole << "' (" << lhsType << ") and '"
           << rhsRole << "' (" << rhsType << ") must match";
  return success();
}

/// Checks that a map with no dims and only the shard symbol has one result.
static LogicalResult expectShardMap(Operation *op, StringRef role,
                                    AffineMap map) {
  if (map.getNumDims() != 0 || map.getNumSymbols() > 1 ||
      map.getNumResults() != 1)
    return op->emitOpError()
           << "'" << role
           << "' must be a single-result map of the shard id alone, like "
              "()[s0] -> (s0)";
  return verifyDivisors(
      map.getResult(0), [&] { return op->emitOpError(); },
      ("'" + role + "'").str());
}

//===----------------------------------------------------------------------===//
// FuncOp
//===----------------------------------------------------------------------===//

void FuncOp::build(OpBuilder &builder, OperationState &state, StringRef name) {
  state.addAttribute(SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  Region *body = state.addRegion();
  body->emplaceBlock();
}

iterator_range<Block::op_iterator<MemlocOp>> FuncOp::getMemlocs() {
  Block &body = getBody().front();
  Block::iterator end = llvm::find_if(
      body, [](Operation &op) { return !isa<MemlocOp, ViewOp>(op); });
  using Filter = mlir::detail::op_filter_iterator<MemlocOp, Block::iterator>;
  return {Block::op_iterator<MemlocOp>(Filter(body.begin(), end)),
          Block::op_iterator<MemlocOp>(Filter(end, end))};
}

LogicalResult FuncOp::verifyRegions() {
  // Memory locations and views first, then instructions.
  Operation *firstInstruction = nullptr;
  for (Operation &op : getBody().front()) {
    if (!isa<MemlocOp, ViewOp>(op)) {
      if (!firstInstruction)
        firstInstruction = &op;
      continue;
    }
    if (firstInstruction)
      return op
          .emitOpError("must come before the function's first "
                       "instruction")
          .attachNote(firstInstruction->getLoc())
          .append("the first instruction");
  }
  llvm::StringMap<MemlocOp> byName, bySet;
  for (auto memloc : getMemlocs()) {
    auto [it, inserted] = byName.try_emplace(memloc.getName(), memloc);
    if (!inserted)
      return memloc.emitOpError("name '")
          .append(memloc.getName(), "' is already used in this function")
          .attachNote(it->second.getLoc())
          .append("first defined here");
    // Memlocs of one set share storage, so they share a memory.
    std::optional<StringRef> set = memloc.getSet();
    if (!set)
      continue;
    auto [first, isFirst] = bySet.try_emplace(*set, memloc);
    if (!isFirst && first->second.getMemoryType().getMemorySpace() !=
                        memloc.getMemoryType().getMemorySpace())
      return memloc.emitOpError("is in set '")
          .append(*set, "' but not in the memory of its other members")
          .attachNote(first->second.getLoc())
          .append("first member of the set");
  }
  return success();
}

//===----------------------------------------------------------------------===//
// LoopOp
//===----------------------------------------------------------------------===//

void LoopOp::build(OpBuilder &builder, OperationState &state, int64_t lower,
                   int64_t upper, int64_t step) {
  state.addAttribute(getLowerAttrName(state.name),
                     builder.getI64IntegerAttr(lower));
  state.addAttribute(getUpperAttrName(state.name),
                     builder.getI64IntegerAttr(upper));
  state.addAttribute(getStepAttrName(state.name),
                     builder.getI64IntegerAttr(step));
  state.addRegion()->emplaceBlock();
}

LogicalResult LoopOp::verify() {
  // Passes and verifiers walk nests recursively: a bounded depth keeps
  // them on the stack.
  constexpr unsigned kMaxDepth = 64;
  if (getEnclosingLoops(*this).size() > kMaxDepth)
    return emitOpError() << "is nested in more than " << kMaxDepth
                         << " bir.loops";
  // Induction values stay far from 2^63: `iv += step` and the maps
  // evaluated on them cannot wrap.
  constexpr int64_t kMaxBound = int64_t(1) << 48;
  for (int64_t bound : {getLowerBound(), getUpperBound(), getStepSize()})
    if (bound < -kMaxBound || bound > kMaxBound)
      return emitOpError() << "bound or step " << bound << " is past 2^48";
  if (getStepSize() < 1)
    return emitOpError("step must be positive, got ") << getStepSize();
  if (getUpperBound() <= getLowerBound())
    return emitOpError("must run at least once, but ")
           << getLowerBound() << " to " << getUpperBound() << " is empty";
  // Masks belong to instructions (docs/Rationale.md, "Masks"): a mask on a
  // loop would otherwise be kept through the split and ignored.
  if ((*this)->hasAttr("mask"))
    return emitOpError("takes no mask: mask the instructions in its body");
  return success();
}

//===----------------------------------------------------------------------===//
// MemlocOp
//===----------------------------------------------------------------------===//

void MemlocOp::getAsmResultNames(OpAsmSetValueNameFn setNameFn) {
  setNameFn(getResult(), getName());
}

/// `start + size` for a message, without wrapping.
static std::string endOf(int64_t start, int64_t size) {
  std::optional<int64_t> end = llvm::checkedAdd(start, size);
  return end ? std::to_string(*end) : "past 2^63";
}

LogicalResult MemlocOp::verify() {
  if (getName().empty())
    return emitOpError("name must not be empty");
  MemoryType type = getMemoryType();
  TargetAttr target = getTarget(*this);
  MemorySpace space = type.getMemorySpace();
  if (space != MemorySpace::DRAM) {
    bool sbuf = space == MemorySpace::SBUF;
    int64_t partitions =
        sbuf ? target.getSbufPartitions() : target.getPsumPartitions();
    if (type.getPartitions() > partitions)
      return emitOpError() << "has " << type.getPartitions()
                           << " partitions but the target's "
                           << (sbuf ? "SBUF" : "PSUM") << " has " << partitions;
    if (!sbuf &&
        type.getBytesPerPartition() > target.getPsumBytesPerPartition())
      return emitOpError() << "needs " << type.getBytesPerPartition()
                           << " bytes per partition but the target's PSUM "
                              "has "
                           << target.getPsumBytesPerPartition();
  }
  if (getAddress().has_value() != getBasePartition().has_value())
    return emitOpError("needs both 'address' and 'base_partition' or neither");
  if (!getAddress())
    return success();
  if (space == MemorySpace::DRAM)
    return emitOpError("a DRAM tensor has no on-chip address");
  int64_t address = *getAddress(), base = *getBasePartition();
  bool sbuf = space == MemorySpace::SBUF;
  int64_t partitions =
      sbuf ? target.getSbufPartitions() : target.getPsumPartitions();
  int64_t bytes = sbuf ? target.getSbufBytesPerPartition()
                       : target.getPsumBytesPerPartition();
  // Compared without adding: a hostile base or address must not wrap.
  if (base < 0 || base > partitions - type.getPartitions())
    return emitOpError() << "partitions [" << base << ", "
                         << endOf(base, type.getPartitions())
                         << ") do not fit the target's " << partitions;
  if (address < 0 || type.getBytesPerPartition() > bytes ||
      address > bytes - type.getBytesPerPartition())
    return emitOpError() << "bytes [" << address << ", "
                         << endOf(address, type.getBytesPerPartition())
                         << ") do not fit the target's " << bytes
                         << " bytes per partition";
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::verify() {
  MemoryType source = memoryTypeOf(getSource());
  MemoryType result = memoryTypeOf(getResult());
  if (source.getMemorySpace() != result.getMemorySpace())
    return emitOpError("must stay in the memory of its source");
  if (source.isOnChip() && source.getPartitions() != result.getPartitions())
    return emitOpError() << "must keep the " << source.getPartitions()
                         << " partitions of its source";
  int64_t sourceBytes = source.getNumElements() * source.getElementBytes();
  int64_t resultBytes = result.getNumElements() * result.getElementBytes();
  if (resultBytes > sourceBytes)
    return emitOpError() << "covers " << resultBytes
                         << " bytes but its source has only " << sourceBytes;
  return success();
}

//===----------------------------------------------------------------------===//
// Instructions
//===----------------------------------------------------------------------===//

LogicalResult DmaOp::verify() {
  // DMA queues move DRAM <-> on-chip and SBUF <-> SBUF (a DRAM tensor
  // -vn-split moved into SBUF keeps its DMAs).
  if (isDram(getDst()) && isDram(getSrc()))
    return emitOpError("needs exactly one DRAM side");
  auto isSbuf = [](Value value) {
    return memoryTypeOf(value).getMemorySpace() == MemorySpace::SBUF;
  };
  if (!isDram(getDst()) && !isDram(getSrc()) &&
      !(isSbuf(getDst()) && isSbuf(getSrc())))
    return emitOpError("between on-chip tensors needs SBUF on both sides");
  if (failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  return expectSameElementCount(*this, "dst", getDstAp(), "src", getSrcAp());
}

LogicalResult DmaGatherOp::verify() {
  auto isSbuf = [](Value value) {
    return memoryTypeOf(value).getMemorySpace() == MemorySpace::SBUF;
  };
  if (!isDram(getSrc()))
    return emitOpError("'src' must be a DRAM tensor (the table the rows are "
                       "gathered from)");
  if (!isSbuf(getDst()) || !isSbuf(getIndices()))
    return emitOpError("'dst' and 'indices' must be SBUF tensors");
  if (!isa<IntegerType>(memoryTypeOf(getIndices()).getElementType()))
    return emitOpError("'indices' must hold integers");
  if (failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  AccessPatternAttr dst = getDstAp(), src = getSrcAp(),
                    indices = getIndicesAp();
  if (src.getNums().size() != 2)
    return emitOpError("'src' pattern must be [[row_step, rows], [step, "
                       "width]]: the table's rows");
  int64_t width = src.getNums()[1];
  if (indices.getNumElements() != dst.getPartitionCount() ||
      dst.getFreeCount() != width ||
      dst.getNumElements() % dst.getPartitionCount() != 0)
    return emitOpError() << "'dst' must have one partition of " << width
                         << " elements (a table row) per index: "
                         << indices.getNumElements() << " indices, 'dst' "
                         << dst.getPartitionCount() << " partitions of "
                         << dst.getFreeCount() << " elements";
  return success();
}

LogicalResult TensorCopyOp::verify() {
  if (failed(expectOnChip(*this, getDst(), "dst")) ||
      failed(expectOnChip(*this, getSrc(), "src")) ||
      failed(verifyEngine(
          *this, getEngine(),
          {ComputeEngine::Vector, ComputeEngine::Scalar, ComputeEngine::Gpsimd},
          {getDst(), getSrc()})))
    return failure();
  return expectSameElementCount(*this, "dst", getDstAp(), "src", getSrcAp());
}

LogicalResult MemsetOp::verify() {
  if (failed(expectOnChip(*this, getDst(), "dst")))
    return failure();
  return verifyEngine(*this, getEngine(),
                      {ComputeEngine::Vector, ComputeEngine::Gpsimd},
                      {getDst()});
}

LogicalResult TransposeOp::verify() {
  if (failed(expectOnChip(*this, getDst(), "dst")) ||
      failed(expectOnChip(*this, getSrc(), "src")) ||
      failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  AccessPatternAttr dst = getDstAp(), src = getSrcAp();
  if (dst.getPartitionCount() != src.getFreeCount() ||
      dst.getFreeCount() != src.getPartitionCount())
    return emitOpError() << "'dst' must be " << src.getFreeCount() << "x"
                         << src.getPartitionCount()
                         << " (partitions x free) to transpose a "
                         << src.getPartitionCount() << "x" << src.getFreeCount()
                         << " 'src', got " << dst.getPartitionCount() << "x"
                         << dst.getFreeCount();
  return success();
}

void MatmultOp::getAccesses(SmallVectorImpl<Access> &accesses) {
  // Without `start` the matmult adds to what the accumulator holds.
  accesses.push_back({&getDstMutable(), getDstApAttrName(),
                      &getProperties().dst_ap,
                      getStart() ? AccessKind::Write : AccessKind::ReadWrite});
  accesses.push_back(readOf(getStationaryMutable(), getStationaryApAttrName(),
                            getProperties().stationary_ap));
  accesses.push_back(readOf(getMovingMutable(), getMovingApAttrName(),
                            getProperties().moving_ap));
}

LogicalResult MatmultOp::verify() {
  if (memoryTypeOf(getDst()).getMemorySpace() != MemorySpace::PSUM)
    return emitOpError("must write its result to PSUM");
  for (auto [role, value] :
       {std::pair<StringRef, Value>{"stationary", getStationary()},
        {"moving", getMoving()}})
    if (memoryTypeOf(value).getMemorySpace() != MemorySpace::SBUF)
      return emitOpError() << "'" << role << "' must be in SBUF";
  if (failed(expectSameElementType(*this, "stationary", getStationary(),
                                   "moving", getMoving())))
    return failure();
  Type accumulator = memoryTypeOf(getDst()).getElementType();
  if (!accumulator.isF32() && !accumulator.isSignlessInteger(32))
    return emitOpError() << "accumulates in f32 or i32, not " << accumulator;

  AccessPatternAttr dst = getDstAp(), stationary = getStationaryAp(),
                    moving = getMovingAp();
  TargetAttr target = getTarget(*this);
  // A replicated moving operand stands for `factor` copies of itself, one
  // every `partition_stride` partitions: the contraction spans them all.
  int64_t contraction = moving.getPartitionCount();
  if (ReplicationAttr replication = getReplicationAttr()) {
    if (replication.getPartitionStride() < contraction)
      return emitOpError() << "replicas every "
                           << replication.getPartitionStride()
                           << " partitions overlap a " << contraction
                           << "-partition 'moving' operand";
    contraction +=
        (replication.getFactor() - 1) * replication.getPartitionStride();
    if (contraction > target.getSbufPartitions())
      return emitOpError() << replication.getFactor() << " replicas span "
                           << contraction << " partitions but the target has "
                           << target.getSbufPartitions();
  }
  if (stationary.getPartitionCount() != contraction)
    return emitOpError() << "'stationary' must walk the " << contraction
                         << " partitions of the contraction, got "
                         << stationary.getPartitionCount();
  if (stationary.getFreeCount() > target.getMaxStationaryFree())
    return emitOpError() << "'stationary' has " << stationary.getFreeCount()
                         << " columns but the tensor engine takes at most "
                         << target.getMaxStationaryFree();
  if (moving.getFreeCount() > target.getMaxMovingFree())
    return emitOpError() << "'moving' has " << moving.getFreeCount()
                         << " columns but the tensor engine takes at most "
                         << target.getMaxMovingFree();
  if (dst.getPartitionCount() != stationary.getFreeCount() ||
      dst.getFreeCount() != moving.getFreeCount())
    return emitOpError() << "'dst' must be " << stationary.getFreeCount() << "x"
                         << moving.getFreeCount()
                         << " (stationary free x moving free), got "
                         << dst.getPartitionCount() << "x"
                         << dst.getFreeCount();
  return success();
}

/// Shared by the elementwise engines: on-chip operands that all touch as
/// many elements as `dst`.
static LogicalResult verifyElementwise(
    Operation *op, Value dst, AccessPatternAttr dstAp,
    ArrayRef<std::tuple<StringRef, Value, AccessPatternAttr>> sources) {
  if (failed(expectOnChip(op, dst, "dst")))
    return failure();
  for (auto [role, value, pattern] : sources)
    if (failed(expectOnChip(op, value, role)) ||
        failed(expectSameElementCount(op, "dst", dstAp, role, pattern)))
      return failure();
  return success();
}

void ActivationOp::getAccesses(SmallVectorImpl<Access> &accesses) {
  accesses.push_back({&getDstMutable(), getDstApAttrName(),
                      &getProperties().dst_ap, AccessKind::Write});
  accesses.push_back(
      readOf(getSrcMutable(), getSrcApAttrName(), getProperties().src_ap));
  // The verifier rejects an operand without its pattern; until then,
  // neither is an access.
  if (getBias() && getBiasApAttr())
    accesses.push_back(readOf(getBiasMutable()[0], getBiasApAttrName(),
                              getProperties().bias_ap));
  if (getScales() && getScalesApAttr())
    accesses.push_back(readOf(getScalesMutable()[0], getScalesApAttrName(),
                              getProperties().scales_ap));
}

/// The scalar engine's bias and scale vectors hold one f32 value per
/// partition: `value` touches as many elements as `dst` and steps 0 along
/// every free dimension.
static LogicalResult verifyPerPartition(ActivationOp op, StringRef role,
                                        Value value,
                                        AccessPatternAttr pattern) {
  if (bool(value) != bool(pattern))
    return op.emitOpError("'")
           << role << "' and '" << role << "_ap' go together";
  if (!value)
    return success();
  if (!memoryTypeOf(value).getElementType().isF32())
    return op.emitOpError("'") << role << "' must hold f32";
  if (llvm::any_of(pattern.getSteps().drop_front(),
                   [](int64_t step) { return step != 0; }))
    return op.emitOpError("'")
           << role
           << "' must be one value per partition (its pattern steps 0 along "
              "the free dimensions)";
  return success();
}

LogicalResult ActivationOp::verify() {
  SmallVector<std::tuple<StringRef, Value, AccessPatternAttr>, 3> sources = {
      {"src", getSrc(), getSrcAp()}};
  if (getBias() && getBiasApAttr())
    sources.push_back({"bias", getBias(), getBiasApAttr()});
  if (getScales() && getScalesApAttr())
    sources.push_back({"scales", getScales(), getScalesApAttr()});
  if (failed(verifyPerPartition(*this, "bias", getBias(), getBiasApAttr())) ||
      failed(
          verifyPerPartition(*this, "scales", getScales(), getScalesApAttr())))
    return failure();
  if (getScales() && !getScale().isExactlyValue(1.0))
    return emitOpError("'scales' and a 'scale' other than 1 exclude each "
                       "other");
  return verifyElementwise(*this, getDst(), getDstAp(), sources);
}

/// An activation's types: `dst`'s, `src`'s, then `bias`'s and `scales`'
/// for those present (a declarative list could not tell which of the two
/// a third type is).
static ParseResult parseActivationTypes(
    OpAsmParser &parser, Type &dstType, Type &srcType,
    std::optional<OpAsmParser::UnresolvedOperand> bias, Type &biasType,
    std::optional<OpAsmParser::UnresolvedOperand> scales, Type &scalesType) {
  if (parser.parseType(dstType) || parser.parseComma() ||
      parser.parseType(srcType))
    return failure();
  if (bias && (parser.parseComma() || parser.parseType(biasType)))
    return failure();
  if (scales && (parser.parseComma() || parser.parseType(scalesType)))
    return failure();
  return success();
}

static void printActivationTypes(OpAsmPrinter &printer, Operation *,
                                 Type dstType, Type srcType, Value bias,
                                 Type biasType, Value scales, Type scalesType) {
  printer << dstType << ", " << srcType;
  if (bias)
    printer << ", " << biasType;
  if (scales)
    printer << ", " << scalesType;
}

LogicalResult TensorTensorOp::verify() {
  if (failed(verifyEngine(*this, getEngine(),
                          {ComputeEngine::Vector, ComputeEngine::Gpsimd},
                          {getDst(), getLhs(), getRhs()})))
    return failure();
  return verifyElementwise(
      *this, getDst(), getDstAp(),
      {{"lhs", getLhs(), getLhsAp()}, {"rhs", getRhs(), getRhsAp()}});
}

LogicalResult TensorScalarOp::verify() {
  if (failed(verifyEngine(
          *this, getEngine(),
          {ComputeEngine::Vector, ComputeEngine::Scalar, ComputeEngine::Gpsimd},
          {getDst(), getSrc()})))
    return failure();
  // The scalar engine computes data * scale + bias: it multiplies and adds
  // (NKI's tensor_scalar documentation).
  if (getEngine() == ComputeEngine::Scalar && getOp() != AluOp::Multiply &&
      getOp() != AluOp::Add)
    return emitOpError() << "'" << stringifyAluOp(getOp())
                         << "' cannot run on the scalar engine, which only "
                            "multiplies and adds";
  return verifyElementwise(*this, getDst(), getDstAp(),
                           {{"src", getSrc(), getSrcAp()}});
}

LogicalResult TensorCopyPredicatedOp::verify() {
  if (failed(verifyElementwise(
          *this, getDst(), getDstAp(),
          {{"src", getSrc(), getSrcAp()},
           {"predicate", getPredicate(), getPredicateAp()}})) ||
      failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  Type predicate = memoryTypeOf(getPredicate()).getElementType();
  if (!predicate.isInteger())
    return emitOpError() << "'predicate' must hold integers, not " << predicate;
  return success();
}

/// Fails at `op` when `alu`, its reduction, is a comparison: comparing a
/// running result with the next element reduces to nothing a user meant.
static LogicalResult expectCombiner(Operation *op, AluOp alu) {
  if (isComparison(alu))
    return op->emitOpError() << "reduces with '" << stringifyAluOp(alu)
                             << "', a comparison, not an operation that "
                                "combines values";
  return success();
}

LogicalResult TensorReduceOp::verify() {
  if (failed(expectOnChip(*this, getDst(), "dst")) ||
      failed(expectOnChip(*this, getSrc(), "src")) ||
      failed(expectCombiner(*this, getOp())))
    return failure();
  AccessPatternAttr dst = getDstAp(), src = getSrcAp();
  int64_t reduced = src.getNumElements() / src.getNums().back();
  if (dst.getNumElements() != reduced)
    return emitOpError() << "'dst' must touch " << reduced
                         << " elements (the 'src' pattern without its last "
                            "dimension), got "
                         << dst.getNumElements();
  return success();
}

LogicalResult TensorTensorScanOp::verify() {
  if (failed(verifyElementwise(*this, getDst(), getDstAp(),
                               {{"data0", getData0(), getData0Ap()},
                                {"data1", getData1(), getData1Ap()}})))
    return failure();
  for (auto [role, alu] : {std::pair{"op0", getOp0()}, {"op1", getOp1()}})
    if (isComparison(alu))
      return emitOpError() << "'" << role << "' is '" << stringifyAluOp(alu)
                           << "', a comparison, not an operation a "
                              "recurrence combines values with";
  // A row is the last pattern dimension of every operand alike.
  int64_t row = getDstAp().getNums().back();
  for (auto [role, pattern] :
       {std::pair{"data0", getData0Ap()}, {"data1", getData1Ap()}})
    if (pattern.getNums().back() != row)
      return emitOpError() << "'" << role << "' rows of "
                           << pattern.getNums().back()
                           << " elements differ from 'dst' rows of " << row;
  // NKI's tensor_tensor_scan: the two inputs cannot both be in PSUM.
  if (memoryTypeOf(getData0()).getMemorySpace() == MemorySpace::PSUM &&
      memoryTypeOf(getData1()).getMemorySpace() == MemorySpace::PSUM)
    return emitOpError("'data0' and 'data1' cannot both be in PSUM");
  return success();
}

LogicalResult CollectiveOp::verify() {
  bool reduces = getKind() != CollectiveKind::AllGather;
  if (reduces != getReduction().has_value())
    return emitOpError() << "'" << stringifyCollectiveKind(getKind()) << "' "
                         << (reduces ? "needs" : "takes no")
                         << " 'reduce' operation";
  if (reduces && failed(expectCombiner(*this, *getReduction())))
    return failure();
  bool placed = getKind() != CollectiveKind::AllReduce;
  if (placed != bool(getShardOffsetAttr()))
    return emitOpError() << "'" << stringifyCollectiveKind(getKind()) << "' "
                         << (placed ? "needs" : "takes no")
                         << " 'shard_offset'";
  if (failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  if (AffineMapAttr offset = getShardOffsetAttr())
    return expectShardMap(*this, "shard_offset", offset.getValue());
  return expectSameElementCount(*this, "dst", getDstAp(), "src", getSrcAp());
}

LogicalResult CoreBarrierOp::verify() {
  if (getName().empty())
    return emitOpError("needs a name");
  return success();
}

LogicalResult Sb2SbOp::verify() {
  for (auto [role, value] :
       {std::pair<StringRef, Value>{"dst", getDst()}, {"src", getSrc()}})
    if (memoryTypeOf(value).getMemorySpace() != MemorySpace::SBUF)
      return emitOpError() << "'" << role << "' must be in SBUF";
  if (failed(expectShardMap(*this, "peer", getPeer())) ||
      failed(expectSameElementType(*this, "dst", getDst(), "src", getSrc())))
    return failure();
  return expectSameElementCount(*this, "dst", getDstAp(), "src", getSrcAp());
}

//===----------------------------------------------------------------------===//
// Immediates
//===----------------------------------------------------------------------===//

double walrus::bir::getImmediateAsDouble(Attribute immediate) {
  if (auto integer = dyn_cast<IntegerAttr>(immediate))
    return double(integer.getInt());
  return cast<FloatAttr>(immediate).getValueAsDouble();
}

std::optional<int64_t> walrus::bir::getImmediateAsInteger(Attribute immediate) {
  if (auto integer = dyn_cast<IntegerAttr>(immediate))
    return integer.getInt();
  return std::nullopt;
}

Attribute walrus::bir::getFloatImmediate(MLIRContext *context, double value) {
  return FloatAttr::get(Float64Type::get(context), value);
}

Attribute walrus::bir::getIntegerImmediate(MLIRContext *context,
                                           int64_t value) {
  return IntegerAttr::get(IntegerType::get(context, 64), value);
}

/// Whether the literal at `text` (the parser's NUL-terminated source) is a
/// decimal integer: digits, after an optional sign, that no '.', 'e' or
/// 'x' continues. Reads only the literal: measuring the rest of the file
/// at each immediate made parsing quadratic.
static bool isDecimalInteger(const char *text) {
  while (llvm::isSpace(*text))
    ++text;
  if (*text == '-')
    ++text;
  const char *end = text;
  while (llvm::isDigit(*end))
    ++end;
  return end != text && *end && !StringRef(".eEx").contains(*end);
}

/// A decimal integer literal is an i64 immediate; a float literal, or a
/// hexadecimal one (an f64's bits, as MLIR prints NaNs and infinities), an
/// f64 immediate. The parser API has no peek at the token kind, so the
/// source text at the current location tells the forms apart.
static ParseResult parseImmediate(OpAsmParser &parser, Attribute &immediate) {
  SMLoc loc = parser.getCurrentLocation();
  bool integer = isDecimalInteger(loc.getPointer());
  MLIRContext *context = parser.getContext();
  if (integer) {
    APInt value;
    if (parser.parseInteger(value))
      return failure();
    if (value.getSignificantBits() > 64)
      return parser.emitError(loc, "integer immediate does not fit in i64");
    immediate = getIntegerImmediate(context, value.getSExtValue());
    return success();
  }
  double value;
  if (parser.parseFloat(value))
    return failure();
  immediate = getFloatImmediate(context, value);
  return success();
}

static void printImmediate(OpAsmPrinter &printer, Operation *,
                           Attribute immediate) {
  printer.printAttributeWithoutType(immediate);
}

#define GET_OP_CLASSES
#include "Walrus/Dialect/BIR/IR/BIROps.cpp.inc"

//===- InstructionVerifier.cpp - checks shared by every instruction -------===//
//
// Every access of an instruction must stay inside its memory location for
// every iteration of the enclosing loops and every shard id the module can
// run as, and a mask may only mention the shard id.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Dialect/BIR/IR/ShardBinding.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus::bir;

namespace {
/// The values an affine map's inputs take: one list per loop induction
/// variable (outermost first), then one for the shard id.
struct IterationSpace {
  SmallVector<SmallVector<int64_t>> values;
  SmallVector<std::string> names;
};

/// Lowest and highest value of a map's result, and where each is reached.
struct MapExtremes {
  int64_t low = 0, high = 0;
  SmallVector<int64_t> lowPoint, highPoint;
};
} // namespace

/// Enumerating more points than this is refused rather than slowing the
/// verifier down; linear maps need only the corners.
static constexpr int64_t kMaxEnumeratedPoints = 1 << 20;

static IterationSpace getIterationSpace(Operation *op, unsigned numDims,
                                        bool cornersOnly,
                                        ArrayRef<int64_t> shardIds) {
  IterationSpace space;
  SmallVector<LoopOp, 4> loops = getEnclosingLoops(op);
  for (unsigned dim = 0; dim < numDims; ++dim) {
    LoopOp loop = loops[dim];
    SmallVector<int64_t> &values = space.values.emplace_back();
    if (cornersOnly) {
      values.push_back(loop.getLowerBound());
      if (loop.getTripCount() > 1)
        values.push_back(loop.getLastValue());
    } else {
      for (int64_t iv = loop.getLowerBound(); iv < loop.getUpperBound();
           iv += loop.getStepSize())
        values.push_back(iv);
    }
    space.names.push_back("d" + std::to_string(dim));
  }
  SmallVector<int64_t> &shards = space.values.emplace_back();
  if (cornersOnly && shardIds.size() > 2)
    shards.assign({shardIds.front(), shardIds.back()});
  else
    shards.assign(shardIds.begin(), shardIds.end());
  space.names.push_back("s0");
  return space;
}

static std::string describePoint(const IterationSpace &space,
                                 ArrayRef<int64_t> point) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::interleaveComma(llvm::zip(space.names, point), os, [&](auto entry) {
    os << std::get<0>(entry) << " = " << std::get<1>(entry);
  });
  return text;
}

/// Whether `expr` is linear in its dims and symbols, so that its extremes
/// over a box are at the box's corners (mod and divisions are not).
static bool isLinear(AffineExpr expr) {
  if (!expr.isPureAffine())
    return false;
  WalkResult result = expr.walk([](AffineExpr sub) {
    switch (sub.getKind()) {
    case AffineExprKind::Mod:
    case AffineExprKind::FloorDiv:
    case AffineExprKind::CeilDiv:
      return WalkResult::interrupt();
    default:
      return WalkResult::advance();
    }
  });
  return !result.wasInterrupted();
}

/// The range of a single-result map (dims = loop ivs, symbol 0 = shard id)
/// over the iteration space of `op`.
static FailureOr<MapExtremes> getRange(Operation *op, AffineMap map,
                                       ArrayRef<int64_t> shardIds,
                                       IterationSpace &space) {
  unsigned numDims = map.getNumDims();
  bool linear = isLinear(map.getResult(0));
  // A map evaluated at every point: count the points before listing any.
  if (!linear) {
    int64_t points = std::max<int64_t>(shardIds.size(), 1);
    SmallVector<LoopOp, 4> loops = getEnclosingLoops(op);
    for (unsigned dim = 0; dim < numDims && dim < loops.size(); ++dim) {
      std::optional<int64_t> product =
          llvm::checkedMul(points, loops[dim].getTripCount());
      if (!product || *product > kMaxEnumeratedPoints)
        return op->emitOpError()
               << "cannot check the bounds of a semi-affine access pattern "
                  "over more than "
               << kMaxEnumeratedPoints << " loop iterations";
      points = *product;
    }
  }
  space = getIterationSpace(op, numDims, linear, shardIds);

  int64_t numPoints = 1;
  for (ArrayRef<int64_t> values : space.values) {
    numPoints *= std::max<int64_t>(values.size(), 1);
    if (numPoints > kMaxEnumeratedPoints)
      return op->emitOpError()
             << "cannot check the bounds of a semi-affine access pattern "
                "over more than "
             << kMaxEnumeratedPoints << " loop iterations";
  }
  MapExtremes range;
  SmallVector<size_t> cursor(space.values.size(), 0);
  SmallVector<int64_t> point(space.values.size());
  for (int64_t index = 0; index < numPoints; ++index) {
    for (auto [dim, values] : llvm::enumerate(space.values))
      point[dim] = values.empty() ? 0 : values[cursor[dim]];
    // The last coordinate is the shard id, every symbol of the map.
    SmallVector<int64_t, 1> symbols(map.getNumSymbols(), point.back());
    std::optional<int64_t> evaluated = evaluate(
        map.getResult(0), ArrayRef(point).take_front(numDims), symbols);
    // verifyStartMagnitude and the divisor rule ran first, so this holds;
    // should they miss a case, it is an error here, not a wrapped bound.
    if (!evaluated)
      return op->emitOpError() << "access pattern start overflows 64 bits at "
                               << describePoint(space, point);
    int64_t value = *evaluated;
    if (index == 0 || value < range.low) {
      range.low = value;
      range.lowPoint.assign(point);
    }
    if (index == 0 || value > range.high) {
      range.high = value;
      range.highPoint.assign(point);
    }
    for (size_t dim = 0; dim < cursor.size(); ++dim) {
      if (++cursor[dim] < space.values[dim].size())
        break;
      cursor[dim] = 0;
    }
  }
  return range;
}

/// An upper bound of |expr| when each dim d is at most dims[d] in magnitude
/// and the shard id at most `shard`; nullopt if the bound itself overflows.
static std::optional<int64_t>
getMagnitudeBound(AffineExpr expr, ArrayRef<int64_t> dims, int64_t shard) {
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return constant.getValue() == INT64_MIN
               ? std::nullopt
               : std::optional<int64_t>(std::abs(constant.getValue()));
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return dim.getPosition() < dims.size() ? dims[dim.getPosition()] : 0;
  if (isa<AffineSymbolExpr>(expr))
    return shard;
  auto binary = cast<AffineBinaryOpExpr>(expr);
  std::optional<int64_t> lhs = getMagnitudeBound(binary.getLHS(), dims, shard);
  std::optional<int64_t> rhs = getMagnitudeBound(binary.getRHS(), dims, shard);
  if (!lhs || !rhs)
    return std::nullopt;
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return llvm::checkedAdd(*lhs, *rhs);
  case AffineExprKind::Mul:
    return llvm::checkedMul(*lhs, *rhs);
  case AffineExprKind::Mod:
    return std::min(*lhs, *rhs);
  default: // floordiv, ceildiv by a positive constant
    return llvm::checkedAdd(*lhs, int64_t(1));
  }
}

/// Fails when the start of `pattern` could leave +-2^62 for some loop
/// iteration and core: evaluating it in 64 bits could then wrap.
static LogicalResult verifyStartMagnitude(Operation *op, StringRef name,
                                          AffineMap start,
                                          ArrayRef<int64_t> shardIds) {
  SmallVector<int64_t> dims;
  for (LoopOp loop : getEnclosingLoops(op))
    dims.push_back(std::max(std::abs(loop.getLowerBound()),
                            std::abs(loop.getUpperBound())));
  int64_t shard = shardIds.empty() ? 0 : *llvm::max_element(shardIds);
  std::optional<int64_t> bound =
      getMagnitudeBound(start.getResult(0), dims, shard);
  if (bound && *bound <= (int64_t(1) << 62))
    return success();
  return op->emitOpError() << "'" << name
                           << "' start may leave +-2^62 for some iteration "
                              "or core: its map's coefficients are too large";
}

static LogicalResult verifyAccess(Operation *op, const Access &access,
                                  unsigned loopDepth,
                                  ArrayRef<int64_t> shardIds) {
  StringRef patternName = access.patternName.getValue();
  if (!getDefiningMemloc(access.getMemloc()))
    return op->emitOpError() << "operand of '" << patternName
                             << "' must be defined by bir.memloc or bir.view";
  MemoryType type = access.getMemoryType();
  AccessPatternAttr pattern = access.getPattern();
  AffineMap start = pattern.getStartMap();
  if (start.getNumDims() > loopDepth)
    return op->emitOpError()
           << "'" << patternName << "' uses " << start.getNumDims()
           << " loop dims but the instruction is nested in " << loopDepth
           << " bir.loop(s)";
  if (type.isOnChip() && pattern.getPartitionCount() > type.getPartitions())
    return op->emitOpError()
           << "'" << patternName << "' walks " << pattern.getPartitionCount()
           << " partitions but the tensor has " << type.getPartitions();

  if (failed(verifyStartMagnitude(op, patternName, start, shardIds)))
    return failure();
  IterationSpace space;
  FailureOr<MapExtremes> startRange = getRange(op, start, shardIds, space);
  if (failed(startRange))
    return failure();
  // Both below 2^62 in magnitude (the start, verifyStartMagnitude; the
  // extent, the attribute's 2^48): the sums cannot wrap.
  auto [relLow, relHigh] = pattern.getRelativeExtent();
  int64_t low = startRange->low + relLow;
  int64_t high = startRange->high + relHigh;
  int64_t size = type.getNumElements();
  if (low >= 0 && high < size)
    return success();
  bool underflow = low < 0;
  InFlightDiagnostic diag = op->emitOpError()
                            << "'" << patternName << "' touches element "
                            << (underflow ? low : high) << ", outside the "
                            << size << " elements of '"
                            << getDefiningMemloc(access.getMemloc()).getName()
                            << "'";
  if (isa<SymbolicAccessPatternAttr>(pattern))
    diag << " at "
         << describePoint(space, underflow ? startRange->lowPoint
                                           : startRange->highPoint);
  return diag;
}

static LogicalResult verifyMask(Operation *op, IntegerSetAttr maskAttr) {
  IntegerSet mask = maskAttr.getValue();
  if (mask.getNumDims() != 0 || mask.getNumSymbols() > 1)
    return op->emitOpError()
           << "mask may only mention the shard id (symbol s0), but it has "
           << mask.getNumDims() << " dim(s) and " << mask.getNumSymbols()
           << " symbol(s)";
  for (AffineExpr constraint : mask.getConstraints())
    if (failed(verifyDivisors(
            constraint, [&] { return op->emitOpError(); }, "mask")))
      return failure();
  return success();
}

static LogicalResult verifyPeer(Sb2SbOp copy, ArrayRef<int64_t> shardIds,
                                int64_t lncSize) {
  AffineMap peerMap = copy.getPeer();
  // A malformed map is reported by the op's own verifier.
  if (peerMap.getNumDims() || peerMap.getNumSymbols() > 1 ||
      peerMap.getNumResults() != 1)
    return success();
  if (failed(verifyDivisors(
          peerMap.getResult(0), [&] { return copy.emitOpError(); }, "'peer'")))
    return failure();
  for (int64_t shard : shardIds) {
    int64_t peer = bindShard(copy.getPeer(), shard).getSingleConstantResult();
    if (peer < 0 || peer >= lncSize)
      return copy.emitOpError() << "peer of shard " << shard << " is core "
                                << peer << ", outside [0, " << lncSize << ")";
  }
  return success();
}

/// Every core's slice of an all_gather or reduce_scatter fits: the shard
/// offset, evaluated without overflow, places the smaller side's elements
/// inside the larger's (dst for all_gather, src for reduce_scatter).
static LogicalResult verifyShardOffset(CollectiveOp collective,
                                       ArrayRef<int64_t> shardIds) {
  // (A malformed map is the op verifier's to name.)
  AffineMapAttr offsetMap = collective.getShardOffsetAttr();
  if (!offsetMap || offsetMap.getValue().getNumDims() != 0 ||
      offsetMap.getValue().getNumResults() != 1)
    return success();
  bool gathers = collective.getKind() == CollectiveKind::AllGather;
  int64_t slice = gathers ? collective.getSrcAp().getNumElements()
                          : collective.getDstAp().getNumElements();
  int64_t whole = gathers ? collective.getDstAp().getNumElements()
                          : collective.getSrcAp().getNumElements();
  for (int64_t shard : shardIds) {
    std::optional<int64_t> offset =
        evaluate(offsetMap.getValue().getResult(0), {}, {shard});
    std::optional<int64_t> end =
        offset ? llvm::checkedAdd(*offset, slice) : std::nullopt;
    if (!end || *offset < 0 || *end > whole) {
      InFlightDiagnostic diagnostic = collective.emitOpError()
                                      << "'shard_offset' of shard " << shard;
      if (offset)
        diagnostic << " is " << *offset;
      else
        diagnostic << " overflows 64 bits";
      return diagnostic << ": its " << slice << " element(s) must lie in the "
                        << whole << " of '" << (gathers ? "dst" : "src") << "'";
    }
  }
  return success();
}

LogicalResult walrus::bir::verifyForCores(Operation *op,
                                          ArrayRef<int64_t> allShardIds,
                                          int64_t lncSize) {
  // A masked instruction runs, and must stay in bounds, only where its mask
  // holds: a partial last tile is masked to the core that has it.
  SmallVector<int64_t> shardIds;
  IntegerSetAttr mask = cast<InstructionOpInterface>(op).getMaskAttr();
  // (verifyMask has checked that the mask divides by positive constants
  // only, so it evaluates everywhere.)
  for (int64_t shard : allShardIds)
    if (!mask || isMaskTrueAt(mask.getValue(), shard))
      shardIds.push_back(shard);
  unsigned loopDepth = getEnclosingLoops(op).size();
  SmallVector<Access> accesses;
  cast<InstructionOpInterface>(op).getAccesses(accesses);
  for (const Access &access : accesses)
    if (failed(verifyAccess(op, access, loopDepth, shardIds)))
      return failure();
  if (auto copy = dyn_cast<Sb2SbOp>(op))
    return verifyPeer(copy, shardIds, lncSize);
  if (auto collective = dyn_cast<CollectiveOp>(op))
    return verifyShardOffset(collective, shardIds);
  return success();
}

LogicalResult walrus::bir::verifyInstruction(Operation *op) {
  auto instruction = cast<InstructionOpInterface>(op);
  if (IntegerSetAttr mask = instruction.getMaskAttr())
    if (failed(verifyMask(op, mask)))
      return failure();
  // A concretized module runs as its own core only.
  int64_t lncSize = getLncSize(op);
  SmallVector<int64_t> shardIds;
  if (std::optional<int64_t> core = getNeuronCoreId(op))
    shardIds.push_back(*core);
  else
    shardIds.assign(llvm::to_vector(llvm::seq<int64_t>(0, lncSize)));
  return verifyForCores(op, shardIds, lncSize);
}

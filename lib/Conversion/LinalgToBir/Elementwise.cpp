//===- Elementwise.cpp - Elementwise linalg ops to bir --------------------===//
//
// An op whose iterators are all parallel: the iteration space is seen as
// rows x columns (the innermost dimension is the columns), each input is
// loaded tile by tile (whole, or broadcast across rows or columns), the
// body's scalar ops become one instruction each on the tiles, and the
// yielded tile is stored (docs/LinalgToBir.md, "Elementwise ops").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"
#include "NormalizePatterns.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/IntegerRangeAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

/// The immediate of the constant `value` holds, if an arith.constant
/// defines it: integers exactly (i64), floats as doubles (NaN payloads
/// kept).
static Attribute getImmediate(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return {};
  if (auto real = dyn_cast<FloatAttr>(attr))
    return getFloatImmediate(value.getContext(), real.getValueAsDouble());
  if (auto integer = dyn_cast<IntegerAttr>(attr);
      integer && integer.getType().isSignlessInteger())
    return getIntegerImmediate(value.getContext(), integer.getInt());
  return {};
}

/// The constant `value` holds, if an arith.constant defines it (for the
/// matchers of activation functions).
static std::optional<double> getConstant(Value value) {
  Attribute attr;
  if (!matchPattern(value, m_Constant(&attr)))
    return std::nullopt;
  if (auto real = dyn_cast<FloatAttr>(attr))
    return real.getValueAsDouble();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return double(integer.getInt());
  return std::nullopt;
}

/// How `operand` (a memref read through `tensor`) lines up with the op's
/// rows x columns: its broadcast and the view the tiles load it through.
FailureOr<std::pair<DramTensor, Broadcast>>
ElementwiseLowering::classifyTensorOperand(OpOperand &operand,
                                           const DramTensor &tensor,
                                           unsigned rank) {
  AffineMap map = op.getMatchingIndexingMap(&operand);
  // Which iteration dims the operand follows, in order. A constant 0
  // result indexes a unit dim, or, as the operand's last, holds every
  // row's value in its first column (torch's keepdim form, (i, j) ->
  // (i, 0)).
  SmallVector<unsigned> dims;
  ArrayRef<int64_t> operandShape =
      cast<MemRefType>(operand.get().getType()).getShape();
  bool firstColumn = false;
  for (auto [position, result] : llvm::enumerate(map.getResults())) {
    if (auto dim = dyn_cast<AffineDimExpr>(result)) {
      dims.push_back(dim.getPosition());
      continue;
    }
    if (!isa<AffineConstantExpr>(result) ||
        cast<AffineConstantExpr>(result).getValue() != 0)
      return unsupported(op, "an indexing map that is not a projection");
    if (operandShape[position] == 1)
      continue;
    if (position + 1 != map.getNumResults())
      return unsupported(op, "a constant index into a dimension of more "
                             "than one element, other than the last");
    firstColumn = true;
  }
  if (!llvm::is_sorted(dims) ||
      std::adjacent_find(dims.begin(), dims.end()) != dims.end())
    return unsupported(op, "a permuting indexing map (use linalg.transpose)");
  bool followsColumns = rank && llvm::is_contained(dims, rank - 1);
  size_t rowDims = dims.size() - (followsColumns ? 1 : 0);
  if (rowDims != 0 && rowDims + 1 != std::max<size_t>(rank, 1))
    return unsupported(op, "a broadcast along some of the outer dimensions");
  bool followsRows = rowDims != 0 || rank <= 1;
  Broadcast broadcast = followsRows && followsColumns ? Broadcast::None
                        : followsColumns              ? Broadcast::AcrossRows
                        : followsRows                 ? Broadcast::AcrossColumns
                                                      : Broadcast::Both;
  if (rank <= 1 && !followsColumns)
    broadcast = Broadcast::Both;
  // A rank-0 op has one element: every operand is all of it.
  if (rank == 0)
    broadcast = Broadcast::None;
  if (firstColumn && broadcast != Broadcast::AcrossColumns)
    return unsupported(op, "a constant index into the last dimension of an "
                           "operand that does not follow every outer loop");
  // One value per row: seen as a column of rows `rowStride` apart, row r
  // at the operand's element r (a vector) or at its row r's first column.
  DramTensor seen = tensor;
  // Unit dims after the one the columns follow ((i, j) -> (i, j, 0), a
  // gather's rows of one element): the rows are that dim's extent long.
  std::optional<unsigned> columnPosition = map.getResultPosition(
      getAffineDimExpr(rank ? rank - 1 : 0, op.getContext()));
  if (followsColumns && *columnPosition + 1 != map.getNumResults()) {
    if (!tensor.isContiguous())
      return unsupported(op, "a strided view read past its last dimension");
    seen.columns = operandShape[*columnPosition];
    seen.rows = tensor.rows * tensor.columns / seen.columns;
    seen.rowStride = seen.columns;
  }
  if (broadcast == Broadcast::AcrossColumns) {
    if (!firstColumn && !tensor.isContiguous())
      return unsupported(op, "a broadcast operand that is a strided view");
    seen.rowStride = firstColumn ? tensor.rowStride : 1;
    seen.rows = firstColumn ? tensor.rows : tensor.rows * tensor.columns;
    seen.columns = 1;
  }
  return std::make_pair(seen, broadcast);
}

int64_t ElementwiseLowering::getWidestBytes() {
  int64_t widest = 1;
  auto note = [&](Type type) {
    if (type.isIntOrFloat())
      widest = std::max<int64_t>(widest, type.getIntOrFloatBitWidth() / 8);
  };
  for (Value value : op->getOperands())
    note(getElementTypeOrSelf(value.getType()));
  for (Operation &inner : op.getBlock()->getOperations()) {
    for (Type type : inner.getResultTypes())
      note(type);
    if (isa<math::RoundEvenOp>(inner))
      note(IntegerType::get(op.getContext(), 32));
  }
  return widest;
}

int64_t ElementwiseLowering::getTileBytesPerColumn(unsigned loadedInputs) {
  return (loadedInputs + getBodyTiles() + 1) * getWidestBytes();
}

int64_t ElementwiseLowering::getVectorColumns() {
  const TileSizes &tiles = lowering.tiles;
  if (!tiles.fitVectorColumns)
    return tiles.vectorColumns;
  // A set holds at most a tile per operand and per body op; the sets share
  // half of a partition.
  int64_t tilesPerSet = op->getNumOperands() + getBodyTiles() + 1;
  int64_t budget = kernel.getTarget().getSbufBytesPerPartition() / 2;
  int64_t fitting =
      budget / (tilesPerSet * getWidestBytes() * tiles.elementwiseBuffers);
  return std::clamp<int64_t>(fitting, 1, tiles.vectorColumns);
}

/// The fewest columns a row keeps when its columns fold into partitions: a
/// run of 2 KiB of f32 still amortises its DMA packet (docs/TimingModel.md).
constexpr int64_t kMinFoldedColumns = 512;

void ElementwiseLowering::foldColumnsIntoPartitions() {
  if (rows <= 0 || rows >= 128)
    return;
  // Every operand is stored row after row with the op's shape: row r,
  // column c is element r * columns + c of each, whatever the split.
  auto isFlat = [&](const DramTensor &tensor) {
    return tensor.foldsToRows && tensor.isContiguous() && tensor.rows == rows &&
           tensor.columns == columns;
  };
  for (const auto &input : inputs)
    if (input && (input->second != Broadcast::None || !isFlat(input->first)))
      return;
  if (!llvm::all_of(outputs, isFlat))
    return;
  int64_t split = 128 / rows;
  while (split > 1 && (columns % split || columns / split < kMinFoldedColumns))
    --split;
  if (split == 1)
    return;
  rows *= split;
  columns /= split;
  auto refold = [&](DramTensor &tensor) {
    tensor.rows = rows;
    tensor.columns = tensor.rowStride = columns;
  };
  for (auto &input : inputs)
    if (input)
      refold(input->first);
  for (DramTensor &stored : outputs)
    refold(stored);
  tileColumns = std::min(columns, getVectorColumns());
}

LogicalResult ElementwiseLowering::classifyOperands(bool standalone) {
  inputs.clear();
  scalars.clear();
  outputs.clear();
  SmallVector<std::pair<OpOperand *, DramTensor>> read;
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  FailureOr<std::pair<int64_t, int64_t>> shape = getRowsAndColumns(op, ranges);
  if (failed(shape))
    return failure();
  unsigned rank = ranges.size();
  std::tie(rows, columns) = *shape;
  tileColumns = std::min(columns, getVectorColumns());
  if (op.getNumDpsInits() == 0)
    return unsupported(op, "no output");
  if (op.getNumDpsInits() != 1 && !standalone)
    return unsupported(op, "more than one output");
  for (OpOperand &operand : op->getOpOperands()) {
    if (!isa<MemRefType>(operand.get().getType())) {
      Attribute constant = getImmediate(operand.get());
      if (!constant)
        return unsupported(op, "a scalar operand that is not a constant");
      inputs.push_back(std::nullopt);
      scalars.push_back(constant);
      continue;
    }
    FailureOr<DramTensor> tensor = lowering.getTensor(op, operand.get());
    if (failed(tensor))
      return failure();
    FailureOr<std::pair<DramTensor, Broadcast>> classified =
        classifyTensorOperand(operand, *tensor, rank);
    if (failed(classified))
      return failure();
    auto [seen, broadcast] = *classified;
    if (op.isDpsInit(&operand)) {
      if (broadcast != Broadcast::None)
        return unsupported(op, "an output that is not indexed by every loop");
      outputs.push_back(*tensor);
    }
    inputs.push_back(std::make_pair(seen, broadcast));
    scalars.push_back({});
    if (!op.isDpsInit(&operand))
      read.push_back({&operand, *tensor});
  }
  // Tiles are loaded before they are stored: an input that sees an
  // output's buffer other than element for element would read what the
  // loop nest had already overwritten.
  for (auto [index, stored] : llvm::enumerate(outputs)) {
    AffineMap outputMap =
        op.getMatchingIndexingMap(op.getDpsInitOperand(index));
    for (auto [operand, tensor] : read)
      if (tensor.memloc == stored.memloc &&
          !op.getMatchingBlockArgument(operand).use_empty() &&
          (op.getMatchingIndexingMap(operand) != outputMap ||
           tensor.base != stored.base || tensor.rowStride != stored.rowStride ||
           tensor.columns != stored.columns))
        return unsupported(op, "an input that reads an output's buffer other "
                               "than element for element (linalg leaves the "
                               "order of such updates to the loop nest)");
  }
  if (standalone)
    foldColumnsIntoPartitions();
  return success();
}

AccessPatternAttr ElementwiseLowering::dramPattern(const DramTensor &tensor,
                                                   Broadcast broadcast) {
  AffineExpr row = current.rows.firstRow, column = current.columns.firstColumn;
  int64_t partitions = current.rows.partitions, width = current.columns.columns;
  switch (broadcast) {
  case Broadcast::None:
    return kernel.dramPattern(tensor, row, column, partitions, width);
  case Broadcast::AcrossRows:
    return kernel.pattern(column + tensor.base, {{0, partitions}, {1, width}});
  case Broadcast::AcrossColumns:
    return kernel.pattern(row * tensor.rowStride + tensor.base,
                          {{tensor.rowStride, partitions}, {0, width}});
  case Broadcast::Both:
    break;
  }
  return kernel.pattern(kernel.constant(tensor.base),
                        {{0, partitions}, {0, width}});
}

bool ElementwiseLowering::hasRowBroadcasts() const {
  return llvm::any_of(inputs, [](const auto &input) {
    return input && input->second == Broadcast::AcrossRows;
  });
}

void ElementwiseLowering::loadRowBroadcasts(const ColumnTile &columns) {
  rowBroadcasts.clear();
  current.rows = {std::min<int64_t>(128, rows), kernel.constant(0)};
  current.columns = columns;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (!input || input->second != Broadcast::AcrossRows)
      continue;
    auto [tensor, broadcast] = *input;
    MemlocOp tile =
        columns.columns <= tileColumns
            ? tileFor(op.getBlock()->getArgument(index), tensor.elementType,
                      "in")
            : kernel.addTile("in", 128, columns.columns, tensor.elementType);
    kernel.create<DmaOp>(op.getLoc(), tile, tilePattern(tile), tensor.memloc,
                         dramPattern(tensor, broadcast));
    rowBroadcasts[index] = {tile, columns};
  }
}

AccessPatternAttr ElementwiseLowering::tilePattern(const Operand &operand) {
  MemlocOp tile = operand.tile;
  if (operand.acrossColumns)
    return kernel.pattern(
        kernel.constant(operand.columnOffset),
        {{tile.getMemoryType().getFreeSize(), current.rows.partitions},
         {0, current.columns.columns}});
  return kernel.tilePattern(operand.tile, current.rows.partitions,
                            current.columns.columns, operand.columnOffset);
}

MemlocOp &ElementwiseLowering::getSlot(ElementwiseLowering::TileSets &sets,
                                       Value value) {
  if (sets.size() <= buffer)
    sets.resize(buffer + 1);
  return sets[buffer][value];
}

MemlocOp ElementwiseLowering::tileFor(Value value, Type elementType,
                                      StringRef stem) {
  MemlocOp &tile = getSlot(tiles, value);
  if (!tile)
    tile = kernel.addTile(stem, 128, tileColumns, elementType);
  return tile;
}

FailureOr<Operand> ElementwiseLowering::lower(Value value) {
  auto known = values.find(value);
  if (known != values.end())
    return known->second;
  FailureOr<Operand> result = failure();
  auto argument = dyn_cast<BlockArgument>(value);
  if (argument && argument.getOwner() == op.getBlock()) {
    unsigned index = argument.getArgNumber();
    auto *preloadedTile = llvm::find_if(
        preloadedNow, [&](const auto &entry) { return entry.first == index; });
    auto loaded = rowBroadcasts.find(index);
    std::optional<int64_t> offset;
    if (loaded != rowBroadcasts.end())
      if (auto difference = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
              current.columns.firstColumn - loaded->second.second.firstColumn,
              /*numDims=*/kernel.getDepth(), /*numSymbols=*/1)))
        offset = difference.getValue();
    if (preloadedTile != preloadedNow.end()) {
      result = preloadedTile->second;
    } else if (offset) {
      result = Operand{loaded->second.first, 0, *offset};
    } else if (!inputs[index]) {
      result = Operand{MemlocOp(), scalars[index]};
    } else if (inputs[index]->second == Broadcast::AcrossColumns ||
               inputs[index]->second == Broadcast::Both) {
      result =
          loadAcrossColumns(value, inputs[index]->first, inputs[index]->second);
    } else {
      auto [tensor, broadcast] = *inputs[index];
      MemlocOp tile = tileFor(value, tensor.elementType, "in");
      kernel.create<DmaOp>(op.getLoc(), tile, tilePattern(tile), tensor.memloc,
                           dramPattern(tensor, broadcast));
      result = Operand{tile};
    }
  } else if (Attribute constant = getImmediate(value)) {
    result = Operand{MemlocOp(), constant};
  } else if (Operation *scalar = value.getDefiningOp();
             scalar && scalar->getBlock() == op.getBlock()) {
    result = lowerOp(scalar);
  } else {
    return unsupported(op, "a value defined outside the body that is not a "
                           "constant");
  }
  if (succeeded(result))
    values[value] = *result;
  return result;
}

/// The activation that raises to the constant `exponent` (torch's
/// `x ** 2`), if one does for every x: powers 1, 2 and -1. (x ** 0.5 is not
/// sqrt: they differ at -0 and -inf.)
static std::optional<ActivationFunction> getPowerFunction(Value exponent) {
  std::optional<double> power = getConstant(exponent);
  if (!power)
    return std::nullopt;
  if (*power == 1)
    return ActivationFunction::Identity;
  if (*power == 2)
    return ActivationFunction::Square;
  if (*power == -1)
    return ActivationFunction::Reciprocal;
  // x ** 0.5 and x ** -0.5 (a variance's square root as frontends write
  // it): the same but at -0 and -inf, where powf gives +0 and +inf.
  if (*power == 0.5)
    return ActivationFunction::Sqrt;
  if (*power == -0.5)
    return ActivationFunction::Rsqrt;
  return std::nullopt;
}

/// `x` when `value` is 1 + exp(-x), the denominator of the sigmoid as
/// front ends write it.
static Value matchOnePlusExpNegated(Value value) {
  auto add = value.getDefiningOp<arith::AddFOp>();
  if (!add)
    return {};
  Value other = getConstant(add.getLhs()) == 1.0   ? add.getRhs()
                : getConstant(add.getRhs()) == 1.0 ? add.getLhs()
                                                   : Value();
  auto exp = other ? other.getDefiningOp<math::ExpOp>() : math::ExpOp();
  auto negate =
      exp ? exp.getOperand().getDefiningOp<arith::NegFOp>() : arith::NegFOp();
  return negate ? negate.getOperand() : Value();
}

/// `x` when `value` is 1 / (1 + exp(-x)), the sigmoid as front ends
/// write it.
static Value matchSigmoid(Value value) {
  auto divide = value.getDefiningOp<arith::DivFOp>();
  if (!divide || getConstant(divide.getLhs()) != 1.0)
    return {};
  return matchOnePlusExpNegated(divide.getRhs());
}

/// `x` when `value` is x / (1 + exp(-x)), silu as numpy references write
/// it (NKIBench's silu).
static Value matchSiluQuotient(Value value) {
  auto divide = value.getDefiningOp<arith::DivFOp>();
  if (!divide || matchOnePlusExpNegated(divide.getRhs()) != divide.getLhs())
    return {};
  return divide.getLhs();
}

/// The factors of a product of arith.mulf ops in `body`.
static void collectFactors(Value value, Block *body,
                           SmallVectorImpl<Value> &factors) {
  auto multiply = value.getDefiningOp<arith::MulFOp>();
  if (!multiply || multiply->getBlock() != body) {
    factors.push_back(value);
    return;
  }
  collectFactors(multiply.getLhs(), body, factors);
  collectFactors(multiply.getRhs(), body, factors);
}

/// The relative error of one rounding to `type` (2^-23 for f32, 2^-7 for
/// bf16), 0 for other types.
static double getRounding(Type type) {
  auto floatType = dyn_cast<FloatType>(type);
  if (!floatType)
    return 0;
  return std::ldexp(1.0, 1 - int(llvm::APFloat::semanticsPrecision(
                                 floatType.getFloatSemantics())));
}

/// Whether `value` is `expected` as a constant of `type` holds it: within
/// one rounding to that type, so that the activation a matcher picks
/// computes what the body says to the body's own precision. NaN is near
/// nothing.
static bool isNear(std::optional<double> value, double expected, Type type) {
  return value &&
         std::abs(*value - expected) <= getRounding(type) * std::abs(expected);
}

/// Whether the constant `value` is `expected` (isNear in its own type).
static bool isNear(Value value, double expected) {
  return isNear(getConstant(value), expected, value.getType());
}

/// The product of the constant factors of `value` (a product of arith.mulf
/// ops in `body`) into `scale`, its other factors into `factors`, a
/// math.powf or math.fpowi of a constant whole power counted as that many
/// factors of its base.
static void splitProduct(Value value, Block *body, double &scale,
                         SmallVectorImpl<Value> &factors) {
  SmallVector<Value> all;
  collectFactors(value, body, all);
  for (Value factor : all) {
    if (std::optional<double> constant = getConstant(factor)) {
      scale *= *constant;
      continue;
    }
    Value base;
    std::optional<double> power;
    if (auto pow = factor.getDefiningOp<math::PowFOp>())
      base = pow.getLhs(), power = getConstant(pow.getRhs());
    else if (auto pow = factor.getDefiningOp<math::FPowIOp>())
      base = pow.getLhs(), power = getConstant(pow.getRhs());
    if (power && *power >= 1 && *power <= 4 && *power == std::floor(*power))
      factors.append(int(*power), base);
    else
      factors.push_back(factor);
  }
}

/// `x` and `argument` when `value` is 0.5 * x * (1 + f(argument)), f a
/// `FunctionOp`, the products in any order (GELU's forms).
template <typename FunctionOp>
static std::pair<Value, Value> matchHalfXOnePlus(Value value, Block *body) {
  if (!value.getDefiningOp<arith::MulFOp>())
    return {};
  double scale = 1.0;
  SmallVector<Value> factors;
  splitProduct(value, body, scale, factors);
  Value x, argument;
  for (Value factor : factors) {
    auto add = factor.getDefiningOp<arith::AddFOp>();
    FunctionOp function;
    if (add && isNear(add.getLhs(), 1.0))
      function = add.getRhs().template getDefiningOp<FunctionOp>();
    else if (add && isNear(add.getRhs(), 1.0))
      function = add.getLhs().template getDefiningOp<FunctionOp>();
    if (function && !argument) {
      argument = function.getOperand();
      continue;
    }
    if (x)
      return {};
    x = factor;
  }
  if (!x || !argument || !isNear(scale, 0.5, x.getType()))
    return {};
  return {x, argument};
}

/// `x` when `value` is 0.5 * x * (1 + erf(x / sqrt(2))) in any order of
/// the products, the exact GELU as front ends write it.
static Value matchGelu(Value value, Block *body) {
  auto [x, erfArgument] = matchHalfXOnePlus<math::ErfOp>(value, body);
  if (!x)
    return {};
  // The argument of erf is x / sqrt(2), as a product or a quotient.
  if (auto multiply = erfArgument.getDefiningOp<arith::MulFOp>())
    if ((multiply.getLhs() == x && isNear(multiply.getRhs(), M_SQRT1_2)) ||
        (multiply.getRhs() == x && isNear(multiply.getLhs(), M_SQRT1_2)))
      return x;
  if (auto divide = erfArgument.getDefiningOp<arith::DivFOp>())
    if (divide.getLhs() == x && isNear(divide.getRhs(), M_SQRT2))
      return x;
  return {};
}

/// `x` when `value` is 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 *
/// x^3))), the tanh approximation of GELU (torch's approximate="tanh"),
/// the products in any order and x^3 as products or a power.
static Value matchGeluTanh(Value value, Block *body) {
  auto [x, tanhArgument] = matchHalfXOnePlus<math::TanhOp>(value, body);
  if (!x)
    return {};
  // sqrt(2 / pi) * (x + 0.044715 * x^3).
  double beta = 1.0;
  SmallVector<Value> inner;
  splitProduct(tanhArgument, body, beta, inner);
  auto sum = inner.size() == 1 ? inner[0].getDefiningOp<arith::AddFOp>()
                               : arith::AddFOp();
  if (!sum || !isNear(beta, std::sqrt(2 / M_PI), x.getType()))
    return {};
  Value cubic = sum.getLhs() == x   ? sum.getRhs()
                : sum.getRhs() == x ? sum.getLhs()
                                    : Value();
  double kappa = 1.0;
  SmallVector<Value> powers;
  if (cubic)
    splitProduct(cubic, body, kappa, powers);
  if (powers.size() != 3 || !llvm::all_equal(powers) || powers[0] != x ||
      !isNear(kappa, 0.044715, x.getType()))
    return {};
  return x;
}

/// Whether `value` is a sum or difference with a nonzero constant (torch's
/// `x + 3` in hardswish): rounding to nearest, such a result is never -0
/// (an exact cancellation gives +0).
static bool isNeverNegativeZero(Value value) {
  Operation *op = value.getDefiningOp();
  if (!isa_and_nonnull<arith::AddFOp, arith::SubFOp>(op))
    return false;
  return llvm::any_of(op->getOperands(), [](Value operand) {
    std::optional<double> constant = getConstant(operand);
    return constant && *constant != 0;
  });
}

/// Whether upstream's integer range analysis, run over the function,
/// bounds `value` within `type` as a signed integer.
static bool fitsSignedType(Value value, Type type) {
  Operation *root = value.getParentRegion()->getParentOp();
  if (auto function = root->getParentOfType<FunctionOpInterface>())
    root = function;
  DataFlowSolver solver;
  solver.load<dataflow::DeadCodeAnalysis>();
  solver.load<dataflow::SparseConstantPropagation>();
  solver.load<dataflow::IntegerRangeAnalysis>();
  if (failed(solver.initializeAndRun(root)))
    return false;
  auto *lattice = solver.lookupState<dataflow::IntegerValueRangeLattice>(value);
  if (!lattice || lattice->getValue().isUninitialized())
    return false;
  const ConstantIntRanges &range = lattice->getValue().getValue();
  unsigned width = type.getIntOrFloatBitWidth();
  unsigned wide = range.smin().getBitWidth();
  if (width >= wide)
    return true;
  return range.smin().sge(APInt::getSignedMinValue(width).sext(wide)) &&
         range.smax().sle(APInt::getSignedMaxValue(width).sext(wide));
}

namespace {
/// `select(cmpf(x, c), ...)` as one max or min of `x` and the constant `c`.
struct ConstantExtreme {
  AluOp alu;
  Value x;
  Attribute c;
};
} // namespace

/// Matches torch's ReLU and clamps, `select(cmpf P x c, x, c)` and the
/// forms with arms or operands swapped, as a max or min of x and a
/// constant c, when it computes that for every x: NaN included (an
/// unordered compare that picks x propagates NaN: max / min; one that
/// picks c ignores it: maxnum / minnum) and signed zeros (on x == c the
/// select's pick must be the zero max or min would give, unless x is never
/// the other zero).
static std::optional<ConstantExtreme> matchConstantExtreme(Value value) {
  auto select = value.getDefiningOp<arith::SelectOp>();
  auto compare = select ? select.getCondition().getDefiningOp<arith::CmpFOp>()
                        : arith::CmpFOp();
  if (!compare)
    return std::nullopt;
  Value lhs = compare.getLhs(), rhs = compare.getRhs();
  arith::CmpFPredicate predicate = compare.getPredicate();
  std::optional<double> c = getConstant(rhs);
  if (!c) {
    // c < x is x > c.
    std::swap(lhs, rhs);
    c = getConstant(rhs);
    using P = arith::CmpFPredicate;
    static const std::pair<P, P> swapped[] = {
        {P::UGT, P::ULT}, {P::UGE, P::ULE}, {P::OGT, P::OLT}, {P::OGE, P::OLE},
        {P::ULT, P::UGT}, {P::ULE, P::UGE}, {P::OLT, P::OGT}, {P::OLE, P::OGE}};
    auto found = llvm::find_if(
        swapped, [&](auto entry) { return entry.first == predicate; });
    if (found == std::end(swapped))
      return std::nullopt;
    predicate = found->second;
  }
  Value x = lhs;
  if (!c || std::isnan(*c) || getConstant(x) ||
      !((select.getTrueValue() == x && select.getFalseValue() == rhs) ||
        (select.getTrueValue() == rhs && select.getFalseValue() == x)))
    return std::nullopt;
  using P = arith::CmpFPredicate;
  bool greater =
      llvm::is_contained({P::UGT, P::UGE, P::OGT, P::OGE}, predicate);
  bool less = llvm::is_contained({P::ULT, P::ULE, P::OLT, P::OLE}, predicate);
  if (!greater && !less)
    return std::nullopt;
  bool xWhenTrue = select.getTrueValue() == x;
  bool isMax = greater == xWhenTrue;
  // NaN x: an unordered predicate is true.
  bool unordered =
      llvm::is_contained({P::UGT, P::UGE, P::ULT, P::ULE}, predicate);
  bool propagatesNaN = unordered == xWhenTrue;
  // x == c: an inclusive predicate is true.
  bool inclusive =
      llvm::is_contained({P::UGE, P::OGE, P::ULE, P::OLE}, predicate);
  bool picksX = inclusive == xWhenTrue;
  if (*c == 0 && (picksX || std::signbit(*c) == isMax) &&
      !(*c == 0 && !std::signbit(*c) && isNeverNegativeZero(x)))
    return std::nullopt;
  AluOp alu = isMax ? (propagatesNaN ? AluOp::Max : AluOp::MaxNum)
                    : (propagatesNaN ? AluOp::Min : AluOp::MinNum);
  return ConstantExtreme{alu, x, getImmediate(rhs)};
}

FailureOr<Operand> ElementwiseLowering::lowerOp(Operation *scalar) {
  if (std::optional<FailureOr<Operand>> fused = lowerPattern(scalar))
    return *fused;
  return lowerSingle(scalar);
}

namespace {
/// A body op that, with the ops feeding it, is one instruction on a tile
/// of `x`: an activation function or a max / min with a constant.
struct BodyPattern {
  Value x;
  std::optional<ActivationFunction> function;
  std::optional<ConstantExtreme> extreme;
};
} // namespace

static std::optional<BodyPattern> matchBodyPattern(Operation *scalar,
                                                   Block *body) {
  auto activationOf = [](ActivationFunction function, Value x) {
    return BodyPattern{x, function, std::nullopt};
  };
  Value result = scalar->getResult(0);
  if (Value x = matchGelu(result, body))
    return activationOf(ActivationFunction::Gelu, x);
  if (Value x = matchGeluTanh(result, body))
    return activationOf(ActivationFunction::GeluApproxTanh, x);
  if (std::optional<ConstantExtreme> extreme = matchConstantExtreme(result))
    return BodyPattern{extreme->x, std::nullopt, extreme};
  if (Value x = matchSigmoid(result))
    return activationOf(ActivationFunction::Sigmoid, x);
  if (Value x = matchSiluQuotient(result))
    return activationOf(ActivationFunction::Silu, x);
  // x * sigmoid(x), in either order, is silu.
  if (auto multiply = dyn_cast<arith::MulFOp>(scalar))
    for (auto [x, gate] : {std::pair(multiply.getLhs(), multiply.getRhs()),
                           std::pair(multiply.getRhs(), multiply.getLhs())})
      if (matchSigmoid(gate) == x)
        return activationOf(ActivationFunction::Silu, x);
  return std::nullopt;
}

std::optional<FailureOr<Operand>>
ElementwiseLowering::lowerPattern(Operation *scalar) {
  std::optional<BodyPattern> pattern = matchBodyPattern(scalar, op.getBlock());
  if (!pattern)
    return std::nullopt;
  FailureOr<Operand> source = lower(pattern->x);
  if (failed(source))
    return failure();
  if (pattern->function)
    return activation(scalar, *pattern->function, *source);
  return binary(scalar, pattern->extreme->alu, true, *source,
                Operand{MemlocOp(), pattern->extreme->c});
}

int64_t ElementwiseLowering::getBodyTiles() {
  // The ops the lowering emits an instruction for: those the yield reaches,
  // where a pattern (silu, gelu, a clamp) takes the ops it covers as one.
  Block *body = op.getBlock();
  llvm::SmallPtrSet<Operation *, 16> emitted;
  SmallVector<Value> pending(body->getTerminator()->getOperands());
  int64_t bodyTiles = 0;
  while (!pending.empty()) {
    Operation *scalar = pending.pop_back_val().getDefiningOp();
    if (!scalar || scalar->getBlock() != body ||
        getImmediate(scalar->getResult(0)) || !emitted.insert(scalar).second)
      continue;
    bodyTiles += isa<math::RoundEvenOp>(scalar) ? 1 + kScratchTiles : 1;
    if (std::optional<BodyPattern> pattern = matchBodyPattern(scalar, body))
      pending.push_back(pattern->x);
    else
      llvm::append_range(pending, scalar->getOperands());
  }
  return bodyTiles;
}

FailureOr<Operand> ElementwiseLowering::lowerSingle(Operation *scalar) {
  auto unary = [&](ActivationFunction function) -> FailureOr<Operand> {
    FailureOr<Operand> source = lower(scalar->getOperand(0));
    if (failed(source))
      return failure();
    return activation(scalar, function, *source);
  };
  auto alu = [&](AluOp aluOp, bool commutative) -> FailureOr<Operand> {
    FailureOr<Operand> lhs = lower(scalar->getOperand(0));
    if (failed(lhs))
      return failure();
    FailureOr<Operand> rhs = lower(scalar->getOperand(1));
    if (failed(rhs))
      return failure();
    return binary(scalar, aluOp, commutative, *lhs, *rhs);
  };
  // x * x on the scalar engine (one pass, where the vector engine's
  // multiply reads two): computed exactly and rounded once, as the multiply.
  if (isa<arith::MulFOp>(scalar) &&
      scalar->getOperand(0) == scalar->getOperand(1)) {
    FailureOr<Operand> source = lower(scalar->getOperand(0));
    if (failed(source) || source->isConstant())
      return alu(AluOp::Multiply, true);
    return activation(scalar, ActivationFunction::Square, *source);
  }
  return TypeSwitch<Operation *, FailureOr<Operand>>(scalar)
      .Case<arith::AddFOp, arith::AddIOp>(
          [&](auto) { return alu(AluOp::Add, true); })
      .Case<arith::SubFOp, arith::SubIOp>(
          [&](auto) { return alu(AluOp::Subtract, false); })
      .Case<arith::MulFOp, arith::MulIOp>(
          [&](auto) { return alu(AluOp::Multiply, true); })
      .Case<arith::DivFOp, arith::DivSIOp>(
          [&](auto) { return alu(AluOp::Divide, false); })
      .Case<arith::MaximumFOp, arith::MaxSIOp>(
          [&](auto) { return alu(AluOp::Max, true); })
      .Case<arith::MinimumFOp, arith::MinSIOp>(
          [&](auto) { return alu(AluOp::Min, true); })
      .Case<arith::MaxNumFOp>([&](auto) { return alu(AluOp::MaxNum, true); })
      .Case<arith::MinNumFOp>([&](auto) { return alu(AluOp::MinNum, true); })
      .Case<arith::NegFOp>([&](auto) -> FailureOr<Operand> {
        FailureOr<Operand> source = lower(scalar->getOperand(0));
        if (failed(source))
          return failure();
        return binary(
            scalar, AluOp::Multiply, true, *source,
            Operand{MemlocOp(), getFloatImmediate(op.getContext(), -1.0)});
      })
      .Case<math::ExpOp>([&](auto) { return unary(ActivationFunction::Exp); })
      .Case<math::TanhOp>([&](auto) { return unary(ActivationFunction::Tanh); })
      .Case<math::RsqrtOp>(
          [&](auto) { return unary(ActivationFunction::Rsqrt); })
      .Case<math::SqrtOp>([&](auto) { return unary(ActivationFunction::Sqrt); })
      .Case<math::LogOp>([&](auto) { return unary(ActivationFunction::Log); })
      .Case<math::ErfOp>([&](auto) { return unary(ActivationFunction::Erf); })
      .Case<math::AbsFOp>([&](auto) { return unary(ActivationFunction::Abs); })
      .Case<math::PowFOp, math::FPowIOp>([&](auto pow) -> FailureOr<Operand> {
        std::optional<ActivationFunction> function =
            getPowerFunction(pow.getRhs());
        std::optional<double> power = getConstant(pow.getRhs());
        bool cubeOrFourth = power && (*power == 3 || *power == 4);
        if (!function && !cubeOrFourth)
          return unsupported(op, "'" + scalar->getName().getStringRef() +
                                     "' by other than a constant 1, 2, 3, 4, "
                                     "-1, 0.5 or -0.5");
        FailureOr<Operand> source = lower(pow.getLhs());
        if (failed(source))
          return failure();
        if (function)
          return activation(scalar, *function, *source);
        // x^3 (GPT-2's GELU) is x^2 * x, x^4 is (x^2)^2, in place on the
        // result's tile: two roundings where libm's powf has one, within
        // 2 ulp of it.
        FailureOr<Operand> square =
            activation(scalar, ActivationFunction::Square, *source);
        if (failed(square) || *power == 4)
          return failed(square)
                     ? square
                     : activation(scalar, ActivationFunction::Square, *square);
        return binary(scalar, AluOp::Multiply, true, *square, *source);
      })
      .Case<arith::CmpFOp, arith::CmpIOp>(
          [&](Operation *cmp) { return compare(cmp); })
      .Case<arith::SelectOp>([&](Operation *pick) { return select(pick); })
      // On bytes 1 or 0, `and` is the minimum, `or` the maximum, `xor`
      // inequality.
      .Case<arith::AndIOp, arith::OrIOp, arith::XOrIOp>(
          [&](Operation *logic) -> FailureOr<Operand> {
            if (!logic->getResult(0).getType().isInteger(1))
              return unsupported(op, "'" + logic->getName().getStringRef() +
                                         "' on other than i1 in its body");
            if (isa<arith::AndIOp>(logic))
              return alu(AluOp::Min, true);
            return alu(isa<arith::OrIOp>(logic) ? AluOp::Max : AluOp::NotEqual,
                       true);
          })
      .Case<arith::SIToFPOp, arith::ExtSIOp>([&](auto) -> FailureOr<Operand> {
        FailureOr<Operand> converted = unary(ActivationFunction::Identity);
        if (failed(converted) || !scalar->getOperand(0).getType().isInteger(1))
          return converted;
        // A true i1 is -1 as a signed integer: 0 - b.
        AccessPatternAttr pattern = computePattern(*converted, *converted);
        kernel.create<TensorScalarOp>(
            op.getLoc(), AluOp::Subtract, converted->tile, pattern,
            converted->tile, pattern, getIntegerImmediate(op.getContext(), 0),
            /*reverse=*/true);
        return converted;
      })
      // Unsigned, only a boolean's byte (0 or 1) is its value as stored.
      .Case<arith::UIToFPOp, arith::ExtUIOp>([&](auto) -> FailureOr<Operand> {
        if (!scalar->getOperand(0).getType().isInteger(1))
          return unsupported(op, "'" + scalar->getName().getStringRef() +
                                     "' of other than i1 in its body");
        return unary(ActivationFunction::Identity);
      })
      .Case<arith::ExtFOp, arith::TruncFOp>(
          [&](auto) { return unary(ActivationFunction::Identity); })
      // Where the value fits, wrapping and the engine's saturating
      // conversion agree (a quantized rescale's result, clamped).
      .Case<arith::TruncIOp>([&](arith::TruncIOp trunc) -> FailureOr<Operand> {
        // Once per op, not per tile: the analysis runs over the function.
        auto [known, inserted] = boundedTruncations.try_emplace(trunc, false);
        if (inserted)
          known->second = fitsSignedType(trunc.getIn(), trunc.getType());
        if (!known->second)
          return unsupported(
              op, "'arith.trunci' of a value upstream's integer range "
                  "analysis does not bound within " +
                      std::to_string(trunc.getType().getIntOrFloatBitWidth()) +
                      " signed bits in its body (the engine's conversion "
                      "saturates where trunci wraps)");
        return unary(ActivationFunction::Identity);
      })
      .Case<math::RoundEvenOp>([&](auto) -> FailureOr<Operand> {
        FailureOr<Operand> source = lower(scalar->getOperand(0));
        if (failed(source))
          return failure();
        return roundToNearestEven(scalar, *source);
      })
      // The engine converts to nearest, exactly as fptosi truncates on an
      // integer; -normalize-linalg truncated any other value first.
      .Case<arith::FPToSIOp>([&](auto) -> FailureOr<Operand> {
        if (!isIntegralValued(scalar->getOperand(0)))
          return unsupported(op, "'arith.fptosi' of a value not known to "
                                 "be an integer in its body (outside "
                                 "-normalize-linalg, which truncates it)");
        return unary(ActivationFunction::Identity);
      })
      // -normalize-linalg made reads at affine indices inputs and reads at
      // rows of the inputs and indices gathers: what is left is neither.
      .Case<memref::LoadOp>([&](auto) {
        return unsupported(op, "'memref.load' in its body: a read that is "
                               "neither at an affine function of the loops "
                               "nor, on tensors before -normalize-linalg, at "
                               "rows computed from the inputs and loops "
                               "alone of a table under 2^63 elements (a row "
                               "read from what the op writes)");
      })
      .Default([&](Operation *other) -> FailureOr<Operand> {
        // -normalize-linalg tabulated the values of the indices it could.
        auto isIndex = [](Value value) { return value.getType().isIndex(); };
        if (llvm::any_of(other->getOperands(), isIndex) ||
            llvm::any_of(other->getResults(), isIndex))
          return unsupported(
              op, "'" + other->getName().getStringRef() +
                      "' of loop indices in its body: -normalize-linalg "
                      "makes a value of the indices a constant table when "
                      "it folds, varies over at most 2^20 elements and fits "
                      "what is left of its 2^24 folds");
        return unsupported(op, "'" + other->getName().getStringRef() +
                                   "' in its body");
      });
}

Operand ElementwiseLowering::resultTile(Value value,
                                        ArrayRef<Operand> operands) {
  // A value of per-row values alone is one per row too: computed once per
  // row on a one-column tile, not across every column, unless the caller
  // gave it a full tile (computeTile's result tile).
  bool perRow = llvm::all_of(operands, [](const Operand &operand) {
    return operand.isConstant() || operand.acrossColumns;
  });
  bool placed = buffer < tiles.size() && tiles[buffer].lookup(value);
  Type type = getStorageType(value.getType());
  if (!perRow || placed)
    return Operand{tileFor(value, type), {}};
  MemlocOp &tile = getSlot(columnTiles, value);
  if (!tile)
    tile = kernel.addTile("t_row", 128, 1, type);
  return Operand{tile, {}, 0, /*acrossColumns=*/true};
}

Operand ElementwiseLowering::setPerRow(Value value, const Operand &constant) {
  MemlocOp &tile = getSlot(columnTiles, value);
  if (!tile)
    tile = kernel.addTile("t_row", 128, 1, getStorageType(value.getType()));
  Operand perRow{tile, {}, 0, /*acrossColumns=*/true};
  kernel.create<MemsetOp>(op.getLoc(), tile, computePattern(perRow, perRow),
                          constant.constant);
  return perRow;
}

AccessPatternAttr ElementwiseLowering::computePattern(const Operand &operand,
                                                      const Operand &result) {
  if (!result.acrossColumns)
    return tilePattern(operand);
  MemlocOp tile = operand.tile;
  return kernel.pattern(
      kernel.constant(operand.columnOffset),
      {{tile.getMemoryType().getFreeSize(), current.rows.partitions}, {1, 1}});
}

FailureOr<Operand> ElementwiseLowering::binary(Operation *scalar, AluOp alu,
                                               bool commutative, Operand lhs,
                                               Operand rhs) {
  if (lhs.isConstant() && rhs.isConstant())
    lhs = setPerRow(scalar->getOperand(0), lhs);
  if (lhs.isConstant() && commutative)
    std::swap(lhs, rhs);
  Operand dst = resultTile(scalar->getResult(0), {lhs, rhs});
  auto pattern = [&](const Operand &operand) {
    return computePattern(operand, dst);
  };
  Location loc = op.getLoc();
  // A float product by one f32 value per row runs on the scalar engine, as
  // its per-partition scale: one pass over the tile where the vector
  // engine's multiply reads two; the product is rounded once either way.
  if (isa<arith::MulFOp>(scalar) && !lhs.isConstant() && !rhs.isConstant() &&
      lhs.acrossColumns != rhs.acrossColumns) {
    auto [full, factor] =
        lhs.acrossColumns ? std::pair(rhs, lhs) : std::pair(lhs, rhs);
    if (factor.getElementType().isF32()) {
      kernel.create<ActivationOp>(loc, ActivationFunction::Identity, dst.tile,
                                  pattern(dst), full.tile, pattern(full),
                                  Value(), AccessPatternAttr(), factor.tile,
                                  pattern(factor), APFloat(1.0));
      ++scalarEngineOps;
      return dst;
    }
  }
  // A float product by a constant runs on whichever of the scalar and
  // vector engines has less of this body so far: the scalar engine's
  // scale multiplies as tensor_scalar does, rounded once either way, so a
  // body of many constant factors (adamw) keeps both engines busy.
  if (isa<arith::MulFOp>(scalar) && rhs.isConstant() && !lhs.isConstant() &&
      isa<FloatAttr>(rhs.constant) && scalarEngineOps < vectorEngineOps) {
    kernel.create<ActivationOp>(loc, ActivationFunction::Identity, dst.tile,
                                pattern(dst), lhs.tile, pattern(lhs),
                                APFloat(getImmediateAsDouble(rhs.constant)));
    ++scalarEngineOps;
    return dst;
  }
  // An operation of two streamed tiles takes the vector engine about two
  // passes (docs/TimingModel.md), one of a tile and a constant one.
  vectorEngineOps += lhs.isConstant() || rhs.isConstant() ? 1 : 2;
  if (lhs.isConstant()) {
    // c - x and c / x: the constant is the left operand.
    kernel.create<TensorScalarOp>(loc, alu, dst.tile, pattern(dst), rhs.tile,
                                  pattern(rhs), lhs.constant,
                                  /*reverse=*/true);
    return dst;
  }
  if (rhs.isConstant())
    kernel.create<TensorScalarOp>(loc, alu, dst.tile, pattern(dst), lhs.tile,
                                  pattern(lhs), rhs.constant,
                                  /*reverse=*/false);
  else
    kernel.create<TensorTensorOp>(loc, alu, dst.tile, pattern(dst), lhs.tile,
                                  pattern(lhs), rhs.tile, pattern(rhs));
  return dst;
}

namespace {
/// A predicate as a comparison of the vector engine, negated (1 - result)
/// for the unordered predicates: ugt is not ole.
struct Comparison {
  AluOp alu;
  bool negated = false;
};
} // namespace

static std::optional<Comparison> getComparison(Operation *compare) {
  if (auto cmpf = dyn_cast<arith::CmpFOp>(compare)) {
    using P = arith::CmpFPredicate;
    switch (cmpf.getPredicate()) {
    case P::OEQ:
      return Comparison{AluOp::IsEqual};
    case P::OGT:
      return Comparison{AluOp::IsGt};
    case P::OGE:
      return Comparison{AluOp::IsGe};
    case P::OLT:
      return Comparison{AluOp::IsLt};
    case P::OLE:
      return Comparison{AluOp::IsLe};
    case P::UNE:
      return Comparison{AluOp::NotEqual};
    case P::UGT:
      return Comparison{AluOp::IsLe, true};
    case P::UGE:
      return Comparison{AluOp::IsLt, true};
    case P::ULT:
      return Comparison{AluOp::IsGe, true};
    case P::ULE:
      return Comparison{AluOp::IsGt, true};
    // torch.isnan is `uno` of a value with itself: whether it equals
    // itself, negated.
    case P::ORD:
    case P::UNO:
      if (cmpf.getLhs() != cmpf.getRhs())
        return std::nullopt;
      return Comparison{AluOp::IsEqual, cmpf.getPredicate() == P::UNO};
    default:
      return std::nullopt;
    }
  }
  using P = arith::CmpIPredicate;
  switch (cast<arith::CmpIOp>(compare).getPredicate()) {
  case P::eq:
    return Comparison{AluOp::IsEqual};
  case P::ne:
    return Comparison{AluOp::NotEqual};
  case P::sgt:
    return Comparison{AluOp::IsGt};
  case P::sge:
    return Comparison{AluOp::IsGe};
  case P::slt:
    return Comparison{AluOp::IsLt};
  case P::sle:
    return Comparison{AluOp::IsLe};
  default:
    return std::nullopt;
  }
}

FailureOr<Operand> ElementwiseLowering::compare(Operation *scalar) {
  std::optional<Comparison> comparison = getComparison(scalar);
  if (!comparison) {
    StringRef predicate = isa<arith::CmpFOp>(scalar)
                              ? arith::stringifyCmpFPredicate(
                                    cast<arith::CmpFOp>(scalar).getPredicate())
                              : arith::stringifyCmpIPredicate(
                                    cast<arith::CmpIOp>(scalar).getPredicate());
    return unsupported(op, "'" + scalar->getName().getStringRef() + "' " +
                               predicate +
                               " in its body (the ordered and unordered "
                               "orderings, oeq, une, ord and uno of a value "
                               "with itself, and the signed integer "
                               "comparisons lower; -normalize-linalg writes "
                               "one, ueq, ord and uno as two of them)");
  }
  FailureOr<Operand> lhs = lower(scalar->getOperand(0));
  if (failed(lhs))
    return failure();
  FailureOr<Operand> rhs = lower(scalar->getOperand(1));
  if (failed(rhs))
    return failure();
  FailureOr<Operand> dst =
      binary(scalar, comparison->alu, /*commutative=*/false, *lhs, *rhs);
  if (failed(dst) || !comparison->negated)
    return dst;
  AccessPatternAttr pattern = computePattern(*dst, *dst);
  kernel.create<TensorScalarOp>(op.getLoc(), AluOp::Subtract, dst->tile,
                                pattern, dst->tile, pattern,
                                getIntegerImmediate(op.getContext(), 1),
                                /*reverse=*/true);
  return dst;
}

FailureOr<Operand> ElementwiseLowering::select(Operation *scalar) {
  auto pick = cast<arith::SelectOp>(scalar);
  FailureOr<Operand> condition = lower(pick.getCondition());
  if (failed(condition))
    return failure();
  FailureOr<Operand> onTrue = lower(pick.getTrueValue());
  if (failed(onTrue))
    return failure();
  FailureOr<Operand> onFalse = lower(pick.getFalseValue());
  if (failed(onFalse))
    return failure();
  if (condition->isConstant())
    return unsupported(op, "'arith.select' of a constant condition");
  Location loc = op.getLoc();
  Operand dst = resultTile(pick.getResult(), {*condition, *onTrue, *onFalse});
  auto pattern = [&](const Operand &operand) {
    return computePattern(operand, dst);
  };
  auto place = [&](const Operand &constant, Operand into) {
    kernel.create<MemsetOp>(loc, into.tile, computePattern(into, into),
                            constant.constant);
    return into;
  };
  // dst starts as one side and takes the other where the condition says:
  // a constant side is set (memset) first, so the copy reads a tile.
  bool reverse = onTrue->isConstant() && !onFalse->isConstant();
  auto [first, second] =
      reverse ? std::pair(*onTrue, *onFalse) : std::pair(*onFalse, *onTrue);
  if (first.isConstant())
    place(first, dst);
  else
    kernel.create<TensorCopyOp>(loc, dst.tile, pattern(dst), first.tile,
                                pattern(first));
  // Both sides constant: the true side gets a tile of its own, keyed by
  // the constant.
  if (second.isConstant())
    second = place(second, resultTile(pick.getTrueValue(), {*condition}));
  kernel.create<TensorCopyPredicatedOp>(
      loc, dst.tile, pattern(dst), second.tile, pattern(second),
      condition->tile, pattern(*condition), reverse);
  return dst;
}

Operand ElementwiseLowering::scratchTile(Value value, unsigned index, Type type,
                                         const Operand &like) {
  MemlocOp &tile = getSlot(scratchTiles[index], value);
  if (!tile)
    tile = kernel.addTile("t_scratch", 128,
                          like.acrossColumns ? 1 : tileColumns, type);
  return Operand{tile, {}, 0, like.acrossColumns};
}

FailureOr<Operand> ElementwiseLowering::roundToNearestEven(Operation *scalar,
                                                           Operand source) {
  if (source.isConstant())
    source = setPerRow(scalar->getOperand(0), source);
  Value result = scalar->getResult(0);
  Operand dst = resultTile(result, {source});
  MLIRContext *context = op.getContext();
  Operand integer = scratchTile(result, 0, IntegerType::get(context, 32), dst);
  Operand magnitude = scratchTile(result, 1, dst.getElementType(), dst);
  auto pattern = [&](const Operand &operand) {
    return computePattern(operand, dst);
  };
  Location loc = op.getLoc();
  auto apply = [&](ActivationFunction function, Operand to, Operand from) {
    kernel.create<ActivationOp>(loc, function, to.tile, pattern(to), from.tile,
                                pattern(from), APFloat(1.0));
  };
  // To an integer (to nearest even, saturating, NaN to 0) and back.
  apply(ActivationFunction::Identity, integer, source);
  apply(ActivationFunction::Identity, dst, integer);
  // Past 2^31 (and NaN, infinities) the conversion saturated: the source,
  // an integer already, is its own rounding.
  apply(ActivationFunction::Abs, magnitude, source);
  kernel.create<TensorScalarOp>(
      loc, AluOp::IsLt, integer.tile, pattern(integer), magnitude.tile,
      pattern(magnitude), getFloatImmediate(context, 0x1p31),
      /*reverse=*/false);
  kernel.create<TensorCopyPredicatedOp>(loc, dst.tile, pattern(dst),
                                        source.tile, pattern(source),
                                        integer.tile, pattern(integer),
                                        /*reverse=*/true);
  return dst;
}

FailureOr<Operand> ElementwiseLowering::activation(Operation *scalar,
                                                   ActivationFunction function,
                                                   Operand source) {
  if (source.isConstant())
    source = setPerRow(scalar->getOperand(0), source);
  Operand dst = resultTile(scalar->getResult(0), {source});
  kernel.create<ActivationOp>(op.getLoc(), function, dst.tile,
                              computePattern(dst, dst), source.tile,
                              computePattern(source, dst), APFloat(1.0));
  ++scalarEngineOps;
  return dst;
}

LogicalResult ElementwiseLowering::prepareBody(int64_t tiles) {
  tileColumns = tiles;
  if (op.getNumDpsInits() != 1)
    return unsupported(op, "more than one output");
  for (OpOperand &operand : op->getOpOperands()) {
    inputs.push_back(std::nullopt);
    scalars.push_back({});
    if (isa<MemRefType>(operand.get().getType()))
      continue;
    scalars.back() = getImmediate(operand.get());
    if (!scalars.back())
      return unsupported(op, "a scalar operand that is not a constant");
  }
  return success();
}

void ElementwiseLowering::beginTile(
    const RowTile &rowTile, const ColumnTile &columnTile,
    ArrayRef<std::pair<unsigned, Operand>> preloaded) {
  current.rows = rowTile;
  current.columns = columnTile;
  values.clear();
  preloadedNow = preloaded;
  scalarEngineOps = vectorEngineOps = 0;
}

FailureOr<Operand> ElementwiseLowering::computeTile(
    const RowTile &rowTile, const ColumnTile &columnTile,
    ArrayRef<std::pair<unsigned, Operand>> preloaded, MemlocOp resultTile) {
  beginTile(rowTile, columnTile, preloaded);
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  if (resultTile && yielded.getDefiningOp() &&
      yielded.getDefiningOp()->getBlock() == op.getBlock())
    getSlot(tiles, yielded) = resultTile;
  return lower(yielded);
}

Operand ElementwiseLowering::loadAcrossColumns(Value value, DramTensor tensor,
                                               Broadcast broadcast) {
  // One element per partition: the same for every column, read with free
  // step 0. A DMA of the value repeated across the row would move one
  // packet per element.
  MemlocOp &tile = getSlot(columnTiles, value);
  if (!tile)
    tile = kernel.addTile("in_col", 128, 1, tensor.elementType);
  int64_t partitions = current.rows.partitions;
  AffineExpr start =
      broadcast == Broadcast::Both
          ? kernel.constant(tensor.base)
          : current.rows.firstRow * tensor.rowStride + tensor.base;
  int64_t step = broadcast == Broadcast::Both ? 0 : tensor.rowStride;
  kernel.create<DmaOp>(op.getLoc(), tile,
                       kernel.tilePattern(tile, partitions, 1), tensor.memloc,
                       kernel.pattern(start, {{step, partitions}, {1, 1}}));
  return Operand{tile, {}, 0, /*acrossColumns=*/true};
}

FailureOr<Operand> ElementwiseLowering::computeFullTile(
    const RowTile &rowTile, const ColumnTile &columnTile,
    ArrayRef<std::pair<unsigned, Operand>> preloaded) {
  Value yielded = op.getBlock()->getTerminator()->getOperand(0);
  return asFullTile(yielded, computeTile(rowTile, columnTile, preloaded),
                    outputs.front().elementType);
}

FailureOr<Operand> ElementwiseLowering::asFullTile(Value yielded,
                                                   FailureOr<Operand> result,
                                                   Type elementType) {
  if (failed(result))
    return failure();
  Location loc = op.getLoc();
  if (result->isConstant()) {
    Operand full{tileFor(yielded, elementType, "out")};
    kernel.create<MemsetOp>(loc, full.tile, tilePattern(full),
                            result->constant);
    return full;
  }
  if (result->getElementType() == elementType && !result->acrossColumns)
    return result;
  Operand converted{tileFor(Value(), elementType, "out")};
  kernel.create<TensorCopyOp>(loc, converted.tile, tilePattern(converted),
                              result->tile, tilePattern(*result));
  return converted;
}

LogicalResult ElementwiseLowering::emitTile(
    const RowTile &rowTile, const ColumnTile &columnTile,
    ArrayRef<std::pair<unsigned, Operand>> preloaded) {
  beginTile(rowTile, columnTile, preloaded);
  // Every result of the tile is computed from the same loaded inputs.
  for (auto [yielded, stored] : llvm::zip_equal(
           op.getBlock()->getTerminator()->getOperands(), outputs)) {
    FailureOr<Operand> full =
        asFullTile(yielded, lower(yielded), stored.elementType);
    if (failed(full))
      return failure();
    kernel.create<DmaOp>(op.getLoc(), stored.memloc,
                         dramPattern(stored, Broadcast::None), full->tile,
                         tilePattern(*full));
  }
  return success();
}

LogicalResult ElementwiseLowering::run() {
  if (failed(classifyOperands(/*standalone=*/true)))
    return failure();
  LogicalResult status = success();
  // Row tiles go to the cores, unless the column tiles divide among them
  // better (docs/LinalgToBir.md, "Tiles and cores").
  bool dealColumns = kernel.dealsBetter(rows, 128, columns, tileColumns,
                                        kernel.getMinVectorColumns());
  // The inner tiles (not dealt) rotate `elementwise-buffers` sets of
  // tiles, so one tile's loads need not wait for the last one's compute.
  int64_t buffers = lowering.tiles.elementwiseBuffers;
  auto tilesOf = [&](int64_t size, int64_t tile, bool deal, bool inner,
                     function_ref<void(int64_t, AffineExpr)> body) {
    if (!inner || buffers == 1)
      return kernel.forEachTile(size, tile, deal, body);
    auto rotated = [&](int64_t count, AffineExpr first, unsigned rotation) {
      buffer = rotation;
      body(count, first);
      buffer = 0;
    };
    if (deal)
      return kernel.forEachRotatingRowTile(
          size, tile, buffers, [&](const RowTile &rowTile, unsigned rotation) {
            rotated(rowTile.partitions, rowTile.firstRow, rotation);
          });
    kernel.forEachRotatingTile(size, tile, buffers, rotated);
  };
  auto emit = [&](const RowTile &rowTile, const ColumnTile &columnTile) {
    if (succeeded(status))
      status = emitTile(rowTile, columnTile);
  };
  // Inputs the same for every row load once per column tile, before the
  // row tiles that use them.
  if (rows > 128 && hasRowBroadcasts()) {
    tilesOf(columns, tileColumns, dealColumns, false,
            [&](int64_t count, AffineExpr first) {
              ColumnTile columnTile{count, first};
              loadRowBroadcasts(columnTile);
              tilesOf(rows, 128, !dealColumns, true,
                      [&](int64_t count, AffineExpr first) {
                        emit(RowTile{count, first}, columnTile);
                      });
            });
  } else {
    tilesOf(rows, 128, !dealColumns, false,
            [&](int64_t count, AffineExpr first) {
              RowTile rowTile{count, first};
              tilesOf(columns, tileColumns, dealColumns, true,
                      [&](int64_t count, AffineExpr first) {
                        emit(rowTile, ColumnTile{count, first});
                      });
            });
  }
  markRotations();
  return status;
}

void ElementwiseLowering::markRotations() {
  for (auto *sets : {&tiles, &columnTiles, &scratchTiles[0], &scratchTiles[1]})
    for (unsigned rotation = 1; rotation < sets->size(); ++rotation)
      for (auto [value, tile] : (*sets)[rotation]) {
        kernel.markRotating((*sets)[0].lookup(value), 0);
        kernel.markRotating(tile, rotation);
      }
}

LogicalResult walrus::linalg_to_bir::lowerElementwise(linalg::LinalgOp op,
                                                      Lowering &lowering) {
  return ElementwiseLowering(op, lowering).run();
}

//===- Generic.cpp - Any linalg op with linear indexing maps to bir -------===//
//
// The lowering of last resort, for the ops the shaped lowerings do not
// take: permuting and broadcasting maps along any dimensions, reductions
// along any set of dimensions, N-D transposes, contractions other than
// matmul, convolutions and pooling written as linalg ops. Every indexing
// map result is a linear expression of the loops, so each operand's
// element for a point of the iteration space is at `offset + sum(coef_d *
// i_d)`. One parallel loop is the tile's partitions, the output's
// innermost is its columns, every other loop is a bir.loop; reductions
// accumulate into a tile that holds the output's values
// (docs/LinalgToBir.md, "The general lowering").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"
#include "LinearAccess.h"

#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

namespace {
/// A linear form `sum(coefficients[d] * d) + constant` of loop dims.
struct LinearForm {
  SmallVector<int64_t> coefficients;
  int64_t constant = 0;
};
} // namespace

/// `expr` as a linear form over `numDims` dims, with checked arithmetic;
/// nothing for mod, floordiv, ceildiv, symbols or overflow.
static std::optional<LinearForm> getLinearForm(AffineExpr expr,
                                               unsigned numDims) {
  LinearForm form;
  form.coefficients.assign(numDims, 0);
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    form.coefficients[dim.getPosition()] = 1;
    return form;
  }
  if (auto constant = dyn_cast<AffineConstantExpr>(expr)) {
    form.constant = constant.getValue();
    return form;
  }
  auto binary = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!binary || (expr.getKind() != AffineExprKind::Add &&
                  expr.getKind() != AffineExprKind::Mul))
    return std::nullopt;
  std::optional<LinearForm> lhs = getLinearForm(binary.getLHS(), numDims);
  std::optional<LinearForm> rhs = getLinearForm(binary.getRHS(), numDims);
  if (!lhs || !rhs)
    return std::nullopt;
  auto combine = [](int64_t a, int64_t b, bool multiply) {
    return multiply ? llvm::checkedMul(a, b) : llvm::checkedAdd(a, b);
  };
  if (expr.getKind() == AffineExprKind::Add) {
    for (unsigned d = 0; d < numDims; ++d) {
      std::optional<int64_t> sum =
          combine(lhs->coefficients[d], rhs->coefficients[d], false);
      if (!sum)
        return std::nullopt;
      form.coefficients[d] = *sum;
    }
    std::optional<int64_t> sum = combine(lhs->constant, rhs->constant, false);
    if (!sum)
      return std::nullopt;
    form.constant = *sum;
    return form;
  }
  // A product of affine expressions has a constant factor.
  if (llvm::any_of(lhs->coefficients, [](int64_t c) { return c != 0; }))
    std::swap(lhs, rhs);
  for (unsigned d = 0; d < numDims; ++d) {
    std::optional<int64_t> product =
        combine(lhs->constant, rhs->coefficients[d], true);
    if (!product)
      return std::nullopt;
    form.coefficients[d] = *product;
  }
  std::optional<int64_t> product = combine(lhs->constant, rhs->constant, true);
  if (!product)
    return std::nullopt;
  form.constant = *product;
  return form;
}

FailureOr<LinearAccess>
walrus::linalg_to_bir::getLinearAccess(linalg::LinalgOp op, OpOperand &operand,
                                       ArrayRef<int64_t> ranges,
                                       Lowering &lowering) {
  FailureOr<DramTensor> tensor = lowering.getBuffer(op, operand.get());
  if (failed(tensor))
    return failure();
  auto type = cast<MemRefType>(operand.get().getType());
  SmallVector<int64_t> strides;
  int64_t base;
  if (failed(type.getStridesAndOffset(strides, base)))
    return unsupported(op, "an operand without static strides");
  AffineMap map = op.getMatchingIndexingMap(&operand);
  LinearAccess access{*tensor, SmallVector<int64_t>(ranges.size(), 0), base};
  int64_t lowest = base, highest = base;
  for (auto [result, stride] : llvm::zip(map.getResults(), strides)) {
    std::optional<LinearForm> form = getLinearForm(result, ranges.size());
    if (!form)
      return unsupported(op, "an indexing map that is not linear in the loops");
    std::optional<int64_t> shift = llvm::checkedMul(form->constant, stride);
    std::optional<int64_t> offset =
        shift ? llvm::checkedAdd(access.offset, *shift) : std::nullopt;
    if (!offset)
      return unsupported(op, "an indexing map past 2^63 elements");
    access.offset = *offset;
    lowest = highest = *offset;
    for (auto [d, coefficient] : llvm::enumerate(form->coefficients)) {
      std::optional<int64_t> step = llvm::checkedMul(coefficient, stride);
      std::optional<int64_t> total =
          step ? llvm::checkedAdd(access.coefficients[d], *step) : std::nullopt;
      if (!total)
        return unsupported(op, "an indexing map past 2^63 elements");
      access.coefficients[d] = *total;
    }
  }
  // The extreme elements the loops reach.
  for (auto [coefficient, range] : llvm::zip(access.coefficients, ranges)) {
    if (coefficient < 0)
      return unsupported(op, "an indexing map that walks an operand backwards");
    std::optional<int64_t> span = llvm::checkedMul(coefficient, range - 1);
    std::optional<int64_t> reach =
        span ? llvm::checkedAdd(highest, *span) : std::nullopt;
    if (!reach)
      return unsupported(op, "an indexing map past 2^63 elements");
    highest = *reach;
  }
  int64_t elements = access.tensor.memloc.getMemoryType().getNumElements();
  if (lowest < 0 || highest >= elements)
    return unsupported(op, "an indexing map that reaches outside its "
                           "operand's buffer");
  return access;
}

namespace {
/// The loops' roles: one parallel loop is the partitions, one the columns
/// (either may be missing: one partition, one column), the other parallel
/// loops and then the reductions are bir.loops around the tile.
struct Schedule {
  std::optional<unsigned> partitionDim, columnDim;
  SmallVector<unsigned> parallelLoops, reductionLoops;
  /// The combiner, when the columns are a reduction loop that each tile
  /// reduces with tensor_reduce (the output has no column loop).
  std::optional<AluOp> columnReduction;
  /// With a column reduction and no parallel loop for the partitions: a
  /// reduction loop on the partitions, reduced across them by a transpose.
  std::optional<unsigned> partitionReduction;
};

class GenericLowering {
public:
  GenericLowering(linalg::LinalgOp op, Lowering &lowering)
      : op(op), lowering(lowering), kernel(lowering.kernel),
        body(op, lowering) {}

  LogicalResult run();

private:
  LogicalResult classify();
  void chooseColumnReduction(ArrayRef<utils::IteratorType> iterators);
  /// Which parallel dimension's tiles go to the cores: the partitions, or
  /// a parallel loop or the columns (`columnsToo`) where their tiles divide
  /// among the cores better (docs/LinalgToBir.md, "Tiles and cores").
  void chooseDealt(bool columnsToo);
  /// Runs `body` for each tile of the partitions, dealt or not.
  void forEachPartitionTile(function_ref<void(const RowTile &)> body);
  /// The nest when the columns are reduced (Schedule::columnReduction).
  void emitColumnReduction();
  /// One step of it that also reduces across partitions
  /// (Schedule::partitionReduction).
  void emitPartitionReduction(LinearAccess &input, MemlocOp in, MemlocOp part);
  /// The start of `access` for the current loops and tile.
  AffineExpr start(const LinearAccess &access, const RowTile &rows,
                   const ColumnTile &columns);
  AccessPatternAttr dramPattern(const LinearAccess &access, const RowTile &rows,
                                const ColumnTile &columns);
  void emitLoops(ArrayRef<unsigned> loops, function_ref<void()> inner);
  /// Loads the tile's inputs and computes the body: the tile to store.
  FailureOr<Operand> emitTile(const RowTile &rows, const ColumnTile &columns);

  linalg::LinalgOp op;
  Lowering &lowering;
  KernelBuilder &kernel;
  ElementwiseLowering body;
  SmallVector<int64_t> ranges;
  Schedule schedule;
  /// Per operand (by block argument) whose value the body reads.
  SmallVector<std::pair<unsigned, LinearAccess>> loaded;
  LinearAccess output;
  /// The iv of each loop around the tile, as the loops are emitted.
  DenseMap<unsigned, AffineExpr> ivs;
  /// The dimension dealt to the cores; kPartitions: the partition tiles.
  static constexpr unsigned kPartitions = ~0u;
  unsigned dealt = kPartitions;
  DenseMap<unsigned, MemlocOp> inputTiles;
  MemlocOp accumulator;
  /// A row of partial results, for reductions across partitions.
  MemlocOp turned;
  int64_t tileColumns = 1;
};
} // namespace

LogicalResult GenericLowering::classify() {
  if (op.getNumDpsInits() == 0)
    return unsupported(op, "no output");
  if (op.getNumDpsInits() != 1)
    return unsupported(op, "more than one output");
  ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return unsupported(op, "dynamic shapes");
  if (llvm::is_contained(ranges, 0))
    return unsupported(op, "an empty iteration space");
  OpOperand *init = op.getDpsInitOperand(0);
  if (!isa<MemRefType>(init->get().getType()))
    return unsupported(op, "an output that is not a memref");
  FailureOr<LinearAccess> out = getLinearAccess(op, *init, ranges, lowering);
  if (failed(out))
    return failure();
  output = *out;
  // The columns are the output's innermost loop, the partitions its
  // longest other one.
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < ranges.size(); ++d) {
    bool parallel = iterators[d] == utils::IteratorType::parallel;
    int64_t coefficient = output.coefficients[d];
    if (!parallel) {
      if (coefficient != 0)
        return unsupported(op, "an output indexed by a reduction loop");
      continue;
    }
    if (coefficient == 0 && ranges[d] > 1)
      return unsupported(op, "an output that a parallel loop does not index");
    if (ranges[d] == 1)
      continue;
    if (!schedule.columnDim ||
        coefficient < output.coefficients[*schedule.columnDim])
      schedule.columnDim = d;
  }
  for (unsigned d = 0; d < ranges.size(); ++d)
    if (iterators[d] == utils::IteratorType::parallel && ranges[d] > 1 &&
        d != schedule.columnDim &&
        (!schedule.partitionDim || ranges[d] > ranges[*schedule.partitionDim]))
      schedule.partitionDim = d;
  chooseColumnReduction(iterators);
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (d == schedule.columnDim || d == schedule.partitionDim ||
        d == schedule.partitionReduction || ranges[d] == 1)
      continue;
    (iterators[d] == utils::IteratorType::parallel ? schedule.parallelLoops
                                                   : schedule.reductionLoops)
        .push_back(d);
  }
  tileColumns = std::min(schedule.columnDim ? ranges[*schedule.columnDim] : 1,
                         lowering.tiles.columns);
  if (failed(body.prepareBody(tileColumns)))
    return failure();
  bool reduces =
      !schedule.reductionLoops.empty() || schedule.columnReduction.has_value();
  for (OpOperand &operand : op->getOpOperands()) {
    BlockArgument argument = op.getMatchingBlockArgument(&operand);
    if (!isa<MemRefType>(operand.get().getType()) ||
        (op.isDpsInit(&operand) && reduces) || argument.use_empty())
      continue;
    FailureOr<LinearAccess> access =
        getLinearAccess(op, operand, ranges, lowering);
    if (failed(access))
      return failure();
    // Every tile is loaded before it is stored: an input that sees the
    // output's buffer other than element for element would read what the
    // nest had already overwritten.
    if (!op.isDpsInit(&operand) &&
        access->tensor.memloc == output.tensor.memloc &&
        (reduces || access->coefficients != output.coefficients ||
         access->offset != output.offset))
      return unsupported(op, "an input that reads the output's buffer other "
                             "than element for element (linalg leaves the "
                             "order of such updates to the loop nest)");
    loaded.push_back({argument.getArgNumber(), *access});
  }
  return success();
}

void GenericLowering::chooseColumnReduction(
    ArrayRef<utils::IteratorType> iterators) {
  // An output with no column loop, reduced from one input by one combiner:
  // the input's most contiguous reduction loop becomes the columns.
  Block *body = op.getBlock();
  Operation *combiner = body->getTerminator()->getOperand(0).getDefiningOp();
  if (schedule.columnDim || op.getNumDpsInputs() != 1 || !combiner ||
      body->getOperations().size() != 2 ||
      !llvm::is_contained(combiner->getOperands(), body->getArgument(0)) ||
      !llvm::is_contained(combiner->getOperands(), body->getArgument(1)))
    return;
  std::optional<AluOp> alu = getCombiner(combiner);
  // A bad input map is reported once, when the input is loaded.
  FailureOr<LinearAccess> input = failure();
  (void)quietly(op->getContext(), [&] {
    input = getLinearAccess(op, *op.getDpsInputOperand(0), ranges, lowering);
    return LogicalResult(input);
  });
  if (!alu || failed(input))
    return;
  for (unsigned d = 0; d < ranges.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction && ranges[d] > 1 &&
        (!schedule.columnDim ||
         input->coefficients[d] < input->coefficients[*schedule.columnDim]))
      schedule.columnDim = d;
  if (!schedule.columnDim)
    return;
  schedule.columnReduction = alu;
  if (schedule.partitionDim)
    return;
  for (unsigned d = 0; d < ranges.size(); ++d)
    if (iterators[d] == utils::IteratorType::reduction && ranges[d] > 1 &&
        d != schedule.columnDim &&
        (!schedule.partitionReduction ||
         ranges[d] > ranges[*schedule.partitionReduction]))
      schedule.partitionReduction = d;
}

AffineExpr GenericLowering::start(const LinearAccess &access,
                                  const RowTile &rows,
                                  const ColumnTile &columns) {
  AffineExpr start = kernel.constant(access.offset);
  if (schedule.partitionDim)
    start = start + rows.firstRow * access.coefficients[*schedule.partitionDim];
  if (schedule.columnDim)
    start =
        start + columns.firstColumn * access.coefficients[*schedule.columnDim];
  for (auto [dim, iv] : ivs)
    start = start + iv * access.coefficients[dim];
  return start;
}

AccessPatternAttr GenericLowering::dramPattern(const LinearAccess &access,
                                               const RowTile &rows,
                                               const ColumnTile &columns) {
  int64_t partitionStep =
      schedule.partitionDim ? access.coefficients[*schedule.partitionDim] : 0;
  int64_t columnStep =
      schedule.columnDim ? access.coefficients[*schedule.columnDim] : 0;
  return kernel.pattern(
      start(access, rows, columns),
      {{partitionStep, rows.partitions}, {columnStep, columns.columns}});
}

void GenericLowering::emitLoops(ArrayRef<unsigned> loops,
                                function_ref<void()> inner) {
  if (loops.empty())
    return inner();
  unsigned dim = loops.front();
  kernel.forEachTile(ranges[dim], 1, dealt == dim, [&](int64_t, AffineExpr iv) {
    ivs[dim] = iv;
    emitLoops(loops.drop_front(), inner);
    ivs.erase(dim);
  });
}

void GenericLowering::chooseDealt(bool columnsToo) {
  SmallVector<KernelBuilder::DealCandidate> candidates;
  for (unsigned dim : schedule.parallelLoops)
    candidates.push_back({dim, ranges[dim], 1});
  if (columnsToo && schedule.columnDim)
    candidates.push_back({*schedule.columnDim, ranges[*schedule.columnDim],
                          tileColumns, kernel.getMinVectorColumns()});
  dealt = kernel.chooseDealt(
      {kPartitions, schedule.partitionDim ? ranges[*schedule.partitionDim] : 1,
       128},
      candidates);
}

void GenericLowering::forEachPartitionTile(
    function_ref<void(const RowTile &)> body) {
  int64_t partitions =
      schedule.partitionDim ? ranges[*schedule.partitionDim] : 1;
  kernel.forEachTile(
      partitions, 128, dealt == kPartitions,
      [&](int64_t count, AffineExpr first) { body(RowTile{count, first}); });
}

FailureOr<Operand> GenericLowering::emitTile(const RowTile &rows,
                                             const ColumnTile &columns) {
  Location loc = op.getLoc();
  SmallVector<std::pair<unsigned, Operand>> preloaded;
  for (auto &[argument, access] : loaded) {
    MemlocOp tile = inputTiles[argument];
    kernel.create<DmaOp>(
        loc, tile, kernel.tilePattern(tile, rows.partitions, columns.columns),
        access.tensor.memloc, dramPattern(access, rows, columns));
    preloaded.push_back({argument, Operand{tile}});
  }
  bool reduces = !schedule.reductionLoops.empty();
  if (reduces) {
    unsigned outArgument =
        op.getMatchingBlockArgument(op.getDpsInitOperand(0)).getArgNumber();
    preloaded.push_back({outArgument, Operand{accumulator}});
  }
  FailureOr<Operand> result =
      body.computeTile(rows, columns, preloaded, accumulator);
  if (failed(result))
    return failure();
  // A tile of the output's type is stored as it is, unless a reduction
  // goes on accumulating it.
  if (!reduces && !result->isConstant() &&
      result->getElementType() == output.tensor.elementType)
    return *result;
  AccessPatternAttr resultPattern =
      kernel.tilePattern(accumulator, rows.partitions, columns.columns);
  if (result->isConstant())
    kernel.create<MemsetOp>(loc, accumulator, resultPattern, result->constant);
  else if (result->tile != accumulator || result->columnOffset != 0)
    kernel.create<TensorCopyOp>(
        loc, accumulator, resultPattern, result->tile,
        kernel.tilePattern(result->tile, rows.partitions, columns.columns,
                           result->columnOffset));
  return Operand{accumulator};
}

void GenericLowering::emitPartitionReduction(LinearAccess &input, MemlocOp in,
                                             MemlocOp part) {
  Location loc = op.getLoc();
  unsigned across = *schedule.partitionReduction;
  AluOp alu = *schedule.columnReduction;
  AccessPatternAttr acc = kernel.tilePattern(accumulator, 1, 1);
  // Up to 128 of its rows at a time on the partitions: each reduced along
  // its columns, the column of results turned into a row on the tensor
  // engine and reduced again.
  kernel.forEachColumnTile(ranges[across], 128, [&](const ColumnTile &rows) {
    int64_t p = rows.columns;
    ivs[across] = rows.firstColumn;
    kernel.forEachColumnTile(
        ranges[*schedule.columnDim], tileColumns, [&](const ColumnTile &col) {
          AccessPatternAttr tile = kernel.tilePattern(in, p, col.columns);
          kernel.create<DmaOp>(
              loc, in, tile, input.tensor.memloc,
              kernel.pattern(
                  start(input, RowTile{1, kernel.constant(0)}, col),
                  {{input.coefficients[across], p},
                   {input.coefficients[*schedule.columnDim], col.columns}}));
          AccessPatternAttr column = kernel.tilePattern(part, p, 1);
          AccessPatternAttr row = kernel.tilePattern(turned, 1, p);
          AccessPatternAttr one = kernel.tilePattern(part, 1, 1);
          kernel.create<TensorReduceOp>(loc, alu, part, column, in, tile);
          kernel.create<TransposeOp>(loc, turned, row, part, column);
          kernel.create<TensorReduceOp>(loc, alu, part, one, turned, row);
          kernel.create<TensorTensorOp>(loc, alu, accumulator, acc, accumulator,
                                        acc, part, one);
        });
    ivs.erase(across);
  });
}

void GenericLowering::emitColumnReduction() {
  Location loc = op.getLoc();
  // Named copies: a lambda may not capture a structured binding in C++17.
  unsigned argument = loaded.front().first;
  auto &input = loaded.front().second;
  MemlocOp in = inputTiles[argument];
  MemlocOp part = kernel.addTile("part", 128, 1, output.tensor.elementType);
  ColumnTile whole{1, kernel.constant(0)};
  chooseDealt(/*columnsToo=*/false);
  forEachPartitionTile([&](const RowTile &rows) {
    int64_t p = rows.partitions;
    emitLoops(schedule.parallelLoops, [&] {
      AccessPatternAttr acc = kernel.tilePattern(accumulator, p, 1);
      AccessPatternAttr stored = dramPattern(output, rows, whole);
      kernel.create<DmaOp>(loc, accumulator, acc, output.tensor.memloc, stored);
      emitLoops(schedule.reductionLoops, [&] {
        if (schedule.partitionReduction)
          return emitPartitionReduction(input, in, part);
        kernel.forEachColumnTile(
            ranges[*schedule.columnDim], tileColumns,
            [&](const ColumnTile &col) {
              AccessPatternAttr tile = kernel.tilePattern(in, p, col.columns);
              kernel.create<DmaOp>(loc, in, tile, input.tensor.memloc,
                                   dramPattern(input, rows, col));
              AccessPatternAttr reduced = kernel.tilePattern(part, p, 1);
              kernel.create<TensorReduceOp>(loc, *schedule.columnReduction,
                                            part, reduced, in, tile);
              kernel.create<TensorTensorOp>(loc, *schedule.columnReduction,
                                            accumulator, acc, accumulator, acc,
                                            part, reduced);
            });
      });
      kernel.create<DmaOp>(loc, output.tensor.memloc, stored, accumulator, acc);
    });
  });
}

LogicalResult GenericLowering::run() {
  if (failed(classify()))
    return failure();
  if (schedule.columnReduction) {
    for (auto &[argument, access] : loaded)
      inputTiles[argument] =
          kernel.addTile("in", 128, tileColumns, access.tensor.elementType);
    accumulator = kernel.addTile("acc", 128, 1, output.tensor.elementType);
    if (schedule.partitionReduction)
      turned = kernel.addTile("turned", 1, 128, output.tensor.elementType);
    emitColumnReduction();
    return success();
  }
  for (auto &[argument, access] : loaded)
    inputTiles[argument] =
        kernel.addTile("in", 128, tileColumns, access.tensor.elementType);
  accumulator =
      kernel.addTile("acc", 128, tileColumns, output.tensor.elementType);
  Location loc = op.getLoc();
  int64_t columns = schedule.columnDim ? ranges[*schedule.columnDim] : 1;
  LogicalResult status = success();
  chooseDealt(/*columnsToo=*/true);
  bool dealColumns = schedule.columnDim && dealt == *schedule.columnDim;
  forEachPartitionTile([&](const RowTile &rows) {
    emitLoops(schedule.parallelLoops, [&] {
      kernel.forEachTile(
          columns, tileColumns, dealColumns,
          [&](int64_t count, AffineExpr first) {
            ColumnTile col{count, first};
            if (failed(status))
              return;
            AccessPatternAttr stored = dramPattern(output, rows, col);
            // A reduction starts from the output's values.
            if (!schedule.reductionLoops.empty())
              kernel.create<DmaOp>(
                  loc, accumulator,
                  kernel.tilePattern(accumulator, rows.partitions, col.columns),
                  output.tensor.memloc, stored);
            FailureOr<Operand> result = Operand{accumulator};
            emitLoops(schedule.reductionLoops, [&] {
              if (succeeded(result))
                result = emitTile(rows, col);
            });
            if (failed(result)) {
              status = failure();
              return;
            }
            kernel.create<DmaOp>(
                loc, output.tensor.memloc, stored, result->tile,
                kernel.tilePattern(result->tile, rows.partitions, col.columns,
                                   result->columnOffset));
          });
    });
  });
  return status;
}

LogicalResult walrus::linalg_to_bir::lowerGeneric(linalg::LinalgOp op,
                                                  Lowering &lowering) {
  return GenericLowering(op, lowering).run();
}

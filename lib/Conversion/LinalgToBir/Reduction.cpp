//===- Reduction.cpp - Row reductions and softmax to bir ------------------===//
//
// Reductions along the innermost dimension: per tile of rows, the
// accumulator starts from the output's value, each column tile is reduced
// with tensor_reduce and combined into it. linalg.softmax keeps a whole
// row in SBUF: max, subtract, exp, sum, reciprocal, multiply
// (docs/LinalgToBir.md, "Reductions and softmax").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"
#include "Lowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

FailureOr<std::pair<int64_t, int64_t>>
walrus::linalg_to_bir::getRowsAndColumns(Operation *op,
                                         ArrayRef<int64_t> shape) {
  if (llvm::any_of(shape, ShapedType::isDynamic))
    return unsupported(op, "dynamic shapes");
  int64_t rows = 1;
  for (int64_t dim : shape.drop_back(shape.empty() ? 0 : 1)) {
    std::optional<int64_t> product = llvm::checkedMul(rows, dim);
    if (!product)
      return unsupported(op, "more than 2^63 elements");
    rows = *product;
  }
  return std::make_pair(rows, shape.empty() ? int64_t(1) : shape.back());
}

/// The vector-engine operation that combines two values as `combiner`
/// does.
std::optional<AluOp> walrus::linalg_to_bir::getCombiner(Operation *combiner) {
  if (isa<arith::AddFOp, arith::AddIOp>(combiner))
    return AluOp::Add;
  if (isa<arith::MulFOp, arith::MulIOp>(combiner))
    return AluOp::Multiply;
  if (isa<arith::MaximumFOp, arith::MaxSIOp>(combiner))
    return AluOp::Max;
  if (isa<arith::MinimumFOp, arith::MinSIOp>(combiner))
    return AluOp::Min;
  if (isa<arith::MaxNumFOp>(combiner))
    return AluOp::MaxNum;
  if (isa<arith::MinNumFOp>(combiner))
    return AluOp::MinNum;
  return std::nullopt;
}

FailureOr<AluOp> walrus::linalg_to_bir::matchRowReduction(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1)
    return unsupported(op, "a reduction of other than one input into one "
                           "output");
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  if (iterators.empty() || iterators.back() != utils::IteratorType::reduction ||
      op.getNumReductionLoops() != 1)
    return unsupported(op, "a reduction of other than the innermost loop");
  OpOperand *input = op.getDpsInputOperand(0);
  OpOperand *init = op.getDpsInitOperand(0);
  unsigned rank = op.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, op.getContext());
  AffineMap keepdim =
      identity.replace(getAffineDimExpr(rank - 1, op.getContext()),
                       getAffineConstantExpr(0, op.getContext()), rank, 0);
  AffineMap outputMap = op.getMatchingIndexingMap(init);
  if (!op.getMatchingIndexingMap(input).isIdentity() ||
      (outputMap != identity.dropResult(rank - 1) && outputMap != keepdim))
    return unsupported(op, "a reduction other than of the innermost "
                           "dimension of its input");
  // The body combines the input element with the accumulator.
  Block *body = op.getBlock();
  Operation *combiner = body->getTerminator()->getOperand(0).getDefiningOp();
  std::optional<AluOp> alu = combiner && body->getOperations().size() == 2
                                 ? getCombiner(combiner)
                                 : std::nullopt;
  if (!alu ||
      !llvm::is_contained(combiner->getOperands(), body->getArgument(0)) ||
      !llvm::is_contained(combiner->getOperands(), body->getArgument(1)))
    return unsupported(op, "a reduction body other than one add, multiply, "
                           "max or min of the element and the accumulator");
  return *alu;
}

bool walrus::linalg_to_bir::isRowReduction(linalg::LinalgOp op) {
  return succeeded(quietly(
      op->getContext(), [&] { return LogicalResult(matchRowReduction(op)); }));
}

/// Whether nothing between `producer` and `reduction` writes memory, but
/// for a fill of the reduction's own output, a buffer allocated after the
/// producer (which cannot read it): the producer may then run at the
/// reduction.
static bool mayComputeAtReduction(linalg::LinalgOp producer,
                                  linalg::LinalgOp reduction) {
  Value init = reduction.getDpsInitOperand(0)->get();
  auto alloc = init.getDefiningOp<memref::AllocOp>();
  bool freshInit = alloc && alloc->getBlock() == producer->getBlock() &&
                   producer->isBeforeInBlock(alloc);
  for (Operation *between = producer->getNextNode(); between != reduction;
       between = between->getNextNode()) {
    auto fill = dyn_cast<linalg::FillOp>(between);
    if (fill && freshInit && fill.getDpsInitOperand(0)->get() == init)
      continue;
    if (writesMemory(between))
      return false;
  }
  return true;
}

linalg::LinalgOp
walrus::linalg_to_bir::findReductionProducer(linalg::LinalgOp reduction,
                                             Lowering &lowering) {
  if (!isRowReduction(reduction))
    return {};
  Value buffer = reduction.getDpsInputOperand(0)->get();
  linalg::LinalgOp producer;
  for (Operation *user : buffer.getUsers()) {
    auto linalgUser = dyn_cast<linalg::LinalgOp>(user);
    if (linalgUser && linalgUser != reduction &&
        linalgUser.getNumDpsInits() == 1 &&
        linalgUser.getDpsInitOperand(0)->get() == buffer)
      producer = linalgUser;
  }
  if (!producer || !isOnlyBetween(buffer, producer, reduction) ||
      producer->getBlock() != reduction->getBlock() ||
      !producer->isBeforeInBlock(reduction) ||
      producer.getNumReductionLoops() != 0 ||
      producer.getStaticLoopRanges() != reduction.getStaticLoopRanges() ||
      !mayComputeAtReduction(producer, reduction))
    return {};
  ElementwiseLowering elementwise(producer, lowering);
  if (failed(quietly(producer->getContext(),
                     [&] { return elementwise.classifyOperands(); })))
    return {};
  return producer;
}

namespace {
/// One rotating set of a reduction's tiles: the input tile (none when a
/// producer computes it), the tile's partial result and the accumulator.
struct ReductionTiles {
  MemlocOp in, part, acc;
};

/// A row reduction being emitted, one tile of rows at a time.
struct RowReduction {
  KernelBuilder &kernel;
  Location loc;
  AluOp alu;
  DramTensor source, target;
  /// The producer computing each input tile, if one does.
  ElementwiseLowering *computed;
  int64_t columns, tileColumns;

  /// Reduces the rows of `rowTile` with `tiles`, starting from the
  /// output's value.
  LogicalResult emitRowTile(const RowTile &rowTile, ReductionTiles tiles);
};
} // namespace

void walrus::linalg_to_bir::reduceInto(KernelBuilder &kernel, Location loc,
                                       AluOp alu, MemlocOp acc, MemlocOp part,
                                       const Operand &tile, int64_t partitions,
                                       int64_t columns) {
  AccessPatternAttr accTile = kernel.tilePattern(acc, partitions, 1);
  AccessPatternAttr partTile = kernel.tilePattern(part, partitions, 1);
  MemlocOp source = tile.tile;
  kernel.create<TensorReduceOp>(
      loc, alu, part, partTile, source,
      kernel.tilePattern(source, partitions, columns, tile.columnOffset));
  kernel.create<TensorTensorOp>(loc, alu, acc, accTile, acc, accTile, part,
                                partTile);
}

LogicalResult RowReduction::emitRowTile(const RowTile &rowTile,
                                        ReductionTiles tiles) {
  int64_t p = rowTile.partitions;
  AffineExpr row = rowTile.firstRow;
  AccessPatternAttr accTile = kernel.tilePattern(tiles.acc, p, 1);
  AccessPatternAttr out = kernel.pattern(row + target.base, {{1, p}, {1, 1}});
  kernel.create<DmaOp>(loc, tiles.acc, accTile, target.memloc, out);
  LogicalResult status = success();
  kernel.forEachColumnTile(columns, tileColumns, [&](const ColumnTile &col) {
    int64_t w = col.columns;
    Operand tile{tiles.in, {}};
    if (computed) {
      FailureOr<Operand> value = computed->computeFullTile(rowTile, col);
      if (failed(value)) {
        status = failure();
        return;
      }
      tile = *value;
    } else {
      kernel.create<DmaOp>(
          loc, tiles.in, kernel.tilePattern(tiles.in, p, w), source.memloc,
          kernel.dramPattern(source, row, col.firstColumn, p, w));
    }
    reduceInto(kernel, loc, alu, tiles.acc, tiles.part, tile, p, w);
  });
  kernel.create<DmaOp>(loc, target.memloc, out, tiles.acc, accTile);
  return status;
}

LogicalResult walrus::linalg_to_bir::lowerReduction(linalg::LinalgOp op,
                                                    Lowering &lowering,
                                                    linalg::LinalgOp producer) {
  KernelBuilder &kernel = lowering.kernel;
  FailureOr<AluOp> alu = matchRowReduction(op);
  if (failed(alu))
    return failure();
  FailureOr<DramTensor> source =
      lowering.getTensor(op, op.getDpsInputOperand(0)->get());
  FailureOr<DramTensor> target =
      lowering.getTensor(op, op.getDpsInitOperand(0)->get());
  if (failed(source) || failed(target))
    return failure();
  // Tiles are loaded before they are stored: in place, later tiles would
  // read what earlier ones overwrote.
  if (source->memloc == target->memloc)
    return unsupported(op, "an input in the output's buffer");
  FailureOr<std::pair<int64_t, int64_t>> shape =
      getRowsAndColumns(op, op.getStaticLoopRanges());
  if (failed(shape))
    return failure();
  if (!target->isContiguous())
    return unsupported(op, "an output that is a strided view");
  // The producer's body computes each input tile, or it is loaded.
  std::optional<ElementwiseLowering> computed;
  if (producer) {
    computed.emplace(producer, lowering);
    if (failed(computed->classifyOperands()))
      return failure();
  }
  int64_t columns = shape->second;
  RowReduction reduction{kernel,
                         op.getLoc(),
                         *alu,
                         *source,
                         *target,
                         computed ? &*computed : nullptr,
                         columns,
                         computed
                             ? computed->getTileColumns()
                             : std::min(columns, lowering.tiles.vectorColumns)};
  // Consecutive row tiles of a core take turns among `elementwise-buffers`
  // sets of tiles (no more than the core has tiles), so one tile's loads
  // need not wait for the last one's reduction.
  int64_t tilesPerCore =
      llvm::divideCeil(kernel.getBusiestShare(shape->first, 128), 128);
  int64_t buffers =
      std::clamp<int64_t>(tilesPerCore, 1, lowering.tiles.elementwiseBuffers);
  SmallVector<ReductionTiles> sets;
  for (int64_t rotation = 0; rotation < buffers; ++rotation) {
    ReductionTiles tiles;
    if (!computed)
      tiles.in = kernel.addTile("red_in", 128, reduction.tileColumns,
                                source->elementType);
    tiles.part = kernel.addTile("red_part", 128, 1, target->elementType);
    tiles.acc = kernel.addTile("red_acc", 128, 1, target->elementType);
    sets.push_back(tiles);
  }
  LogicalResult status = success();
  kernel.forEachRotatingRowTile(
      shape->first, 128, buffers, [&](const RowTile &rowTile, unsigned turn) {
        if (computed)
          computed->useBuffer(turn);
        if (succeeded(status))
          status = reduction.emitRowTile(rowTile, sets[turn]);
      });
  if (computed)
    computed->markRotations();
  for (auto [rotation, tiles] : llvm::enumerate(sets))
    for (MemlocOp memloc : {tiles.in, tiles.part, tiles.acc})
      if (buffers > 1)
        kernel.markRotating(memloc, rotation);
  return status;
}

void walrus::linalg_to_bir::emitRowSoftmax(KernelBuilder &kernel, Location loc,
                                           const SoftmaxTiles &tiles,
                                           int64_t partitions,
                                           int64_t columns) {
  auto [source, exps, result, stats] = tiles;
  auto row = [&](MemlocOp tile) {
    return kernel.tilePattern(tile, partitions, columns);
  };
  AccessPatternAttr stat = kernel.tilePattern(stats, partitions, 1);
  // The per-row statistic, read across the row.
  AccessPatternAttr spread =
      kernel.pattern(kernel.constant(0), {{1, partitions}, {0, columns}});
  // exp(x - max) on the scalar engine, the negated maximum its bias.
  kernel.create<TensorReduceOp>(loc, AluOp::Max, stats, stat, source,
                                row(source));
  kernel.create<TensorScalarOp>(loc, AluOp::Multiply, stats, stat, stats, stat,
                                kernel.getBuilder().getF64FloatAttr(-1.0),
                                /*reverse=*/false);
  kernel.create<ActivationOp>(loc, ActivationFunction::Exp, exps, row(exps),
                              source, row(source), stats, spread, APFloat(1.0));
  kernel.create<TensorReduceOp>(loc, AluOp::Add, stats, stat, exps, row(exps));
  kernel.create<ActivationOp>(loc, ActivationFunction::Reciprocal, stats, stat,
                              stats, stat, APFloat(1.0));
  kernel.create<TensorTensorOp>(loc, AluOp::Multiply, result, row(result), exps,
                                row(exps), stats, spread);
}

LogicalResult walrus::linalg_to_bir::lowerSoftmax(linalg::SoftmaxOp op,
                                                  Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  auto type = cast<ShapedType>(op.getInput().getType());
  if (op.getDimension() + 1 != uint64_t(type.getRank()))
    return unsupported(op, "a softmax along other than the innermost "
                           "dimension");
  FailureOr<DramTensor> source = lowering.getTensor(op, op.getInput());
  FailureOr<DramTensor> target = lowering.getTensor(op, op.getOutput());
  if (failed(source) || failed(target))
    return failure();
  FailureOr<std::pair<int64_t, int64_t>> shape =
      getRowsAndColumns(op, type.getShape());
  if (failed(shape))
    return failure();
  int64_t rows = shape->first, columns = shape->second;
  // A whole row stays in SBUF: the input, the exponentials in f32, the
  // output.
  Type f32 = Float32Type::get(kernel.getContext());
  int64_t rowBytes =
      columns * (4 + source->elementType.getIntOrFloatBitWidth() / 8 +
                 target->elementType.getIntOrFloatBitWidth() / 8);
  if (columns > kernel.getTarget().getSbufBytesPerPartition() ||
      rowBytes > kernel.getTarget().getSbufBytesPerPartition())
    return unsupported(op, "rows of " + Twine(columns) +
                               " elements, which do not fit in one SBUF "
                               "partition");
  // Sets of tiles in turn (normalization-buffers, fewer where SBUF or the
  // core's row tiles do not need them): one tile's load and store overlap
  // the last one's softmax.
  int64_t tilesPerCore =
      llvm::divideCeil(kernel.getBusiestShare(rows, 128), 128);
  int64_t fitting =
      kernel.getTarget().getSbufBytesPerPartition() * 3 / 4 / (rowBytes + 4);
  int64_t buffers = std::max<int64_t>(
      1,
      std::min({tilesPerCore, fitting, lowering.tiles.normalizationBuffers}));
  Location loc = op.getLoc();
  SmallVector<SoftmaxTiles> sets;
  for (int64_t turn = 0; turn < buffers; ++turn) {
    SoftmaxTiles set{kernel.addTile("sm_x", 128, columns, source->elementType),
                     kernel.addTile("sm_exp", 128, columns, f32),
                     kernel.addTile("sm_y", 128, columns, target->elementType),
                     kernel.addTile("sm_stat", 128, 1, f32)};
    for (MemlocOp memloc : {set.source, set.exps, set.result, set.stats})
      if (buffers > 1)
        kernel.markRotating(memloc, turn);
    sets.push_back(set);
  }
  kernel.forEachRotatingRowTile(
      rows, 128, buffers, [&](const RowTile &rowTile, unsigned turn) {
        SoftmaxTiles set = sets[turn];
        int64_t p = rowTile.partitions;
        AccessPatternAttr load = kernel.dramPattern(
            *source, rowTile.firstRow, kernel.constant(0), p, columns);
        AccessPatternAttr store = kernel.dramPattern(
            *target, rowTile.firstRow, kernel.constant(0), p, columns);
        AccessPatternAttr row = kernel.tilePattern(set.source, p, columns);
        kernel.create<DmaOp>(loc, set.source, row, source->memloc, load);
        emitRowSoftmax(kernel, loc, set, p, columns);
        kernel.create<DmaOp>(loc, target->memloc, store, set.result, row);
      });
  return success();
}

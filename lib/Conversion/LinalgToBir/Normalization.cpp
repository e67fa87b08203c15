//===- Normalization.cpp - A row reduction and its normalization to bir ---===//
//
// RMSNorm and its kin: a row reduction (with the elementwise producer it
// computes), elementwise ops of its result one value per row, then an
// elementwise op that reads the reduced rows again with a per-row value.
// Lowered op by op, the rows are read from DRAM twice; here one nest per
// row tile loads them once and keeps them in SBUF for both
// (docs/LinalgToBir.md, "Normalizations").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"
#include "Lowerings.h"

#include "mlir/IR/Matchers.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <memory>

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

/// The memrefs `op` reads element for element (through the identity map).
static SmallVector<Value> getPlainInputs(linalg::LinalgOp op) {
  SmallVector<Value> inputs;
  for (OpOperand *input : op.getDpsInputOperands())
    if (isa<MemRefType>(input->get().getType()) &&
        op.getMatchingIndexingMap(input).isIdentity() &&
        !llvm::is_contained(inputs, input->get()))
      inputs.push_back(input->get());
  return inputs;
}

/// Whether `op` reads no memref but `perRow`, element for element.
static bool readsOnly(linalg::LinalgOp op, Value perRow) {
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    return !isa<MemRefType>(input->get().getType()) ||
           (input->get() == perRow &&
            op.getMatchingIndexingMap(input).isIdentity());
  });
}

/// Whether the ops strictly between `first` and `last`, but for `chain`'s,
/// write or free no memory: the chain's ops may then run at `first`.
static bool onlyChainWritesBetween(Operation *first, Operation *last,
                                   ArrayRef<Operation *> chain) {
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    if (!llvm::is_contained(chain, op) && writesMemory(op))
      return false;
  }
  return true;
}

/// Whether no op strictly between `first` and `last` but `producer` reads
/// or writes memory, and `producer` does not touch `buffer`: what `first`
/// writes into `buffer` is then seen first by `last`.
static bool onlyProducerBetween(Operation *first, Operation *last,
                                Operation *producer, Value buffer) {
  if (producer && llvm::is_contained(producer->getOperands(), buffer))
    return false;
  for (Operation *op = first->getNextNode(); op && op != last;
       op = op->getNextNode()) {
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (op != producer &&
        (writesMemory(op) || effects.hasEffect<MemoryEffects::Read>()))
      return false;
  }
  return true;
}

/// Sets the chain's fill: a fill of a constant into the reduction's output,
/// the op the lowering takes just before the reduction (or its producer),
/// with nothing between them that touches memory but the producer.
static void matchFill(NormalizationChain &chain) {
  Value output = chain.reduction.getDpsInits()[0];
  Operation *previous = getPreviousLinalg(chain.reduction);
  if (previous && previous == chain.producer)
    previous = getPreviousLinalg(previous);
  auto fill = dyn_cast_or_null<linalg::FillOp>(previous);
  Attribute value;
  if (!fill || fill.getOutputs()[0] != output ||
      !matchPattern(fill.getInputs()[0], m_Constant(&value)) ||
      !onlyProducerBetween(fill, chain.reduction, chain.producer, output))
    return;
  MLIRContext *context = fill.getContext();
  if (auto real = dyn_cast<FloatAttr>(value))
    chain.fillValue = getFloatImmediate(context, real.getValueAsDouble());
  else if (auto integer = dyn_cast<IntegerAttr>(value))
    chain.fillValue = getIntegerImmediate(context, integer.getInt());
  if (chain.fillValue)
    chain.fill = fill;
}

/// The chain's ops after `reduction` (per-row ops, then the normalization)
/// by their shapes and what they read; nothing checked about lowering.
static std::optional<NormalizationChain> matchChain(linalg::LinalgOp reduction,
                                                    linalg::LinalgOp producer) {
  NormalizationChain chain{producer, reduction, {}, {}};
  Value perRow = reduction.getDpsInitOperand(0)->get();
  ArrayRef<int64_t> rowShape = cast<MemRefType>(perRow.getType()).getShape();
  SmallVector<Value> perRowValues = {perRow};
  for (Operation *next = getNextLinalg(reduction); next;
       next = getNextLinalg(next)) {
    auto op = dyn_cast<linalg::LinalgOp>(next);
    if (!op || op.getNumDpsInits() != 1 ||
        op.getNumParallelLoops() != op.getNumLoops() ||
        !isa<MemRefType>(op.getDpsInits()[0].getType()) ||
        llvm::is_contained(perRowValues, op.getDpsInits()[0]))
      return std::nullopt;
    if (op.getStaticLoopRanges() == reduction.getStaticLoopRanges()) {
      chain.normalize = op;
      break;
    }
    if (op.getStaticLoopRanges() != rowShape ||
        !readsOnly(op, perRowValues.back()) ||
        !op.getMatchingIndexingMap(op.getDpsInitOperand(0)).isIdentity())
      return std::nullopt;
    chain.rowOps.push_back(op);
    perRowValues.push_back(op.getDpsInits()[0]);
  }
  if (!chain.normalize)
    return std::nullopt;
  SmallVector<Operation *> ops(chain.rowOps.begin(), chain.rowOps.end());
  ops.push_back(chain.normalize);
  auto reads = [&](Value value) {
    return llvm::is_contained(chain.normalize.getDpsInputs(), value);
  };
  if (!llvm::any_of(perRowValues, reads) ||
      !onlyChainWritesBetween(reduction, chain.normalize, ops))
    return std::nullopt;
  matchFill(chain);
  return chain;
}

namespace {
/// The nest of one normalization chain: what its ops read and where, the
/// tiles' width, then the emission row tile by row tile.
class NormalizationNest {
public:
  NormalizationNest(const NormalizationChain &chain, Lowering &lowering)
      : chain(chain), lowering(lowering), kernel(lowering.kernel),
        normalize(chain.normalize, lowering) {}

  /// Classifies the ops and sizes the tiles: an error when an op does not
  /// lower or the rows do not fit.
  LogicalResult prepare();
  LogicalResult emit();

private:
  /// Whether the normalization reads the per-row values one per row and
  /// the sources as they are.
  LogicalResult checkOperands();
  /// The widest column tile with which `sets` sets of tiles fit, or 0.
  int64_t fitColumns(int64_t sets);
  /// The tiles' width and the buffers, so that they fit.
  LogicalResult sizeTiles();
  struct RowTiles {
    SmallVector<MemlocOp> sources;
    MemlocOp part, acc;
  };
  /// The operands of `op` that are sources, from column `firstColumn` of
  /// their rows in `tiles`.
  SmallVector<std::pair<unsigned, Operand>>
  getSourceOperands(linalg::LinalgOp op, const RowTiles &tiles,
                    int64_t firstColumn);
  LogicalResult emitRowTile(const RowTile &rowTile, RowTiles tiles);
  /// Computes the per-row ops on `value` (the reduced rows, in SBUF),
  /// stores each result, and returns every per-row value by its buffer.
  FailureOr<DenseMap<Value, Operand>> emitRowOps(const RowTile &rowTile,
                                                 Operand value);
  template <typename Body> void forEachColumnTile(Body body) {
    for (int64_t first = 0; first < columns; first += tileColumns)
      body(ColumnTile{std::min(tileColumns, columns - first),
                      kernel.constant(first)},
           first);
  }

  NormalizationChain chain;
  Lowering &lowering;
  KernelBuilder &kernel;
  ElementwiseLowering normalize;
  std::optional<ElementwiseLowering> producer;
  SmallVector<std::unique_ptr<ElementwiseLowering>> rowOps;
  AluOp alu = AluOp::Add;
  /// The memrefs both the reduced rows and the normalization read element
  /// for element, kept in SBUF a whole row at a time.
  SmallVector<Value> sources;
  SmallVector<DramTensor> sourceTensors;
  DramTensor target;
  int64_t rows = 0, columns = 0, tileColumns = 0, buffers = 1;
};
} // namespace

/// One row tile's per-row value `row + base` of a contiguous tensor.
static AccessPatternAttr perRowPattern(KernelBuilder &kernel,
                                       const DramTensor &tensor,
                                       const RowTile &rowTile) {
  return kernel.pattern(rowTile.firstRow + tensor.base,
                        {{1, rowTile.partitions}, {1, 1}});
}

LogicalResult NormalizationNest::prepare() {
  linalg::LinalgOp reduction = chain.reduction;
  FailureOr<AluOp> combiner = matchRowReduction(reduction);
  FailureOr<std::pair<int64_t, int64_t>> shape =
      getRowsAndColumns(reduction, reduction.getStaticLoopRanges());
  FailureOr<DramTensor> output =
      lowering.getTensor(reduction, reduction.getDpsInits()[0]);
  if (failed(combiner) || failed(shape) || failed(output) ||
      failed(normalize.classifyOperands()))
    return failure();
  alu = *combiner;
  std::tie(rows, columns) = *shape;
  target = *output;
  if (!target.isContiguous())
    return unsupported(reduction, "an output that is a strided view");
  if (chain.producer) {
    producer.emplace(chain.producer, lowering);
    if (failed(producer->classifyOperands()))
      return failure();
  }
  for (linalg::LinalgOp op : chain.rowOps) {
    rowOps.push_back(std::make_unique<ElementwiseLowering>(op, lowering));
    FailureOr<DramTensor> result = lowering.getTensor(op, op.getDpsInits()[0]);
    if (failed(rowOps.back()->classifyOperands()) || failed(result))
      return failure();
    if (!result->isContiguous())
      return unsupported(op, "an output that is a strided view");
    rowOps.back()->setTileColumns(1);
  }
  // The sources: what the reduced rows are read from, if the
  // normalization reads it too.
  for (Value source :
       getPlainInputs(chain.producer ? chain.producer : reduction))
    if (llvm::is_contained(getPlainInputs(chain.normalize), source)) {
      FailureOr<DramTensor> tensor = lowering.getTensor(reduction, source);
      if (failed(tensor))
        return failure();
      if (tensor->memloc == target.memloc)
        return unsupported(reduction, "an input in the output's buffer");
      sources.push_back(source);
      sourceTensors.push_back(*tensor);
    }
  if (sources.empty())
    return unsupported(chain.normalize, "no rows read again");
  if (failed(checkOperands()))
    return failure();
  return sizeTiles();
}
LogicalResult NormalizationNest::checkOperands() {
  // The normalization reads each per-row value one per row, and the
  // sources as they are.
  SmallVector<Value> perRow = {chain.reduction.getDpsInits()[0]};
  for (linalg::LinalgOp op : chain.rowOps)
    perRow.push_back(op.getDpsInits()[0]);
  for (OpOperand *input : chain.normalize.getDpsInputOperands()) {
    std::optional<Broadcast> broadcast =
        normalize.getBroadcast(input->getOperandNumber());
    if (llvm::is_contained(perRow, input->get()) &&
        broadcast != Broadcast::AcrossColumns)
      return unsupported(chain.normalize, "a per-row value read other than "
                                          "one per row");
    if (llvm::is_contained(sources, input->get()) &&
        broadcast != Broadcast::None)
      return unsupported(chain.normalize, "rows read again other than as "
                                          "they are");
  }
  return success();
}

int64_t NormalizationNest::fitColumns(int64_t sets) {
  // Three quarters of a partition (the nest's tiles are the only ones live
  // while it runs) hold a whole row of each source per set, the
  // normalization's inputs broadcast across rows (loaded once), and a set
  // of the producer's and the normalization's tiles per set.
  auto bytes = [](Type type) {
    return int64_t(type.getIntOrFloatBitWidth()) / 8;
  };
  int64_t rowBytes = 0;
  for (const DramTensor &tensor : sourceTensors)
    rowBytes += bytes(tensor.elementType) * sets;
  for (OpOperand *input : chain.normalize.getDpsInputOperands())
    if (normalize.getBroadcast(input->getOperandNumber()) ==
        Broadcast::AcrossRows)
      rowBytes += bytes(getElementTypeOrSelf(input->get().getType()));
  int64_t budget = kernel.getTarget().getSbufBytesPerPartition() / 4 * 3;
  std::optional<int64_t> fixed = llvm::checkedMul(rowBytes, columns);
  if (!fixed || *fixed > budget)
    return 0;
  // Inputs in SBUF already take no tile of the set: the sources' rows,
  // the per-row values, the inputs broadcast across rows.
  auto loadedInputs = [&](linalg::LinalgOp op) {
    return unsigned(llvm::count_if(op.getDpsInputOperands(), [&](auto *input) {
      return !llvm::is_contained(sources, input->get()) &&
             !(op == chain.normalize &&
               normalize.getBroadcast(input->getOperandNumber()) !=
                   Broadcast::None);
    }));
  };
  int64_t perColumn =
      normalize.getTileBytesPerColumn(loadedInputs(chain.normalize)) +
      (producer ? producer->getTileBytesPerColumn(loadedInputs(chain.producer))
                : 0);
  int64_t widest = lowering.tiles.fitVectorColumns
                       ? (budget - *fixed) / (perColumn * sets)
                       : lowering.tiles.vectorColumns;
  int64_t fitting = std::min({widest, lowering.tiles.vectorColumns, columns});
  return fitting >= std::min(columns, kernel.getMinVectorColumns()) ? fitting
                                                                    : 0;
}

LogicalResult NormalizationNest::sizeTiles() {
  // As many sets as asked (no more than a core's row tiles) that fit: wide
  // rows take fewer.
  int64_t tilesPerCore =
      llvm::divideCeil(kernel.getBusiestShare(rows, 128), 128);
  tileColumns = 0;
  for (buffers = std::clamp<int64_t>(tilesPerCore, 1,
                                     lowering.tiles.normalizationBuffers);
       buffers > 0 && !tileColumns; --buffers)
    tileColumns = fitColumns(buffers);
  ++buffers;
  int64_t minColumns = kernel.getMinVectorColumns();
  if (!tileColumns)
    return unsupported(chain.normalize,
                       "rows of " + Twine(columns) +
                           " elements, which do not fit in SBUF with the "
                           "normalization's tiles");
  if (kernel.dealsBetter(rows, 128, columns, tileColumns, minColumns))
    return unsupported(chain.normalize,
                       "columns that deal to the cores better than rows");
  normalize.setTileColumns(tileColumns);
  if (producer)
    producer->setTileColumns(tileColumns);
  return success();
}

SmallVector<std::pair<unsigned, Operand>>
NormalizationNest::getSourceOperands(linalg::LinalgOp op, const RowTiles &tiles,
                                     int64_t firstColumn) {
  SmallVector<std::pair<unsigned, Operand>> operands;
  for (OpOperand *input : op.getDpsInputOperands())
    for (auto [source, tile] : llvm::zip(sources, tiles.sources))
      if (input->get() == source &&
          op.getMatchingIndexingMap(input).isIdentity())
        operands.push_back(
            {input->getOperandNumber(), Operand{tile, {}, firstColumn}});
  return operands;
}

FailureOr<DenseMap<Value, Operand>>
NormalizationNest::emitRowOps(const RowTile &rowTile, Operand value) {
  auto perRowOperand = [](const Operand &operand) {
    return Operand{operand.tile,
                   {},
                   operand.columnOffset,
                   /*acrossColumns=*/true};
  };
  Value last = chain.reduction.getDpsInits()[0];
  DenseMap<Value, Operand> perRow = {{last, perRowOperand(value)}};
  for (auto [op, lowered] : llvm::zip(chain.rowOps, rowOps)) {
    SmallVector<std::pair<unsigned, Operand>> preloaded;
    for (OpOperand *input : op.getDpsInputOperands())
      if (input->get() == last)
        preloaded.push_back({input->getOperandNumber(), value});
    FailureOr<Operand> result = lowered->computeFullTile(
        rowTile, ColumnTile{1, kernel.constant(0)}, preloaded);
    FailureOr<DramTensor> output = lowering.getTensor(op, op.getDpsInits()[0]);
    if (failed(result) || failed(output))
      return failure();
    kernel.create<DmaOp>(op.getLoc(), output->memloc,
                         perRowPattern(kernel, *output, rowTile), result->tile,
                         kernel.tilePattern(result->tile, rowTile.partitions, 1,
                                            result->columnOffset));
    value = *result;
    last = op.getDpsInits()[0];
    perRow[last] = perRowOperand(value);
  }
  return perRow;
}

LogicalResult NormalizationNest::emitRowTile(const RowTile &rowTile,
                                             RowTiles tiles) {
  int64_t p = rowTile.partitions;
  Location loc = chain.reduction.getLoc();
  for (auto [source, tensor] : llvm::zip(tiles.sources, sourceTensors)) {
    MemlocOp tile = source;
    kernel.create<DmaOp>(loc, tile, kernel.tilePattern(tile, p, columns),
                         tensor.memloc,
                         kernel.dramPattern(tensor, rowTile.firstRow,
                                            kernel.constant(0), p, columns));
  }
  // The reduction starts from its output's value, as lowerReduction's: the
  // constant it was filled with, or the value loaded.
  AccessPatternAttr accTile = kernel.tilePattern(tiles.acc, p, 1);
  AccessPatternAttr out = perRowPattern(kernel, target, rowTile);
  if (chain.fill)
    kernel.create<MemsetOp>(loc, tiles.acc, accTile, chain.fillValue);
  else
    kernel.create<DmaOp>(loc, tiles.acc, accTile, target.memloc, out);
  LogicalResult status = success();
  forEachColumnTile([&](const ColumnTile &columnTile, int64_t first) {
    FailureOr<Operand> tile = Operand{tiles.sources.front(), {}, first};
    if (producer && succeeded(status))
      tile = producer->computeFullTile(
          rowTile, columnTile, getSourceOperands(chain.producer, tiles, first));
    if (failed(tile))
      status = failure();
    if (succeeded(status))
      reduceInto(kernel, loc, alu, tiles.acc, tiles.part, *tile, p,
                 columnTile.columns);
  });
  if (failed(status))
    return failure();
  kernel.create<DmaOp>(loc, target.memloc, out, tiles.acc, accTile);
  FailureOr<DenseMap<Value, Operand>> perRow =
      emitRowOps(rowTile, Operand{tiles.acc, {}});
  if (failed(perRow))
    return failure();
  forEachColumnTile([&](const ColumnTile &columnTile, int64_t first) {
    SmallVector<std::pair<unsigned, Operand>> preloaded =
        getSourceOperands(chain.normalize, tiles, first);
    for (OpOperand *input : chain.normalize.getDpsInputOperands())
      if (auto found = perRow->find(input->get()); found != perRow->end())
        preloaded.push_back({input->getOperandNumber(), found->second});
    if (succeeded(status))
      status = normalize.emitTile(rowTile, columnTile, preloaded);
  });
  return status;
}

LogicalResult NormalizationNest::emit() {
  if (rows > 128 && normalize.hasRowBroadcasts())
    normalize.loadRowBroadcasts(ColumnTile{columns, kernel.constant(0)});
  SmallVector<RowTiles> sets(buffers);
  for (RowTiles &tiles : sets) {
    for (const DramTensor &tensor : sourceTensors)
      tiles.sources.push_back(
          kernel.addTile("norm_row", 128, columns, tensor.elementType));
    tiles.part = kernel.addTile("red_part", 128, 1, target.elementType);
    tiles.acc = kernel.addTile("red_acc", 128, 1, target.elementType);
  }
  SmallVector<ElementwiseLowering *> lowerings = {&normalize};
  if (producer)
    lowerings.push_back(&*producer);
  for (auto &op : rowOps)
    lowerings.push_back(op.get());
  LogicalResult status = success();
  kernel.forEachRotatingRowTile(rows, 128, buffers,
                                [&](const RowTile &rowTile, unsigned turn) {
                                  for (ElementwiseLowering *lowered : lowerings)
                                    lowered->useBuffer(turn);
                                  if (succeeded(status))
                                    status = emitRowTile(rowTile, sets[turn]);
                                });
  for (ElementwiseLowering *lowered : lowerings)
    lowered->markRotations();
  if (buffers > 1)
    for (auto [rotation, tiles] : llvm::enumerate(sets)) {
      for (MemlocOp tile : tiles.sources)
        kernel.markRotating(tile, rotation);
      kernel.markRotating(tiles.part, rotation);
      kernel.markRotating(tiles.acc, rotation);
    }
  return status;
}

std::optional<NormalizationChain> walrus::linalg_to_bir::findNormalization(
    linalg::LinalgOp reduction, linalg::LinalgOp producer, Lowering &lowering) {
  if (!isRowReduction(reduction))
    return std::nullopt;
  std::optional<NormalizationChain> chain = matchChain(reduction, producer);
  if (!chain)
    return std::nullopt;
  NormalizationNest nest(*chain, lowering);
  if (failed(quietly(reduction->getContext(), [&] { return nest.prepare(); })))
    return std::nullopt;
  return chain;
}

LogicalResult
walrus::linalg_to_bir::lowerNormalization(const NormalizationChain &chain,
                                          Lowering &lowering) {
  NormalizationNest nest(chain, lowering);
  if (failed(nest.prepare()))
    return failure();
  return nest.emit();
}

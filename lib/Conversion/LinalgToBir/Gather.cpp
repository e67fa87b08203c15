//===- Gather.cpp - Embedding lookups to bir.dma_gather -------------------===//
//
// torch-mlir's embedding: an all-parallel generic over the output whose
// body reads `table[index_cast(ids[...]), linalg.index(last)]` (a
// tensor.extract, a memref.load after bufferization). Each tile of 128
// output rows loads its ids into SBUF, gathers the table rows with one
// indirect DMA per column tile, and stores them (docs/LinalgToBir.md,
// "Embedding lookups").
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"
#include "NormalizePatterns.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

memref::LoadOp walrus::linalg_to_bir::matchEmbedding(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumLoops() < 1 || op.getNumParallelLoops() != op.getNumLoops())
    return {};
  Block *body = op.getBlock();
  auto load =
      body->getTerminator()->getOperand(0).getDefiningOp<memref::LoadOp>();
  if (!load || load.getIndices().size() != 2)
    return {};
  auto cast = load.getIndices()[0].getDefiningOp<arith::IndexCastOp>();
  unsigned rank = op.getNumLoops();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, op.getContext());
  if (!cast || cast.getIn() != body->getArgument(0) ||
      !walrus::isLastLoopIndex(op, load.getIndices()[1]) ||
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)) != identity ||
      op.getMatchingIndexingMap(op.getDpsInputOperand(0)) !=
          identity.dropResult(rank - 1))
    return {};
  return load;
}

LogicalResult walrus::linalg_to_bir::lowerEmbedding(linalg::LinalgOp op,
                                                    memref::LoadOp load,
                                                    Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  FailureOr<DramTensor> ids =
      lowering.getTensor(op, op.getDpsInputOperand(0)->get());
  FailureOr<DramTensor> out =
      lowering.getTensor(op, op.getDpsInitOperand(0)->get());
  FailureOr<DramTensor> table = lowering.getTensor(op, load.getMemRef());
  if (failed(ids) || failed(out) || failed(table))
    return failure();
  if (!isa<IntegerType>(ids->elementType))
    return unsupported(op, "an embedding whose ids are not integers");
  // linalg.index reads columns 0 .. width - 1 of each table row.
  if (out->columns > table->columns)
    return unsupported(op, "an embedding whose rows are longer than the "
                           "table's");
  if (ids->memloc == out->memloc || table->memloc == out->memloc)
    return unsupported(op, "an embedding into its ids' or table's buffer");
  // Row r of the output is row ids[r]: the ids, flat, one per row (one
  // row of a strided view is flat too: BERT's position ids, a slice of a
  // longer buffer).
  if (!ids->isContiguous() && ids->rows != 1)
    return unsupported(op, "ids that are a strided view of more than one row");
  int64_t rows = out->rows, width = out->columns;
  int64_t tileColumns = std::min(width, lowering.tiles.columns);
  Location loc = op.getLoc();
  MemlocOp idTile = kernel.addTile("ids", 128, 1, ids->elementType);
  MemlocOp rowTile = kernel.addTile("rows", 128, tileColumns, out->elementType);
  kernel.forEachRowTile(rows, 128, [&](const RowTile &tile) {
    int64_t p = tile.partitions;
    kernel.create<DmaOp>(
        loc, idTile, kernel.tilePattern(idTile, p, 1), ids->memloc,
        kernel.pattern(tile.firstRow + ids->base, {{1, p}, {1, 1}}));
    kernel.forEachColumnTile(width, tileColumns, [&](const ColumnTile &col) {
      int64_t w = col.columns;
      AccessPatternAttr tableRows =
          kernel.pattern(col.firstColumn + table->base,
                         {{table->rowStride, table->rows}, {1, w}});
      kernel.create<DmaGatherOp>(
          loc, rowTile, kernel.tilePattern(rowTile, p, w), table->memloc,
          tableRows, idTile, kernel.tilePattern(idTile, p, 1));
      kernel.create<DmaOp>(
          loc, out->memloc,
          kernel.dramPattern(*out, tile.firstRow, col.firstColumn, p, w),
          rowTile, kernel.tilePattern(rowTile, p, w));
    });
  });
  return success();
}

//===- Transpose.cpp - linalg.transpose to bir ----------------------------===//
//
// out[r, c] = in[c, r] in tiles of 128 x 128: the input's rows c load as
// partitions, the tensor engine transposes the tile, the result is stored
// as rows r (docs/LinalgToBir.md, "Transpose").
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

LogicalResult walrus::linalg_to_bir::lowerTranspose(linalg::TransposeOp op,
                                                    Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  if (op.getPermutation() != ArrayRef<int64_t>{1, 0})
    return unsupported(op, "a transpose other than of a 2-D operand");
  FailureOr<DramTensor> source = lowering.getTensor(op, op.getInput());
  FailureOr<DramTensor> target = lowering.getTensor(op, op.getInit());
  if (failed(source) || failed(target))
    return failure();
  if (source->elementType != target->elementType)
    return unsupported(op, "a transpose that converts the element type");
  // Tiles are loaded before they are stored: in place, later tiles would
  // read what earlier ones overwrote.
  if (source->memloc == target->memloc)
    return unsupported(op, "an input in the output's buffer");
  int64_t rows = target->rows, columns = target->columns;
  Location loc = op.getLoc();
  MemlocOp loaded = kernel.addTile("tr_in", 128, 128, source->elementType);
  MemlocOp turned = kernel.addTile("tr_out", 128, 128, target->elementType);
  kernel.forEachRowTile(rows, 128, [&](const RowTile &rowTile) {
    int64_t p = rowTile.partitions;
    kernel.forEachColumnTile(columns, 128, [&](const ColumnTile &col) {
      int64_t w = col.columns;
      kernel.create<DmaOp>(
          loc, loaded, kernel.tilePattern(loaded, w, p), source->memloc,
          kernel.dramPattern(*source, col.firstColumn, rowTile.firstRow, w, p));
      kernel.create<TransposeOp>(loc, turned, kernel.tilePattern(turned, p, w),
                                 loaded, kernel.tilePattern(loaded, w, p));
      kernel.create<DmaOp>(
          loc, target->memloc,
          kernel.dramPattern(*target, rowTile.firstRow, col.firstColumn, p, w),
          turned, kernel.tilePattern(turned, p, w));
    });
  });
  return success();
}

//===- Matmul.cpp - linalg matmuls to bir ---------------------------------===//
//
// C[m, n] += A[m, k] * B[k, n] on the tensor engine: per output tile of 128
// rows (the cores' share) by up to one PSUM bank of columns, the
// contraction accumulates in PSUM over tiles of 128 along k (start on the
// first, stop on the last); then C's tile is loaded, the sum added, and
// stored (docs/LinalgToBir.md, "Matmul").
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

namespace {
/// A matmul operand: its tensor and whether it is stored transposed
/// (k outer for A, n outer for B).
struct MatmulOperand {
  DramTensor tensor;
  bool transposed = false;
  bool perBatch = false;
};

struct MatmulShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
};
} // namespace

/// Whether `map` reads `first` then `second`, after the batch dim 0 when
/// `batch` (an operand without it is the same for every batch).
static bool isPair(AffineMap map, bool batch, unsigned first, unsigned second) {
  SmallVector<unsigned> expected;
  if (batch)
    expected.push_back(0);
  expected.append({first, second});
  if (map.getNumResults() != expected.size())
    return false;
  for (auto [result, dim] : llvm::zip(map.getResults(), expected))
    if (result != getAffineDimExpr(dim, map.getContext()))
      return false;
  return true;
}

/// Whether `map` reads (batch,) `first` then `second`; sets `transposed`
/// when it reads them the other way round and `perBatch` when it has the
/// batch dim.
static bool matchOperand(AffineMap map, bool batched, unsigned first,
                         unsigned second, MatmulOperand &operand) {
  for (bool batch : {batched, false})
    for (bool transposed : {false, true}) {
      if (!isPair(map, batch, transposed ? second : first,
                  transposed ? first : second))
        continue;
      operand.transposed = transposed;
      operand.perBatch = batch;
      return true;
    }
  return false;
}

LogicalResult walrus::linalg_to_bir::lowerMatmul(linalg::LinalgOp op,
                                                 Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  bool batched = isa<linalg::BatchMatmulOp>(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return unsupported(op, "dynamic shapes");
  unsigned base = batched ? 1 : 0;
  MatmulShape shape;
  if (batched)
    shape.batch = ranges[0];
  shape.m = ranges[base];
  shape.n = ranges[base + 1];
  shape.k = ranges[base + 2];
  unsigned m = base, n = base + 1, k = base + 2;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  MatmulOperand a, b;
  if (!matchOperand(maps[0], batched, m, k, a))
    return unsupported(op, "an indexing map of A other than (m, k) or (k, m)");
  if (!matchOperand(maps[1], batched, k, n, b))
    return unsupported(op, "an indexing map of B other than (k, n) or (n, k)");
  if (!isPair(maps[2], batched, m, n))
    return unsupported(op, "an indexing map of C other than (m, n)");
  // The body must multiply and add, as linalg.matmul's does (casts of the
  // operands aside: the tensor engine reads them as they are).
  Block *body = op.getBlock();
  unsigned multiplies = 0, adds = 0;
  for (Operation &scalar : body->without_terminator()) {
    multiplies += isa<arith::MulFOp>(scalar);
    adds += isa<arith::AddFOp>(scalar);
    if (!isa<arith::MulFOp, arith::AddFOp, arith::ExtFOp>(scalar))
      return unsupported(op, "a body other than a multiply-add of floats");
  }
  if (multiplies != 1 || adds != 1)
    return unsupported(op, "a body other than a multiply-add of floats");
  FailureOr<DramTensor> aTensor = lowering.getTensor(op, op->getOperand(0));
  FailureOr<DramTensor> bTensor = lowering.getTensor(op, op->getOperand(1));
  FailureOr<DramTensor> cTensor = lowering.getTensor(op, op->getOperand(2));
  if (failed(aTensor) || failed(bTensor) || failed(cTensor))
    return failure();
  a.tensor = *aTensor;
  b.tensor = *bTensor;
  DramTensor c = *cTensor;
  if (a.tensor.elementType != b.tensor.elementType)
    return unsupported(op, "A and B of different element types");

  TargetAttr target = kernel.getTarget();
  int64_t bankColumns = target.getPsumBytesPerPartition() /
                        target.getPsumBanks() / 4; // fp32 accumulators
  int64_t nTile = std::min<int64_t>({lowering.tiles.columns, bankColumns,
                                     target.getMaxMovingFree(), shape.n});
  int64_t mTile = std::min<int64_t>(128, target.getMaxStationaryFree());
  Type accType = Float32Type::get(kernel.getContext());
  Location loc = op.getLoc();
  // B stays in SBUF a panel of columns at a time, every k tile of them,
  // as wide as half of SBUF and the PSUM banks allow: each core loads B
  // once and A once per panel.
  int64_t kTiles = llvm::divideCeil(shape.k, 128);
  int64_t bytesPerColumn =
      kTiles * b.tensor.elementType.getIntOrFloatBitWidth() / 8;
  int64_t budget = target.getSbufBytesPerPartition() / 2;
  if (bytesPerColumn > budget)
    return unsupported(op, "a contraction of " + Twine(shape.k) +
                               " elements: one column of B does not fit in "
                               "half of an SBUF partition");
  int64_t panelWidth = std::min<int64_t>(
      {shape.n, budget / bytesPerColumn, target.getPsumBanks() * nTile});
  nTile = std::min(nTile, panelWidth);
  int64_t subtiles = llvm::divideCeil(panelWidth, nTile);
  MemlocOp rowsOfA =
      a.transposed ? MemlocOp()
                   : kernel.addTile("mm_a", mTile, 128, a.tensor.elementType);
  MemlocOp stationary =
      kernel.addTile("mm_stationary", 128, mTile, a.tensor.elementType);
  MemlocOp panel =
      kernel.addTile("mm_b", 128, kTiles * panelWidth, b.tensor.elementType);
  SmallVector<MemlocOp> accs;
  for (int64_t j = 0; j < subtiles; ++j)
    accs.push_back(kernel.getSharedPsumTile(mTile, nTile, accType, j));
  MemlocOp result = kernel.addTile("mm_c", mTile, nTile, c.elementType);
  bool zeroInit = lowering.zeroInitialized.contains(op);
  int64_t panelStride = kTiles * panelWidth;

  kernel.loop(shape.batch, [&](AffineExpr batch) {
    // Rows of each operand per batch: m or k for A, k or n for B, m for C.
    AffineExpr aBase =
        batch * (a.perBatch
                     ? (a.transposed ? shape.k : shape.m) * a.tensor.rowStride
                     : 0) +
        a.tensor.base;
    AffineExpr bBase =
        batch * (b.perBatch
                     ? (b.transposed ? shape.n : shape.k) * b.tensor.rowStride
                     : 0) +
        b.tensor.base;
    AffineExpr cBase = batch * (shape.m * c.rowStride) + c.base;
    int64_t aStride = a.tensor.rowStride, bStride = b.tensor.rowStride;
    kernel.forEachColumnTile(shape.n, panelWidth, [&](const ColumnTile &cols) {
      int64_t pw = cols.columns;
      AffineExpr col0 = cols.firstColumn;
      // The panel: k tile kt at columns kt * panelWidth.
      for (int64_t kt = 0; kt < kTiles; ++kt) {
        int64_t k0 = kt * 128, kw = std::min<int64_t>(128, shape.k - k0);
        AccessPatternAttr source =
            b.transposed ? kernel.pattern(bBase + col0 * bStride + k0,
                                          {{1, kw}, {bStride, pw}})
                         : kernel.pattern(bBase + col0 + k0 * bStride,
                                          {{bStride, kw}, {1, pw}});
        kernel.create<DmaOp>(loc, panel,
                             kernel.pattern(kernel.constant(kt * panelWidth),
                                            {{panelStride, kw}, {1, pw}}),
                             b.tensor.memloc, source);
      }
      kernel.forEachRowTile(shape.m, mTile, [&](const RowTile &rows) {
        int64_t p = rows.partitions;
        AffineExpr row = rows.firstRow;
        for (int64_t kt = 0; kt < kTiles; ++kt) {
          int64_t k0 = kt * 128, kw = std::min<int64_t>(128, shape.k - k0);
          // Stationary: A^T, k on partitions.
          if (a.transposed) {
            kernel.create<DmaOp>(loc, stationary,
                                 kernel.tilePattern(stationary, kw, p),
                                 a.tensor.memloc,
                                 kernel.pattern(aBase + row + k0 * aStride,
                                                {{aStride, kw}, {1, p}}));
          } else {
            kernel.create<DmaOp>(loc, rowsOfA,
                                 kernel.tilePattern(rowsOfA, p, kw),
                                 a.tensor.memloc,
                                 kernel.pattern(aBase + row * aStride + k0,
                                                {{aStride, p}, {1, kw}}));
            kernel.create<TransposeOp>(
                loc, stationary, kernel.tilePattern(stationary, kw, p), rowsOfA,
                kernel.tilePattern(rowsOfA, p, kw));
          }
          for (int64_t j = 0; j * nTile < pw; ++j) {
            int64_t w = std::min(nTile, pw - j * nTile);
            kernel.create<MatmultOp>(
                loc, accs[j], kernel.tilePattern(accs[j], p, w), stationary,
                kernel.tilePattern(stationary, kw, p), panel,
                kernel.pattern(kernel.constant(kt * panelWidth + j * nTile),
                               {{panelStride, kw}, {1, w}}),
                kt == 0, kt + 1 == kTiles, ReplicationAttr());
          }
        }
        // C (+)= the accumulated products.
        for (int64_t j = 0; j * nTile < pw; ++j) {
          int64_t w = std::min(nTile, pw - j * nTile);
          AffineExpr col = col0 + j * nTile;
          AccessPatternAttr cTile = kernel.pattern(
              cBase + row * c.rowStride + col, {{c.rowStride, p}, {1, w}});
          AccessPatternAttr out = kernel.tilePattern(result, p, w);
          AccessPatternAttr sum = kernel.tilePattern(accs[j], p, w);
          if (zeroInit) {
            kernel.create<TensorCopyOp>(loc, result, out, accs[j], sum);
          } else {
            kernel.create<DmaOp>(loc, result, out, c.memloc, cTile);
            kernel.create<TensorTensorOp>(loc, AluOp::Add, result, out, accs[j],
                                          sum, result, out);
          }
          kernel.create<DmaOp>(loc, c.memloc, cTile, result, out);
        }
      });
    });
  });
  return success();
}

//===- Matmul.cpp - linalg matmuls to bir ---------------------------------===//
//
// C[m, n] += A[m, k] * B[k, n] on the tensor engine: a block of C (tiles
// of 128 rows, the cores' share, by a run of columns) stays in SBUF while k
// runs over tiles of 128; per k tile B's rows for the block's columns and
// A^T per row tile are loaded, and each product goes through PSUM into the
// block. The block size minimises the bytes moved (docs/LinalgToBir.md,
// "Matmul").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/Support/CheckedArithmetic.h"

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

namespace {
/// How much of C stays in SBUF while k runs: `rowTiles` tiles of rows (per
/// core) by `nBlock` columns.
struct Blocking {
  int64_t rowTiles = 1, nBlock = 1;
};
} // namespace

static int64_t bytesOf(Type type) { return type.getIntOrFloatBitWidth() / 8; }

/// The block that moves the fewest bytes, A * ceil(N / nBlock) + B *
/// ceil(M / rows per block), among blocks whose C, B tile and A tiles fit
/// in `budget` bytes per partition; candidates double, so hostile sizes
/// cost a few dozen tries.
static FailureOr<Blocking> chooseBlocking(const MatmulShape &shape,
                                          int64_t nTile, int64_t mTile,
                                          int64_t lncSize, int64_t aBytes,
                                          int64_t bBytes, int64_t cBytes,
                                          int64_t budget) {
  int64_t rowTilesPerCore =
      llvm::divideCeil(llvm::divideCeil(shape.m, mTile), lncSize);
  SmallVector<int64_t> widths, heights;
  for (int64_t width = nTile; width < shape.n; width *= 2)
    widths.push_back(width);
  widths.push_back(shape.n);
  for (int64_t height = 1; height < rowTilesPerCore; height *= 2)
    heights.push_back(height);
  heights.push_back(rowTilesPerCore);
  // Products in double: the sizes are checked, their products need not be.
  double aTotal = double(shape.m) * shape.k * aBytes,
         bTotal = double(shape.k) * shape.n * bBytes;
  std::optional<std::pair<double, Blocking>> best;
  for (int64_t width : widths)
    for (int64_t height : heights) {
      double bytes = double(height) * width * cBytes + double(width) * bBytes +
                     2.0 * mTile * aBytes;
      if (bytes > budget)
        continue;
      double traffic =
          aTotal * double(llvm::divideCeil(shape.n, width)) +
          bTotal * double(llvm::divideCeil(shape.m, height * mTile));
      if (!best || traffic < best->first)
        best = {traffic, Blocking{height, width}};
    }
  if (!best)
    return failure();
  return best->second;
}

namespace {
/// One matmul of a chain: its operands, its reduction size and C.
struct Term {
  MatmulOperand a, b;
  int64_t k = 0;
};
} // namespace

/// Reads one matmul: its shape into `shape` (m, n and batch must agree
/// with it when set), its operands into a term.
static FailureOr<Term> readTerm(linalg::LinalgOp op, Lowering &lowering,
                                MatmulShape &shape, DramTensor &c) {
  bool batched = isa<linalg::BatchMatmulOp>(op);
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  if (llvm::any_of(ranges, ShapedType::isDynamic))
    return unsupported(op, "dynamic shapes");
  unsigned base = batched ? 1 : 0;
  shape.batch = batched ? ranges[0] : 1;
  shape.m = ranges[base];
  shape.n = ranges[base + 1];
  Term term;
  term.k = ranges[base + 2];
  unsigned m = base, n = base + 1, k = base + 2;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  if (!matchOperand(maps[0], batched, m, k, term.a))
    return unsupported(op, "an indexing map of A other than (m, k) or (k, m)");
  if (!matchOperand(maps[1], batched, k, n, term.b))
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
  term.a.tensor = *aTensor;
  term.b.tensor = *bTensor;
  c = *cTensor;
  if (term.a.tensor.elementType != term.b.tensor.elementType)
    return unsupported(op, "A and B of different element types");
  // C[m, n] += A[m, k] B[k, n] in place would read elements of C it has
  // already updated, in an order linalg leaves to the loop nest.
  if (term.a.tensor.memloc == c.memloc || term.b.tensor.memloc == c.memloc)
    return unsupported(op, "an A or B in the same buffer as C");
  return term;
}

LogicalResult
walrus::linalg_to_bir::lowerMatmul(ArrayRef<linalg::LinalgOp> chain,
                                   Lowering &lowering,
                                   const MatmulEpilogue *epilogue) {
  KernelBuilder &kernel = lowering.kernel;
  linalg::LinalgOp op = chain.front();
  MatmulShape shape;
  DramTensor c;
  SmallVector<Term> terms;
  for (linalg::LinalgOp termOp : chain) {
    MatmulShape termShape;
    FailureOr<Term> term = readTerm(termOp, lowering, termShape, c);
    if (failed(term))
      return failure();
    if (!terms.empty() &&
        (termShape.batch != shape.batch || termShape.m != shape.m ||
         termShape.n != shape.n ||
         term->a.tensor.elementType != terms[0].a.tensor.elementType))
      return unsupported(termOp, "a matmul that accumulates into the "
                                 "previous one's C with another shape or "
                                 "element type");
    int64_t k = shape.k;
    shape = termShape;
    // The chain's blocking sees one reduction over every term's k.
    if (!llvm::checkedAdd(k, term->k).has_value())
      return unsupported(termOp, "a chain of matmuls this long");
    shape.k = k + term->k;
    terms.push_back(*term);
  }
  Type abType = terms[0].a.tensor.elementType;
  TargetAttr target = kernel.getTarget();
  int64_t bankColumns = target.getPsumBytesPerPartition() /
                        target.getPsumBanks() / 4; // fp32 accumulators
  int64_t nTile = std::min<int64_t>({lowering.tiles.columns, bankColumns,
                                     target.getMaxMovingFree(), shape.n});
  int64_t mTile = std::min<int64_t>(128, target.getMaxStationaryFree());
  FailureOr<Blocking> blocking =
      chooseBlocking(shape, nTile, mTile, kernel.getLncSize(), bytesOf(abType),
                     bytesOf(abType), bytesOf(c.elementType),
                     target.getSbufBytesPerPartition() * 3 / 4);
  if (failed(blocking))
    return unsupported(op, "a block of C, B and A that fits in SBUF");
  int64_t rowTiles = blocking->rowTiles, nBlock = blocking->nBlock;
  Type accType = Float32Type::get(kernel.getContext());
  Location loc = op.getLoc();
  MemlocOp rowsOfA =
      llvm::all_of(terms, [](const Term &term) { return term.a.transposed; })
          ? MemlocOp()
          : kernel.addTile("mm_a", mTile, 128, abType);
  MemlocOp stationary = kernel.addTile("mm_stationary", 128, mTile, abType);
  MemlocOp moving = kernel.addTile("mm_b", 128, nBlock, abType);
  MemlocOp acc = kernel.getSharedPsumTile(mTile, nTile, accType);
  MemlocOp block =
      kernel.addTile("mm_c", mTile, rowTiles * nBlock, c.elementType);
  bool zeroInit = lowering.zeroInitialized.contains(op);
  LogicalResult status = success();
  int64_t blockStride = rowTiles * nBlock;

  kernel.loop(shape.batch, [&](AffineExpr batch) {
    // Where a term's operands start in this batch: m or k rows for A, k or
    // n for B.
    auto aBase = [&](const Term &term) {
      const MatmulOperand &a = term.a;
      return batch * (a.perBatch ? (a.transposed ? term.k : shape.m) *
                                       a.tensor.rowStride
                                 : 0) +
             a.tensor.base;
    };
    auto bBase = [&](const Term &term) {
      const MatmulOperand &b = term.b;
      return batch * (b.perBatch ? (b.transposed ? shape.n : term.k) *
                                       b.tensor.rowStride
                                 : 0) +
             b.tensor.base;
    };
    AffineExpr cBase = batch * (shape.m * c.rowStride) + c.base;
    kernel.forEachColumnTile(shape.n, nBlock, [&](const ColumnTile &cols) {
      int64_t nb = cols.columns;
      AffineExpr col0 = cols.firstColumn;
      // The epilogue's row broadcasts (a bias) load once per block of
      // columns, not once per tile.
      if (epilogue && shape.m > mTile && epilogue->consumer->hasRowBroadcasts())
        epilogue->consumer->loadRowBroadcasts(cols);
      kernel.forEachRowTile(
          shape.m, mTile * rowTiles, [&](const RowTile &rows) {
            // The block's row tiles and column tiles, with their extents.
            SmallVector<std::pair<AffineExpr, int64_t>> rowParts, colParts;
            for (int64_t i = 0; i * mTile < rows.partitions; ++i)
              rowParts.push_back(
                  {rows.firstRow + i * mTile,
                   std::min(mTile, rows.partitions - i * mTile)});
            for (int64_t j = 0; j * nTile < nb; ++j)
              colParts.push_back({kernel.constant(j * nTile),
                                  std::min(nTile, nb - j * nTile)});
            auto blockTile = [&](size_t i, size_t j) {
              int64_t offset = i * nBlock + j * nTile;
              return kernel.pattern(
                  kernel.constant(offset),
                  {{blockStride, rowParts[i].second}, {1, colParts[j].second}});
            };
            auto cTile = [&](size_t i, size_t j) {
              return kernel.pattern(
                  cBase + rowParts[i].first * c.rowStride + col0 + j * nTile,
                  {{c.rowStride, rowParts[i].second}, {1, colParts[j].second}});
            };
            if (!zeroInit)
              for (size_t i = 0; i < rowParts.size(); ++i)
                for (size_t j = 0; j < colParts.size(); ++j)
                  kernel.create<DmaOp>(loc, block, blockTile(i, j), c.memloc,
                                       cTile(i, j));
            // One k tile of a term: B's rows for the block's columns, A^T
            // per row tile, the products through PSUM into the block.
            auto kStep = [&](const Term &term, AffineExpr k0, int64_t kw,
                             bool first) {
              MatmulOperand a = term.a, b = term.b;
              int64_t aStride = a.tensor.rowStride,
                      bStride = b.tensor.rowStride;
              kernel.create<DmaOp>(
                  loc, moving, kernel.tilePattern(moving, kw, nb),
                  b.tensor.memloc,
                  b.transposed
                      ? kernel.pattern(bBase(term) + col0 * bStride + k0,
                                       {{1, kw}, {bStride, nb}})
                      : kernel.pattern(bBase(term) + col0 + k0 * bStride,
                                       {{bStride, kw}, {1, nb}}));
              for (size_t i = 0; i < rowParts.size(); ++i) {
                auto [row, p] = rowParts[i];
                if (a.transposed) {
                  kernel.create<DmaOp>(
                      loc, stationary, kernel.tilePattern(stationary, kw, p),
                      a.tensor.memloc,
                      kernel.pattern(aBase(term) + row + k0 * aStride,
                                     {{aStride, kw}, {1, p}}));
                } else {
                  kernel.create<DmaOp>(
                      loc, rowsOfA, kernel.tilePattern(rowsOfA, p, kw),
                      a.tensor.memloc,
                      kernel.pattern(aBase(term) + row * aStride + k0,
                                     {{aStride, p}, {1, kw}}));
                  kernel.create<TransposeOp>(
                      loc, stationary, kernel.tilePattern(stationary, kw, p),
                      rowsOfA, kernel.tilePattern(rowsOfA, p, kw));
                }
                for (size_t j = 0; j < colParts.size(); ++j) {
                  int64_t w = colParts[j].second;
                  AccessPatternAttr sum = kernel.tilePattern(acc, p, w);
                  kernel.create<MatmultOp>(
                      loc, acc, sum, stationary,
                      kernel.tilePattern(stationary, kw, p), moving,
                      kernel.pattern(kernel.constant(j * nTile),
                                     {{nBlock, kw}, {1, w}}),
                      true, true, ReplicationAttr());
                  if (first)
                    kernel.create<TensorCopyOp>(loc, block, blockTile(i, j),
                                                acc, sum);
                  else
                    kernel.create<TensorTensorOp>(loc, AluOp::Add, block,
                                                  blockTile(i, j), block,
                                                  blockTile(i, j), acc, sum);
                }
              }
            };
            // Every term's k tiles in turn; with a zero C, the first tile
            // of the first term initialises the block.
            for (size_t index = 0; index < terms.size(); ++index) {
              const Term &term = terms[index];
              int64_t fullTiles = term.k / 128, rest = term.k % 128;
              int64_t looped = fullTiles;
              if (index == 0 && zeroInit) {
                kStep(term, kernel.constant(0), std::min<int64_t>(128, term.k),
                      true);
                looped = fullTiles ? fullTiles - 1 : 0;
                if (!fullTiles)
                  rest = 0;
              }
              int64_t skipped = fullTiles - looped;
              kernel.loop(looped, [&](AffineExpr kt) {
                kStep(term, (kt + skipped) * 128, 128, false);
              });
              if (rest)
                kStep(term, kernel.constant(fullTiles * 128), rest, false);
            }
            for (size_t i = 0; i < rowParts.size(); ++i)
              for (size_t j = 0; j < colParts.size(); ++j) {
                if (!epilogue) {
                  kernel.create<DmaOp>(loc, c.memloc, cTile(i, j), block,
                                       blockTile(i, j));
                  continue;
                }
                // The epilogue reads the product where the block holds it.
                auto [row, p] = rowParts[i];
                Operand product{block, 0, int64_t(i * nBlock + j * nTile)};
                if (succeeded(status))
                  status = epilogue->consumer->emitTile(
                      {p, row}, {colParts[j].second, col0 + j * nTile},
                      {{epilogue->argument, product}});
              }
          });
    });
  });
  return status;
}

linalg::LinalgOp walrus::linalg_to_bir::findEpilogue(linalg::MatmulOp matmul,
                                                     Operation *next) {
  auto consumer = dyn_cast_or_null<linalg::LinalgOp>(next);
  if (!consumer || isa<linalg::FillOp>(next) || consumer.getNumLoops() != 2 ||
      consumer.getNumDpsInits() != 1 ||
      !llvm::all_of(consumer.getIteratorTypesArray(),
                    [](utils::IteratorType iterator) {
                      return iterator == utils::IteratorType::parallel;
                    }))
    return {};
  Value c = matmul.getDpsInitOperand(0)->get();
  if (matmul.getStaticLoopRanges()[0] != consumer.getStaticLoopRanges()[0] ||
      matmul.getStaticLoopRanges()[1] != consumer.getStaticLoopRanges()[1])
    return {};
  // C read once, as it is; the body does not read the output.
  OpOperand *read = nullptr;
  for (OpOperand *input : consumer.getDpsInputOperands())
    if (input->get() == c) {
      if (read || !consumer.getMatchingIndexingMap(input).isIdentity())
        return {};
      read = input;
    }
  OpOperand *init = consumer.getDpsInitOperand(0);
  if (!read || !consumer.getMatchingIndexingMap(init).isIdentity() ||
      !consumer.getMatchingBlockArgument(init).use_empty())
    return {};
  // Nothing else sees C's product: what ran before the matmul is done;
  // writing in place, later readers see the epilogue's result; otherwise
  // nothing may use C after it but its deallocation.
  bool inPlace = init->get() == c;
  for (Operation *user : c.getUsers())
    if (user != matmul && user != next && !user->isBeforeInBlock(matmul) &&
        !isa<memref::DeallocOp>(user) &&
        !(inPlace && next->isBeforeInBlock(user)))
      return {};
  return consumer;
}

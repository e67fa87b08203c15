//===- Attention.cpp - matmul, softmax, matmul fused into one nest --------===//
//
// The attention core P = softmax(Q K^T), O = P V as front ends write it:
// three linalg ops whose S x S intermediates would go to DRAM and back
// (the scores written, read and written by the softmax, read again). Here
// each tile of 128 query rows keeps its row of scores in SBUF from the
// first matmul through the softmax to the second, and K and V stay in SBUF
// for the whole op (docs/LinalgToBir.md, "Attention").
//
//===----------------------------------------------------------------------===//

#include "Lowerings.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

/// Whether `buffer` is only the link between `producer` and `consumer`:
/// besides them, only a zero fill of it and its deallocation use it.
static bool isOnlyBetween(Value buffer, Operation *producer,
                          Operation *consumer) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  for (Operation *user : buffer.getUsers())
    if (user != producer && user != consumer &&
        !isa<memref::DeallocOp, linalg::FillOp>(user))
      return false;
  return true;
}

static bool readsPlainly(linalg::MatmulOp matmul, unsigned operand,
                         bool transposed) {
  AffineMap map = matmul.getIndexingMapsArray()[operand];
  MLIRContext *context = map.getContext();
  unsigned first = operand == 0 ? 0 : (transposed ? 1 : 2);
  unsigned second = operand == 0 ? 2 : (transposed ? 2 : 1);
  return map == AffineMap::get(3, 0,
                               {getAffineDimExpr(first, context),
                                getAffineDimExpr(second, context)},
                               context);
}

SmallVector<AttentionChain>
walrus::linalg_to_bir::findAttentionChains(Block &body, Lowering &lowering) {
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    if (isa<linalg::LinalgOp, linalg::SoftmaxOp>(op) &&
        !isa<linalg::FillOp>(op))
      ops.push_back(&op);
  SmallVector<AttentionChain> chains;
  for (size_t i = 0; i + 2 < ops.size(); ++i) {
    auto scores = dyn_cast<linalg::MatmulOp>(ops[i]);
    auto softmax = dyn_cast<linalg::SoftmaxOp>(ops[i + 1]);
    auto context = dyn_cast<linalg::MatmulOp>(ops[i + 2]);
    if (!scores || !softmax || !context ||
        !lowering.zeroInitialized.contains(scores) ||
        !lowering.zeroInitialized.contains(context))
      continue;
    Value s = scores.getDpsInitOperand(0)->get();
    Value p = softmax.getOutput();
    auto type = dyn_cast<MemRefType>(s.getType());
    if (!type || type.getRank() != 2 || !type.getElementType().isF32() ||
        softmax.getInput() != s || softmax.getDimension() != 1 ||
        context->getOperand(0) != p || !isOnlyBetween(s, scores, softmax) ||
        !isOnlyBetween(p, softmax, context) ||
        !readsPlainly(scores, 0, false) || !readsPlainly(context, 0, false) ||
        !readsPlainly(context, 1, false))
      continue;
    bool keysTransposed = readsPlainly(scores, 1, true);
    if (!keysTransposed && !readsPlainly(scores, 1, false))
      continue;
    chains.push_back({scores, softmax, context, keysTransposed});
    i += 2;
  }
  return chains;
}

FailureOr<bool>
walrus::linalg_to_bir::lowerAttention(const AttentionChain &chain,
                                      Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  Operation *op = chain.scores;
  FailureOr<DramTensor> q = lowering.getTensor(op, chain.scores->getOperand(0));
  FailureOr<DramTensor> k = lowering.getTensor(op, chain.scores->getOperand(1));
  FailureOr<DramTensor> v =
      lowering.getTensor(op, chain.context->getOperand(1));
  FailureOr<DramTensor> c =
      lowering.getTensor(op, chain.context->getOperand(2));
  if (failed(q) || failed(k) || failed(v) || failed(c))
    return failure();
  auto scoresType = cast<MemRefType>(chain.scores->getOperand(2).getType());
  int64_t queries = scoresType.getShape()[0], keys = scoresType.getShape()[1];
  int64_t headDim = q->columns, valueDim = v->columns;
  Type f32 = Float32Type::get(kernel.getContext());
  TargetAttr target = kernel.getTarget();
  int64_t bankColumns =
      target.getPsumBytesPerPartition() / target.getPsumBanks() / 4;
  int64_t dTiles = llvm::divideCeil(headDim, 128),
          keyTiles = llvm::divideCeil(keys, 128);
  auto bytes = [](Type type) { return type.getIntOrFloatBitWidth() / 8; };
  // Per partition: K (every d tile of it), V (every key tile), the scores
  // row and the query tiles. Anything larger goes op by op.
  double needed = double(dTiles) * keys * bytes(k->elementType) +
                  double(keyTiles) * valueDim * bytes(v->elementType) +
                  keys * 4.0 + dTiles * 128.0 * bytes(q->elementType) +
                  3 * 128 * 4.0 + valueDim * bytes(c->elementType);
  if (needed > target.getSbufBytesPerPartition() * 3 / 4 ||
      valueDim > bankColumns || q->elementType != k->elementType ||
      v->elementType != f32 || q->rows != queries ||
      k->rows * k->columns != keys * headDim)
    return false;

  Location loc = op->getLoc();
  MemlocOp queryRows = kernel.addTile("at_q", 128, 128, q->elementType);
  MemlocOp queryT = kernel.addTile("at_qt", 128, dTiles * 128, q->elementType);
  MemlocOp keyPanel =
      kernel.addTile("at_k", 128, dTiles * keys, k->elementType);
  MemlocOp valuePanel =
      kernel.addTile("at_v", 128, keyTiles * valueDim, v->elementType);
  MemlocOp scores = kernel.addTile("at_s", 128, keys, f32);
  MemlocOp stats = kernel.addTile("at_stat", 128, 1, f32);
  MemlocOp probT = kernel.addTile("at_pt", 128, 128, f32);
  MemlocOp out = kernel.addTile("at_o", 128, valueDim, c->elementType);
  int64_t chunk = std::min(bankColumns, keys);
  MemlocOp acc = kernel.getSharedPsumTile(128, chunk, f32);
  MemlocOp accContext = kernel.getSharedPsumTile(128, valueDim, f32, 1);

  // K^T and V, once per core: d tile t of K^T at columns t * keys, key
  // tile t of V at columns t * valueDim.
  for (int64_t t = 0; t < dTiles; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, headDim - d0);
    AccessPatternAttr source =
        chain.keysTransposed
            ? kernel.pattern(kernel.constant(k->base + d0),
                             {{1, dw}, {k->rowStride, keys}})
            : kernel.pattern(kernel.constant(k->base + d0 * k->rowStride),
                             {{k->rowStride, dw}, {1, keys}});
    kernel.create<DmaOp>(loc, keyPanel,
                         kernel.tilePattern(keyPanel, dw, keys, t * keys),
                         k->memloc, source);
  }
  for (int64_t t = 0; t < keyTiles; ++t) {
    int64_t k0 = t * 128, kw = std::min<int64_t>(128, keys - k0);
    kernel.create<DmaOp>(
        loc, valuePanel,
        kernel.tilePattern(valuePanel, kw, valueDim, t * valueDim), v->memloc,
        kernel.dramPattern(*v, kernel.constant(k0), kernel.constant(0), kw,
                           valueDim));
  }
  kernel.forEachRowTile(queries, 128, [&](const RowTile &rows) {
    int64_t p = rows.partitions;
    AffineExpr row = rows.firstRow;
    // Q^T for these rows, every d tile.
    for (int64_t t = 0; t < dTiles; ++t) {
      int64_t d0 = t * 128, dw = std::min<int64_t>(128, headDim - d0);
      kernel.create<DmaOp>(
          loc, queryRows, kernel.tilePattern(queryRows, p, dw), q->memloc,
          kernel.dramPattern(*q, row, kernel.constant(d0), p, dw));
      kernel.create<TransposeOp>(
          loc, queryT, kernel.tilePattern(queryT, dw, p, t * 128), queryRows,
          kernel.tilePattern(queryRows, p, dw));
    }
    // The scores row, a PSUM bank at a time.
    for (int64_t j = 0; j * chunk < keys; ++j) {
      int64_t w = std::min(chunk, keys - j * chunk);
      for (int64_t t = 0; t < dTiles; ++t) {
        int64_t dw = std::min<int64_t>(128, headDim - t * 128);
        kernel.create<MatmultOp>(
            loc, acc, kernel.tilePattern(acc, p, w), queryT,
            kernel.tilePattern(queryT, dw, p, t * 128), keyPanel,
            kernel.tilePattern(keyPanel, dw, w, t * keys + j * chunk), t == 0,
            t + 1 == dTiles, ReplicationAttr());
      }
      kernel.create<TensorCopyOp>(loc, scores,
                                  kernel.tilePattern(scores, p, w, j * chunk),
                                  acc, kernel.tilePattern(acc, p, w));
    }
    // Softmax along the row, in place.
    emitRowSoftmax(kernel, loc, scores, scores, scores, stats, p, keys);
    // P V: P^T a key tile at a time, accumulated over the keys in PSUM.
    for (int64_t t = 0; t < keyTiles; ++t) {
      int64_t kw = std::min<int64_t>(128, keys - t * 128);
      kernel.create<TransposeOp>(loc, probT, kernel.tilePattern(probT, kw, p),
                                 scores,
                                 kernel.tilePattern(scores, p, kw, t * 128));
      kernel.create<MatmultOp>(
          loc, accContext, kernel.tilePattern(accContext, p, valueDim), probT,
          kernel.tilePattern(probT, kw, p), valuePanel,
          kernel.tilePattern(valuePanel, kw, valueDim, t * valueDim), t == 0,
          t + 1 == keyTiles, ReplicationAttr());
    }
    kernel.create<TensorCopyOp>(loc, out, kernel.tilePattern(out, p, valueDim),
                                accContext,
                                kernel.tilePattern(accContext, p, valueDim));
    kernel.create<DmaOp>(
        loc, c->memloc,
        kernel.dramPattern(*c, row, kernel.constant(0), p, valueDim), out,
        kernel.tilePattern(out, p, valueDim));
  });
  return true;
}

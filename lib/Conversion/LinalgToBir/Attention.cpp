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

namespace {
/// The operands of one attention chain, its sizes and its tiles.
struct AttentionPlan {
  DramTensor q, k, v, c;
  int64_t queries = 0, keys = 0, headDim = 0, valueDim = 0;
  /// Columns of a PSUM bank in f32, 128-row tiles of d and of the keys,
  /// and the columns of scores one bank holds.
  int64_t bankColumns = 0, dTiles = 0, keyTiles = 0, chunk = 0;
  MemlocOp queryRows, queryT, keyPanel, valuePanel, scores, stats, probT, out,
      acc, accContext;
  /// K stored [keys, d]: two tiles its rows arrive in, in turn, before the
  /// tensor engine turns them into K^T.
  SmallVector<MemlocOp, 2> keyRows;
  /// With auto-cast (K stored [keys, d], everything f32): the operands of
  /// the tensor engine in bf16, cast on the scalar engine from the f32
  /// tiles they arrive in (query and key rows, V, the probabilities).
  bool cast = false;
  MemlocOp queryRows16, valueRows, scores16;
  SmallVector<MemlocOp, 2> keyRows16;
};
} // namespace

/// Whether one kernel keeps K, V and a row of scores in SBUF (anything
/// larger goes op by op) with the element types it handles.
static bool fitsFused(AttentionPlan &plan, TargetAttr target) {
  auto bytes = [](Type type) { return type.getIntOrFloatBitWidth() / 8; };
  const DramTensor &q = plan.q, &k = plan.k, &v = plan.v, &c = plan.c;
  // Per partition: K (every d tile of it), V (every key tile), the scores
  // row and the query tiles.
  // With auto-cast, also the bf16 copies (a row of scores, the query and
  // key rows) and the f32 tile V arrives in.
  double castBytes =
      plan.cast ? plan.keys * 2.0 + 3 * 128 * 2.0 + plan.valueDim * 4.0 : 0;
  double needed = castBytes +
                  double(plan.dTiles) * plan.keys * bytes(k.elementType) +
                  double(plan.keyTiles) * plan.valueDim * bytes(v.elementType) +
                  plan.keys * 4.0 + plan.dTiles * 128.0 * bytes(q.elementType) +
                  2 * 128.0 * bytes(k.elementType) + 3 * 128 * 4.0 +
                  plan.valueDim * bytes(c.elementType);
  return needed <= target.getSbufBytesPerPartition() * 3 / 4 &&
         plan.valueDim <= plan.bankColumns && q.elementType == k.elementType &&
         v.elementType.isF32() && q.rows == plan.queries &&
         k.rows * k.columns == plan.keys * plan.headDim;
}

static void addTiles(KernelBuilder &kernel, AttentionPlan &plan,
                     bool keysTransposed) {
  Type f32 = Float32Type::get(kernel.getContext());
  Type bf16 = BFloat16Type::get(kernel.getContext());
  // The tensor engine's operands: bf16 with auto-cast.
  Type qk = plan.cast ? bf16 : plan.q.elementType;
  Type v = plan.cast ? bf16 : plan.v.elementType;
  if (keysTransposed)
    for (int turn = 0; turn < 2; ++turn) {
      plan.keyRows.push_back(
          kernel.addTile("at_krows", 128, 128, plan.k.elementType));
      if (plan.cast)
        plan.keyRows16.push_back(kernel.addTile("at_krows_bf16", 128, 128, qk));
    }
  plan.queryRows = kernel.addTile("at_q", 128, 128, plan.q.elementType);
  plan.queryT = kernel.addTile("at_qt", 128, plan.dTiles * 128, qk);
  plan.keyPanel = kernel.addTile("at_k", 128, plan.dTiles * plan.keys, qk);
  plan.valuePanel =
      kernel.addTile("at_v", 128, plan.keyTiles * plan.valueDim, v);
  plan.scores = kernel.addTile("at_s", 128, plan.keys, f32);
  plan.stats = kernel.addTile("at_stat", 128, 1, f32);
  plan.probT = kernel.addTile("at_pt", 128, 128, v);
  plan.out = kernel.addTile("at_o", 128, plan.valueDim, plan.c.elementType);
  if (plan.cast) {
    plan.queryRows16 = kernel.addTile("at_q_bf16", 128, 128, qk);
    plan.valueRows = kernel.addTile("at_v_f32", 128, plan.valueDim, f32);
    plan.scores16 = kernel.addTile("at_s_bf16", 128, plan.keys, v);
  }
  plan.acc = kernel.getSharedPsumTile(128, plan.chunk, f32);
  plan.accContext = kernel.getSharedPsumTile(128, plan.valueDim, f32, 1);
}

/// K^T from K stored [keys, d]: each tile of 128 keys by 128 of d comes in
/// as rows (runs of d) and the tensor engine turns it, two tiles in turn.
/// Read transposed by the DMA, every element would be a packet of its own.
static void loadKeysTransposed(KernelBuilder &kernel, Location loc,
                               AttentionPlan &plan) {
  DramTensor &k = plan.k;
  int64_t turn = 0;
  for (int64_t t = 0; t < plan.dTiles; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
    for (int64_t kt = 0; kt < plan.keyTiles; ++kt, ++turn) {
      int64_t k0 = kt * 128, kw = std::min<int64_t>(128, plan.keys - k0);
      MemlocOp rows = plan.keyRows[turn % 2];
      kernel.create<DmaOp>(loc, rows, kernel.tilePattern(rows, kw, dw),
                           k.memloc,
                           kernel.dramPattern(k, kernel.constant(k0),
                                              kernel.constant(d0), kw, dw));
      if (plan.cast) {
        kernel.cast(loc, plan.keyRows16[turn % 2],
                    kernel.tilePattern(rows, kw, dw), rows);
        rows = plan.keyRows16[turn % 2];
      }
      kernel.create<TransposeOp>(
          loc, plan.keyPanel,
          kernel.tilePattern(plan.keyPanel, dw, kw, t * plan.keys + k0), rows,
          kernel.tilePattern(rows, kw, dw));
    }
  }
}

/// K^T and V, once per core: d tile t of K^T at columns t * keys, key
/// tile t of V at columns t * valueDim.
static void loadKeysAndValues(KernelBuilder &kernel, Location loc,
                              AttentionPlan &plan, bool keysTransposed) {
  DramTensor &k = plan.k, &v = plan.v;
  if (keysTransposed)
    loadKeysTransposed(kernel, loc, plan);
  for (int64_t t = 0; t < plan.dTiles && !keysTransposed; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
    kernel.create<DmaOp>(
        loc, plan.keyPanel,
        kernel.tilePattern(plan.keyPanel, dw, plan.keys, t * plan.keys),
        k.memloc,
        kernel.pattern(kernel.constant(k.base + d0 * k.rowStride),
                       {{k.rowStride, dw}, {1, plan.keys}}));
  }
  for (int64_t t = 0; t < plan.keyTiles; ++t) {
    int64_t k0 = t * 128, kw = std::min<int64_t>(128, plan.keys - k0);
    AccessPatternAttr panel = kernel.tilePattern(
        plan.valuePanel, kw, plan.valueDim, t * plan.valueDim);
    AccessPatternAttr source = kernel.dramPattern(
        v, kernel.constant(k0), kernel.constant(0), kw, plan.valueDim);
    if (!plan.cast) {
      kernel.create<DmaOp>(loc, plan.valuePanel, panel, v.memloc, source);
      continue;
    }
    AccessPatternAttr staged =
        kernel.tilePattern(plan.valueRows, kw, plan.valueDim);
    kernel.create<DmaOp>(loc, plan.valueRows, staged, v.memloc, source);
    kernel.cast(loc, plan.valuePanel, panel, plan.valueRows, staged);
  }
}

/// The scores of `rows`: Q^T for them (every d tile), then S = Q K^T a
/// PSUM bank at a time, into the scores tile.
static void emitScores(KernelBuilder &kernel, Location loc, AttentionPlan &plan,
                       const RowTile &rows) {
  int64_t p = rows.partitions;
  for (int64_t t = 0; t < plan.dTiles; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
    kernel.create<DmaOp>(
        loc, plan.queryRows, kernel.tilePattern(plan.queryRows, p, dw),
        plan.q.memloc,
        kernel.dramPattern(plan.q, rows.firstRow, kernel.constant(d0), p, dw));
    MemlocOp rowsOfQ = plan.queryRows;
    if (plan.cast) {
      kernel.cast(loc, plan.queryRows16, kernel.tilePattern(rowsOfQ, p, dw),
                  rowsOfQ);
      rowsOfQ = plan.queryRows16;
    }
    kernel.create<TransposeOp>(loc, plan.queryT,
                               kernel.tilePattern(plan.queryT, dw, p, t * 128),
                               rowsOfQ, kernel.tilePattern(rowsOfQ, p, dw));
  }
  for (int64_t j = 0; j * plan.chunk < plan.keys; ++j) {
    int64_t w = std::min(plan.chunk, plan.keys - j * plan.chunk);
    for (int64_t t = 0; t < plan.dTiles; ++t) {
      int64_t dw = std::min<int64_t>(128, plan.headDim - t * 128);
      kernel.create<MatmultOp>(
          loc, plan.acc, kernel.tilePattern(plan.acc, p, w), plan.queryT,
          kernel.tilePattern(plan.queryT, dw, p, t * 128), plan.keyPanel,
          kernel.tilePattern(plan.keyPanel, dw, w,
                             t * plan.keys + j * plan.chunk),
          t == 0, t + 1 == plan.dTiles, ReplicationAttr());
    }
    kernel.create<TensorCopyOp>(
        loc, plan.scores, kernel.tilePattern(plan.scores, p, w, j * plan.chunk),
        plan.acc, kernel.tilePattern(plan.acc, p, w));
  }
}

/// O = P V for `rows`: P^T a key tile at a time, accumulated over the keys
/// in PSUM, then copied out and stored.
static void emitContext(KernelBuilder &kernel, Location loc,
                        AttentionPlan &plan, const RowTile &rows) {
  int64_t p = rows.partitions, valueDim = plan.valueDim;
  MemlocOp probs = plan.scores;
  if (plan.cast) {
    kernel.cast(loc, plan.scores16, kernel.tilePattern(probs, p, plan.keys),
                probs);
    probs = plan.scores16;
  }
  for (int64_t t = 0; t < plan.keyTiles; ++t) {
    int64_t kw = std::min<int64_t>(128, plan.keys - t * 128);
    kernel.create<TransposeOp>(loc, plan.probT,
                               kernel.tilePattern(plan.probT, kw, p), probs,
                               kernel.tilePattern(probs, p, kw, t * 128));
    kernel.create<MatmultOp>(
        loc, plan.accContext, kernel.tilePattern(plan.accContext, p, valueDim),
        plan.probT, kernel.tilePattern(plan.probT, kw, p), plan.valuePanel,
        kernel.tilePattern(plan.valuePanel, kw, valueDim, t * valueDim), t == 0,
        t + 1 == plan.keyTiles, ReplicationAttr());
  }
  kernel.create<TensorCopyOp>(
      loc, plan.out, kernel.tilePattern(plan.out, p, valueDim), plan.accContext,
      kernel.tilePattern(plan.accContext, p, valueDim));
  kernel.create<DmaOp>(loc, plan.c.memloc,
                       kernel.dramPattern(plan.c, rows.firstRow,
                                          kernel.constant(0), p, valueDim),
                       plan.out, kernel.tilePattern(plan.out, p, valueDim));
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
  TargetAttr target = kernel.getTarget();
  AttentionPlan plan;
  plan.q = *q;
  plan.k = *k;
  plan.v = *v;
  plan.c = *c;
  plan.queries = scoresType.getShape()[0];
  plan.keys = scoresType.getShape()[1];
  plan.headDim = q->columns;
  plan.valueDim = v->columns;
  plan.bankColumns =
      target.getPsumBytesPerPartition() / target.getPsumBanks() / 4;
  plan.dTiles = llvm::divideCeil(plan.headDim, 128);
  plan.keyTiles = llvm::divideCeil(plan.keys, 128);
  plan.chunk = std::min(plan.bankColumns, plan.keys);
  plan.cast = lowering.tiles.autoCast && chain.keysTransposed &&
              q->elementType.isF32() && k->elementType.isF32();
  if (!fitsFused(plan, target))
    return false;

  Location loc = op->getLoc();
  addTiles(kernel, plan, chain.keysTransposed);
  loadKeysAndValues(kernel, loc, plan, chain.keysTransposed);
  kernel.forEachRowTile(plan.queries, 128, [&](const RowTile &rows) {
    emitScores(kernel, loc, plan, rows);
    // Softmax along the row, in place.
    emitRowSoftmax(kernel, loc,
                   {plan.scores, plan.scores, plan.scores, plan.stats},
                   rows.partitions, plan.keys);
    emitContext(kernel, loc, plan, rows);
  });
  return true;
}

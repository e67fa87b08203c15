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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

bool walrus::linalg_to_bir::isOnlyBetween(Value buffer, Operation *producer,
                                          Operation *consumer) {
  if (!buffer.getDefiningOp<memref::AllocOp>())
    return false;
  for (Operation *user : buffer.getUsers())
    if (user != producer && user != consumer &&
        !isa<memref::DeallocOp, linalg::FillOp>(user))
      return false;
  return true;
}

/// Whether contraction `op` (a matmul or batch matmul) reads `operand` as
/// linalg.matmul does: A (m, k), B (k, n) or with `transposed` (n, k),
/// C (m, n), each after the batch dim.
static bool readsPlainly(linalg::LinalgOp op, unsigned operand,
                         bool transposed) {
  AffineMap map = op.getIndexingMapsArray()[operand];
  unsigned base = isa<linalg::BatchMatmulOp>(op) ? 1 : 0;
  unsigned m = base, n = base + 1, k = base + 2;
  SmallVector<unsigned> dims(base ? 1 : 0, 0);
  if (operand == 0)
    dims.append({m, k});
  else if (operand == 1)
    dims.append({transposed ? n : k, transposed ? k : n});
  else
    dims.append({m, n});
  SmallVector<AffineExpr> results;
  for (unsigned dim : dims)
    results.push_back(getAffineDimExpr(dim, map.getContext()));
  return map == AffineMap::get(base + 3, 0, results, map.getContext());
}

/// Whether `buffer` is an allocation only `ops` use (besides fills and
/// deallocations): bufferization may give the scores and the
/// probabilities the same one.
static bool isOnlyWithin(Value buffer, ArrayRef<Operation *> ops) {
  return buffer.getDefiningOp<memref::AllocOp>() &&
         llvm::all_of(buffer.getUsers(), [&](Operation *user) {
           return llvm::is_contained(ops, user) ||
                  isa<memref::DeallocOp, linalg::FillOp>(user);
         });
}

/// A matmul or batch matmul into a zero-filled buffer.
static linalg::LinalgOp getZeroInitMatmul(Operation *op, Lowering &lowering) {
  if (!isa_and_nonnull<linalg::MatmulOp, linalg::BatchMatmulOp>(op) ||
      !lowering.zeroInitialized.contains(op))
    return {};
  return cast<linalg::LinalgOp>(op);
}

/// The constant `op` multiplies each element of `input` by, where `op` is
/// an elementwise generic reading `input` alone (through the identity)
/// and multiplying or dividing it by a positive finite constant: the
/// scalar engine applies it on the way out of PSUM, before the row
/// maximum (which a positive factor keeps).
static std::optional<double> getScale(linalg::GenericOp op, Value input) {
  if (!op || op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 ||
      op.getNumParallelLoops() != op.getNumLoops() ||
      op.getDpsInputOperand(0)->get() != input ||
      !llvm::all_of(op.getIndexingMapsArray(),
                    [](AffineMap map) { return map.isIdentity(); }))
    return std::nullopt;
  Block *body = op.getBody();
  if (body->getOperations().size() != 2 ||
      body->getTerminator()->getOperand(0) != body->front().getResult(0))
    return std::nullopt;
  Operation &scalar = body->front();
  Value in = body->getArgument(0);
  APFloat factor(0.0);
  bool divides = isa<arith::DivFOp>(scalar);
  if (!isa<arith::MulFOp, arith::DivFOp>(scalar) ||
      !(scalar.getOperand(0) == in ||
        (!divides && scalar.getOperand(1) == in)) ||
      !matchPattern(scalar.getOperand(scalar.getOperand(0) == in ? 1 : 0),
                    m_ConstantFloat(&factor)) ||
      !factor.isFiniteNonZero() || factor.isNegative())
    return std::nullopt;
  double value = factor.convertToDouble();
  return divides ? 1.0 / value : value;
}

SmallVector<AttentionChain>
walrus::linalg_to_bir::findAttentionChains(Block &body, Lowering &lowering) {
  SmallVector<Operation *> ops;
  for (Operation &op : body)
    if (isa<linalg::LinalgOp, linalg::SoftmaxOp>(op) &&
        !isa<linalg::FillOp>(op))
      ops.push_back(&op);
  SmallVector<AttentionChain> chains;
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    AttentionChain chain;
    chain.scores = getZeroInitMatmul(ops[i], lowering);
    if (!chain.scores)
      continue;
    size_t next = i + 1;
    Value s = chain.scores.getDpsInitOperand(0)->get();
    if (auto scaling = dyn_cast<linalg::GenericOp>(ops[next])) {
      std::optional<double> scale = getScale(scaling, s);
      if (!scale || next + 1 == ops.size())
        continue;
      chain.scaling = scaling;
      chain.scale = *scale;
      s = scaling.getDpsInitOperand(0)->get();
      ++next;
    }
    chain.softmax = dyn_cast<linalg::SoftmaxOp>(ops[next]);
    auto type = dyn_cast<MemRefType>(s.getType());
    if (!chain.softmax || !type || !type.getElementType().isF32() ||
        chain.softmax.getInput() != s ||
        chain.softmax.getDimension() + 1 != uint64_t(type.getRank()) ||
        !readsPlainly(chain.scores, 0, false) ||
        !readsPlainly(chain.scores, 2, false))
      continue;
    chain.keysTransposed = readsPlainly(chain.scores, 1, true);
    if (!chain.keysTransposed && !readsPlainly(chain.scores, 1, false))
      continue;
    Value p = chain.softmax.getOutput();
    chain.context = next + 1 < ops.size()
                        ? getZeroInitMatmul(ops[next + 1], lowering)
                        : linalg::LinalgOp();
    if (chain.context && (chain.context->getName() != chain.scores->getName() ||
                          chain.context->getOperand(0) != p ||
                          !readsPlainly(chain.context, 0, false) ||
                          !readsPlainly(chain.context, 1, false) ||
                          !readsPlainly(chain.context, 2, false)))
      chain.context = {};
    // The intermediates: the scores, scaled, and the probabilities P V
    // reads.
    SmallVector<Operation *> parts = {chain.scores, chain.softmax};
    SmallVector<Value> intermediates = {
        chain.scores.getDpsInitOperand(0)->get(), s};
    if (chain.scaling)
      parts.push_back(chain.scaling);
    if (chain.context) {
      parts.push_back(chain.context);
      intermediates.push_back(p);
    }
    if (!llvm::all_of(intermediates, [&](Value buffer) {
          return isOnlyWithin(buffer, parts);
        }))
      continue;
    chains.push_back(chain);
    i = chain.context ? next + 1 : next;
  }
  return chains;
}

namespace {
/// The tiles one tile of query rows works in. Consecutive query tiles
/// take turns among the plan's sets, so one tile's loads and scores
/// overlap the last one's softmax and P V.
struct QueryTileSet {
  MemlocOp queryRows, queryRows16, queryT, scores, probs, stats, probT, out,
      acc, accContext;
};

/// The tiles a batch loads: K^T, V, its staged query rows, and what K's
/// and V's rows arrive in (K stored [keys, d]: the rows of `stagedTiles`
/// key tiles, and two bf16 tiles with auto-cast in turn, before the
/// tensor engine turns them into K^T).
struct BatchPanels {
  MemlocOp keyPanel, valuePanel, queryStage, keyRows, valueRows;
  SmallVector<MemlocOp, 2> keyRows16;
};

/// The operands of one attention chain, its sizes and its tiles.
struct AttentionPlan {
  DramTensor q, k, v, c;
  int64_t queries = 0, keys = 0, headDim = 0, valueDim = 0;
  /// Columns of a PSUM bank in f32, 128-row tiles of d and of the keys,
  /// and the columns of scores one bank holds.
  int64_t bankColumns = 0, dTiles = 0, keyTiles = 0, chunk = 0;
  /// Columns of each key tile of the V panel: V's, then a column of ones,
  /// so P V's last column is the row sums of P. Both 0 without P V.
  int64_t valueColumns = 0;
  /// Whether P V follows (else P is stored), and the factor of the scores.
  bool context = true;
  double scale = 1.0;
  /// Batches, and the copies of the BatchPanels consecutive batches take
  /// in turn, so one batch's loads overlap the last one's work (a head of
  /// one query tile would otherwise load, compute and store alone).
  int64_t batches = 1, panelBuffers = 1;
  SmallVector<BatchPanels, 2> panels;
  /// The panels of the batch being emitted.
  BatchPanels batch;
  /// With auto-cast (K stored [keys, d], everything f32): the operands of
  /// the tensor engine in bf16, cast on the scalar engine from the f32
  /// tiles they arrive in (query and key rows, V, the probabilities).
  bool cast = false;
  /// Sets of query tiles in turn (attention-buffers, fewer when SBUF or
  /// PSUM cannot hold them).
  int64_t buffers = 1;
  /// Key tiles the staging tiles below hold side by side: each tile's
  /// transfer lands in columns of its own, so the transfers of a head do
  /// not wait for each other (one tile reused would be split by -sb-alloc
  /// into values placed on the same bytes, each load waiting for the last
  /// one's reader).
  int64_t stagedTiles = 1;
  /// Query tiles the busiest core takes, and whether their rows are all
  /// loaded before the first (`queryStage`): a tile's loads then never
  /// queue behind the last tile's store.
  int64_t tilesPerCore = 1;
  bool stageQueries = false;
  SmallVector<QueryTileSet> sets;
};
} // namespace

static double bytesOf(Type type) { return type.getIntOrFloatBitWidth() / 8; }

/// Bytes of an element of V's panel (none without P V).
static double getValueBytes(const AttentionPlan &plan) {
  if (!plan.context)
    return 0;
  return plan.cast ? 2 : bytesOf(plan.v.elementType);
}

// Sizes come from the input: byte counts are doubles, which do not wrap.

/// SBUF bytes per partition of every query row a core takes.
static double getQueryStageBytes(const AttentionPlan &plan) {
  return double(plan.tilesPerCore) * plan.dTiles * 128 *
         bytesOf(plan.q.elementType);
}

/// SBUF bytes per partition of the tiles a whole op keeps: K^T (every d
/// tile), V (every key tile) and what they arrive in.
static double getSharedBytes(const AttentionPlan &plan) {
  double operand = plan.cast ? 2 : bytesOf(plan.q.elementType);
  double value = getValueBytes(plan);
  double panels = double(plan.dTiles) * plan.keys * operand +
                  double(plan.keyTiles) * plan.valueColumns * value;
  if (plan.stageQueries)
    panels += getQueryStageBytes(plan);
  panels += plan.stagedTiles * 128 * bytesOf(plan.k.elementType);
  if (plan.cast)
    panels += 2 * 128 * 2 + plan.stagedTiles * plan.valueDim * 4.0;
  return plan.panelBuffers * panels;
}

/// SBUF bytes per partition of one QueryTileSet.
static double getSetBytes(const AttentionPlan &plan) {
  double operand = plan.cast ? 2 : bytesOf(plan.q.elementType);
  double value = getValueBytes(plan);
  double bytes = 128 * bytesOf(plan.q.elementType) +
                 plan.dTiles * 128 * operand + plan.keys * 4.0 + 4;
  if (!plan.context)
    return bytes + plan.keys * bytesOf(plan.c.elementType) +
           (plan.cast ? 128 * 2 : 0);
  bytes += 128 * value + plan.valueDim * bytesOf(plan.c.elementType);
  if (plan.cast)
    bytes += 128 * 2 + plan.keys * 2.0;
  return bytes;
}

/// Whether one kernel handles the chain: its element types, a row of P V
/// and its sums in one PSUM bank, K, V and at least one set in three
/// quarters of SBUF (anything larger goes op by op). Sets `buffers` to
/// the most sets, up to `wanted`, that SBUF and PSUM hold (two banks each).
static bool planBuffers(AttentionPlan &plan, TargetAttr target,
                        int64_t wanted) {
  const DramTensor &q = plan.q, &k = plan.k, &v = plan.v;
  if (plan.valueColumns > plan.bankColumns || q.elementType != k.elementType ||
      (plan.context && !v.elementType.isF32()) || q.rows != plan.queries ||
      k.rows * k.columns != plan.keys * plan.headDim)
    return false;
  double budget = target.getSbufBytesPerPartition() * 0.75;
  int64_t banks = target.getPsumBanks() - target.getPsumReservedBanks();
  // Up to 16 key tiles staged (8 KiB per partition of f32 rows at d 128)
  // and a core's query rows up to 16 KiB, less where that does not fit.
  // Two copies of the batch's tiles only where they fit beside what one
  // batch alone would take.
  plan.panelBuffers = 1;
  for (int64_t staged : {std::min<int64_t>(plan.keyTiles, 16), int64_t(2)}) {
    plan.stagedTiles = std::max<int64_t>(1, staged);
    for (bool stageQueries : {true, false}) {
      plan.stageQueries = stageQueries && getQueryStageBytes(plan) <= 16384;
      for (plan.buffers = wanted; plan.buffers >= 1; --plan.buffers) {
        if (2 * plan.buffers > banks ||
            getSharedBytes(plan) + plan.buffers * getSetBytes(plan) > budget)
          continue;
        plan.panelBuffers = std::min<int64_t>(plan.batches, 2);
        if (getSharedBytes(plan) + plan.buffers * getSetBytes(plan) > budget)
          plan.panelBuffers = 1;
        return true;
      }
    }
  }
  return false;
}

static QueryTileSet addSet(KernelBuilder &kernel, const AttentionPlan &plan) {
  Type f32 = Float32Type::get(kernel.getContext());
  Type bf16 = BFloat16Type::get(kernel.getContext());
  Type qk = plan.cast ? bf16 : plan.q.elementType;
  Type v = plan.cast ? bf16 : plan.v.elementType;
  QueryTileSet set;
  if (!plan.stageQueries)
    set.queryRows = kernel.addTile("at_q", 128, 128, plan.q.elementType);
  set.queryRows16 =
      plan.cast ? kernel.addTile("at_q_bf16", 128, 128, qk) : set.queryRows;
  set.queryT = kernel.addTile("at_qt", 128, plan.dTiles * 128, qk);
  set.scores = kernel.addTile("at_s", 128, plan.keys, f32);
  set.stats = kernel.addTile("at_stat", 128, 1, f32);
  set.acc = kernel.addTile("at_acc", 128, plan.chunk, f32, /*psum=*/true);
  set.probs = set.scores;
  if (!plan.context) {
    set.out = kernel.addTile("at_p", 128, plan.keys, plan.c.elementType);
    return set;
  }
  if (plan.cast)
    set.probs = kernel.addTile("at_s_bf16", 128, plan.keys, v);
  set.probT = kernel.addTile("at_pt", 128, 128, v);
  set.out = kernel.addTile("at_o", 128, plan.valueDim, plan.c.elementType);
  set.accContext =
      kernel.addTile("at_ctx", 128, plan.valueColumns, f32, /*psum=*/true);
  return set;
}

static void addTiles(KernelBuilder &kernel, AttentionPlan &plan,
                     bool keysTransposed) {
  Type bf16 = BFloat16Type::get(kernel.getContext());
  Type qk = plan.cast ? bf16 : plan.q.elementType;
  Type v = plan.cast ? bf16 : plan.v.elementType;
  for (int64_t copy = 0; copy < plan.panelBuffers; ++copy) {
    BatchPanels panels;
    if (keysTransposed) {
      panels.keyRows = kernel.addTile("at_krows", 128, plan.stagedTiles * 128,
                                      plan.k.elementType);
      for (int turn = 0; turn < 2 && plan.cast; ++turn)
        panels.keyRows16.push_back(
            kernel.addTile("at_krows_bf16", 128, 128, qk));
    }
    panels.keyPanel = kernel.addTile("at_k", 128, plan.dTiles * plan.keys, qk);
    if (plan.context)
      panels.valuePanel =
          kernel.addTile("at_v", 128, plan.keyTiles * plan.valueColumns, v);
    if (plan.stageQueries)
      panels.queryStage =
          kernel.addTile("at_qrows", 128, plan.tilesPerCore * plan.dTiles * 128,
                         plan.q.elementType);
    if (plan.cast && plan.context)
      panels.valueRows =
          kernel.addTile("at_v_f32", 128, plan.stagedTiles * plan.valueDim,
                         Float32Type::get(kernel.getContext()));
    SmallVector<MemlocOp> rotating = {panels.keyPanel, panels.valuePanel,
                                      panels.queryStage, panels.keyRows,
                                      panels.valueRows};
    rotating.append(panels.keyRows16);
    for (MemlocOp memloc : rotating)
      if (memloc && plan.panelBuffers > 1)
        kernel.markRotating(memloc, copy);
    plan.panels.push_back(panels);
  }
  for (int64_t buffer = 0; buffer < plan.buffers; ++buffer)
    plan.sets.push_back(addSet(kernel, plan));
  // -sb-alloc keeps the sets apart (docs/SbAlloc.md).
  if (plan.buffers < 2)
    return;
  for (auto [index, set] : llvm::enumerate(plan.sets))
    for (MemlocOp memloc :
         {set.queryRows, set.queryRows16, set.queryT, set.scores, set.probs,
          set.stats, set.probT, set.out, set.acc, set.accContext})
      if (memloc)
        kernel.markRotating(memloc, index);
}

/// Runs `load` for `count` tiles, `group` at a time, and `use` for each
/// tile of a group after all of the group's loads: the transfers are
/// issued together, and the staging columns of a group are live at once,
/// so -sb-alloc keeps them apart and no load waits for another's reader.
static void stageInGroups(int64_t count, int64_t group,
                          function_ref<void(int64_t)> load,
                          function_ref<void(int64_t)> use) {
  for (int64_t first = 0; first < count; first += group) {
    int64_t last = std::min(count, first + group);
    for (int64_t i = first; i < last; ++i)
      load(i);
    for (int64_t i = first; i < last; ++i)
      use(i);
  }
}

/// K^T from K stored [keys, d]: each tile of 128 keys by 128 of d comes in
/// as rows (runs of d) into the staging tile, and the tensor engine turns
/// it. Read transposed by the DMA, every element would be a packet of its
/// own.
static void loadKeysTransposed(KernelBuilder &kernel, Location loc,
                               AttentionPlan &plan) {
  DramTensor &k = plan.k;
  auto tileOf = [&](int64_t turn) {
    int64_t d0 = turn / plan.keyTiles * 128, k0 = turn % plan.keyTiles * 128;
    return std::make_tuple(d0, std::min<int64_t>(128, plan.headDim - d0), k0,
                           std::min<int64_t>(128, plan.keys - k0));
  };
  auto staged = [&](int64_t turn, int64_t kw, int64_t dw) {
    return kernel.tilePattern(plan.batch.keyRows, kw, dw,
                              (turn % plan.stagedTiles) * 128);
  };
  auto load = [&](int64_t turn) {
    auto [d0, dw, k0, kw] = tileOf(turn);
    kernel.create<DmaOp>(loc, plan.batch.keyRows, staged(turn, kw, dw),
                         k.memloc,
                         kernel.dramPattern(k, kernel.constant(k0),
                                            kernel.constant(d0), kw, dw));
  };
  auto turnToPanel = [&](int64_t turn) {
    auto [d0, dw, k0, kw] = tileOf(turn);
    MemlocOp rows = plan.batch.keyRows;
    AccessPatternAttr pattern = staged(turn, kw, dw);
    if (plan.cast) {
      rows = plan.batch.keyRows16[turn % 2];
      kernel.cast(loc, rows, kernel.tilePattern(rows, kw, dw),
                  plan.batch.keyRows, pattern);
      pattern = kernel.tilePattern(rows, kw, dw);
    }
    kernel.create<TransposeOp>(loc, plan.batch.keyPanel,
                               kernel.tilePattern(plan.batch.keyPanel, dw, kw,
                                                  d0 / 128 * plan.keys + k0),
                               rows, pattern);
  };
  stageInGroups(plan.dTiles * plan.keyTiles, plan.stagedTiles, load,
                turnToPanel);
}

/// V's panel with auto-cast: its f32 rows staged, then cast into the
/// panel's bf16 columns.
static void loadValuesCast(KernelBuilder &kernel, Location loc,
                           AttentionPlan &plan) {
  auto shape = [&](int64_t t) {
    return std::make_pair(t * 128, std::min<int64_t>(128, plan.keys - t * 128));
  };
  auto staged = [&](int64_t t, int64_t kw) {
    return kernel.tilePattern(plan.batch.valueRows, kw, plan.valueDim,
                              (t % plan.stagedTiles) * plan.valueDim);
  };
  auto load = [&](int64_t t) {
    auto [k0, kw] = shape(t);
    kernel.create<DmaOp>(
        loc, plan.batch.valueRows, staged(t, kw), plan.v.memloc,
        kernel.dramPattern(plan.v, kernel.constant(k0), kernel.constant(0), kw,
                           plan.valueDim));
  };
  auto cast = [&](int64_t t) {
    auto [k0, kw] = shape(t);
    kernel.cast(loc, plan.batch.valuePanel,
                kernel.tilePattern(plan.batch.valuePanel, kw, plan.valueDim,
                                   t * plan.valueColumns),
                plan.batch.valueRows, staged(t, kw));
  };
  stageInGroups(plan.keyTiles, plan.stagedTiles, load, cast);
}

/// K^T and V, once per core: d tile t of K^T at columns t * keys, key
/// tile t of V at columns t * valueColumns, a column of ones after it.
static void loadKeysAndValues(KernelBuilder &kernel, Location loc,
                              AttentionPlan &plan, bool keysTransposed) {
  DramTensor &k = plan.k, &v = plan.v;
  if (keysTransposed)
    loadKeysTransposed(kernel, loc, plan);
  for (int64_t t = 0; t < plan.dTiles && !keysTransposed; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
    kernel.create<DmaOp>(
        loc, plan.batch.keyPanel,
        kernel.tilePattern(plan.batch.keyPanel, dw, plan.keys, t * plan.keys),
        k.memloc,
        kernel.pattern(kernel.constant(k.base + d0 * k.rowStride),
                       {{k.rowStride, dw}, {1, plan.keys}}));
  }
  if (!plan.context)
    return;
  int64_t panelColumns = plan.keyTiles * plan.valueColumns;
  kernel.create<MemsetOp>(
      loc, plan.batch.valuePanel,
      kernel.pattern(kernel.constant(plan.valueDim),
                     {{panelColumns, 128}, {plan.valueColumns, plan.keyTiles}}),
      kernel.getBuilder().getF64FloatAttr(1.0));
  if (plan.cast)
    return loadValuesCast(kernel, loc, plan);
  for (int64_t t = 0; t < plan.keyTiles; ++t) {
    int64_t k0 = t * 128, kw = std::min<int64_t>(128, plan.keys - k0);
    kernel.create<DmaOp>(
        loc, plan.batch.valuePanel,
        kernel.tilePattern(plan.batch.valuePanel, kw, plan.valueDim,
                           t * plan.valueColumns),
        v.memloc,
        kernel.dramPattern(v, kernel.constant(k0), kernel.constant(0), kw,
                           plan.valueDim));
  }
}

/// Where d tile `t` of the query rows `rows` sit in the query stage.
static AccessPatternAttr getStagedQuery(KernelBuilder &kernel,
                                        const AttentionPlan &plan,
                                        const RowTile &rows, int64_t t,
                                        int64_t dw) {
  int64_t stride = plan.tilesPerCore * plan.dTiles * 128;
  return kernel.pattern((rows.round * plan.dTiles + t) * 128,
                        {{stride, rows.partitions}, {1, dw}});
}

/// Every query row a core takes, before its first tile: one transfer per
/// tile and d tile, into columns of their own.
static void loadQueries(KernelBuilder &kernel, Location loc,
                        AttentionPlan &plan) {
  kernel.forEachRotatingRowTile(
      plan.queries, 128, 1, [&](const RowTile &rows, unsigned) {
        for (int64_t t = 0; t < plan.dTiles; ++t) {
          int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
          kernel.create<DmaOp>(
              loc, plan.batch.queryStage,
              getStagedQuery(kernel, plan, rows, t, dw), plan.q.memloc,
              kernel.dramPattern(plan.q, rows.firstRow, kernel.constant(d0),
                                 rows.partitions, dw));
        }
      });
}

/// Q^T for `rows`, every d tile: the rows loaded here or staged before,
/// cast with auto-cast, turned by the tensor engine.
static void emitQueryT(KernelBuilder &kernel, Location loc, AttentionPlan &plan,
                       QueryTileSet &set, const RowTile &rows) {
  int64_t p = rows.partitions;
  for (int64_t t = 0; t < plan.dTiles; ++t) {
    int64_t d0 = t * 128, dw = std::min<int64_t>(128, plan.headDim - d0);
    MemlocOp source = plan.batch.queryStage;
    AccessPatternAttr pattern;
    if (plan.stageQueries) {
      pattern = getStagedQuery(kernel, plan, rows, t, dw);
    } else {
      source = set.queryRows;
      pattern = kernel.tilePattern(source, p, dw);
      kernel.create<DmaOp>(loc, source, pattern, plan.q.memloc,
                           kernel.dramPattern(plan.q, rows.firstRow,
                                              kernel.constant(d0), p, dw));
    }
    if (plan.cast) {
      kernel.cast(loc, set.queryRows16,
                  kernel.tilePattern(set.queryRows16, p, dw), source, pattern);
      source = set.queryRows16;
      pattern = kernel.tilePattern(source, p, dw);
    }
    kernel.create<TransposeOp>(loc, set.queryT,
                               kernel.tilePattern(set.queryT, dw, p, t * 128),
                               source, pattern);
  }
}

/// The scores of `rows`: Q^T for them (every d tile), then S = s Q K^T a
/// PSUM bank at a time, scaled on the way into the scores tile by the
/// scalar engine (the vector engine has the softmax's work).
static void emitScores(KernelBuilder &kernel, Location loc, AttentionPlan &plan,
                       QueryTileSet &set, const RowTile &rows) {
  int64_t p = rows.partitions;
  emitQueryT(kernel, loc, plan, set, rows);
  for (int64_t j = 0; j * plan.chunk < plan.keys; ++j) {
    int64_t w = std::min(plan.chunk, plan.keys - j * plan.chunk);
    for (int64_t t = 0; t < plan.dTiles; ++t) {
      int64_t dw = std::min<int64_t>(128, plan.headDim - t * 128);
      kernel.create<MatmultOp>(
          loc, set.acc, kernel.tilePattern(set.acc, p, w), set.queryT,
          kernel.tilePattern(set.queryT, dw, p, t * 128), plan.batch.keyPanel,
          kernel.tilePattern(plan.batch.keyPanel, dw, w,
                             t * plan.keys + j * plan.chunk),
          t == 0, t + 1 == plan.dTiles, ReplicationAttr());
    }
    kernel.create<ActivationOp>(
        loc, ActivationFunction::Identity, set.scores,
        kernel.tilePattern(set.scores, p, w, j * plan.chunk), set.acc,
        kernel.tilePattern(set.acc, p, w), APFloat(plan.scale));
  }
}

/// P = exp(S - max) along each row, unnormalised: the sums come out of
/// P V (the column of ones), and only the row of P V is divided by them.
/// The vector engine takes the maximum and negates it; the scalar engine
/// adds it as its per-partition bias on the way through `exp`.
static void emitExponentials(KernelBuilder &kernel, Location loc,
                             AttentionPlan &plan, QueryTileSet &set,
                             int64_t p) {
  AccessPatternAttr row = kernel.tilePattern(set.scores, p, plan.keys);
  AccessPatternAttr stat = kernel.tilePattern(set.stats, p, 1);
  kernel.create<TensorReduceOp>(loc, AluOp::Max, set.stats, stat, set.scores,
                                row);
  kernel.create<TensorScalarOp>(loc, AluOp::Multiply, set.stats, stat,
                                set.stats, stat,
                                kernel.getBuilder().getF64FloatAttr(-1.0),
                                /*reverse=*/false);
  kernel.create<ActivationOp>(
      loc, ActivationFunction::Exp, set.probs,
      kernel.tilePattern(set.probs, p, plan.keys), set.scores, row, set.stats,
      kernel.pattern(kernel.constant(0), {{1, p}, {0, plan.keys}}),
      APFloat(1.0));
}

/// O = P V / rowsum(P) for `rows`: P^T a key tile at a time, accumulated
/// over the keys in PSUM with the sums beside it, divided on the way out
/// and stored.
static void emitContext(KernelBuilder &kernel, Location loc,
                        AttentionPlan &plan, QueryTileSet &set,
                        const RowTile &rows) {
  int64_t p = rows.partitions, valueDim = plan.valueDim;
  for (int64_t t = 0; t < plan.keyTiles; ++t) {
    int64_t kw = std::min<int64_t>(128, plan.keys - t * 128);
    kernel.create<TransposeOp>(loc, set.probT,
                               kernel.tilePattern(set.probT, kw, p), set.probs,
                               kernel.tilePattern(set.probs, p, kw, t * 128));
    kernel.create<MatmultOp>(
        loc, set.accContext,
        kernel.tilePattern(set.accContext, p, plan.valueColumns), set.probT,
        kernel.tilePattern(set.probT, kw, p), plan.batch.valuePanel,
        kernel.tilePattern(plan.batch.valuePanel, kw, plan.valueColumns,
                           t * plan.valueColumns),
        t == 0, t + 1 == plan.keyTiles, ReplicationAttr());
  }
  // One division on the vector engine, the sum read across the row from
  // the column after it: the scalar engine's queue (in order) would hold
  // the next tile's work behind a reciprocal waiting for this P V.
  AccessPatternAttr out = kernel.tilePattern(set.out, p, valueDim);
  kernel.create<TensorTensorOp>(
      loc, AluOp::Divide, set.out, out, set.accContext,
      kernel.tilePattern(set.accContext, p, valueDim), set.accContext,
      kernel.pattern(kernel.constant(valueDim),
                     {{plan.valueColumns, p}, {0, valueDim}}));
  kernel.create<DmaOp>(loc, plan.c.memloc,
                       kernel.dramPattern(plan.c, rows.firstRow,
                                          kernel.constant(0), p, valueDim),
                       set.out, out);
}

/// P = softmax(s Q K^T) for `rows`, normalised in SBUF and stored: the
/// chain's result when no P V follows.
static void emitProbabilities(KernelBuilder &kernel, Location loc,
                              AttentionPlan &plan, QueryTileSet &set,
                              const RowTile &rows) {
  int64_t p = rows.partitions;
  emitRowSoftmax(kernel, loc, {set.scores, set.scores, set.out, set.stats}, p,
                 plan.keys);
  kernel.create<DmaOp>(loc, plan.c.memloc,
                       kernel.dramPattern(plan.c, rows.firstRow,
                                          kernel.constant(0), p, plan.keys),
                       set.out, kernel.tilePattern(set.out, p, plan.keys));
}

/// Batch `b` of `tensor`, whose rows hold `batches` batches one after
/// the other. Memrefs reach at most 2^48 elements (checkMemref): the
/// offset fits.
static DramTensor getBatch(const DramTensor &tensor, int64_t batches,
                           int64_t b) {
  DramTensor batch = tensor;
  batch.rows = tensor.rows / batches;
  batch.base = tensor.base + b * batch.rows * tensor.rowStride;
  return batch;
}

/// The chain's operands Q, K, V (none without P V) and the result, as
/// rows.
static FailureOr<SmallVector<DramTensor, 4>>
getOperands(const AttentionChain &chain, Lowering &lowering) {
  Operation *op = chain.scores;
  SmallVector<Value, 4> values = {chain.scores->getOperand(0),
                                  chain.scores->getOperand(1)};
  if (chain.context)
    values.append({chain.context->getOperand(1), chain.context->getOperand(2)});
  else
    values.append({Value(), chain.softmax->getOperand(1)});
  SmallVector<DramTensor, 4> tensors;
  for (Value value : values) {
    if (!value) {
      tensors.emplace_back();
      continue;
    }
    FailureOr<DramTensor> tensor = lowering.getTensor(op, value);
    if (failed(tensor))
      return failure();
    tensors.push_back(*tensor);
  }
  return tensors;
}

/// Whether every operand holds its batches as whole rows.
static bool foldsToBatches(ArrayRef<DramTensor> tensors, int64_t batches) {
  return llvm::all_of(tensors, [&](const DramTensor &tensor) {
    return !tensor.memloc || (tensor.foldsToRows && tensor.rows % batches == 0);
  });
}

FailureOr<bool>
walrus::linalg_to_bir::lowerAttention(const AttentionChain &chain,
                                      Lowering &lowering) {
  KernelBuilder &kernel = lowering.kernel;
  Operation *op = chain.scores;
  auto scoresType = cast<MemRefType>(chain.scores->getOperand(2).getType());
  int64_t batches =
      scoresType.getRank() == 3 ? scoresType.getShape().front() : 1;
  FailureOr<SmallVector<DramTensor, 4>> operands = getOperands(chain, lowering);
  if (failed(operands))
    return failure();
  if (batches < 1 || !foldsToBatches(*operands, batches))
    return false;
  TargetAttr target = kernel.getTarget();
  AttentionPlan plan;
  auto sliceBatch = [&](int64_t b) {
    plan.q = getBatch((*operands)[0], batches, b);
    plan.k = getBatch((*operands)[1], batches, b);
    if (chain.context)
      plan.v = getBatch((*operands)[2], batches, b);
    plan.c = getBatch((*operands)[3], batches, b);
  };
  sliceBatch(0);
  plan.batches = batches;
  plan.context = bool(chain.context);
  plan.scale = chain.scale;
  plan.queries = scoresType.getShape()[scoresType.getRank() - 2];
  plan.keys = scoresType.getShape().back();
  plan.headDim = plan.q.columns;
  plan.valueDim = plan.context ? plan.v.columns : 0;
  plan.bankColumns =
      target.getPsumBytesPerPartition() / target.getPsumBanks() / 4;
  plan.dTiles = llvm::divideCeil(plan.headDim, 128);
  plan.keyTiles = llvm::divideCeil(plan.keys, 128);
  plan.chunk = std::min(plan.bankColumns, plan.keys);
  plan.valueColumns = plan.context ? plan.valueDim + 1 : 0;
  plan.cast = lowering.tiles.autoCast && chain.keysTransposed &&
              plan.q.elementType.isF32() && plan.k.elementType.isF32();
  // More sets than a core has query tiles would never be used.
  plan.tilesPerCore = std::max<int64_t>(
      1, llvm::divideCeil(kernel.getBusiestShare(plan.queries, 128), 128));
  // The sets rotate across the batches too.
  if (!planBuffers(plan, target,
                   std::min(plan.tilesPerCore * batches,
                            lowering.tiles.attentionBuffers)))
    return false;

  Location loc = op->getLoc();
  addTiles(kernel, plan, chain.keysTransposed);
  // Batch b reads copy b % panelBuffers of the panels; with two, batch
  // b + 1's operands load before batch b's work is emitted, so they do not
  // queue behind its stores. Batches unroll: past the instruction limit
  // the caller reports it.
  auto usePanels = [&](int64_t b) {
    sliceBatch(b);
    plan.batch = plan.panels[b % plan.panelBuffers];
  };
  auto load = [&](int64_t b) {
    usePanels(b);
    loadKeysAndValues(kernel, loc, plan, chain.keysTransposed);
    if (plan.stageQueries)
      loadQueries(kernel, loc, plan);
  };
  bool prefetch = plan.panelBuffers > 1;
  if (prefetch)
    load(0);
  for (int64_t b = 0; b < batches && !kernel.overLimit(); ++b) {
    if (!prefetch)
      load(b);
    else if (b + 1 < batches)
      load(b + 1);
    usePanels(b);
    kernel.forEachRotatingRowTile(
        plan.queries, 128, plan.buffers,
        [&](const RowTile &rows, unsigned buffer) {
          QueryTileSet &set =
              plan.sets[(b * plan.tilesPerCore + buffer) % plan.buffers];
          emitScores(kernel, loc, plan, set, rows);
          if (!plan.context)
            return emitProbabilities(kernel, loc, plan, set, rows);
          emitExponentials(kernel, loc, plan, set, rows.partitions);
          emitContext(kernel, loc, plan, set, rows);
        });
  }
  return true;
}

//===- Contraction.cpp - Convolutions and other contractions on PE -------===//
//
// A linalg op that multiplies two operands and adds into its output
// (`out += a * b` over linear maps: convolutions NCHW or NHWC with strides
// and dilations, broadcast batch matmuls, batch_reduce_matmul) runs on
// the tensor engine as a chain of matmults into one PSUM tile: the
// contraction loop is the partitions of both operands, the stationary
// operand's own loop the PSUM partitions, the moving operand's own loops
// (up to two: an output row and its columns) the PSUM columns, and every
// other reduction loop (a convolution's taps) one more term of the chain
// (docs/LinalgToBir.md, "Contractions on the tensor engine").
//
//===----------------------------------------------------------------------===//

#include "LinearAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

/// Terms a chain may have: each is emitted once per output tile (a load
/// and a matmult), so this bounds the code of one tile, not its speed
/// (a 3x3 convolution of 2048 channels has 144).
constexpr int64_t kMaxChainTerms = 1024;

namespace {
/// The roles of the loops (docs/LinalgToBir.md).
struct ContractionPlan {
  SmallVector<int64_t> ranges;
  LinearAccess stationary, moving, output;
  unsigned contraction = 0;
  std::optional<unsigned> rows, row, column;
  SmallVector<unsigned> taps, batch;
  /// The stationary operand's own loops: past the first, each is a loop of
  /// narrow tiles around the chain.
  size_t stationaryLoops = 0;
};

/// One input of the op: its access and its own parallel loops.
struct ContractionInput {
  LinearAccess access;
  SmallVector<unsigned> own;
};
} // namespace

/// Whether `op`'s body is `out + a * b` (either order, casts of a and b
/// aside) of floats, `a` and `b` its two inputs.
static bool isMultiplyAdd(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add)
    return false;
  Value out = body->getArgument(2);
  Value product = add.getLhs() == out   ? add.getRhs()
                  : add.getRhs() == out ? add.getLhs()
                                        : Value();
  auto multiply =
      product ? product.getDefiningOp<arith::MulFOp>() : arith::MulFOp();
  if (!multiply)
    return false;
  auto source = [](Value value) {
    if (auto ext = value.getDefiningOp<arith::ExtFOp>())
      return ext.getIn();
    return value;
  };
  Value a = source(multiply.getLhs()), b = source(multiply.getRhs());
  return (a == body->getArgument(0) && b == body->getArgument(1)) ||
         (a == body->getArgument(1) && b == body->getArgument(0));
}

/// How many elements loops `dims` span together.
static int64_t extent(ArrayRef<unsigned> dims, ArrayRef<int64_t> ranges) {
  int64_t product = 1;
  for (unsigned d : dims)
    product = std::min<int64_t>(product * ranges[d], int64_t(1) << 40);
  return product;
}

/// Whether `op` multiplies two inputs of one float type into its one init
/// and adds.
static bool isFloatMultiplyAdd(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !isMultiplyAdd(op))
    return false;
  Type a = getElementTypeOrSelf(op.getDpsInputs()[0].getType());
  return isa<FloatType>(a) &&
         a == getElementTypeOrSelf(op.getDpsInputs()[1].getType());
}

/// Gives the loops their roles with `stationary` and `moving` (each with
/// its own parallel loops), or fails where the tensor engine is not worth
/// it: a contraction of a few, a tile of outputs.
static LogicalResult assignRoles(ContractionPlan &plan,
                                 const ContractionInput &stationary,
                                 const ContractionInput &moving,
                                 ArrayRef<unsigned> reductions,
                                 const LinearAccess &out) {
  ArrayRef<int64_t> ranges = plan.ranges;
  plan.stationary = stationary.access;
  plan.moving = moving.access;
  SmallVector<unsigned> stationaryOwn(stationary.own);
  SmallVector<unsigned> movingOwn(moving.own);
  if (reductions.empty() || stationaryOwn.empty() || movingOwn.empty())
    return failure();
  // The contraction: the longest reduction loop; the PSUM partitions: the
  // stationary's longest own loop; the columns: the output's innermost
  // moving loop, and the next one out as rows of them.
  auto longest = [&](ArrayRef<unsigned> dims) {
    return *llvm::max_element(
        dims, [&](unsigned x, unsigned y) { return ranges[x] < ranges[y]; });
  };
  auto byOutputStep = [&](unsigned x, unsigned y) {
    return out.coefficients[x] < out.coefficients[y];
  };
  plan.contraction = longest(reductions);
  plan.rows = longest(stationaryOwn);
  plan.stationaryLoops = stationaryOwn.size();
  llvm::sort(movingOwn, byOutputStep);
  plan.column = movingOwn[0];
  if (movingOwn.size() > 1 && ranges[*plan.column] < 512)
    plan.row = movingOwn[1];
  for (unsigned d : reductions)
    if (d != plan.contraction)
      plan.taps.push_back(d);
  for (unsigned d : llvm::concat<unsigned>(stationaryOwn, movingOwn))
    if (d != plan.rows && d != plan.column && d != plan.row)
      plan.batch.push_back(d);
  int64_t terms = extent(plan.taps, ranges) *
                  llvm::divideCeil(ranges[plan.contraction], 128);
  int64_t width = ranges[*plan.column] * (plan.row ? ranges[*plan.row] : 1);
  if (ranges[plan.contraction] < 3 || ranges[*plan.rows] < 8 || width < 8 ||
      terms > kMaxChainTerms)
    return failure();
  plan.output = out;
  return success();
}

/// Output rows and columns of one PSUM tile: the column loop's, up to 512,
/// and as many rows of them as one bank of f32 holds.
static std::pair<int64_t, int64_t> getOutputTile(const ContractionPlan &plan) {
  ArrayRef<int64_t> ranges = plan.ranges;
  int64_t columnTile = std::min<int64_t>(ranges[*plan.column], 512);
  int64_t rowTile =
      plan.row
          ? std::max<int64_t>(1, std::min(ranges[*plan.row], 512 / columnTile))
          : 1;
  return {rowTile, columnTile};
}

/// The plan for `op` on the tensor engine, or failure (nothing emitted):
/// the general lowering takes it then.
static FailureOr<ContractionPlan> planContraction(linalg::LinalgOp op,
                                                  Lowering &lowering) {
  if (!isFloatMultiplyAdd(op))
    return failure();
  ContractionPlan plan;
  plan.ranges = op.getStaticLoopRanges();
  ArrayRef<int64_t> ranges = plan.ranges;
  if (llvm::any_of(ranges, [](int64_t r) { return r < 1; }))
    return failure();
  FailureOr<LinearAccess> a =
      getLinearAccess(op, *op.getDpsInputOperand(0), ranges, lowering);
  FailureOr<LinearAccess> b =
      getLinearAccess(op, *op.getDpsInputOperand(1), ranges, lowering);
  FailureOr<LinearAccess> out =
      getLinearAccess(op, *op.getDpsInitOperand(0), ranges, lowering);
  if (failed(a) || failed(b) || failed(out) ||
      a->tensor.memloc == out->tensor.memloc ||
      b->tensor.memloc == out->tensor.memloc)
    return failure();
  // Each input's own parallel loops; the one that owns fewer elements is
  // stationary (at most 128 of them per tile), the other moving.
  SmallVector<unsigned> ownA, ownB, reductions;
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  for (unsigned d = 0; d < ranges.size(); ++d) {
    if (ranges[d] == 1)
      continue;
    bool inA = a->coefficients[d] != 0, inB = b->coefficients[d] != 0;
    if (iterators[d] == utils::IteratorType::reduction) {
      if (!inA || !inB || out->coefficients[d] != 0)
        return failure();
      reductions.push_back(d);
    } else if (out->coefficients[d] == 0) {
      return failure();
    } else if (inA != inB) {
      (inA ? ownA : ownB).push_back(d);
    } else {
      plan.batch.push_back(d);
    }
  }
  // The stationary operand is the one whose own elements all fit the PSUM
  // partitions' loop: a convolution's weight (its output channels), not
  // the feature map (rows and columns, the second of which would become a
  // loop of narrow tiles, each loading its share of the other operand a
  // packet per element). Between two such, or two not, the input that
  // owns fewer elements.
  auto tryRoles = [&](bool aIsStationary) -> FailureOr<ContractionPlan> {
    ContractionPlan roles = plan;
    ContractionInput first{*a, ownA}, second{*b, ownB};
    if (failed(assignRoles(roles, aIsStationary ? first : second,
                           aIsStationary ? second : first, reductions, *out)))
      return failure();
    return roles;
  };
  auto score = [](const FailureOr<ContractionPlan> &roles) {
    return failed(roles) ? 0 : roles->stationaryLoops == 1 ? 2 : 1;
  };
  bool aStationary = extent(ownA, ranges) <= extent(ownB, ranges);
  FailureOr<ContractionPlan> preferred = tryRoles(aStationary);
  FailureOr<ContractionPlan> other = tryRoles(!aStationary);
  return score(other) > score(preferred) ? other : preferred;
}

bool walrus::linalg_to_bir::isTensorEngineContraction(linalg::LinalgOp op,
                                                      Lowering &lowering) {
  if (isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op) &&
      isTensorEngineMatmul(op, lowering))
    return false;
  ScopedDiagnosticHandler silence(op->getContext(),
                                  [](Diagnostic &) { return success(); });
  return succeeded(planContraction(op, lowering));
}

namespace {
/// Emits one planned contraction.
class ContractionNest {
public:
  ContractionNest(linalg::LinalgOp op, ContractionPlan plan, Lowering &lowering)
      : op(op), plan(std::move(plan)), kernel(lowering.kernel),
        zeroInitialized(lowering.zeroInitialized.contains(op)),
        buffers(lowering.tiles.matmulBuffers) {}

  void emit();

private:
  /// The dimension whose tiles go to the cores: the loop dimension (a
  /// row, batch, column or partition dimension of `plan`) whose tiles
  /// divide among the cores best, the row groups on a tie.
  unsigned chooseDealt(int64_t rowTile, int64_t columnTile);
  /// `access`'s element for the current loops, tile and taps.
  AffineExpr start(const LinearAccess &access, AffineExpr contractionFirst);
  /// Elements of the moving operand one contraction index reaches over
  /// `columns` outputs of a row and the taps in `taps`, from the first.
  int64_t getSpan(int64_t columns, ArrayRef<unsigned> taps) const;
  /// How the moving operand's windows load (`block`): one block per
  /// contraction tile (and value of `outerTaps`) that every window of
  /// `innerTaps` reads from SBUF, where it saves packets.
  void planBlock(int64_t rowTile, int64_t columnTile);
  /// Sets `stagedColumns` when the stationary operand's contraction tile
  /// and taps are one run per PSUM partition (a convolution's weight
  /// [f, c, kh, kw]) that the tensor engine turns, rather than a packet
  /// per element.
  void planStaging();
  void emitTile();
  /// One term of the chain: the stationary tile of the current taps
  /// (`stagedOffset` into the staged rows), the window, the matmult.
  void emitTerm(int64_t k, AffineExpr kFirst, int64_t tapOffset,
                int64_t stagedOffset, bool first, bool last);
  void loadBlock(int64_t k, AffineExpr kFirst);

  linalg::LinalgOp op;
  ContractionPlan plan;
  KernelBuilder &kernel;
  bool zeroInitialized;
  /// The tiles the terms load into take turns (matmul-buffers of them),
  /// so one term's load overlaps the last one's matmult: the stationary
  /// tile per term, the moving one per term or per block.
  int64_t buffers;
  SmallVector<MemlocOp> stationaryTiles, movingTiles;
  int64_t terms = 0, blocks = 0;
  MemlocOp stationaryTile, movingTile, psum, outTile;
  /// How the windows of the moving operand load: each term its own; one
  /// contiguous run per contraction index covering every window
  /// (NCHW 3 x 3); or one run per output row (strided columns, a stem's
  /// 7 x 7 taps), the rows `blockRowStride` apart in the block.
  enum class Block { None, Contiguous, Rows };
  Block block = Block::None;
  int64_t blockColumns = 0, blockRowStride = 0;
  /// The taps each block load covers, and those it is loaded again for.
  SmallVector<unsigned> innerTaps, outerTaps;
  /// Elements per PSUM partition of the stationary's staged rows (0: each
  /// term loads its stationary tile [k, partitions] as it is).
  int64_t stagedColumns = 0;
  MemlocOp stagedTile;
  /// The dimension dealt to the cores (kRowGroups: the row groups).
  static constexpr unsigned kRowGroups = ~0u;
  unsigned dealt = kRowGroups;
  /// The current value of each loop (an iv, a tile's first index or a
  /// tap), and the current tile's sizes.
  DenseMap<unsigned, AffineExpr> at;
  int64_t partitions = 1, rows = 1, columns = 1;
};
} // namespace

AffineExpr ContractionNest::start(const LinearAccess &access,
                                  AffineExpr contractionFirst) {
  AffineExpr start = kernel.constant(access.offset) +
                     contractionFirst * access.coefficients[plan.contraction];
  for (auto [dim, value] : at)
    start = start + value * access.coefficients[dim];
  return start;
}

int64_t ContractionNest::getSpan(int64_t columns,
                                 ArrayRef<unsigned> taps) const {
  const LinearAccess &v = plan.moving;
  int64_t last = v.coefficients[*plan.column] * (columns - 1);
  for (unsigned dim : taps)
    last += v.coefficients[dim] * (plan.ranges[dim] - 1);
  return last + 1;
}

void ContractionNest::planBlock(int64_t rowTile, int64_t columnTile) {
  const LinearAccess &v = plan.moving;
  outerTaps = plan.taps;
  SmallVector<unsigned> dims(plan.taps);
  dims.push_back(*plan.column);
  if (plan.row)
    dims.push_back(*plan.row);
  // Coefficients and ranges come from the input: a window that steps
  // backwards or past 2^40 elements keeps the per-term loads.
  double reach = 0;
  for (unsigned d : dims)
    reach += std::max<double>(0, v.coefficients[d]) * double(plan.ranges[d]);
  if (reach > double(int64_t(1) << 40) ||
      llvm::any_of(dims, [&](unsigned d) { return v.coefficients[d] < 0; }))
    return;
  int64_t bytes = v.tensor.elementType.getIntOrFloatBitWidth() / 8;
  int64_t budget = kernel.getTarget().getSbufBytesPerPartition() / 4;
  int64_t rowStep = plan.row ? v.coefficients[*plan.row] : 0;
  // Not where a block is mostly what no window reads (channels innermost)
  // or would crowd SBUF. Contiguous: rows and every tap in one run.
  int64_t span = getSpan(columnTile, plan.taps) + rowStep * (rowTile - 1);
  int64_t windows = extent(plan.taps, plan.ranges) * rowTile * columnTile;
  if (!plan.taps.empty() && span <= 2 * windows && span * bytes <= budget) {
    block = Block::Contiguous;
    blockColumns = span;
    innerTaps = std::move(outerTaps);
    outerTaps.clear();
    return;
  }
  // Rows: a run per output row covering the taps that step less than a
  // row; worth it where the windows' columns are strided or a tap shares.
  if (!plan.row)
    return;
  outerTaps.clear();
  for (unsigned dim : plan.taps)
    (v.coefficients[dim] < rowStep ? innerTaps : outerTaps).push_back(dim);
  int64_t run = getSpan(columnTile, innerTaps);
  int64_t read = extent(innerTaps, plan.ranges) * columnTile;
  bool saves = !innerTaps.empty() || v.coefficients[*plan.column] != 1;
  if (saves && run <= 2 * read && rowTile * run * bytes <= budget) {
    block = Block::Rows;
    blockRowStride = run;
    blockColumns = rowTile * run;
    return;
  }
  outerTaps = plan.taps;
  innerTaps.clear();
}

void ContractionNest::planStaging() {
  const LinearAccess &st = plan.stationary;
  ArrayRef<int64_t> ranges = plan.ranges;
  if (st.coefficients[*plan.rows] == 1)
    return;
  // The taps and the contraction, innermost first, must be dense: the
  // contraction anywhere when it is one tile (a patch embedding's kernel
  // rows), else outermost so that each of its tiles is one run.
  SmallVector<unsigned> dims(plan.taps);
  bool oneTile = ranges[plan.contraction] <= 128;
  if (oneTile)
    dims.push_back(plan.contraction);
  llvm::sort(dims, [&](unsigned x, unsigned y) {
    return st.coefficients[x] < st.coefficients[y];
  });
  if (!oneTile)
    dims.push_back(plan.contraction);
  int64_t dense = 1;
  for (unsigned dim : dims) {
    int64_t size = std::min<int64_t>(128, ranges[dim]);
    if (st.coefficients[dim] != dense || size > (int64_t(1) << 20))
      return;
    dense *= size;
    if (dense > (int64_t(1) << 20))
      return;
  }
  int64_t bytes = dense * (st.tensor.elementType.getIntOrFloatBitWidth() / 8);
  if (bytes <= kernel.getTarget().getSbufBytesPerPartition() / 4)
    stagedColumns = dense;
}

void ContractionNest::loadBlock(int64_t k, AffineExpr kFirst) {
  LinearAccess &v = plan.moving;
  movingTile = movingTiles[blocks++ % movingTiles.size()];
  int64_t contractionStep = v.coefficients[plan.contraction];
  if (block == Block::Contiguous) {
    int64_t rowStep = plan.row ? v.coefficients[*plan.row] : 0;
    int64_t span = getSpan(columns, innerTaps) + rowStep * (rows - 1);
    kernel.create<DmaOp>(
        op.getLoc(), movingTile, kernel.tilePattern(movingTile, k, span),
        v.tensor.memloc,
        kernel.pattern(start(v, kFirst), {{contractionStep, k}, {1, span}}));
    return;
  }
  int64_t run = getSpan(columns, innerTaps);
  kernel.create<DmaOp>(
      op.getLoc(), movingTile,
      kernel.pattern(kernel.constant(0),
                     {{blockColumns, k}, {blockRowStride, rows}, {1, run}}),
      v.tensor.memloc,
      kernel.pattern(
          start(v, kFirst),
          {{contractionStep, k}, {v.coefficients[*plan.row], rows}, {1, run}}));
}

void ContractionNest::emitTerm(int64_t k, AffineExpr kFirst, int64_t tapOffset,
                               int64_t stagedOffset, bool first, bool last) {
  Location loc = op.getLoc();
  LinearAccess &s = plan.stationary, &v = plan.moving;
  stationaryTile = stationaryTiles[terms % stationaryTiles.size()];
  if (block == Block::None)
    movingTile = movingTiles[terms % movingTiles.size()];
  ++terms;
  AccessPatternAttr weights = kernel.tilePattern(stationaryTile, k, partitions);
  if (stagedColumns) {
    kernel.create<TransposeOp>(
        loc, stationaryTile, weights, stagedTile,
        kernel.pattern(kernel.constant(stagedOffset),
                       {{stagedColumns, partitions},
                        {s.coefficients[plan.contraction], k}}));
  } else {
    kernel.create<DmaOp>(
        loc, stationaryTile, weights, s.tensor.memloc,
        kernel.pattern(start(s, kFirst),
                       {{s.coefficients[plan.contraction], k},
                        {s.coefficients[*plan.rows], partitions}}));
  }
  // The window: in the block (its rows `blockRowStride` apart in a Rows
  // block), or loaded for this term alone.
  int64_t rowStep = block == Block::Rows ? blockRowStride
                    : plan.row           ? v.coefficients[*plan.row]
                                         : 0;
  SmallVector<std::pair<int64_t, int64_t>> pairs = {
      {block == Block::None ? v.coefficients[plan.contraction] : blockColumns,
       k}};
  if (plan.row)
    pairs.push_back({rowStep, rows});
  pairs.push_back({v.coefficients[*plan.column], columns});
  AccessPatternAttr window = kernel.tilePattern(movingTile, k, rows * columns);
  if (block == Block::None)
    kernel.create<DmaOp>(loc, movingTile, window, v.tensor.memloc,
                         kernel.pattern(start(v, kFirst), pairs));
  else
    window = kernel.pattern(kernel.constant(tapOffset), pairs);
  kernel.create<MatmultOp>(
      loc, psum, kernel.tilePattern(psum, partitions, rows * columns),
      stationaryTile, kernel.tilePattern(stationaryTile, k, partitions),
      movingTile, window, first, last, ReplicationAttr());
}

void ContractionNest::emitTile() {
  Location loc = op.getLoc();
  terms = blocks = 0;
  ArrayRef<int64_t> ranges = plan.ranges;
  LinearAccess &s = plan.stationary, &v = plan.moving, &o = plan.output;
  int64_t width = rows * columns;
  // Every contraction tile and tap: one matmult of the chain; a block of
  // the moving operand per contraction tile and outer tap.
  int64_t contraction = ranges[plan.contraction];
  int64_t kTiles = llvm::divideCeil(contraction, 128);
  int64_t outer = extent(outerTaps, ranges), inner = extent(innerTaps, ranges);
  DenseMap<unsigned, int64_t> tap;
  auto setTaps = [&](ArrayRef<unsigned> dims, int64_t index) {
    for (unsigned dim : dims) {
      tap[dim] = index % ranges[dim];
      at[dim] = kernel.constant(tap[dim]);
      index /= ranges[dim];
    }
  };
  for (int64_t kTile = 0; kTile < kTiles; ++kTile) {
    int64_t k = std::min<int64_t>(128, contraction - kTile * 128);
    AffineExpr kFirst = kernel.constant(kTile * 128);
    setTaps(plan.taps, 0);
    if (stagedColumns)
      kernel.create<DmaOp>(
          loc, stagedTile,
          kernel.tilePattern(stagedTile, partitions, k * outer * inner),
          s.tensor.memloc,
          kernel.pattern(start(s, kFirst),
                         {{s.coefficients[*plan.rows], partitions},
                          {1, k * outer * inner}}));
    for (int64_t o = 0; o < outer; ++o) {
      setTaps(outerTaps, o);
      setTaps(innerTaps, 0);
      if (block != Block::None)
        loadBlock(k, kFirst);
      for (int64_t i = 0; i < inner; ++i) {
        setTaps(innerTaps, i);
        int64_t tapOffset = 0, stagedOffset = 0;
        for (unsigned dim : innerTaps)
          tapOffset += v.coefficients[dim] * tap[dim];
        for (unsigned dim : plan.taps)
          stagedOffset += s.coefficients[dim] * tap[dim];
        emitTerm(k, kFirst, tapOffset, stagedOffset,
                 kTile == 0 && o == 0 && i == 0,
                 kTile + 1 == kTiles && o + 1 == outer && i + 1 == inner);
      }
    }
  }
  for (unsigned dim : plan.taps)
    at.erase(dim);
  // The output: the product, plus what the output held unless a zero fill
  // just before initialised it.
  SmallVector<std::pair<int64_t, int64_t>> outPairs = {
      {o.coefficients[*plan.rows], partitions}};
  if (plan.row)
    outPairs.push_back({o.coefficients[*plan.row], rows});
  outPairs.push_back({o.coefficients[*plan.column], columns});
  AccessPatternAttr stored =
      kernel.pattern(start(o, kernel.constant(0)), outPairs);
  AccessPatternAttr tile = kernel.tilePattern(outTile, partitions, width);
  AccessPatternAttr product = kernel.tilePattern(psum, partitions, width);
  if (zeroInitialized) {
    kernel.create<TensorCopyOp>(loc, outTile, tile, psum, product);
  } else {
    kernel.create<DmaOp>(loc, outTile, tile, o.tensor.memloc, stored);
    kernel.create<TensorTensorOp>(loc, AluOp::Add, outTile, tile, outTile, tile,
                                  psum, product);
  }
  kernel.create<DmaOp>(loc, o.tensor.memloc, stored, outTile, tile);
}

unsigned ContractionNest::chooseDealt(int64_t rowTile, int64_t columnTile) {
  ArrayRef<int64_t> ranges = plan.ranges;
  SmallVector<KernelBuilder::DealCandidate> candidates;
  for (unsigned dim : plan.batch)
    candidates.push_back({dim, ranges[dim], 1});
  candidates.push_back({*plan.column, ranges[*plan.column], columnTile,
                        kernel.getMinMatmultColumns()});
  candidates.push_back({*plan.rows, ranges[*plan.rows], 128});
  return kernel.chooseDealt(
      {kRowGroups, plan.row ? ranges[*plan.row] : 1, rowTile}, candidates);
}

void ContractionNest::emit() {
  ArrayRef<int64_t> ranges = plan.ranges;
  Type element = plan.stationary.tensor.elementType;
  int64_t rowTile, columnTile;
  std::tie(rowTile, columnTile) = getOutputTile(plan);
  planBlock(rowTile, columnTile);
  planStaging();
  if (stagedColumns)
    stagedTile = kernel.addTile("conv_wrows", 128, stagedColumns, element);
  for (int64_t buffer = 0; buffer < buffers; ++buffer) {
    stationaryTiles.push_back(kernel.addTile("conv_w", 128, 128, element));
    movingTiles.push_back(kernel.addTile(
        "conv_x", 128, std::max(blockColumns, rowTile * columnTile), element));
  }
  // -sb-alloc keeps the tiles of a rotation apart (docs/SbAlloc.md).
  for (ArrayRef<MemlocOp> rotation : {stationaryTiles, movingTiles})
    for (auto [index, memloc] : llvm::enumerate(rotation))
      if (buffers > 1)
        kernel.markRotating(memloc, index);
  psum = kernel.getSharedPsumTile(128, 512, Float32Type::get(op.getContext()));
  outTile = kernel.addTile("conv_out", 128, rowTile * columnTile,
                           plan.output.tensor.elementType);
  // Groups of output rows, the batch loops, the column tiles and the PSUM
  // partition tiles nest in that order; the tiles of one of them are dealt
  // to the cores (docs/LinalgToBir.md, "Tiles and cores").
  dealt = chooseDealt(rowTile, columnTile);
  auto tiles = [&](unsigned dim, int64_t tile,
                   function_ref<void(int64_t, AffineExpr)> body) {
    kernel.forEachTile(ranges[dim], tile, dealt == dim, body);
  };
  std::function<void(size_t)> batchLoops = [&](size_t index) {
    if (index == plan.batch.size()) {
      tiles(*plan.column, columnTile, [&](int64_t count, AffineExpr first) {
        columns = count;
        at[*plan.column] = first;
        tiles(*plan.rows, 128, [&](int64_t count, AffineExpr first) {
          partitions = count;
          at[*plan.rows] = first;
          emitTile();
        });
      });
      return;
    }
    unsigned dim = plan.batch[index];
    tiles(dim, 1, [&](int64_t, AffineExpr first) {
      at[dim] = first;
      batchLoops(index + 1);
      at.erase(dim);
    });
  };
  kernel.forEachTile(plan.row ? ranges[*plan.row] : 1, rowTile,
                     dealt == kRowGroups, [&](int64_t count, AffineExpr first) {
                       rows = count;
                       if (plan.row)
                         at[*plan.row] = first;
                       batchLoops(0);
                     });
}

LogicalResult walrus::linalg_to_bir::lowerContraction(linalg::LinalgOp op,
                                                      Lowering &lowering) {
  FailureOr<ContractionPlan> plan = planContraction(op, lowering);
  if (failed(plan))
    return unsupported(op, "a contraction the tensor engine does not take");
  ContractionNest(op, *plan, lowering).emit();
  return success();
}

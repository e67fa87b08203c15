//===- Matmul.cpp - linalg matmuls to bir ---------------------------------===//
//
// C[m, n] += A[m, k] * B[k, n] on the tensor engine: a block of C (tiles
// of 128 rows, the cores' share, by a run of columns) stays in SBUF while k
// runs over groups of k tiles of 128; per group B's rows for the block's
// columns and A^T per row tile are loaded into rotating buffers, each
// output tile accumulates the group's products in a rotating PSUM tile,
// and is added into the block once per group. The block size minimises
// the bytes moved (docs/LinalgToBir.md, "Matmul").
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"
#include "MatmulBlocking.h"
#include "Walrus/Analysis/Timeline.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/SmallVectorExtras.h"
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

static int64_t bytesOf(Type type) { return type.getIntOrFloatBitWidth() / 8; }

namespace {
/// One matmul of a chain or of siblings: its operands, its reduction size,
/// and (siblings) which of the nest's C's it computes.
struct Term {
  MatmulOperand a, b;
  int64_t k = 0;
  unsigned output = 0;
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

/// When every term reads A from the same tensor, rows shifted by a few
/// (a convolution's taps over one input), how many rows each term's A
/// starts after the first term's: one window of A^T then serves them all.
/// Empty otherwise.
static SmallVector<int64_t>
getWindowShifts(ArrayRef<Term> terms, const MatmulShape &shape, int64_t mTile) {
  if (terms.size() < 2 || shape.batch != 1)
    return {};
  const DramTensor &first = terms[0].a.tensor;
  SmallVector<int64_t> shifts;
  for (const Term &term : terms) {
    const DramTensor &a = term.a.tensor;
    if (term.a.transposed || a.memloc != first.memloc ||
        a.rowStride != first.rowStride || term.k != terms[0].k ||
        a.base < first.base || (a.base - first.base) % a.rowStride)
      return {};
    int64_t shift = (a.base - first.base) / a.rowStride;
    if (shift > mTile)
      return {};
    shifts.push_back(shift);
  }
  return shifts;
}

namespace {
/// How the terms' operands are stored: whether some A is row-major (its
/// rows turned on the tensor engine) or stored transposed, and the same
/// for B.
struct OperandForms {
  bool rowsOfA = false, transposedA = false;
  bool rowsOfB = false, transposedB = false;
};
} // namespace

static OperandForms getOperandForms(ArrayRef<Term> terms) {
  OperandForms forms;
  for (const Term &term : terms) {
    (term.a.transposed ? forms.transposedA : forms.rowsOfA) = true;
    (term.b.transposed ? forms.transposedB : forms.rowsOfB) = true;
  }
  return forms;
}

namespace {
/// Consecutive k tiles of one term: where they start, each tile's rows (all
/// 128 but perhaps the last) and the buffers they load into.
struct KTiles {
  mlir::AffineExpr k0;
  SmallVector<int64_t> widths;
  int64_t slot = 0;
  /// The block's columns: the first, and how many.
  mlir::AffineExpr col0;
  int64_t nb = 0;
  int64_t fullTiles() const { return llvm::count(widths, int64_t(128)); }
  int64_t rows() const { return llvm::sum_of(widths); }
};

/// A group of k tiles: whether its products initialise the block, whether
/// it is the term's last, whether the group before loaded its B, and the
/// next group's tiles (whose B this group loads) when there is one: for
/// the last group, the next block's first (emitPrefetchingBlocks).
struct KGroup : KTiles {
  bool first = false, last = false, loaded = false;
  std::optional<KTiles> ahead;
};

/// The block of columns after the one being emitted, whose first group's
/// B the last group loads: the first column and how many.
struct NextBlock {
  mlir::AffineExpr col0;
  int64_t nb = 0;
};

/// The loop nest of a matmul chain (docs/LinalgToBir.md, "Matmul"): per
/// batch, per block of columns, per block of row tiles, C's block stays in
/// SBUF while the k groups of every term run, then goes to DRAM or to the
/// epilogue.
class MatmulNest {
public:
  /// With one C the terms are a chain that sums into it; with a C per
  /// term they are siblings, each term into its own.
  MatmulNest(Lowering &lowering, Location loc, ArrayRef<Term> terms,
             const MatmulShape &shape, ArrayRef<DramTensor> cs,
             const MatmulEpilogue *epilogue)
      : kernel(lowering.kernel), loc(loc), terms(terms), shape(shape), cs(cs),
        epilogue(epilogue), buffers(lowering.tiles.matmulBuffers),
        castToBf16(lowering.tiles.autoCast), kStart(kernel.constant(0)) {}

  /// Chooses the blocking and the tiles; fails at `op` when no block fits.
  LogicalResult plan(linalg::LinalgOp op, int64_t columnTile, bool zeroFilled);
  /// Emits the nest.
  LogicalResult emit();

private:
  /// Chooses the k group, the buffers that fit and the blocking; adds the
  /// rotating tiles.
  LogicalResult planGroups(Type abType, int64_t sbufBudget);
  /// The rotating tiles of a grouped nest: A's rows as `loaded` from DRAM,
  /// the operands in `operand` (bf16 with auto-cast), the PSUM tiles and
  /// the block.
  void addGroupTiles(Type loaded, Type operand, const OperandForms &forms);
  /// Whether the cores may each take a range of k (chooseKSplit): one
  /// matmul of one batch into a zero C.
  bool maySplitK() const {
    return terms.size() == 1 && cs.size() == 1 && shape.batch == 1 && zeroInit;
  }
  /// Chooses the blocking of a window nest and adds its tiles.
  LogicalResult planWindow(Type abType, int64_t sbufBudget);
  void markRotations();
  /// Whether the last k group of a block loads the next block's first B
  /// (emitPrefetchingBlocks): in a sibling nest (a single matmul's last
  /// group is busy with the block's stores), with one block of rows per
  /// core and batch, and the first group's buffers free in the last.
  bool canPrefetchBlocks() const;
  /// The blocks of columns in order, each but the first with its first B
  /// loaded by the block before: the first and the last full block and
  /// the partial one on their own, the full ones between in a loop.
  void emitPrefetchingBlocks();
  /// The block of `columns` columns from `first` (every block of rows, the
  /// cores' share unless columns are dealt), its first B `loaded` by the
  /// block before, loading `next`'s.
  void emitColumnBlock(AffineExpr first, int64_t columns, bool loaded,
                       std::optional<NextBlock> next);
  void emitBlock(const RowTile &rows);
  /// The block with k dealt: each core's range of k into its block, then
  /// the blocks summed across the cores and each core's share stored.
  void emitSplitK();
  /// The rows of k each core takes: the k tiles dealt as evenly as they
  /// go (the first cores one more), the partial last tile the last core's.
  /// Cores of as many rows form one range, its start affine in the shard.
  struct CoreKRange {
    int64_t firstCore, lastCore;
    AffineExpr start;
    int64_t rows;
  };
  SmallVector<CoreKRange> getCoreKRanges(int64_t k);
  /// Sums the cores' blocks into each core's share of every row tile's
  /// rows: a reduce_scatter for the full row tiles, another for a partial
  /// one.
  void sumAcrossCores();
  /// Runs `step` over the k groups of a term of `k` rows: the first (when
  /// it `initialises` the block) alone, then `buffers` groups per loop
  /// iteration, each loading into its own buffers, then the rest. The
  /// buffers turn from `firstSlot` on; returns the number of groups.
  int64_t forEachKGroup(int64_t k, bool initialises, int64_t firstSlot,
                        llvm::function_ref<void(const KGroup &)> step);
  /// One k group of the terms `sharing` one A (a term of a chain, or every
  /// sibling): each term's B for the block's columns, A^T per row tile,
  /// each output tile's products accumulated in PSUM and added into the
  /// term's block.
  void emitGroup(ArrayRef<Term> sharing, const KGroup &group);
  /// The moving tile of `term`'s B in buffer `slot`.
  MemlocOp movingOf(const Term &term, int64_t slot) const {
    return moving[slot * cs.size() + term.output];
  }
  /// How many parts loadMoving loads B of `tiles` in: k tiles, or for a
  /// B stored transposed, tiles of 128 of the block's columns.
  int64_t movingParts(const Term &term, const KTiles &tiles) const;
  /// moving[slot] = B's rows of parts `first` .. `first + count` of
  /// `tiles` for the block's columns: the full ones in one transfer, a
  /// partial last one in another.
  void loadMoving(const Term &term, const KTiles &tiles, int64_t first,
                  int64_t count);
  /// loadMoving for a B stored transposed (n outer): the rows of B^T for
  /// column tiles `first` .. `first + count` and every k of `tiles`, each
  /// run of k contiguous in DRAM, turned on the tensor engine.
  void loadTransposedMoving(const Term &term, const KTiles &tiles,
                            int64_t first, int64_t count);
  /// stationary[aSlot] = A^T of the group for the rows `row` .. `row + p`.
  void loadStationaryGroup(const Term &term, const KGroup &group,
                           AffineExpr row, int64_t p, int64_t aSlot);
  /// stationary[aSlot] = A^T of the group for `rows` rows from `row` of
  /// an A stored transposed, as they lie (runs of `rows`), k tile t from
  /// column `column + t * tileStep`.
  void loadTransposedStationary(const Term &term, const KGroup &group,
                                int64_t aSlot, AffineExpr row, int64_t rows,
                                int64_t column, int64_t tileStep);
  /// With stationaryPerBlock: stationary[aSlot] = A^T of the group for
  /// every row tile of the block, k tile t's rows of row tile i from column
  /// (t * rowTiles + i) * mTile; one transfer where the block's rows are
  /// consecutive.
  void loadStationaryBlock(const Term &term, const KGroup &group,
                           int64_t aSlot);
  /// Where k tile `t` of row tile `i` starts in a stationary tile.
  int64_t stationaryColumn(int64_t t, size_t i) const {
    return stationaryPerBlock ? (t * rowTiles + int64_t(i)) * mTile : t * mTile;
  }
  /// One k tile of every term at once, A^T loaded once per row tile as a
  /// window every term reads at its shift.
  void emitWindowStep(AffineExpr k0, int64_t kw, bool first);
  /// Rows `row + firstRow ..` of `term`'s A for k tile `k0`, transposed
  /// into the stationary tile from column `column`.
  void loadTransposed(const Term &term, AffineExpr row, int64_t rows,
                      AffineExpr k0, int64_t kw, int64_t column);
  /// moving[slot] = B's rows k0 .. k0 + kw for the block's columns.
  void loadMoving(const Term &term, AffineExpr k0, int64_t kw, int64_t slot);
  /// The products of row tile `i` (A^T from column `shift` of the
  /// stationary tile, B in moving slot `slot`) into the block.
  void accumulate(size_t i, int64_t kw, int64_t shift, int64_t slot,
                  bool first);
  /// Copies (the block's first products) or adds `sum` of `acc` into the
  /// tile (i, j) of output `o`'s block.
  void intoBlock(unsigned o, size_t i, size_t j, MemlocOp acc,
                 AccessPatternAttr sum, bool first);
  /// Runs `step` over every k tile of `k` (the first, with a zero C,
  /// initialising the block).
  void forEachKTile(int64_t k, bool initialises,
                    llvm::function_ref<void(AffineExpr, int64_t, bool)> step);
  /// Row tile `i` of every block (or of `from`) to its C, or through the
  /// epilogue.
  LogicalResult storeRow(size_t i, ArrayRef<MemlocOp> from = {});

  AccessPatternAttr blockTile(unsigned o, size_t i, size_t j);
  /// Row tile `i` of output `o`'s block, and of its C, every column of the
  /// block.
  AccessPatternAttr blockRow(MemlocOp block, size_t i);
  AccessPatternAttr cRow(unsigned o, size_t i);
  AffineExpr aBase(const Term &term);
  AffineExpr bBase(const Term &term);
  /// `pairs` with the middle one dropped when it counts a single tile.
  AccessPatternAttr groupPattern(AffineExpr start,
                                 std::pair<int64_t, int64_t> partitions,
                                 std::pair<int64_t, int64_t> tiles,
                                 std::pair<int64_t, int64_t> columns);

  KernelBuilder &kernel;
  Location loc;
  ArrayRef<Term> terms;
  MatmulShape shape;
  /// C, or each sibling's C.
  ArrayRef<DramTensor> cs;
  const MatmulEpilogue *epilogue;
  bool zeroInit = false;
  int64_t nTile = 0, mTile = 0, rowTiles = 1, nBlock = 1;
  /// What goes to the cores.
  Dealt dealt = Dealt::Rows;
  /// k tiles per group and rotating buffers (1 and 1 for a window nest).
  int64_t kGroup = 1, buffers = 1;
  /// A stored transposed ([k, m], NKI's lhsT) in every term: a group's
  /// A^T for the whole block of rows in one stationary tile, so each
  /// partition's run is the block's rows, not one row tile's (256 bytes
  /// of bf16).
  bool stationaryPerBlock = false;
  SmallVector<int64_t> shifts;
  /// Per buffer: A's rows as loaded, A^T, B's rows (one per C, movingOf),
  /// and a PSUM tile; with auto-cast, A's rows in bf16 per buffer, and one
  /// f32 tile each that A's rows, A^T (when A is stored transposed) and B's
  /// rows arrive in.
  SmallVector<MemlocOp> rowsOfA, stationary, moving, accs;
  SmallVector<MemlocOp> castRowsOfA, stagedStationary, stagedMoving;
  /// For a B stored transposed: its rows as loaded (the block's column
  /// tiles side by side, each every k of a group), and in bf16 with
  /// auto-cast; one each, read right after their load.
  SmallVector<MemlocOp> rowsOfB, castRowsOfB;
  /// Whether f32 operands go to the tensor engine in bf16.
  bool castToBf16 = false;
  /// Per C, its block; with k dealt, each core's share of its rows once
  /// summed.
  SmallVector<MemlocOp> blocks, shares;
  /// Where the k groups being emitted start (a core's range of k).
  AffineExpr kStart;
  // The point being emitted: batch, column block, row tiles, column tiles.
  AffineExpr batch, col0;
  int64_t nb = 0;
  /// Whether the block's first B was loaded by the block before, and the
  /// block whose first B this one's last group loads.
  bool blockLoaded = false;
  std::optional<NextBlock> nextBlock;
  SmallVector<std::pair<AffineExpr, int64_t>> rowParts, colParts;
  LogicalResult status = success();
};
} // namespace

/// The k groups: 8 tiles of 128, as NKI's optimized matmul accumulates in
/// PSUM (TILES_IN_BLOCK_K), so the vector engine adds a tile into the
/// block once per 8 matmults, fewer for a short k.
static constexpr int64_t kMaxKGroup = 8;

LogicalResult MatmulNest::plan(linalg::LinalgOp op, int64_t columnTile,
                               bool zeroFilled) {
  zeroInit = zeroFilled;
  Type abType = terms[0].a.tensor.elementType;
  TargetAttr target = kernel.getTarget();
  int64_t bankColumns = target.getPsumBytesPerPartition() /
                        target.getPsumBanks() / 4; // fp32 accumulators
  nTile = std::min<int64_t>(
      {columnTile, bankColumns, target.getMaxMovingFree(), shape.n});
  mTile = std::min<int64_t>(128, target.getMaxStationaryFree());
  // Siblings share one A^T but sum into C's of their own.
  if (cs.size() == 1)
    shifts = getWindowShifts(terms, shape, mTile);
  int64_t sbufBudget = target.getSbufBytesPerPartition() * 3 / 4;
  // A window needs a B slot per term: without a block that fits them, the
  // terms load A each.
  if (!shifts.empty() && succeeded(planWindow(abType, sbufBudget)))
    return success();
  shifts.clear();
  if (failed(planGroups(abType, sbufBudget)))
    return unsupported(op, "a block of C, B and A that fits in SBUF");
  return success();
}

LogicalResult MatmulNest::planWindow(Type abType, int64_t sbufBudget) {
  int64_t window = *llvm::max_element(shifts);
  FailureOr<Blocking> blocking = chooseBlocking(
      shape, nTile, mTile, kernel,
      {bytesOf(abType), bytesOf(abType), bytesOf(cs[0].elementType),
       int64_t(terms.size()) * bytesOf(abType),
       (2 * mTile + window) * bytesOf(abType), sbufBudget});
  if (failed(blocking))
    return failure();
  rowTiles = blocking->rowTiles;
  nBlock = blocking->nBlock;
  dealt = blocking->dealt;
  kGroup = buffers = 1;
  if (!terms[0].a.transposed)
    rowsOfA = {kernel.addTile("mm_a", mTile, 128, abType)};
  stationary = {kernel.addTile("mm_stationary", 128, mTile + window, abType)};
  moving = {kernel.addTile("mm_b", 128, nBlock * terms.size(), abType)};
  accs = {kernel.getSharedPsumTile(mTile, nTile,
                                   Float32Type::get(kernel.getContext()))};
  blocks = {
      kernel.addTile("mm_c", mTile, rowTiles * nBlock, cs[0].elementType)};
  return success();
}

LogicalResult MatmulNest::planGroups(Type abType, int64_t sbufBudget) {
  int64_t kTiles = 0;
  for (const Term &term : terms)
    kTiles = std::max<int64_t>(kTiles, llvm::divideCeil(term.k, 128));
  OperandForms forms = getOperandForms(terms);
  bool anyRowsOfA = forms.rowsOfA, anyTransposedA = forms.transposedA;
  // Auto-cast: f32 operands go to the tensor engine in bf16, staged in f32
  // as they come from DRAM (docs/LinalgToBir.md, "Auto-cast").
  Type loaded = kernel.getComputeType(abType);
  Type operand = castToBf16 && loaded.isF32()
                     ? Type(BFloat16Type::get(kernel.getContext()))
                     : loaded;
  bool cast = operand != loaded;
  int64_t loadedBytes = bytesOf(loaded), operandBytes = bytesOf(operand);
  // An A stored transposed may come in per block of rows: longer runs,
  // a wider stationary tile, so maybe smaller blocks. The faster on the
  // model wins.
  bool mayLoadPerBlock = anyTransposedA && !anyRowsOfA;
  TimingModel model = TimingModel::forTarget(kernel.getTarget());
  // A staging tile is read by its cast right after its load: one serves
  // every buffer. So do B^T's rows as loaded and cast, per column of the
  // block, and the column tile the last one rounds up to.
  int64_t stagedBytes = cast && forms.rowsOfB ? loadedBytes : 0;
  int64_t rowsOfBBytes =
      forms.transposedB ? loadedBytes + (cast ? operandBytes : 0) : 0;
  // Fewer buffers, then smaller groups, until a block fits.
  FailureOr<Blocking> blocking = failure();
  int64_t wanted = buffers;
  for (kGroup = std::min(kMaxKGroup, kTiles); kGroup >= 1; kGroup /= 2) {
    for (buffers = wanted; buffers >= 1; --buffers) {
      int64_t slots = buffers * kGroup, outputs = cs.size();
      int64_t rows = anyRowsOfA ? kGroup * 128 : 0;
      int64_t rowBytes =
          cast ? rows * loadedBytes + slots * 128 * operandBytes * anyRowsOfA
               : slots * 128 * loadedBytes * anyRowsOfA;
      int64_t stationaryBytes = slots * mTile * operandBytes +
                                kGroup * mTile * stagedBytes * anyTransposedA;
      // Siblings: a block and a B per C, one A.
      BlockingBudget budget{bytesOf(abType),
                            bytesOf(abType) * outputs,
                            bytesOf(cs[0].elementType) * outputs,
                            slots * operandBytes * outputs +
                                kGroup * (stagedBytes + rowsOfBBytes),
                            rowBytes + 127 * kGroup * rowsOfBBytes,
                            sbufBudget,
                            operandBytes};
      auto choose = [&](bool perBlock) -> FailureOr<Blocking> {
        BlockingBudget withA = budget;
        (perBlock ? withA.aRowTileBytes : withA.aTileBytes) += stationaryBytes;
        FailureOr<Blocking> chosen =
            chooseBlocking(shape, nTile, mTile, kernel, withA);
        if (succeeded(chosen) && maySplitK())
          chosen = chooseKSplit(shape, nTile, mTile, kernel, withA, *chosen);
        return chosen;
      };
      stationaryPerBlock = false;
      blocking = choose(false);
      if (mayLoadPerBlock) {
        FailureOr<Blocking> perBlock = choose(true);
        auto ns = [&](const Blocking &chosen, bool aPerBlock) {
          return estimateTransferNs(shape, chosen, mTile, budget, model,
                                    aPerBlock ? chosen.rowTiles * mTile
                                              : mTile);
        };
        if (succeeded(perBlock) &&
            (failed(blocking) || ns(*perBlock, true) < ns(*blocking, false))) {
          blocking = perBlock;
          stationaryPerBlock = true;
        }
      }
      if (succeeded(blocking))
        break;
    }
    if (succeeded(blocking))
      break;
  }
  if (failed(blocking))
    return failure();
  rowTiles = blocking->rowTiles;
  nBlock = blocking->nBlock;
  dealt = blocking->dealt;
  addGroupTiles(loaded, operand, forms);
  return success();
}

void MatmulNest::addGroupTiles(Type loaded, Type operand,
                               const OperandForms &forms) {
  bool cast = operand != loaded;
  bool anyRowsOfA = forms.rowsOfA, anyTransposedA = forms.transposedA;
  // With auto-cast, one f32 staging tile of each kind serves every buffer.
  for (int64_t b = 0; b < buffers; ++b) {
    bool stage = cast && b == 0;
    if (anyRowsOfA && (!cast || stage))
      rowsOfA.push_back(kernel.addTile("mm_a", mTile, kGroup * 128, loaded));
    if (anyRowsOfA && cast)
      castRowsOfA.push_back(
          kernel.addTile("mm_a_bf16", mTile, kGroup * 128, operand));
    int64_t stationaryFree =
        kGroup * mTile * (stationaryPerBlock ? rowTiles : 1);
    if (anyTransposedA && stage)
      stagedStationary.push_back(
          kernel.addTile("mm_stationary_f32", 128, stationaryFree, loaded));
    stationary.push_back(
        kernel.addTile("mm_stationary", 128, stationaryFree, operand));
    if (stage && forms.rowsOfB)
      stagedMoving.push_back(
          kernel.addTile("mm_b_f32", 128, kGroup * nBlock, loaded));
    for (size_t o = 0; o < cs.size(); ++o)
      moving.push_back(kernel.addTile("mm_b", 128, kGroup * nBlock, operand));
  }
  if (forms.transposedB) {
    int64_t rowsFree = llvm::divideCeil(nBlock, 128) * kGroup * 128;
    rowsOfB.push_back(kernel.addTile("mm_bt", 128, rowsFree, loaded));
    if (cast)
      castRowsOfB.push_back(
          kernel.addTile("mm_bt_bf16", 128, rowsFree, operand));
  }
  // Other lowerings keep up to two shared PSUM tiles live across a nest.
  TargetAttr target = kernel.getTarget();
  int64_t usableBanks =
      target.getPsumBanks() - target.getPsumReservedBanks() - 2;
  int64_t psumBuffers = std::clamp<int64_t>(usableBanks, 1, buffers);
  Type f32 = Float32Type::get(kernel.getContext());
  for (int64_t b = 0; b < psumBuffers; ++b)
    accs.push_back(kernel.addTile("mm_acc", mTile, nTile, f32, /*psum=*/true));
  for (const DramTensor &c : cs)
    blocks.push_back(
        kernel.addTile("mm_c", mTile, rowTiles * nBlock, c.elementType));
  if (dealt == Dealt::K)
    shares.push_back(kernel.addTile(
        "mm_c_share",
        llvm::divideCeil(std::min(shape.m, mTile), kernel.getLncSize()),
        rowTiles * nBlock, cs[0].elementType));
}

AffineExpr MatmulNest::aBase(const Term &term) {
  const MatmulOperand &a = term.a;
  int64_t rows = a.transposed ? term.k : shape.m;
  return batch * (a.perBatch ? rows * a.tensor.rowStride : 0) + a.tensor.base;
}

AffineExpr MatmulNest::bBase(const Term &term) {
  const MatmulOperand &b = term.b;
  int64_t rows = b.transposed ? shape.n : term.k;
  return batch * (b.perBatch ? rows * b.tensor.rowStride : 0) + b.tensor.base;
}

AccessPatternAttr MatmulNest::blockTile(unsigned o, size_t i, size_t j) {
  return kernel.tilePattern(blocks[o], rowParts[i].second, colParts[j].second,
                            i * nBlock + j * nTile);
}

AccessPatternAttr MatmulNest::blockRow(MemlocOp block, size_t i) {
  return kernel.tilePattern(block, rowParts[i].second, nb, i * nBlock);
}

AccessPatternAttr MatmulNest::cRow(unsigned o, size_t i) {
  const DramTensor &c = cs[o];
  AffineExpr cBase = batch * (shape.m * c.rowStride) + c.base;
  return kernel.pattern(cBase + rowParts[i].first * c.rowStride + col0,
                        {{c.rowStride, rowParts[i].second}, {1, nb}});
}

AccessPatternAttr MatmulNest::groupPattern(
    AffineExpr start, std::pair<int64_t, int64_t> partitions,
    std::pair<int64_t, int64_t> tiles, std::pair<int64_t, int64_t> columns) {
  if (tiles.second == 1)
    return kernel.pattern(start, {partitions, columns});
  return kernel.pattern(start, {partitions, tiles, columns});
}

/// Marks the buffers of each rotation that more than one of them took part
/// in: -sb-alloc keeps them apart and reports what they cost. With k dealt
/// a rotation of one is marked too: each core's few k groups run unrolled,
/// and a tile the allocator could share between its uses (a staging tile
/// every buffer loads through) would hold each load behind the reader of
/// another tensor.
void MatmulNest::markRotations() {
  SmallVector<SmallVector<MemlocOp>> rotations{
      rowsOfA,      castRowsOfA, stagedStationary, stationary,
      stagedMoving, accs,        rowsOfB,          castRowsOfB};
  // Each C's B tiles rotate on their own.
  for (size_t o = 0; o < cs.size(); ++o) {
    SmallVector<MemlocOp> &ofC = rotations.emplace_back();
    for (size_t b = o; b < moving.size(); b += cs.size())
      ofC.push_back(moving[b]);
  }
  for (ArrayRef<MemlocOp> rotation : rotations) {
    SmallVector<MemlocOp> used = llvm::filter_to_vector(
        rotation, [](MemlocOp memloc) { return !memloc->use_empty(); });
    if (used.size() < (dealt == Dealt::K ? 1 : 2))
      continue;
    for (auto [index, memloc] : llvm::enumerate(used))
      kernel.markRotating(memloc, index);
  }
}

LogicalResult MatmulNest::emit() {
  if (canPrefetchBlocks()) {
    batch = kernel.constant(0);
    emitPrefetchingBlocks();
  } else {
    kernel.forEachTile(shape.batch, 1, dealt == Dealt::Batch,
                       [&](int64_t, AffineExpr batchIv) {
                         batch = batchIv;
                         kernel.forEachTile(
                             shape.n, nBlock, dealt == Dealt::Columns,
                             [&](int64_t columns, AffineExpr first) {
                               emitColumnBlock(first, columns, /*loaded=*/false,
                                               std::nullopt);
                             });
                       });
  }
  markRotations();
  return status;
}

bool MatmulNest::canPrefetchBlocks() const {
  // The first group's buffers are the last group's when the groups are
  // one more than a multiple of the buffers.
  int64_t kTiles = llvm::divideCeil(terms[0].k, 128);
  int64_t groups = llvm::divideCeil(kTiles, kGroup);
  int64_t rowBlocks = llvm::divideCeil(shape.m, mTile * rowTiles);
  return shifts.empty() && shape.batch == 1 && dealt == Dealt::Rows &&
         cs.size() > 1 && buffers > 1 && groups % buffers != 1 &&
         rowBlocks <= kernel.getLncSize() && shape.n > nBlock;
}

void MatmulNest::emitColumnBlock(AffineExpr first, int64_t columns, bool loaded,
                                 std::optional<NextBlock> next) {
  nb = columns;
  col0 = first;
  blockLoaded = loaded;
  nextBlock = next;
  // The epilogue's row broadcasts (a bias) load once per block of columns,
  // not once per tile.
  if (epilogue && shape.m > mTile && epilogue->consumer->hasRowBroadcasts())
    epilogue->consumer->loadRowBroadcasts(ColumnTile{columns, first});
  kernel.forEachTile(shape.m, mTile * rowTiles, dealt == Dealt::Rows,
                     [&](int64_t rows, AffineExpr firstRow) {
                       emitBlock(RowTile{rows, firstRow});
                     });
}

void MatmulNest::emitPrefetchingBlocks() {
  int64_t full = shape.n / nBlock, rest = shape.n % nBlock;
  auto blockAt = [&](int64_t b) { return kernel.constant(b * nBlock); };
  // What follows full block `b`: the next full one, the partial one, or
  // none.
  auto after = [&](int64_t b) -> std::optional<NextBlock> {
    if (b + 1 < full)
      return NextBlock{blockAt(b + 1), nBlock};
    if (rest)
      return NextBlock{blockAt(full), rest};
    return std::nullopt;
  };
  emitColumnBlock(blockAt(0), nBlock, /*loaded=*/false, after(0));
  kernel.loop(std::max<int64_t>(0, full - 2), [&](AffineExpr iv) {
    emitColumnBlock((iv + 1) * nBlock, nBlock, /*loaded=*/true,
                    NextBlock{(iv + 2) * nBlock, nBlock});
  });
  if (full >= 2)
    emitColumnBlock(blockAt(full - 1), nBlock, /*loaded=*/true,
                    after(full - 1));
  if (rest)
    emitColumnBlock(blockAt(full), rest, /*loaded=*/true, std::nullopt);
}

void MatmulNest::emitBlock(const RowTile &rows) {
  // The block's row tiles and column tiles, with their extents.
  rowParts.clear();
  colParts.clear();
  for (int64_t i = 0; i * mTile < rows.partitions; ++i)
    rowParts.push_back({rows.firstRow + i * mTile,
                        std::min(mTile, rows.partitions - i * mTile)});
  for (int64_t j = 0; j * nTile < nb; ++j)
    colParts.push_back(
        {kernel.constant(j * nTile), std::min(nTile, nb - j * nTile)});
  if (!zeroInit)
    for (size_t o = 0; o < cs.size(); ++o)
      for (size_t i = 0; i < rowParts.size(); ++i)
        kernel.create<DmaOp>(loc, blocks[o], blockRow(blocks[o], i),
                             MemlocOp(cs[o].memloc), cRow(o, i));
  if (!shifts.empty()) {
    forEachKTile(terms[0].k, zeroInit,
                 [&](AffineExpr k0, int64_t kw, bool first) {
                   emitWindowStep(k0, kw, first);
                 });
    for (size_t i = 0; i < rowParts.size(); ++i)
      if (failed(storeRow(i)))
        status = failure();
    return;
  }
  if (dealt == Dealt::K)
    return emitSplitK();
  // Siblings run their k groups together on one A.
  if (cs.size() > 1) {
    forEachKGroup(terms[0].k, zeroInit, 0,
                  [&](const KGroup &group) { emitGroup(terms, group); });
    return;
  }
  // Each row tile leaves in the last group of the last term, as soon as
  // its products are in. The buffers keep turning from term to term.
  int64_t slot = 0;
  for (auto [index, term] : llvm::enumerate(terms))
    slot += forEachKGroup(term.k, index == 0 && zeroInit, slot,
                          [&, &term = term, index = index](KGroup group) {
                            group.last =
                                group.last && index + 1 == terms.size();
                            emitGroup(ArrayRef(term), group);
                          });
}

void MatmulNest::emitSplitK() {
  const Term &term = terms.front();
  for (const CoreKRange &range : getCoreKRanges(term.k))
    kernel.withCores(range.firstCore, range.lastCore, [&] {
      kStart = range.start;
      forEachKGroup(range.rows, /*initialises=*/true, 0, [&](KGroup group) {
        // The rows leave once summed across the cores.
        group.last = false;
        emitGroup(ArrayRef(term), group);
      });
    });
  kStart = kernel.constant(0);
  sumAcrossCores();
}

SmallVector<MatmulNest::CoreKRange> MatmulNest::getCoreKRanges(int64_t k) {
  int64_t lncSize = kernel.getLncSize();
  int64_t tiles = llvm::divideCeil(k, 128);
  int64_t each = tiles / lncSize, extra = tiles % lncSize;
  int64_t missing = tiles * 128 - k; // rows the partial last tile lacks
  AffineExpr core = kernel.shardId();
  SmallVector<CoreKRange> ranges;
  if (extra)
    ranges.push_back(
        {0, extra - 1, core * ((each + 1) * 128), (each + 1) * 128});
  // Core c >= extra starts after extra + c * each tiles.
  AffineExpr start = (core * each + extra) * 128;
  int64_t lastFull = missing ? lncSize - 2 : lncSize - 1;
  if (extra <= lastFull)
    ranges.push_back({extra, lastFull, start, each * 128});
  if (missing)
    ranges.push_back({lncSize - 1, lncSize - 1,
                      kernel.constant((extra + (lncSize - 1) * each) * 128),
                      each * 128 - missing});
  return ranges;
}

void MatmulNest::sumAcrossCores() {
  int64_t lncSize = kernel.getLncSize();
  MemlocOp block = blocks.front(), share = shares.front();
  int64_t free = block.getMemoryType().getFreeSize();
  // Core c gets partitions c * p / lnc .. of every row tile in [first,
  // first + count): the pattern runs over partitions outermost.
  auto scatter = [&](size_t first, size_t count) {
    int64_t p = rowParts[first].second, part = p / lncSize;
    AffineExpr at = kernel.constant(first * nBlock);
    AffineMap offset =
        AffineMap::get(0, 1, kernel.shardId() * (part * int64_t(count) * nb));
    kernel.create<CollectiveOp>(
        loc, CollectiveKind::ReduceScatter,
        AluOpAttr::get(kernel.getContext(), AluOp::Add), share,
        groupPattern(at, {free, part}, {nBlock, count}, {1, nb}), block,
        groupPattern(at, {free, p}, {nBlock, count}, {1, nb}),
        AffineMapAttr::get(offset));
  };
  size_t full = rowParts.size();
  if (rowParts.back().second != rowParts.front().second)
    --full;
  if (full)
    scatter(0, full);
  if (full < rowParts.size())
    scatter(full, 1);
  // From here on each core's rows of every row tile.
  for (size_t i = 0; i < rowParts.size(); ++i) {
    auto &[row, p] = rowParts[i];
    p /= lncSize;
    row = row + kernel.shardId() * p;
    if (failed(storeRow(i, shares)))
      status = failure();
  }
}

int64_t
MatmulNest::forEachKGroup(int64_t k, bool initialises, int64_t firstSlot,
                          llvm::function_ref<void(const KGroup &)> step) {
  int64_t fullTiles = k / 128, rest = k % 128;
  int64_t groups = fullTiles / kGroup, groupRows = kGroup * 128;
  SmallVector<int64_t> full(kGroup, 128), tail(fullTiles % kGroup, 128);
  if (rest)
    tail.push_back(rest);
  int64_t total = groups + !tail.empty();
  // Group q loads into buffer (firstSlot + q) % buffers: a loop iteration
  // runs `buffers` groups, so the buffer of each is known where it is
  // emitted. With two buffers or more, each group loads the next one's B
  // (so all but the first were loaded); with one, the next group's B would
  // overwrite the tiles this group's later row tiles read, so each group
  // loads its own. The first (initialising) and the last (storing) group, and
  // the full group after the loop (which a loop iteration's last group
  // loads), are emitted on their own. The block before may have loaded
  // the first group's B, and the last group loads the next block's.
  auto slotOf = [&](int64_t q) { return (firstSlot + q) % buffers; };
  auto widthsOf = [&](int64_t q) { return q < groups ? full : tail; };
  auto groupAt = [&](AffineExpr k0, int64_t q, bool first) {
    KGroup group;
    group.k0 = kStart + k0;
    group.widths = widthsOf(q);
    group.slot = slotOf(q);
    group.col0 = col0;
    group.nb = nb;
    group.first = first;
    group.last = q + 1 == total;
    group.loaded = (q > 0 && buffers > 1) || (q == 0 && blockLoaded);
    if (q + 1 < total && buffers > 1)
      group.ahead = KTiles{kStart + k0 + groupRows, widthsOf(q + 1),
                           slotOf(q + 1), col0, nb};
    else if (q + 1 == total && nextBlock)
      group.ahead = KTiles{kernel.constant(0), widthsOf(0), slotOf(0),
                           nextBlock->col0, nextBlock->nb};
    return group;
  };
  if (!total)
    return 0;
  step(groupAt(kernel.constant(0), 0, initialises));
  int64_t next = 1;
  int64_t looped = std::max<int64_t>(0, std::min(groups - 1, total - 1) - next);
  int64_t rounds = looped / buffers;
  kernel.loop(rounds, [&](AffineExpr round) {
    for (int64_t b = 0; b < buffers; ++b)
      step(groupAt((round * buffers + next + b) * groupRows, next + b, false));
  });
  for (next += rounds * buffers; next < total; ++next)
    step(groupAt(kernel.constant(next * groupRows), next, false));
  return total;
}

int64_t MatmulNest::movingParts(const Term &term, const KTiles &tiles) const {
  return term.b.transposed ? llvm::divideCeil(tiles.nb, 128)
                           : int64_t(tiles.widths.size());
}

void MatmulNest::loadMoving(const Term &term, const KTiles &tiles,
                            int64_t first, int64_t count) {
  if (term.b.transposed)
    return loadTransposedMoving(term, tiles, first, count);
  MatmulOperand b = term.b;
  int64_t stride = b.tensor.rowStride, free = kGroup * nBlock;
  MemlocOp tile =
      stagedMoving.empty() ? movingOf(term, tiles.slot) : stagedMoving.front();
  int64_t nb = tiles.nb;
  auto load = [&](int64_t firstTile, int64_t count, int64_t kw) {
    AffineExpr k0 = tiles.k0 + firstTile * 128;
    AffineExpr start = bBase(term) + tiles.col0 + k0 * stride;
    AccessPatternAttr source =
        groupPattern(start, {stride, kw}, {128 * stride, count}, {1, nb});
    AccessPatternAttr slots =
        groupPattern(kernel.constant(firstTile * nBlock), {free, kw},
                     {nBlock, count}, {1, nb});
    kernel.create<DmaOp>(loc, tile, slots, b.tensor.memloc, source);
    if (tile != movingOf(term, tiles.slot))
      kernel.cast(loc, movingOf(term, tiles.slot), slots, tile);
  };
  int64_t end = first + count;
  int64_t fullEnd = std::min(end, tiles.fullTiles());
  if (fullEnd > first)
    load(first, fullEnd - first, 128);
  if (end > fullEnd)
    load(fullEnd, 1, tiles.widths.back());
}

void MatmulNest::loadTransposedMoving(const Term &term, const KTiles &tiles,
                                      int64_t first, int64_t count) {
  MatmulOperand b = term.b;
  int64_t stride = b.tensor.rowStride, groupRows = kGroup * 128;
  int64_t kRows = tiles.rows();
  MemlocOp loaded = rowsOfB.front();
  MemlocOp rows = castRowsOfB.empty() ? loaded : castRowsOfB.front();
  MemlocOp target = movingOf(term, tiles.slot);
  // Column tile j of B^T: 128 of the block's columns (fewer in the last)
  // with the group's k rows side by side, in a transfer of its own, so the
  // next tile's transfer overlaps this one's cast and turns.
  for (int64_t j = first; j < first + count; ++j) {
    int64_t columns = std::min<int64_t>(128, tiles.nb - j * 128);
    AccessPatternAttr slots =
        kernel.tilePattern(loaded, columns, kRows, j * groupRows);
    kernel.create<DmaOp>(
        loc, loaded, slots, b.tensor.memloc,
        kernel.pattern(bBase(term) + (tiles.col0 + j * 128) * stride + tiles.k0,
                       {{stride, columns}, {1, kRows}}));
    if (rows != loaded)
      kernel.cast(loc, rows, slots, loaded);
    for (auto [t, kw] : llvm::enumerate(tiles.widths))
      kernel.create<TransposeOp>(
          loc, target,
          kernel.tilePattern(target, kw, columns, t * nBlock + j * 128), rows,
          kernel.tilePattern(rows, columns, kw, j * groupRows + t * 128));
  }
}

void MatmulNest::loadStationaryGroup(const Term &term, const KGroup &group,
                                     AffineExpr row, int64_t p, int64_t aSlot) {
  MatmulOperand a = term.a;
  int64_t stride = a.tensor.rowStride;
  MemlocOp target = stationary[aSlot];
  if (a.transposed)
    return loadTransposedStationary(term, group, aSlot, row, p, 0, mTile);
  // A's rows for every k tile of the group in one transfer (runs of the
  // group's k), then each k tile turned on the tensor engine.
  MemlocOp loaded = castRowsOfA.empty() ? rowsOfA[aSlot] : rowsOfA.front();
  int64_t kRows = group.rows();
  kernel.create<DmaOp>(loc, loaded, kernel.tilePattern(loaded, p, kRows),
                       a.tensor.memloc,
                       kernel.pattern(aBase(term) + row * stride + group.k0,
                                      {{stride, p}, {1, kRows}}));
  MemlocOp rows = castRowsOfA.empty() ? loaded : castRowsOfA[aSlot];
  if (rows != loaded)
    kernel.cast(loc, rows, kernel.tilePattern(loaded, p, kRows), loaded);
  for (auto [t, kw] : llvm::enumerate(group.widths))
    kernel.create<TransposeOp>(loc, target,
                               kernel.tilePattern(target, kw, p, t * mTile),
                               rows, kernel.tilePattern(rows, p, kw, t * 128));
}

void MatmulNest::loadTransposedStationary(const Term &term, const KGroup &group,
                                          int64_t aSlot, AffineExpr row,
                                          int64_t rows, int64_t column,
                                          int64_t tileStep) {
  MatmulOperand a = term.a;
  int64_t stride = a.tensor.rowStride;
  MemlocOp target = stationary[aSlot];
  MemlocOp staged =
      stagedStationary.empty() ? target : stagedStationary.front();
  auto load = [&](int64_t firstTile, int64_t count, int64_t kw) {
    AccessPatternAttr slots =
        groupPattern(kernel.constant(column + firstTile * tileStep),
                     {kGroup * tileStep, kw}, {tileStep, count}, {1, rows});
    kernel.create<DmaOp>(
        loc, staged, slots, a.tensor.memloc,
        groupPattern(aBase(term) + row + (group.k0 + firstTile * 128) * stride,
                     {stride, kw}, {128 * stride, count}, {1, rows}));
    if (staged != target)
      kernel.cast(loc, target, slots, staged);
  };
  int64_t fullTiles = group.fullTiles();
  if (fullTiles)
    load(0, fullTiles, 128);
  if (fullTiles < int64_t(group.widths.size()))
    load(fullTiles, 1, group.widths.back());
}

void MatmulNest::loadStationaryBlock(const Term &term, const KGroup &group,
                                     int64_t aSlot) {
  // The row tiles in pieces of consecutive rows: one piece when the block's
  // rows are (each tile full but the last, each starting where the last
  // one ended).
  SmallVector<std::pair<size_t, int64_t>> pieces; // first tile, rows
  for (auto [i, part] : llvm::enumerate(rowParts)) {
    AffineExpr gap =
        part.first - rowParts[pieces.empty() ? 0 : pieces.back().first].first;
    auto offset = dyn_cast<AffineConstantExpr>(gap);
    if (!pieces.empty() && offset &&
        offset.getValue() == pieces.back().second &&
        pieces.back().second % mTile == 0)
      pieces.back().second += part.second;
    else
      pieces.push_back({i, part.second});
  }
  for (auto [first, rows] : pieces)
    loadTransposedStationary(term, group, aSlot, rowParts[first].first, rows,
                             stationaryColumn(0, first), rowTiles * mTile);
}

void MatmulNest::emitGroup(ArrayRef<Term> sharing, const KGroup &group) {
  if (!group.loaded)
    for (const Term &term : sharing)
      loadMoving(term, group, 0, movingParts(term, group));
  int64_t last = group.widths.size() - 1;
  int64_t rows = rowParts.size();
  if (stationaryPerBlock)
    loadStationaryBlock(sharing.front(), group, group.slot % buffers);
  for (int64_t i = 0; i < rows; ++i) {
    // Consecutive row tiles, and the groups of a loop iteration, take the
    // buffers in turn.
    int64_t turn = group.slot * rowParts.size() + i;
    int64_t aSlot = stationaryPerBlock ? group.slot % buffers : turn % buffers;
    auto [row, p] = rowParts[i];
    if (!stationaryPerBlock)
      loadStationaryGroup(sharing.front(), group, row, p, aSlot);
    // The previous row tile leaves after this one's load: a DMA queue
    // issues in order, so the load does not wait behind the store.
    if (group.last && i > 0 && failed(storeRow(i - 1)))
      status = failure();
    for (const Term &term : sharing) {
      // The next group's B comes in a part or so after each row tile's A:
      // one transfer of the whole would hold every DMA queue, and the next
      // row tile's load behind it.
      int64_t ahead = group.ahead ? movingParts(term, *group.ahead) : 0;
      int64_t firstAhead = i * ahead / rows;
      if (int64_t count = (i + 1) * ahead / rows - firstAhead)
        loadMoving(term, *group.ahead, firstAhead, count);
    }
    for (const Term &term : sharing) {
      MemlocOp b = movingOf(term, group.slot);
      for (size_t j = 0; j < colParts.size(); ++j) {
        int64_t accTurn = (turn * cs.size() + term.output) * colParts.size();
        MemlocOp acc = accs[(accTurn + j) % accs.size()];
        int64_t w = colParts[j].second;
        AccessPatternAttr sum = kernel.tilePattern(acc, p, w);
        for (auto [t, kw] : llvm::enumerate(group.widths))
          kernel.create<MatmultOp>(
              loc, acc, sum, stationary[aSlot],
              kernel.tilePattern(stationary[aSlot], kw, p,
                                 stationaryColumn(t, i)),
              b, kernel.tilePattern(b, kw, w, t * nBlock + j * nTile), t == 0,
              int64_t(t) == last, ReplicationAttr());
        intoBlock(term.output, i, j, acc, sum, group.first);
      }
    }
  }
  if (group.last && failed(storeRow(rowParts.size() - 1)))
    status = failure();
}

void MatmulNest::intoBlock(unsigned o, size_t i, size_t j, MemlocOp acc,
                           AccessPatternAttr sum, bool first) {
  MemlocOp block = blocks[o];
  if (first)
    kernel.create<TensorCopyOp>(loc, block, blockTile(o, i, j), acc, sum);
  else
    kernel.create<TensorTensorOp>(loc, AluOp::Add, block, blockTile(o, i, j),
                                  block, blockTile(o, i, j), acc, sum);
}

void MatmulNest::forEachKTile(
    int64_t k, bool initialises,
    llvm::function_ref<void(AffineExpr, int64_t, bool)> step) {
  int64_t fullTiles = k / 128, rest = k % 128;
  int64_t looped = fullTiles;
  if (initialises) {
    step(kernel.constant(0), std::min<int64_t>(128, k), true);
    looped = fullTiles ? fullTiles - 1 : 0;
    if (!fullTiles)
      rest = 0;
  }
  int64_t skipped = fullTiles - looped;
  kernel.loop(looped,
              [&](AffineExpr kt) { step((kt + skipped) * 128, 128, false); });
  if (rest)
    step(kernel.constant(fullTiles * 128), rest, false);
}

void MatmulNest::loadMoving(const Term &term, AffineExpr k0, int64_t kw,
                            int64_t slot) {
  MatmulOperand b = term.b;
  int64_t stride = b.tensor.rowStride;
  AffineExpr start = b.transposed ? bBase(term) + col0 * stride + k0
                                  : bBase(term) + col0 + k0 * stride;
  kernel.create<DmaOp>(
      loc, moving[0], kernel.tilePattern(moving[0], kw, nb, slot * nBlock),
      b.tensor.memloc,
      b.transposed ? kernel.pattern(start, {{1, kw}, {stride, nb}})
                   : kernel.pattern(start, {{stride, kw}, {1, nb}}));
}

void MatmulNest::loadTransposed(const Term &term, AffineExpr row, int64_t rows,
                                AffineExpr k0, int64_t kw, int64_t column) {
  MatmulOperand a = term.a;
  int64_t stride = a.tensor.rowStride;
  AccessPatternAttr target =
      kernel.tilePattern(stationary[0], kw, rows, column);
  if (a.transposed) {
    kernel.create<DmaOp>(loc, stationary[0], target, a.tensor.memloc,
                         kernel.pattern(aBase(term) + row + k0 * stride,
                                        {{stride, kw}, {1, rows}}));
    return;
  }
  kernel.create<DmaOp>(loc, rowsOfA[0],
                       kernel.tilePattern(rowsOfA[0], rows, kw),
                       a.tensor.memloc,
                       kernel.pattern(aBase(term) + row * stride + k0,
                                      {{stride, rows}, {1, kw}}));
  kernel.create<TransposeOp>(loc, stationary[0], target, rowsOfA[0],
                             kernel.tilePattern(rowsOfA[0], rows, kw));
}

void MatmulNest::accumulate(size_t i, int64_t kw, int64_t shift, int64_t slot,
                            bool first) {
  int64_t p = rowParts[i].second;
  for (size_t j = 0; j < colParts.size(); ++j) {
    int64_t w = colParts[j].second;
    AccessPatternAttr sum = kernel.tilePattern(accs[0], p, w);
    kernel.create<MatmultOp>(
        loc, accs[0], sum, stationary[0],
        kernel.tilePattern(stationary[0], kw, p, shift), moving[0],
        kernel.tilePattern(moving[0], kw, w, slot * nBlock + j * nTile), true,
        true, ReplicationAttr());
    intoBlock(0, i, j, accs[0], sum, first);
  }
}

void MatmulNest::emitWindowStep(AffineExpr k0, int64_t kw, bool first) {
  for (size_t t = 0; t < terms.size(); ++t)
    loadMoving(terms[t], k0, kw, t);
  int64_t window = *llvm::max_element(shifts);
  for (size_t i = 0; i < rowParts.size(); ++i) {
    // A^T of rows row .. row + p + window: two pieces of at most 128 rows.
    auto [row, p] = rowParts[i];
    loadTransposed(terms[0], row, p, k0, kw, 0);
    if (window)
      loadTransposed(terms[0], row + p, window, k0, kw, p);
    for (size_t t = 0; t < terms.size(); ++t)
      accumulate(i, kw, shifts[t], t, first && t == 0);
  }
}

LogicalResult MatmulNest::storeRow(size_t i, ArrayRef<MemlocOp> from) {
  auto [row, p] = rowParts[i];
  if (from.empty())
    from = blocks;
  if (!epilogue) {
    for (size_t o = 0; o < cs.size(); ++o) {
      MemlocOp block = from[o];
      kernel.create<DmaOp>(loc, MemlocOp(cs[o].memloc), cRow(o, i), block,
                           blockRow(block, i));
    }
    return success();
  }
  // The epilogue reads each product where its block holds it.
  for (size_t j = 0; j < colParts.size(); ++j) {
    SmallVector<std::pair<unsigned, Operand>, 2> products;
    for (auto [o, argument] : llvm::enumerate(epilogue->arguments))
      products.push_back(
          {argument,
           Operand{MemlocOp(from[o]), {}, int64_t(i * nBlock + j * nTile)}});
    if (failed(epilogue->consumer->emitTile(
            {p, row}, {colParts[j].second, col0 + j * nTile}, products)))
      return failure();
  }
  return success();
}

bool walrus::linalg_to_bir::isTensorEngineMatmul(linalg::LinalgOp op,
                                                 Lowering &lowering) {
  if (!isa<linalg::MatmulOp, linalg::BatchMatmulOp>(op))
    return false;
  return succeeded(quietly(op->getContext(), [&] {
    MatmulShape shape;
    DramTensor c;
    return LogicalResult(readTerm(op, lowering, shape, c));
  }));
}

LogicalResult walrus::linalg_to_bir::lowerMatmul(
    ArrayRef<linalg::LinalgOp> chain, Lowering &lowering,
    const MatmulEpilogue *epilogue, bool siblings) {
  linalg::LinalgOp op = chain.front();
  MatmulShape shape;
  SmallVector<DramTensor> cs;
  SmallVector<Term> terms;
  for (linalg::LinalgOp termOp : chain) {
    MatmulShape termShape;
    DramTensor c;
    FailureOr<Term> term = readTerm(termOp, lowering, termShape, c);
    if (failed(term))
      return failure();
    if (cs.empty() || siblings) {
      term->output = cs.size();
      cs.push_back(c);
    }
    // findChain only chains matmuls of one m, n and element types.
    assert((terms.empty() ||
            (termShape.batch == shape.batch && termShape.m == shape.m &&
             termShape.n == shape.n &&
             term->a.tensor.elementType == terms[0].a.tensor.elementType)) &&
           "a chain's terms share their shape and element types");
    int64_t k = shape.k;
    shape = termShape;
    // The chain's blocking sees one reduction over every term's k; the
    // siblings' over their one k.
    if (!llvm::checkedAdd(k, term->k).has_value())
      return unsupported(termOp, "a chain of matmuls this long");
    shape.k = siblings ? term->k : k + term->k;
    terms.push_back(*term);
  }
  MatmulNest nest(lowering, op.getLoc(), terms, shape, cs, epilogue);
  if (failed(nest.plan(op, lowering.tiles.columns,
                       lowering.zeroInitialized.contains(op))))
    return failure();
  return nest.emit();
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

//===- MatmulBlocking.cpp - How a matmul nest blocks C and uses the cores -===//

#include "MatmulBlocking.h"
#include "Walrus/Analysis/Timeline.h"

using namespace mlir;
using namespace walrus;
using namespace walrus::linalg_to_bir;

/// The block that moves the fewest bytes, A * ceil(N / nBlock) + B *
/// ceil(M / rows per block), among blocks of at most `maxRowTiles` row
/// tiles and `maxWidth` columns whose C, B tiles and A tiles fit in
/// `budget`; candidates double, so hostile sizes cost a few dozen tries.
static FailureOr<Blocking> searchBlocking(const MatmulShape &shape,
                                          int64_t nTile, int64_t mTile,
                                          int64_t maxRowTiles, int64_t maxWidth,
                                          const BlockingBudget &budget) {
  SmallVector<int64_t> widths, heights;
  for (int64_t width = nTile; width < maxWidth; width *= 2)
    widths.push_back(width);
  widths.push_back(maxWidth);
  for (int64_t height = 1; height < maxRowTiles; height *= 2)
    heights.push_back(height);
  heights.push_back(maxRowTiles);
  // Products in double: the sizes are checked, their products need not be.
  double aTotal = double(shape.m) * shape.k * budget.aBytes,
         bTotal = double(shape.k) * shape.n * budget.bBytes;
  std::optional<std::pair<double, Blocking>> best;
  for (int64_t width : widths)
    for (int64_t height : heights) {
      double bytes = double(height) * width * budget.cBytes +
                     double(width) * budget.bColumnBytes +
                     double(budget.aTileBytes) +
                     double(height) * budget.aRowTileBytes;
      if (bytes > budget.bytes)
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

/// The most cores for which a block of columns dealt to them holds all row
/// tiles: a Trainium2 device's NeuronCores (docs/LinalgToBir.md, "Tiles and
/// cores").
constexpr int64_t kMaxCoresForTallBlocks = 8;

/// The most row tiles a block may hold when every core runs every row
/// tile (columns or k dealt): all of them (B loaded once), unless the cores
/// are so many that unrolling them into each core's program would
/// multiply the kernel's length.
static int64_t getUndealtRowTiles(const MatmulShape &shape, int64_t mTile,
                                  const KernelBuilder &kernel) {
  int64_t rowTileCount = llvm::divideCeil(shape.m, mTile);
  if (kernel.getLncSize() <= kMaxCoresForTallBlocks)
    return rowTileCount;
  return llvm::divideCeil(rowTileCount, kernel.getLncSize());
}

namespace {
/// The busiest core's share of the dimension a blocking deals, and the
/// whole of it.
struct Share {
  int64_t busiest, whole;
  double fraction() const { return double(busiest) / double(whole); }
};
} // namespace

/// The busiest core's share of the nest's work under `blocking`.
static Share getBusiestShare(const MatmulShape &shape, const Blocking &blocking,
                             int64_t mTile, const KernelBuilder &kernel) {
  auto of = [&](int64_t whole, int64_t tile) {
    return Share{kernel.getBusiestShare(whole, tile), whole};
  };
  switch (blocking.dealt) {
  case Dealt::Rows:
    return of(shape.m, mTile * blocking.rowTiles);
  case Dealt::Columns:
    return of(shape.n, blocking.nBlock);
  case Dealt::Batch:
    return of(shape.batch, 1);
  case Dealt::K:
    break;
  }
  return of(llvm::divideCeil(shape.k, 128), 1);
}

FailureOr<Blocking> walrus::linalg_to_bir::chooseBlocking(
    const MatmulShape &shape, int64_t nTile, int64_t mTile,
    const KernelBuilder &kernel, const BlockingBudget &budget) {
  int64_t lncSize = kernel.getLncSize();
  int64_t rowTileCount = llvm::divideCeil(shape.m, mTile);
  int64_t maxRowTiles = llvm::divideCeil(rowTileCount, lncSize);
  FailureOr<Blocking> byRows =
      searchBlocking(shape, nTile, mTile, maxRowTiles, shape.n, budget);
  if (lncSize == 1 || rowTileCount % lncSize == 0)
    return byRows;
  // Another dimension is dealt where its busiest core gets a smaller
  // share; on a tie the rows stay dealt, then the batches.
  FailureOr<Blocking> best = byRows;
  auto consider = [&](FailureOr<Blocking> candidate, Dealt dealt,
                      bool allowed) {
    if (failed(candidate))
      return;
    candidate->dealt = dealt;
    if (failed(best) ||
        (allowed &&
         getBusiestShare(shape, *candidate, mTile, kernel).fraction() <
             getBusiestShare(shape, *best, mTile, kernel).fraction()))
      best = candidate;
  };
  int64_t undealtRowTiles = getUndealtRowTiles(shape, mTile, kernel);
  if (shape.batch > 1)
    consider(
        searchBlocking(shape, nTile, mTile, undealtRowTiles, shape.n, budget),
        Dealt::Batch, /*allowed=*/true);
  // Each core's columns must be worth a matmult of their own.
  int64_t share = llvm::divideCeil(shape.n, lncSize);
  FailureOr<Blocking> byColumns = searchBlocking(
      shape, nTile, mTile, undealtRowTiles, std::min(share, shape.n), budget);
  consider(byColumns, Dealt::Columns,
           succeeded(byColumns) && std::min(byColumns->nBlock, share) >=
                                       kernel.getMinMatmultColumns());
  return best;
}

/// The model's time for the nest on one core, ns: the larger of the tensor
/// engine's matmults and of the bytes DMA moves (A once per block of
/// columns, B once per block of rows, C once), each at its peak
/// (docs/TimingModel.md).
static double estimateNestNs(const MatmulShape &shape, const Blocking &blocking,
                             int64_t nTile, int64_t mTile,
                             const BlockingBudget &budget,
                             const TimingModel &model) {
  double matmults = double(llvm::divideCeil(shape.m, mTile)) *
                    double(llvm::divideCeil(shape.n, nTile)) *
                    double(llvm::divideCeil(shape.k, 128));
  double cycles = std::max(double(nTile), model.matmulMinCycles) *
                  (budget.peBytes >= 4 ? model.fp32Factor : 1.0);
  double bytes =
      double(shape.m) * shape.k * budget.aBytes *
          double(llvm::divideCeil(shape.n, blocking.nBlock)) +
      double(shape.k) * shape.n * budget.bBytes *
          double(llvm::divideCeil(shape.m, mTile * blocking.rowTiles)) +
      double(shape.m) * shape.n * budget.cBytes;
  return std::max(matmults * cycles / model.peGhz,
                  bytes / model.dmaPeakBytesPerNs());
}

double walrus::linalg_to_bir::estimateTransferNs(
    const MatmulShape &shape, const Blocking &blocking, int64_t mTile,
    const BlockingBudget &budget, const TimingModel &model, int64_t aRun) {
  double aPasses = double(llvm::divideCeil(shape.n, blocking.nBlock));
  double bPasses = double(llvm::divideCeil(shape.m, mTile * blocking.rowTiles));
  double aElements = double(shape.m) * shape.k * shape.batch;
  double bElements = double(shape.k) * shape.n * shape.batch;
  double bytes = aElements * budget.aBytes * aPasses +
                 bElements * budget.bBytes * bPasses +
                 double(shape.m) * shape.n * shape.batch * budget.cBytes;
  double packets = aElements / double(std::max<int64_t>(1, aRun)) * aPasses +
                   bElements / double(blocking.nBlock) * bPasses;
  return (bytes + packets * model.dmaPacketBytes) / model.dmaPeakBytesPerNs();
}

/// Whether every row tile's rows divide among the cores, each core taking
/// its share of each after the reduce_scatter.
static bool rowTilesDivide(const MatmulShape &shape, int64_t mTile,
                           int64_t lncSize) {
  if (shape.m >= mTile && mTile % lncSize != 0)
    return false;
  return shape.m % mTile % lncSize == 0;
}

Blocking walrus::linalg_to_bir::chooseKSplit(const MatmulShape &shape,
                                             int64_t nTile, int64_t mTile,
                                             const KernelBuilder &kernel,
                                             const BlockingBudget &budget,
                                             const Blocking &dealt) {
  int64_t lncSize = kernel.getLncSize();
  int64_t kTiles = llvm::divideCeil(shape.k, 128);
  // Only where the split chosen leaves the busiest core more than its even
  // share (in integers: a fraction times the cores may round to 1).
  Share share = getBusiestShare(shape, dealt, mTile, kernel);
  if (lncSize == 1 || kTiles < lncSize ||
      !rowTilesDivide(shape, mTile, lncSize) ||
      share.busiest <= share.whole / lncSize)
    return dealt;
  // Each core's share of the block takes as many bytes per partition as
  // the block.
  BlockingBudget withShares = budget;
  withShares.cBytes *= 2;
  FailureOr<Blocking> byK = searchBlocking(
      shape, nTile, mTile, getUndealtRowTiles(shape, mTile, kernel), shape.n,
      withShares);
  if (failed(byK))
    return dealt;
  byK->dealt = Dealt::K;
  TimingModel model = TimingModel::forTarget(kernel.getTarget());
  auto busiestNs = [&](const Blocking &blocking) {
    return estimateNestNs(shape, blocking, nTile, mTile, budget, model) *
           getBusiestShare(shape, blocking, mTile, kernel).fraction();
  };
  // Each block's reduce_scatter moves (cores - 1) shares of it through
  // each core (docs/TimingModel.md), and the cores meet at it: the DMA
  // queues drain, and the next block's first loads start after it.
  double blocks = double(llvm::divideCeil(shape.n, byK->nBlock)) *
                  double(llvm::divideCeil(shape.m, mTile * byK->rowTiles));
  double sumNs = blocks * 2 * model.dmaFixedNs +
                 double(lncSize - 1) * double(shape.m) * double(shape.n) *
                     double(budget.cBytes) / double(lncSize) /
                     model.dmaPeakBytesPerNs();
  return busiestNs(*byK) + sumNs < busiestNs(dealt) ? *byK : dealt;
}

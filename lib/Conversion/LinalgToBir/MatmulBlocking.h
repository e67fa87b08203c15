//===- MatmulBlocking.h - How a matmul nest blocks C and uses the cores ---===//
//
// The block of C a matmul nest keeps in SBUF while k runs, and what it
// deals to the cores: blocks of rows, blocks of columns, or ranges of k
// whose partial products a collective sums (docs/LinalgToBir.md, "Matmul"
// and "Tiles and cores").
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_MATMULBLOCKING_H
#define WALRUS_CONVERSION_LINALGTOBIR_MATMULBLOCKING_H

#include "KernelBuilder.h"

namespace walrus {
struct TimingModel;
} // namespace walrus

namespace walrus::linalg_to_bir {

struct MatmulShape {
  int64_t batch = 1, m = 0, n = 0, k = 0;
};

/// What a nest deals to the cores.
enum class Dealt { Rows, Columns, Batch, K };

/// How much of C stays in SBUF while k runs: `rowTiles` tiles of rows (per
/// core) by `nBlock` columns, and what goes to the cores.
struct Blocking {
  int64_t rowTiles = 1, nBlock = 1;
  Dealt dealt = Dealt::Rows;
};

/// What a block may hold: the element sizes of A and B in DRAM and of C,
/// the bytes per partition B's tiles take per column of the block (every
/// buffer, staged and cast), those A's tiles take, and the bytes per
/// partition all of it may take; and the element size of the operands on
/// the tensor engine.
struct BlockingBudget {
  int64_t aBytes = 0, bBytes = 0, cBytes = 0;
  int64_t bColumnBytes = 0, aTileBytes = 0;
  int64_t bytes = 0;
  int64_t peBytes = 0;
  /// Bytes per partition A's tiles take per row tile of the block (A^T
  /// of a whole block loaded at once).
  int64_t aRowTileBytes = 0;
};

/// The blocking of the fewest bytes moved with the blocks of rows dealt to
/// the cores, or, where the row tiles do not divide among them and the
/// batches or blocks of at most a core's share of the columns divide
/// better, with those dealt. Fails when no block fits `budget`.
mlir::FailureOr<Blocking> chooseBlocking(const MatmulShape &shape,
                                         int64_t nTile, int64_t mTile,
                                         const KernelBuilder &kernel,
                                         const BlockingBudget &budget);

/// The model's time for the transfers of a nest on one core, ns: A once
/// per block of columns in runs of `aRun` elements (A^T's rows per
/// partition), B once per block of rows in runs of the block's columns,
/// C once, each byte at DMA's peak and each run a packet
/// (docs/TimingModel.md).
double estimateTransferNs(const MatmulShape &shape, const Blocking &blocking,
                          int64_t mTile, const BlockingBudget &budget,
                          const TimingModel &model, int64_t aRun);

/// `dealt`, or a blocking with k dealt when that is faster on the timing
/// model: every core sums the products of a range of k tiles over every
/// row and column, and a reduce_scatter adds the cores' blocks, leaving
/// each core its share of the rows. Needs a single matmul of one batch
/// into a zero C, every row tile's rows dividing among the cores and a k
/// tile per core.
Blocking chooseKSplit(const MatmulShape &shape, int64_t nTile, int64_t mTile,
                      const KernelBuilder &kernel, const BlockingBudget &budget,
                      const Blocking &dealt);

} // namespace walrus::linalg_to_bir

#endif // WALRUS_CONVERSION_LINALGTOBIR_MATMULBLOCKING_H

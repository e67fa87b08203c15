//===- Lowerings.h - The op lowerings of -convert-linalg-to-bir -*- C++ -*-===//
//
// Each linalg op becomes a loop nest of its own over DRAM: tiles loaded,
// computed on, and stored back, the rows dealt to the cores
// (docs/LinalgToBir.md).
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_LOWERINGS_H
#define WALRUS_CONVERSION_LINALGTOBIR_LOWERINGS_H

#include "KernelBuilder.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

namespace walrus::linalg_to_bir {

/// Tile sizes the user may override (pass options).
struct TileSizes {
  /// Columns per tile of matmul outputs, the general lowering and gathers.
  int64_t columns = 512;
  /// Columns per tile of elementwise ops and reductions: wider runs make
  /// each transfer's packets and each instruction's fixed cost count
  /// less. With `fitVectorColumns`, an elementwise op narrows them until
  /// its rotating sets of tiles fit half of an SBUF partition.
  int64_t vectorColumns = 2048;
  bool fitVectorColumns = true;
  /// Rotating buffers of a matmul nest's loads and accumulators.
  int64_t matmulBuffers = 2;
  /// Rotating sets of an elementwise op's tiles.
  int64_t elementwiseBuffers = 2;
  /// Rotating sets of a normalization nest's row-tile tiles.
  int64_t normalizationBuffers = 4;
  /// Rotating sets of an attention nest's query-tile tiles.
  int64_t attentionBuffers = 4;
  /// Whether a matmul nest casts f32 operands to bf16 (auto-cast=matmult).
  bool autoCast = true;
};

/// What a lowering needs: the kernel under construction, the DRAM tensor of
/// each host memref, and the tile sizes.
struct Lowering {
  KernelBuilder &kernel;
  llvm::DenseMap<mlir::Value, DramTensor> &tensors;
  TileSizes tiles;
  /// Matmuls whose output a zero fill just before them initialised: the
  /// fill is not emitted and the product is stored without reading C.
  llvm::DenseSet<mlir::Operation *> zeroInitialized;

  /// The DRAM tensor of `memref` seen as evenly strided rows, or an error
  /// at `user`.
  mlir::FailureOr<DramTensor> getTensor(mlir::Operation *user,
                                        mlir::Value memref);
  /// The DRAM tensor of `memref`, whatever its strides (its memloc, base
  /// and element type), or an error at `user`.
  mlir::FailureOr<DramTensor> getBuffer(mlir::Operation *user,
                                        mlir::Value memref);
};

/// The rows (every dimension but the innermost, folded; 1 for rank 0) and
/// columns of a static `shape`, or an error at `op`.
mlir::FailureOr<std::pair<int64_t, int64_t>>
getRowsAndColumns(mlir::Operation *op, llvm::ArrayRef<int64_t> shape);

/// The reason `op` is not supported, as an error at it.
mlir::LogicalResult unsupported(mlir::Operation *op, const llvm::Twine &why);

/// Elementwise linalg ops (every iterator parallel): generic and named
/// ops, fill, copy, with broadcasts of whole rows or columns.
mlir::LogicalResult lowerElementwise(mlir::linalg::LinalgOp op,
                                     Lowering &lowering);
/// Any op with one output whose indexing maps are linear in the loops,
/// on the vector engines (Generic.cpp): the lowering of last resort.
mlir::LogicalResult lowerGeneric(mlir::linalg::LinalgOp op, Lowering &lowering);
/// `check` with its diagnostics dropped: whether a shaped lowering takes
/// an op is a question, not an error.
mlir::LogicalResult quietly(mlir::MLIRContext *context,
                            llvm::function_ref<mlir::LogicalResult()> check);
/// The vector-engine operation that combines two values as `combiner`
/// (add, mul, max, min of floats or integers) does.
std::optional<bir::AluOp> getCombiner(mlir::Operation *combiner);
/// Whether lowerReduction takes `op`.
bool isRowReduction(mlir::linalg::LinalgOp op);
/// The combiner of `op` when it reduces the innermost dimension of its one
/// input into its one output (indexed by the other loops, or keeping the
/// reduced dimension as size 1: torch's keepdim), or an error.
mlir::FailureOr<bir::AluOp> matchRowReduction(mlir::linalg::LinalgOp op);
/// Whether lowerMatmul takes `op` (a matmul or batch_matmul the tensor
/// engine computes).
bool isTensorEngineMatmul(mlir::linalg::LinalgOp op, Lowering &lowering);
/// The table read of an embedding lookup as torch-mlir writes it (an
/// all-parallel op yielding `table[index_cast(ids[...]), index(last)]`),
/// or null.
mlir::memref::LoadOp matchEmbedding(mlir::linalg::LinalgOp op);
/// An embedding lookup: a bir.dma_gather of table rows per tile.
mlir::LogicalResult lowerEmbedding(mlir::linalg::LinalgOp op,
                                   mlir::memref::LoadOp load,
                                   Lowering &lowering);
/// Whether lowerContraction takes `op`: `out += a * b` of floats over
/// linear maps, other than a matmul lowerMatmul takes, big enough for the
/// tensor engine (Contraction.cpp).
bool isTensorEngineContraction(mlir::linalg::LinalgOp op, Lowering &lowering);
/// A convolution or other contraction as chains of matmults into PSUM.
mlir::LogicalResult lowerContraction(mlir::linalg::LinalgOp op,
                                     Lowering &lowering);
/// Reductions along the innermost dimension. With `producer` (what
/// findReductionProducer found), each tile of the input is computed in
/// SBUF by the producer's body instead of loaded.
mlir::LogicalResult lowerReduction(mlir::linalg::LinalgOp op,
                                   Lowering &lowering,
                                   mlir::linalg::LinalgOp producer = {});
/// The elementwise op whose result only `reduction` reads (RMSNorm's
/// square before its sum), when the reduction can compute it tile by tile
/// instead: the buffer between them is then never written. Null if none.
mlir::linalg::LinalgOp findReductionProducer(mlir::linalg::LinalgOp reduction,
                                             Lowering &lowering);
/// The next (previous) op after (before) `op` in its block that the
/// lowering takes: a linalg op or linalg.softmax. Null if none.
mlir::Operation *getNextLinalg(mlir::Operation *op);
mlir::Operation *getPreviousLinalg(mlir::Operation *op);
/// Whether `op` may write or free memory (unknown effects count).
bool writesMemory(mlir::Operation *op);
/// Whether `buffer` is only the link between `producer` and `consumer`:
/// besides them, only a zero fill of it and its deallocation use it.
bool isOnlyBetween(mlir::Value buffer, mlir::Operation *producer,
                   mlir::Operation *consumer);
class ElementwiseLowering;
struct Operand;

/// Reduces the first `columns` columns of the first `partitions` rows of
/// `tile` with `alu` into `part`, and combines that into `acc`.
void reduceInto(KernelBuilder &kernel, mlir::Location loc, bir::AluOp alu,
                bir::MemlocOp acc, bir::MemlocOp part, const Operand &tile,
                int64_t partitions, int64_t columns);

/// A row reduction and the ops that normalize its rows by its result
/// (RMSNorm): the elementwise `producer` it computes (or none), elementwise
/// ops of its result, one value per row (`rowOps`, each reading the last),
/// then `normalize`, an elementwise op over the reduction's loops that
/// reads the reduced rows' sources again and a per-row value.
struct NormalizationChain {
  mlir::linalg::LinalgOp producer, reduction;
  llvm::SmallVector<mlir::linalg::LinalgOp, 2> rowOps;
  mlir::linalg::LinalgOp normalize;
  /// The fill of a constant into the reduction's output just before it
  /// (the reduction's start), if there is one: the nest starts each row
  /// tile's accumulator from the constant, and the fill is not emitted.
  mlir::linalg::FillOp fill = {};
  mlir::Attribute fillValue = {};
};

/// The chain that starts at `reduction` (computing `producer`, if any),
/// when its ops follow one another with nothing between them that writes
/// memory, their tiles and a whole row of each source fit in SBUF, and
/// dealing rows to the cores suits the normalization. None otherwise.
std::optional<NormalizationChain>
findNormalization(mlir::linalg::LinalgOp reduction,
                  mlir::linalg::LinalgOp producer, Lowering &lowering);
/// Lowers the chain as one nest: per row tile, the sources' rows are
/// loaded once, reduced, and normalized from SBUF.
mlir::LogicalResult lowerNormalization(const NormalizationChain &chain,
                                       Lowering &lowering);

/// An elementwise op fused into a matmul's store: it reads the product (of
/// each sibling) as its block argument `arguments[i]`, and its own output
/// replaces C's.
struct MatmulEpilogue {
  ElementwiseLowering *consumer;
  llvm::SmallVector<unsigned, 2> arguments;
};

/// The elementwise op that can be `matmul`'s epilogue: the next linalg op
/// after it, over C's shape, reading C as it is and C used by nothing else
/// (or writing its result into C in place). Null if there is none.
mlir::linalg::LinalgOp findEpilogue(mlir::linalg::MatmulOp matmul,
                                    mlir::Operation *next);

/// matmul (either operand transposed) and batch_matmul, or a chain of them
/// that accumulate one after the other into the same C (a convolution's
/// taps; the terms share m, n, batch and element types): C stays in SBUF
/// while the chain's k tiles run in turn. With `siblings`, the matmuls read
/// the same A (and share m, n, k) into C's of their own: A^T is loaded once
/// for all. With `epilogue`, C is not stored but passed to it tile by tile.
mlir::LogicalResult lowerMatmul(llvm::ArrayRef<mlir::linalg::LinalgOp> chain,
                                Lowering &lowering,
                                const MatmulEpilogue *epilogue = nullptr,
                                bool siblings = false);
/// A 2-D linalg.transpose.
mlir::LogicalResult lowerTranspose(mlir::linalg::TransposeOp op,
                                   Lowering &lowering);
/// P = softmax(s Q K^T), O = P V: a matmul or batch matmul (into a
/// zero-filled buffer), maybe a scaling of it by a constant s, a softmax
/// of that along its rows, and maybe a matmul of the same batches reading
/// the probabilities (into a zero-filled buffer); each intermediate used
/// by nothing else. Without the second matmul, P is the chain's result.
struct AttentionChain {
  mlir::linalg::LinalgOp scores;
  mlir::linalg::GenericOp scaling;
  double scale = 1.0;
  mlir::linalg::SoftmaxOp softmax;
  mlir::linalg::LinalgOp context;
  bool keysTransposed = false;
};

/// The attention chains among `body`'s ops, in order (after the zero fills
/// were found: `Lowering::zeroInitialized`).
llvm::SmallVector<AttentionChain> findAttentionChains(mlir::Block &body,
                                                      Lowering &lowering);
/// Lowers a chain as one nest; false (nothing emitted) when its tiles do
/// not fit in SBUF, and the ops then lower one by one.
mlir::FailureOr<bool> lowerAttention(const AttentionChain &chain,
                                     Lowering &lowering);

/// The SBUF tiles of a row softmax: `exps` = exp(source - row max),
/// `result` = exps / row sum, `stats` (one column) holding the max, then
/// the sum. Tiles may coincide (in place).
struct SoftmaxTiles {
  bir::MemlocOp source, exps, result, stats;
};

/// Softmax of the first `partitions` rows of `columns` elements of
/// `tiles.source`.
void emitRowSoftmax(KernelBuilder &kernel, mlir::Location loc,
                    const SoftmaxTiles &tiles, int64_t partitions,
                    int64_t columns);

/// linalg.softmax along the innermost dimension.
mlir::LogicalResult lowerSoftmax(mlir::linalg::SoftmaxOp op,
                                 Lowering &lowering);

} // namespace walrus::linalg_to_bir

#endif // WALRUS_CONVERSION_LINALGTOBIR_LOWERINGS_H

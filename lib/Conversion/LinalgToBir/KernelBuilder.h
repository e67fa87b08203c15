//===- KernelBuilder.h - Building a symbolic bir.func ------------*- C++
//-*-===//
//
// What every lowering of -convert-linalg-to-bir shares: memory locations
// (DRAM tensors for the host's memrefs, SBUF and PSUM tiles), bir.loops,
// access patterns whose start is an affine expression of the enclosing
// loops' induction variables and the shard id, and the split of rows
// across the cores (docs/LinalgToBir.md, "Tiles and cores").
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_KERNELBUILDER_H
#define WALRUS_CONVERSION_LINALGTOBIR_KERNELBUILDER_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace walrus::linalg_to_bir {

/// A DRAM tensor (or a view of one) seen as rows x columns: the innermost
/// dimension is the columns, every outer one is folded into the rows. Row
/// `r` starts at element `base + r * rowStride` of the memory location.
struct DramTensor {
  bir::MemlocOp memloc;
  int64_t base = 0;
  int64_t rows = 1, columns = 1, rowStride = 1;
  mlir::Type elementType;
  /// False for a view whose outer dimensions do not fold into evenly
  /// strided rows: rows, columns and rowStride are then meaningless.
  bool foldsToRows = true;
  bool isContiguous() const { return rowStride == columns; }
};

/// One tile of rows: `partitions` rows starting at row `firstRow` (an
/// expression in the enclosing loops' dims and the shard id s0). From
/// forEachRotatingRowTile, `round` counts the tiles its core had before it
/// (0, 1, ... on every core); null elsewhere.
struct RowTile {
  int64_t partitions;
  mlir::AffineExpr firstRow;
  mlir::AffineExpr round = {};
};

/// One tile of columns.
struct ColumnTile {
  int64_t columns;
  mlir::AffineExpr firstColumn;
};

class KernelBuilder {
public:
  KernelBuilder(bir::FuncOp func, int64_t lncSize, bir::TargetAttr target,
                int64_t instructionLimit, bool f64AsF32 = true);

  mlir::MLIRContext *getContext() { return builder.getContext(); }
  mlir::OpBuilder &getBuilder() { return builder; }
  int64_t getLncSize() const { return lncSize; }
  /// How many loops enclose the current point (their ivs are d0 .. d<n-1>).
  unsigned getDepth() const { return depth; }
  bir::TargetAttr getTarget() const { return target; }

  /// A memory location named after `stem`, unique in the function, before
  /// every instruction.
  bir::MemlocOp addMemloc(llvm::StringRef stem, bir::TensorKind kind,
                          mlir::Type type);
  /// The type on-chip tiles and internal DRAM tensors hold `type` in: f32
  /// for f64 when f64 is computed in f32 (the engines have no f64).
  mlir::Type getComputeType(mlir::Type type) const;
  /// An SBUF (or PSUM) tile of `partitions` x `columns` elements (of the
  /// compute type of `elementType`).
  bir::MemlocOp addTile(llvm::StringRef stem, int64_t partitions,
                        int64_t columns, mlir::Type elementType,
                        bool psum = false);
  /// Marks `tile` (if any) as buffer `index` of a rotation
  /// (bir.rotating): -sb-alloc keeps a rotation's buffers apart and
  /// reports what they cost (docs/SbAlloc.md).
  void markRotating(bir::MemlocOp tile, int64_t index);

  /// A PSUM accumulator shared by every op that asks for this shape: the
  /// ops run one after the other, and PSUM (8 banks) is not allocated by
  /// -sb-alloc, so one tile per shape keeps a kernel within a bank.
  /// `index` tells apart the accumulators one op uses at once.
  bir::MemlocOp getSharedPsumTile(int64_t partitions, int64_t columns,
                                  mlir::Type elementType, unsigned index = 0);

  /// The access pattern starting at `start` (elements) with `pairs` of
  /// [step, num]: a #bir.ap when the start is a constant, a #bir.sap over
  /// the enclosing loops and s0 otherwise.
  bir::AccessPatternAttr
  pattern(mlir::AffineExpr start,
          llvm::ArrayRef<std::pair<int64_t, int64_t>> pairs);
  /// `partitions` x `columns` elements of a tile, from column
  /// `columnOffset` of each partition.
  bir::AccessPatternAttr tilePattern(bir::MemlocOp tile, int64_t partitions,
                                     int64_t columns, int64_t columnOffset = 0);
  /// `partitions` x `columns` elements of `tensor` from (row, column).
  bir::AccessPatternAttr dramPattern(const DramTensor &tensor,
                                     mlir::AffineExpr row,
                                     mlir::AffineExpr column,
                                     int64_t partitions, int64_t columns);

  /// Creates an instruction at the current point, masked to the cores of
  /// the tile being emitted (the mask is its last argument).
  template <typename OpT, typename... Args>
  OpT create(mlir::Location loc, Args &&...args) {
    ++numInstructions;
    mlir::IntegerSetAttr maskAttr =
        mask ? mlir::IntegerSetAttr::get(mask) : mlir::IntegerSetAttr();
    // Elementwise instructions run on their default engine.
    if constexpr (llvm::is_one_of<OpT, bir::TensorTensorOp, bir::TensorScalarOp,
                                  bir::TensorCopyOp, bir::MemsetOp>::value)
      return OpT::create(builder, loc, std::forward<Args>(args)..., maskAttr,
                         bir::ComputeEngineAttr());
    else
      return OpT::create(builder, loc, std::forward<Args>(args)..., maskAttr);
  }
  /// Whether the instruction limit was passed.
  /// Whether the per-core programs -lnc-split makes of this kernel (one
  /// copy of every instruction per core, at most) would pass the limit:
  /// what every later pass spends time and memory on.
  bool overLimit() const {
    std::optional<int64_t> total = llvm::checkedMul(numInstructions, lncSize);
    return !total || *total > instructionLimit;
  }
  int64_t getInstructionLimit() const { return instructionLimit; }

  /// `dst[dstAp] = src[srcAp]` converted to dst's element type on the
  /// scalar engine (auto-cast: f32 staged loads into bf16 operands of the
  /// tensor engine), with `srcAp` the same as `dstAp` when not given.
  void cast(mlir::Location loc, bir::MemlocOp dst, bir::AccessPatternAttr dstAp,
            bir::MemlocOp src, bir::AccessPatternAttr srcAp = {});

  /// Runs `body` for `count` values of an induction variable: inside a
  /// bir.loop when there are several, with the constant 0 for one.
  void loop(int64_t count, llvm::function_ref<void(mlir::AffineExpr)> body);

  /// Runs `body` for every tile of `rows` rows, `tileRows` at a time, the
  /// tiles dealt round-robin to the cores: tile t runs on core t % lnc.
  /// Full rounds are one loop on every core, the last round of full tiles
  /// is masked to the cores that have one, and a partial last tile to its
  /// core.
  void forEachRowTile(int64_t rows, int64_t tileRows,
                      llvm::function_ref<void(const RowTile &)> body);
  /// forEachRowTile rotating `buffers` sets of tiles over each core's row
  /// tiles: its loop runs `buffers` tiles per iteration, its n-th tile with
  /// buffer n % buffers, so the buffer of every tile emitted is a constant.
  void forEachRotatingRowTile(
      int64_t rows, int64_t tileRows, int64_t buffers,
      llvm::function_ref<void(const RowTile &, unsigned buffer)> body);
  /// Runs `body` for every tile of `columns` columns, `tileColumns` at a
  /// time, on the current cores: a loop over the full tiles, then the rest.
  void forEachColumnTile(int64_t columns, int64_t tileColumns,
                         llvm::function_ref<void(const ColumnTile &)> body);

  /// Runs `body` for every tile of `size` in tiles of `tile`: dealt to the
  /// cores as forEachRowTile deals rows when `deal`, else all on the
  /// current cores as forEachColumnTile runs columns.
  void forEachTile(
      int64_t size, int64_t tile, bool deal,
      llvm::function_ref<void(int64_t count, mlir::AffineExpr first)> body);

  /// Runs `body` for every tile of `size` in tiles of `tile` on the current
  /// cores, as forEachColumnTile does, rotating `buffers` sets of tiles:
  /// the loop runs `buffers` tiles per iteration, tile i with buffer
  /// i % buffers, so the buffer of every tile emitted is a constant.
  void forEachRotatingTile(
      int64_t size, int64_t tile, int64_t buffers,
      llvm::function_ref<void(int64_t count, mlir::AffineExpr first,
                              unsigned buffer)>
          body);

  /// The elements of a dimension of `size`, in tiles of `tile` dealt
  /// round-robin to the cores, that the busiest core gets.
  int64_t getBusiestShare(int64_t size, int64_t tile) const;
  /// Whether dealing the tiles of `second` to the cores (those of `first`
  /// running on each) leaves the busiest core a smaller share of the work
  /// than dealing those of `first`: `first`'s tiles do not divide among
  /// the cores and `second`'s divide better, and every core that gets
  /// `second`'s tiles gets at least `minShare` of it (thinner instructions
  /// cost as much: docs/LinalgToBir.md, "Tiles and cores").
  bool dealsBetter(int64_t first, int64_t firstTile, int64_t second,
                   int64_t secondTile, int64_t minShare = 1) const;

  /// A dimension whose tiles may go to the cores: its `size` in tiles of
  /// `tile`, each core that gets some getting at least `minShare`.
  struct DealCandidate {
    unsigned dim;
    int64_t size, tile, minShare = 1;
  };
  /// The dimension to deal: `base` unless one of `candidates` divides
  /// among the cores better (dealsBetter, each against the best so far).
  unsigned chooseDealt(const DealCandidate &base,
                       llvm::ArrayRef<DealCandidate> candidates) const;
  /// The fewest columns worth an instruction of its own (below them it
  /// costs about as much, docs/TimingModel.md): a matmult costs
  /// max(N, 64) cycles; a vector or scalar one a fixed 60 plus N.
  int64_t getMinMatmultColumns() const;
  int64_t getMinVectorColumns() const;

  /// A constant as an affine expression.
  mlir::AffineExpr constant(int64_t value) {
    return mlir::getAffineConstantExpr(value, getContext());
  }

  /// Runs `body` with instructions masked to the cores `first .. last`.
  void withCores(int64_t first, int64_t last, llvm::function_ref<void()> body);
  /// The shard id: the symbol every per-core expression is in.
  mlir::AffineExpr shardId() {
    return mlir::getAffineSymbolExpr(0, getContext());
  }

private:
  mlir::OpBuilder builder;
  mlir::OpBuilder memlocBuilder;
  int64_t lncSize;
  bir::TargetAttr target;
  int64_t instructionLimit;
  bool f64AsF32;
  int64_t numInstructions = 0;
  unsigned depth = 0;
  mlir::IntegerSet mask;
  llvm::StringSet<> names;
  /// Per name stem, the suffix to try first: uniquing stays linear.
  llvm::StringMap<unsigned> nextSuffix;
  /// The function body, and its last memory location (memlocs come before
  /// the first instruction, in creation order).
  mlir::Block *body;
  bir::MemlocOp lastMemloc;
  llvm::DenseMap<std::tuple<int64_t, int64_t, mlir::Type, unsigned>,
                 bir::MemlocOp>
      psumTiles;
};

} // namespace walrus::linalg_to_bir

#endif // WALRUS_CONVERSION_LINALGTOBIR_KERNELBUILDER_H

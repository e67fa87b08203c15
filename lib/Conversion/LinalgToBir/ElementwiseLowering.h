//===- ElementwiseLowering.h - Elementwise ops, tile by tile ----*- C++ -*-===//
//
// The elementwise lowering, open to the lowerings that fuse an elementwise
// op into their own nest (a matmul's epilogue): the op is classified once,
// then emitted one tile at a time, with some operands already in SBUF.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_ELEMENTWISELOWERING_H
#define WALRUS_CONVERSION_LINALGTOBIR_ELEMENTWISELOWERING_H

#include "Lowerings.h"

namespace walrus::linalg_to_bir {

/// How an operand's elements line up with the rows x columns view.
enum class Broadcast {
  None,          // element (r, c)
  AcrossRows,    // one row, the same for every row: element c
  AcrossColumns, // one value per row: element r
  Both,          // one value
};

/// A value of the body: a tile (from column `columnOffset` of each
/// partition), or a constant (an i64 or f64 immediate, see
/// bir::getImmediateAsDouble). A tile `acrossColumns` holds one value per
/// partition, read with free step 0 for every column.
struct Operand {
  bir::MemlocOp tile = {};
  mlir::Attribute constant = {};
  int64_t columnOffset = 0;
  bool acrossColumns = false;
  bool isConstant() const { return !tile; }
  mlir::Type getElementType() { return tile.getMemoryType().getElementType(); }
};

class ElementwiseLowering {
public:
  ElementwiseLowering(mlir::linalg::LinalgOp op, Lowering &lowering)
      : op(op), lowering(lowering), kernel(lowering.kernel) {}

  /// Lowers the whole op, tile by tile.
  mlir::LogicalResult run();

  /// Checks the op and reads its operands; run() does it first. `standalone`
  /// is run()'s: it stores every output (a generic -fuse-siblings merged)
  /// and may fold columns into partitions; the callers that compute the op
  /// tile by tile within their own nests take one output, rows as written.
  mlir::LogicalResult classifyOperands(bool standalone = false);
  /// Whether an input is the same for every row (broadcast across rows,
  /// or one value): loadRowBroadcasts can load it once for many row tiles.
  bool hasRowBroadcasts() const;
  /// Loads the inputs broadcast across rows for `columns` (up to 128
  /// partitions), once: emitTile then reads them from SBUF for every row
  /// tile whose columns lie at a constant offset inside `columns`.
  void loadRowBroadcasts(const ColumnTile &columns);
  /// Emits the body for one tile. `preloaded` operands (by block argument)
  /// are in SBUF already, from the operand's column offset: a matmul whose
  /// epilogue this op is holds its result there.
  mlir::LogicalResult
  emitTile(const RowTile &rows, const ColumnTile &columns,
           llvm::ArrayRef<std::pair<unsigned, Operand>> preloaded = {});

  /// Prepares the body for a caller that loads every memref operand itself
  /// (the general lowering, Generic.cpp), in tiles of at most `tileColumns`
  /// columns: scalar operands must be constants.
  mlir::LogicalResult prepareBody(int64_t tileColumns);
  /// Emits the body's instructions for one tile whose memref operands are
  /// all `preloaded`, and returns the yielded value. With `resultTile`, the
  /// instruction that computes the yielded value writes it there.
  mlir::FailureOr<Operand>
  computeTile(const RowTile &rows, const ColumnTile &columns,
              llvm::ArrayRef<std::pair<unsigned, Operand>> preloaded,
              bir::MemlocOp resultTile = {});
  /// computeTile's result as a full tile of the output's element type: a
  /// constant is set, one value per row spread across the columns, another
  /// type converted.
  mlir::FailureOr<Operand>
  computeFullTile(const RowTile &rows, const ColumnTile &columns,
                  llvm::ArrayRef<std::pair<unsigned, Operand>> preloaded = {});
  /// Columns per tile (classifyOperands chooses them).
  int64_t getTileColumns() const { return tileColumns; }
  /// Overrides the columns per tile: a nest that computes this op beside
  /// others shares SBUF among them.
  void setTileColumns(int64_t columns) { tileColumns = columns; }
  /// The SBUF bytes per column of one set of this op's tiles when
  /// `loadedInputs` of its inputs are loaded into tiles of their own (the
  /// others are in SBUF already): a tile per loaded input, per body value
  /// and for the result.
  int64_t getTileBytesPerColumn(unsigned loadedInputs);
  /// How the input of block argument `index` is broadcast; none for a
  /// scalar (after classifyOperands).
  std::optional<Broadcast> getBroadcast(unsigned index) const {
    if (index >= inputs.size() || !inputs[index])
      return std::nullopt;
    return inputs[index]->second;
  }
  /// The set of tiles the next tiles computed take (a caller rotating its
  /// own tiles: a reduction computing this op); markRotations marks them.
  void useBuffer(unsigned rotation) { buffer = rotation; }
  /// Marks the tiles of each value that rotate (bir.rotating = buffer).
  void markRotations();

private:
  /// The widest element type's bytes among the operands and body values.
  int64_t getWidestBytes();
  /// Columns per tile: `column-tile`, or by default the widest that lets
  /// the rotating sets of this op's tiles fit half of an SBUF partition.
  int64_t getVectorColumns();
  mlir::FailureOr<std::pair<DramTensor, Broadcast>>
  classifyTensorOperand(mlir::OpOperand &operand, const DramTensor &tensor,
                        unsigned rank);
  mlir::FailureOr<Operand> lower(mlir::Value value);
  mlir::FailureOr<Operand> lowerOp(mlir::Operation *scalar);
  /// The activation or ALU op one of the fused patterns (gelu, a clamp by
  /// a constant, sigmoid, silu) rooted at `scalar` lowers to, if it is one.
  std::optional<mlir::FailureOr<Operand>> lowerPattern(mlir::Operation *scalar);
  /// `scalar` as one instruction of its own kind.
  mlir::FailureOr<Operand> lowerSingle(mlir::Operation *scalar);
  /// The tile `value` (a body op's result from `operands`) is computed
  /// into: one column when every operand is one value per row (the
  /// result then is too), else a full tile.
  Operand resultTile(mlir::Value value, llvm::ArrayRef<Operand> operands);
  /// How an instruction computing `result` reads or writes `operand`: one
  /// column of each partition for a per-row result, else the tile.
  bir::AccessPatternAttr computePattern(const Operand &operand,
                                        const Operand &result);
  mlir::FailureOr<Operand> binary(mlir::Operation *scalar, bir::AluOp alu,
                                  bool commutative, Operand lhs, Operand rhs);
  /// The constant `value` as one value per row, set on its own one-column
  /// tile: an op of constants alone computes from there as it would from
  /// any other value (its result is one value per row).
  Operand setPerRow(mlir::Value value, const Operand &constant);
  /// `arith.cmpf` / `arith.cmpi` as a comparison on the vector engine,
  /// into a tile of bytes 1 or 0 (an i1 is a byte).
  mlir::FailureOr<Operand> compare(mlir::Operation *scalar);
  /// `arith.select` as a copy of its false side, then a copy of its true
  /// side where the condition is nonzero.
  mlir::FailureOr<Operand> select(mlir::Operation *scalar);
  /// `math.roundeven` as a conversion to i32 and back, through the
  /// value's scratch tiles; a source past 2^31 (an integer already), NaN or
  /// infinite is copied.
  mlir::FailureOr<Operand> roundToNearestEven(mlir::Operation *scalar,
                                              Operand source);
  /// Scratch tile `index` (below kScratchTiles) of `value`, a tile of
  /// `type` shaped as `like`: what an op of several instructions computes
  /// through.
  Operand scratchTile(mlir::Value value, unsigned index, mlir::Type type,
                      const Operand &like);
  static constexpr unsigned kScratchTiles = 2;
  /// Tiles per set the body's instructions take, scratch tiles included:
  /// one per op the yield reaches, a pattern (silu, gelu, a clamp) one.
  int64_t getBodyTiles();
  mlir::FailureOr<Operand> activation(mlir::Operation *scalar,
                                      bir::ActivationFunction function,
                                      Operand source);
  /// Loads one value per partition of `tensor` (Broadcast::AcrossColumns
  /// or Both) for the current row tile.
  Operand loadAcrossColumns(mlir::Value value, DramTensor tensor,
                            Broadcast broadcast);
  bir::MemlocOp tileFor(mlir::Value value, mlir::Type elementType,
                        llvm::StringRef stem = "t");
  bir::AccessPatternAttr tilePattern(bir::MemlocOp tile) {
    return kernel.tilePattern(tile, current.rows.partitions,
                              current.columns.columns);
  }
  bir::AccessPatternAttr tilePattern(const Operand &operand);
  bir::AccessPatternAttr dramPattern(const DramTensor &tensor,
                                     Broadcast broadcast);

  mlir::linalg::LinalgOp op;
  Lowering &lowering;
  KernelBuilder &kernel;
  int64_t rows = 1, columns = 1, tileColumns = 1;
  /// Per block argument: the DRAM tensor and how it is broadcast, or the
  /// constant a scalar operand holds.
  llvm::SmallVector<std::optional<std::pair<DramTensor, Broadcast>>> inputs;
  llvm::SmallVector<mlir::Attribute> scalars;
  /// Every output (run() stores each; the other callers take one).
  llvm::SmallVector<DramTensor, 1> outputs;
  /// Where the op has fewer rows than partitions and every operand is
  /// stored row after row in the op's shape, views each row as several
  /// (of at least kMinFoldedColumns columns), so that tiles fill more
  /// partitions: the engines then take fewer passes.
  void foldColumnsIntoPartitions();
  /// Starts a tile: no body value lowered yet.
  void beginTile(const RowTile &rows, const ColumnTile &columns,
                 llvm::ArrayRef<std::pair<unsigned, Operand>> preloaded);
  /// `result`, the lowered `yielded`, as a full tile of `elementType`.
  mlir::FailureOr<Operand> asFullTile(mlir::Value yielded,
                                      mlir::FailureOr<Operand> result,
                                      mlir::Type elementType);
  /// Per rotating buffer, a tile per value.
  using TileSets =
      llvm::SmallVector<llvm::DenseMap<mlir::Value, bir::MemlocOp>, 1>;
  /// The tile of each body value, shared by every tile emitted with the
  /// same buffer.
  TileSets tiles{1};
  /// The buffer of the tile being emitted.
  unsigned buffer = 0;
  /// `value`'s tile in `sets` for the current buffer (null until made).
  bir::MemlocOp &getSlot(TileSets &sets, mlir::Value value);
  /// What each value is in the tile being emitted.
  llvm::DenseMap<mlir::Value, Operand> values;
  llvm::ArrayRef<std::pair<unsigned, Operand>> preloadedNow;
  /// Passes over the current tile's body on the scalar and on the vector
  /// engine so far: a product by a constant goes to the one with fewer.
  int64_t scalarEngineOps = 0, vectorEngineOps = 0;
  /// Per rotating buffer and block argument loaded across columns: its
  /// one-column tile.
  TileSets columnTiles{1};
  /// Per `trunci` of the body: whether its value fits the narrower type.
  llvm::DenseMap<mlir::Operation *, bool> boundedTruncations;
  /// Per rotating buffer and value: its scratch tiles.
  TileSets scratchTiles[kScratchTiles] = {TileSets(1), TileSets(1)};
  /// Per block argument: the tile loadRowBroadcasts filled, and the
  /// columns it holds.
  llvm::DenseMap<unsigned, std::pair<bir::MemlocOp, ColumnTile>> rowBroadcasts;
  struct {
    RowTile rows;
    ColumnTile columns;
  } current;
};

} // namespace walrus::linalg_to_bir

#endif // WALRUS_CONVERSION_LINALGTOBIR_ELEMENTWISELOWERING_H

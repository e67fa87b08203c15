//===- HoistGathers.cpp - data-dependent reads become gathers -------------===//
//
// torch-mlir reads a tensor at rows a body computes: an EmbeddingBag sums
// `table[ids[j], e]` under a mask of its offsets, DLRM's interaction reads
// `z[0, rows[k], cols[k]]` at constant index lists. The read becomes a
// gather generic of its own, in the form Gather.cpp lowers
// (`table[index_cast(ids), linalg.index(last)]`), over the loops the row
// depends on; the body reads the gathered rows as an input (Passes.td,
// NormalizeLinalg).
//
//===----------------------------------------------------------------------===//

#include "NormalizePatterns.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace {
/// A read to hoist: the body ops computing its row, how many of its
/// leading indices address the row, and the loops the row reads
/// (ascending). The other index, if any, is the column: `linalg.index` of
/// a loop the row does not read.
struct GatherRead {
  SetVector<Operation *> rowSlice;
  unsigned numRowIndices = 0;
  SmallVector<unsigned> rowDims;
};

/// Whether `op` is already the gather Gather.cpp lowers: all parallel, one
/// input of ids, yielding `table[index_cast(ids), linalg.index(last)]`.
static bool isGatherForm(linalg::GenericOp op, tensor::ExtractOp extract) {
  unsigned rank = op.getNumLoops();
  if (op.getNumDpsInputs() != 1 || op.getNumDpsInits() != 1 || rank == 0 ||
      op.getNumParallelLoops() != rank ||
      op.getBody()->getTerminator()->getOperand(0) != extract.getResult() ||
      extract.getIndices().size() != 2)
    return false;
  auto cast = extract.getIndices()[0].getDefiningOp<arith::IndexCastOp>();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(rank, op.getContext());
  return cast && cast.getIn() == op.getBody()->getArgument(0) &&
         walrus::isLastLoopIndex(op, extract.getIndices()[1]) &&
         op.getIndexingMapsArray()[0] == identity.dropResult(rank - 1) &&
         op.getIndexingMapsArray()[1] == identity;
}

/// The body ops computing `indices`, and the loops they read, into `read`;
/// false where they read an init or are not pure. `readsInput` tells
/// whether they read an input.
static bool sliceRows(linalg::GenericOp op, ValueRange indices,
                      GatherRead &read, bool &readsInput) {
  Block *body = op.getBody();
  BackwardSliceOptions options;
  options.inclusive = true;
  options.filter = [&](Operation *inner) { return inner->getBlock() == body; };
  for (Value index : indices)
    if (Operation *def = index.getDefiningOp();
        def && def->getBlock() == body &&
        failed(getBackwardSlice(def, &read.rowSlice, options)))
      return false;
  llvm::SmallBitVector dims(op.getNumLoops());
  auto readArgument = [&](Value value) {
    auto argument = dyn_cast<BlockArgument>(value);
    if (!argument || argument.getOwner() != body)
      return true;
    if (argument.getArgNumber() >= op.getNumDpsInputs())
      return false;
    readsInput = true;
    op.getIndexingMapsArray()[argument.getArgNumber()].walkExprs(
        [&](AffineExpr expr) {
          if (auto dim = dyn_cast<AffineDimExpr>(expr))
            dims.set(dim.getPosition());
        });
    return true;
  };
  if (!llvm::all_of(indices, readArgument))
    return false;
  for (Operation *inner : read.rowSlice) {
    if (!isPure(inner) || inner->getNumRegions() ||
        !llvm::all_of(inner->getOperands(), readArgument))
      return false;
    if (auto index = dyn_cast<linalg::IndexOp>(inner))
      dims.set(index.getDim());
  }
  read.numRowIndices = indices.size();
  read.rowDims.assign(dims.set_bits_begin(), dims.set_bits_end());
  return true;
}

/// The read `extract` of a tensor defined outside `op`, at rows computed
/// from inputs and indices alone, else nullopt.
static std::optional<GatherRead> matchGatherRead(linalg::GenericOp op,
                                                 tensor::ExtractOp extract) {
  auto type = dyn_cast<RankedTensorType>(extract.getTensor().getType());
  if (!type || !type.hasStaticShape() || type.getRank() == 0 ||
      op.getRegion().isAncestor(extract.getTensor().getParentRegion()) ||
      isGatherForm(op, extract))
    return std::nullopt;
  ValueRange indices = extract.getIndices();
  GatherRead read;
  bool readsInput = false;
  if (!sliceRows(op, indices.drop_back(), read, readsInput))
    return std::nullopt;
  auto column = indices.back().getDefiningOp<linalg::IndexOp>();
  if (!column || type.getRank() == 1 ||
      llvm::is_contained(read.rowDims, column.getDim())) {
    // Rows of one element: every index addresses the row.
    read = GatherRead();
    if (!sliceRows(op, indices, read, readsInput))
      return std::nullopt;
  }
  // Rows of the indices alone that are loops, or fit an affine map, are a
  // window (IndexFunctions.cpp, tried first); those that do not are
  // gathered too (an upsample's source rows).
  bool loopsAlone = llvm::all_of(indices, [](Value index) {
    return index.getDefiningOp<linalg::IndexOp>();
  });
  if (read.rowDims.empty() || (!readsInput && loopsAlone))
    return std::nullopt;
  return read;
}

/// The row ids `read` addresses, one i64 per iteration of its row loops,
/// in rows of the table flattened to `[rows, width]`: the input itself
/// where the row is `index_cast` of one, else a generic computing them.
static Value buildIds(PatternRewriter &rewriter, linalg::GenericOp op,
                      tensor::ExtractOp extract, const GatherRead &read,
                      ArrayRef<int64_t> loopSizes) {
  Location loc = extract.getLoc();
  Block *body = op.getBody();
  MLIRContext *context = op.getContext();
  unsigned numDims = read.rowDims.size();
  SmallVector<AffineExpr> newDims(op.getNumLoops(),
                                  getAffineConstantExpr(0, context));
  for (auto [position, dim] : llvm::enumerate(read.rowDims))
    newDims[dim] = getAffineDimExpr(position, context);
  auto inputMap = [&](BlockArgument argument) {
    return op.getIndexingMapsArray()[argument.getArgNumber()]
        .replaceDimsAndSymbols(newDims, {}, numDims, 0);
  };
  AffineMap identity = AffineMap::getMultiDimIdentityMap(numDims, context);
  Value row = extract.getIndices().front();
  if (auto cast = row.getDefiningOp<arith::IndexCastOp>();
      cast && read.numRowIndices == 1)
    if (auto argument = dyn_cast<BlockArgument>(cast.getIn());
        argument && argument.getOwner() == body &&
        inputMap(argument) == identity)
      return op.getDpsInputs()[argument.getArgNumber()];

  SetVector<BlockArgument> arguments;
  auto collect = [&](Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value);
        argument && argument.getOwner() == body)
      arguments.insert(argument);
  };
  for (Operation *inner : read.rowSlice)
    llvm::for_each(inner->getOperands(), collect);
  llvm::for_each(extract.getIndices().take_front(read.numRowIndices), collect);
  SmallVector<Value> inputs;
  SmallVector<AffineMap> maps;
  for (BlockArgument argument : arguments) {
    inputs.push_back(op.getDpsInputs()[argument.getArgNumber()]);
    maps.push_back(inputMap(argument));
  }
  maps.push_back(identity);
  SmallVector<int64_t> shape;
  for (unsigned dim : read.rowDims)
    shape.push_back(loopSizes[dim]);
  Type i64 = rewriter.getI64Type();
  Value init = tensor::EmptyOp::create(rewriter, loc, shape, i64);
  ArrayRef<int64_t> tableShape =
      cast<RankedTensorType>(extract.getTensor().getType()).getShape();
  auto ids = linalg::GenericOp::create(
      rewriter, loc, init.getType(), inputs, init, maps,
      SmallVector<utils::IteratorType>(numDims, utils::IteratorType::parallel),
      [&](OpBuilder &builder, Location, ValueRange newArguments) {
        IRMapping mapping;
        for (auto [argument, newArgument] : llvm::zip(arguments, newArguments))
          mapping.map(argument, newArgument);
        for (Operation &inner : body->without_terminator()) {
          if (!read.rowSlice.contains(&inner))
            continue;
          if (auto index = dyn_cast<linalg::IndexOp>(inner))
            mapping.map(index.getResult(),
                        linalg::IndexOp::create(
                            builder, loc,
                            llvm::find(read.rowDims, index.getDim()) -
                                read.rowDims.begin()));
          else
            builder.clone(inner, mapping);
        }
        // Row-major over the row indices, in i64 (an index_cast of an i64
        // input reads it as it is): the flattened table's row.
        Value linear;
        for (unsigned k = 0; k < read.numRowIndices; ++k) {
          Value index = arith::IndexCastOp::create(
              builder, loc, i64,
              mapping.lookupOrDefault(extract.getIndices()[k]));
          if (!linear) {
            linear = index;
            continue;
          }
          Value extent =
              arith::ConstantIntOp::create(builder, loc, i64, tableShape[k]);
          linear = arith::AddIOp::create(
              builder, loc, arith::MulIOp::create(builder, loc, linear, extent),
              index);
        }
        linalg::YieldOp::create(builder, loc, linear);
      });
  return ids.getResult(0);
}

/// The table `extract` reads as `[rows, width]`, width its last extent
/// where the last index is a column, else 1.
static Value flattenTable(PatternRewriter &rewriter, tensor::ExtractOp extract,
                          const GatherRead &read, int64_t rows, int64_t width) {
  Value table = extract.getTensor();
  auto type = cast<RankedTensorType>(table.getType());
  if (type.getRank() == 2 && read.numRowIndices == 1)
    return table;
  Location loc = extract.getLoc();
  if (type.getRank() > 1) {
    SmallVector<ReassociationIndices> all(1);
    for (int64_t dim = 0; dim < type.getRank(); ++dim)
      all.front().push_back(dim);
    table = tensor::CollapseShapeOp::create(rewriter, loc, table, all);
  }
  auto flat = RankedTensorType::get({rows, width}, type.getElementType());
  return tensor::ExpandShapeOp::create(rewriter, loc, flat, table,
                                       {ReassociationIndices{0, 1}});
}

/// A generic's `tensor.extract` at computed rows (matchGatherRead) becomes
/// an input: the rows gathered by a generic of Gather.cpp's form, over the
/// loops the row reads and the column. Tried after IndexFunctions' windows
/// (a lower benefit): an affine read stays a window.
struct HoistGather : OpRewritePattern<linalg::GenericOp> {
  HoistGather(MLIRContext *context)
      : OpRewritePattern(context, /*benefit=*/0) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics() || !op.getShapesToLoopsMap())
      return rewriter.notifyMatchFailure(op, "loops without sizes");
    SmallVector<int64_t> loopSizes = op.getStaticLoopRanges();
    if (llvm::any_of(loopSizes, ShapedType::isDynamic))
      return rewriter.notifyMatchFailure(op, "not static tensors");
    for (auto extract : op.getBody()->getOps<tensor::ExtractOp>()) {
      std::optional<GatherRead> read = matchGatherRead(op, extract);
      if (!read)
        continue;
      auto type = cast<RankedTensorType>(extract.getTensor().getType());
      bool hasColumn = read->numRowIndices < type.getRank();
      int64_t width = hasColumn ? type.getShape().back() : 1;
      // The shape is the input's: its rows are a checked product, and an
      // empty table has no row to read.
      std::optional<int64_t> rows = 1;
      for (int64_t extent : type.getShape().take_front(read->numRowIndices))
        rows = rows ? llvm::checkedMul(*rows, extent) : std::nullopt;
      if (!rows || *rows == 0 || width == 0 || !llvm::checkedMul(*rows, width))
        continue;
      rewriter.setInsertionPoint(op);
      Value ids = buildIds(rewriter, op, extract, *read, loopSizes);
      Value table = flattenTable(rewriter, extract, *read, *rows, width);
      SmallVector<int64_t> shape(cast<ShapedType>(ids.getType()).getShape());
      shape.push_back(width);
      unsigned rank = shape.size();
      Location loc = extract.getLoc();
      Value init =
          tensor::EmptyOp::create(rewriter, loc, shape, type.getElementType());
      AffineMap identity =
          AffineMap::getMultiDimIdentityMap(rank, op.getContext());
      auto gather = linalg::GenericOp::create(
          rewriter, loc, init.getType(), ids, init,
          {identity.dropResult(rank - 1), identity},
          SmallVector<utils::IteratorType>(rank, utils::IteratorType::parallel),
          [&](OpBuilder &builder, Location, ValueRange arguments) {
            Value row = arith::IndexCastOp::create(
                builder, loc, builder.getIndexType(), arguments[0]);
            Value column = linalg::IndexOp::create(builder, loc, rank - 1);
            linalg::YieldOp::create(
                builder, loc,
                tensor::ExtractOp::create(builder, loc, table,
                                          ValueRange{row, column})
                    .getResult());
          });
      SmallVector<AffineExpr> results;
      for (unsigned dim : read->rowDims)
        results.push_back(rewriter.getAffineDimExpr(dim));
      AffineExpr column = rewriter.getAffineConstantExpr(0);
      if (hasColumn)
        column = rewriter.getAffineDimExpr(extract.getIndices()
                                               .back()
                                               .getDefiningOp<linalg::IndexOp>()
                                               .getDim());
      results.push_back(column);
      AffineMap map =
          AffineMap::get(op.getNumLoops(), 0, results, op.getContext());
      Value rowsRead = extract.getResult();
      BlockArgument argument =
          walrus::addGenericInputs(rewriter, op, gather.getResult(0), map)[0];
      rewriter.replaceOp(rowsRead.getDefiningOp(), argument);
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no gathered read");
  }
};
/// Whether `expr` is linear in the loops (sums and products by constants)
/// and decreases along one of them (a reverse: `15 - d1`).
static bool walksBackwards(AffineExpr expr, unsigned numDims) {
  bool linear = true;
  expr.walk([&](AffineExpr inner) {
    if (inner.getKind() == AffineExprKind::Mod ||
        inner.getKind() == AffineExprKind::FloorDiv ||
        inner.getKind() == AffineExprKind::CeilDiv ||
        isa<AffineSymbolExpr>(inner))
      linear = false;
  });
  if (!linear || !expr.isPureAffine())
    return false;
  MLIRContext *context = expr.getContext();
  // Linear: the value at the origin, and at one step along each loop.
  auto valueAt = [&](std::optional<unsigned> one) -> std::optional<int64_t> {
    SmallVector<AffineExpr> values;
    for (unsigned dim = 0; dim < numDims; ++dim)
      values.push_back(getAffineConstantExpr(dim == one ? 1 : 0, context));
    auto value =
        dyn_cast<AffineConstantExpr>(expr.replaceDimsAndSymbols(values, {}));
    return value ? std::optional<int64_t>(value.getValue()) : std::nullopt;
  };
  std::optional<int64_t> origin = valueAt(std::nullopt);
  for (unsigned dim = 0; origin && dim < numDims; ++dim)
    if (std::optional<int64_t> step = valueAt(dim); step && *step < *origin)
      return true;
  return false;
}

/// `expr` of the loops as index arithmetic in a body.
static Value materialize(OpBuilder &builder, Location loc, AffineExpr expr) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return linalg::IndexOp::create(builder, loc, dim.getPosition());
  if (auto constant = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(builder, loc, constant.getValue());
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = materialize(builder, loc, binary.getLHS());
  Value rhs = materialize(builder, loc, binary.getRHS());
  if (expr.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  return arith::MulIOp::create(builder, loc, lhs, rhs);
}

/// An input read through a map that walks backwards (StableHLO's reverse:
/// `(i, j) -> (i, 15 - j)`) becomes a `tensor.extract` at those indices in
/// the body, which HoistGather gathers: the lowering reads maps forwards
/// only.
struct ReadBackwardsInBody : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.hasPureTensorSemantics())
      return rewriter.notifyMatchFailure(op, "not on tensors");
    for (OpOperand *input : op.getDpsInputOperands()) {
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!llvm::any_of(map.getResults(), [&](AffineExpr result) {
            return walksBackwards(result, map.getNumDims());
          }))
        continue;
      unsigned position = input->getOperandNumber();
      SmallVector<Value> inputs(op.getDpsInputs());
      inputs.erase(inputs.begin() + position);
      SmallVector<AffineMap> maps = op.getIndexingMapsArray();
      maps.erase(maps.begin() + position);
      // Every loop keeps a size from the maps that remain.
      if (!inversePermutation(concatAffineMaps(maps, op.getContext())))
        continue;
      linalg::GenericOp rewritten =
          walrus::withInputs(rewriter, op, inputs, maps);
      Block *body = rewritten.getBody();
      rewriter.setInsertionPointToStart(body);
      SmallVector<Value> indices;
      for (AffineExpr result : map.getResults())
        indices.push_back(materialize(rewriter, op.getLoc(), result));
      Value read = tensor::ExtractOp::create(rewriter, op.getLoc(),
                                             input->get(), indices);
      rewriter.replaceAllUsesWith(body->getArgument(position), read);
      body->eraseArgument(position);
      rewriter.replaceOp(op, rewritten->getResults());
      return success();
    }
    return rewriter.notifyMatchFailure(op, "no input read backwards");
  }
};
} // namespace

void walrus::populateHoistGatherPatterns(RewritePatternSet &patterns) {
  patterns.add<HoistGather, ReadBackwardsInBody>(patterns.getContext());
}

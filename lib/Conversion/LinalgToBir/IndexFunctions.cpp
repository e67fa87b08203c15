//===- IndexFunctions.cpp - body values of a generic's indices alone ------===//
//
// torch-mlir computes masks, window bounds and divisors from `linalg.index`
// inside the bodies that use them: the causal mask's `cmpi` of two indices,
// adaptive pooling's windows (`floordivsi` of index products, a
// `tensor.extract` at the window's start, the window's element count).
// These values are known at compile time: each is tabulated over the loops
// it reads, element by element with upstream's folders (what the CPU
// computes), and the body reads the table as an input instead
// (Passes.td, NormalizeLinalg).
//
//===----------------------------------------------------------------------===//

#include "NormalizePatterns.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;

namespace {
/// Elements a table may hold: torch.arange's position ids and a causal
/// mask are a sequence's length (squared); a larger table is better
/// computed.
constexpr int64_t kMaxTableElements = int64_t(1) << 20;

/// A body value over the loops it reads: `dims` ascending, `elements`
/// row-major over `shape` (the loops' sizes).
struct Table {
  SmallVector<unsigned> dims;
  SmallVector<int64_t> shape;
  SmallVector<Attribute> elements;
};

/// The size of each of `op`'s loops, dynamic where its shapes do not say
/// (upstream's getStaticLoopRanges needs an invertible map).
static SmallVector<int64_t> getLoopSizes(linalg::GenericOp op) {
  if (!op.getShapesToLoopsMap())
    return SmallVector<int64_t>(op.getNumLoops(), ShapedType::kDynamic);
  return op.getStaticLoopRanges();
}

/// The values of a generic's body that are functions of its indices and
/// constants alone, with the loops each reads.
class IndexFunctions {
public:
  /// With `readConstants`, an input that is a dense constant counts as a
  /// function of the loops its map reads (a RoPE table's frequencies).
  explicit IndexFunctions(linalg::GenericOp op, walrus::FoldBudget &budget,
                          bool readConstants = false)
      : body(op.getBody()), loopSizes(getLoopSizes(op)), budget(budget) {
    for (OpOperand *input : readConstants ? op.getDpsInputOperands()
                                          : SmallVector<OpOperand *>()) {
      DenseElementsAttr elements;
      AffineMap map = op.getMatchingIndexingMap(input);
      if (!matchPattern(input->get(), m_Constant(&elements)))
        continue;
      llvm::SmallBitVector reads(loopSizes.size());
      for (unsigned dim = 0; dim < map.getNumDims(); ++dim)
        reads[dim] = map.isFunctionOfDim(dim);
      BlockArgument argument = op.getMatchingBlockArgument(input);
      dims[argument] = reads;
      constants[argument] = {elements, map};
    }
    for (Operation &inner : body->without_terminator()) {
      if (inner.getNumResults() != 1 || inner.getNumRegions() != 0 ||
          !isMemoryEffectFree(&inner))
        continue;
      llvm::SmallBitVector reads(loopSizes.size());
      if (auto index = dyn_cast<linalg::IndexOp>(inner))
        reads.set(index.getDim());
      bool known = true;
      for (Value operand : inner.getOperands()) {
        auto found = dims.find(operand);
        if (found != dims.end())
          reads |= found->second;
        else if (!matchPattern(operand, m_Constant()))
          known = false;
      }
      if (known)
        dims[inner.getResult(0)] = reads;
    }
  }

  /// Whether `value` is computed in the body from indices and constants.
  bool contains(Value value) const { return dims.contains(value); }

  /// Whether `value` reads any loop index.
  bool readsIndices(Value value) const {
    auto found = dims.find(value);
    return found != dims.end() && found->second.any();
  }

  /// `value` over the loops it reads, or nullopt where a loop is dynamic,
  /// the table would pass `kMaxTableElements`, or an op does not fold.
  std::optional<Table> tabulate(Value value) const {
    Table table;
    std::optional<int64_t> size = int64_t(1);
    for (unsigned dim : dims.lookup(value).set_bits()) {
      int64_t loop = loopSizes[dim];
      size = size && !ShapedType::isDynamic(loop)
                 ? llvm::checkedMul(*size, loop)
                 : std::nullopt;
      table.dims.push_back(dim);
      table.shape.push_back(loop);
    }
    SmallVector<Operation *> slice = sliceOf(value);
    if (!size || *size == 0 || *size > kMaxTableElements ||
        !spend(*size, slice.size()))
      return std::nullopt;
    SmallVector<int64_t> strides = computeStrides(table.shape);
    SmallVector<int64_t> point(loopSizes.size(), 0);
    table.elements.reserve(*size);
    for (int64_t element = 0; element < *size; ++element) {
      SmallVector<int64_t> at = delinearize(element, strides);
      for (auto [dim, index] : llvm::zip_equal(table.dims, at))
        point[dim] = index;
      Attribute folded = evaluate(slice, value, point);
      if (!folded)
        return std::nullopt;
      table.elements.push_back(folded);
    }
    return table;
  }

  /// Whether `elements` evaluations of a slice of `ops` fit in what is left
  /// of the pass's budget, which they then use.
  bool spend(int64_t elements, size_t ops) const {
    std::optional<int64_t> folds = llvm::checkedMul(elements, int64_t(ops) + 1);
    if (!folds || *folds > budget.remaining)
      return false;
    budget.remaining -= *folds;
    return true;
  }

  /// `value` at `point` (an index per loop), or null where an op does not
  /// fold.
  Attribute evaluate(ArrayRef<Operation *> slice, Value value,
                     ArrayRef<int64_t> point) const {
    DenseMap<Value, Attribute> known;
    auto lookup = [&](Value operand) -> Attribute {
      if (Attribute attr = known.lookup(operand))
        return attr;
      if (auto input = constants.find(operand); input != constants.end())
        return readConstant(input->second, point);
      Attribute constant;
      matchPattern(operand, m_Constant(&constant));
      return constant;
    };
    for (Operation *inner : slice) {
      Value result = inner->getResult(0);
      if (auto index = dyn_cast<linalg::IndexOp>(inner)) {
        known[result] = IntegerAttr::get(IndexType::get(inner->getContext()),
                                         point[index.getDim()]);
        continue;
      }
      SmallVector<Attribute> operands;
      for (Value operand : inner->getOperands())
        operands.push_back(lookup(operand));
      SmallVector<OpFoldResult> folded;
      if (llvm::is_contained(operands, Attribute()) ||
          failed(inner->fold(operands, folded)) || folded.size() != 1)
        return {};
      if (auto attr = dyn_cast_if_present<Attribute>(folded.front()))
        known[result] = attr;
      else
        known[result] = lookup(cast<Value>(folded.front()));
    }
    return lookup(value);
  }

  /// The body ops `value` is computed by, in order: what evaluating it
  /// folds (upstream's backward slice, within the values of indices).
  SmallVector<Operation *> sliceOf(Value value) const {
    BackwardSliceOptions options;
    options.inclusive = true;
    options.filter = [&](Operation *inner) {
      return inner->getBlock() == body && inner->getNumResults() == 1 &&
             contains(inner->getResult(0));
    };
    SetVector<Operation *> slice;
    if (failed(getBackwardSlice(value, &slice, options)))
      return {};
    return slice.takeVector();
  }

private:
  struct ConstantInput {
    DenseElementsAttr elements;
    AffineMap map;
  };

  /// The element of `input` its map reads at `point`.
  static Attribute readConstant(const ConstantInput &input,
                                ArrayRef<int64_t> point) {
    SmallVector<int64_t> index = input.map.compose(point);
    ArrayRef<int64_t> shape = input.elements.getType().getShape();
    int64_t flat = 0;
    for (auto [position, extent] : llvm::zip_equal(index, shape)) {
      if (position < 0 || position >= extent)
        return {};
      flat = flat * extent + position;
    }
    auto values = input.elements.getValues<Attribute>();
    return *std::next(values.begin(), input.elements.isSplat() ? 0 : flat);
  }

  Block *body;
  SmallVector<int64_t> loopSizes;
  walrus::FoldBudget &budget;
  DenseMap<Value, llvm::SmallBitVector> dims;
  DenseMap<Value, ConstantInput> constants;
};

/// `table` without the loops its elements do not vary along (a window's
/// element count that is 1 everywhere reads no loop at all).
static void dropUniformDims(Table &table) {
  for (int64_t position = table.dims.size() - 1; position >= 0; --position) {
    SmallVector<int64_t> strides = computeStrides(table.shape);
    int64_t stride = strides[position];
    int64_t extent = table.shape[position];
    bool uniform = true;
    for (int64_t element = 0, e = table.elements.size(); element < e && uniform;
         ++element)
      uniform = table.elements[element] ==
                table.elements[element - (element / stride % extent) * stride];
    if (!uniform)
      continue;
    SmallVector<Attribute> kept;
    for (int64_t element = 0, e = table.elements.size(); element < e; ++element)
      if (element / stride % extent == 0)
        kept.push_back(table.elements[element]);
    table.elements = std::move(kept);
    table.dims.erase(table.dims.begin() + position);
    table.shape.erase(table.shape.begin() + position);
  }
}

/// The affine function of the loops that `table` (of indices) holds, with
/// its least and greatest value, or nullopt where it is not one.
struct AffineIndex {
  AffineExpr expr;
  int64_t least, greatest;
};
static std::optional<AffineIndex> fitAffine(const Table &table,
                                            MLIRContext *context) {
  auto valueAt = [&](int64_t element) {
    return cast<IntegerAttr>(table.elements[element]).getInt();
  };
  SmallVector<int64_t> strides = computeStrides(table.shape);
  int64_t offset = valueAt(0);
  SmallVector<int64_t> slopes;
  AffineIndex fit{getAffineConstantExpr(offset, context), offset, offset};
  for (auto [position, dim] : llvm::enumerate(table.dims)) {
    // A loop of one iteration keeps slope 1: the map still names it (a
    // loop's size comes from the maps that name it).
    std::optional<int64_t> slope =
        table.shape[position] > 1
            ? llvm::checkedSub(valueAt(strides[position]), offset)
            : std::optional<int64_t>(1);
    // The lowering reads forwards only: a flip's `n - 1 - i` is gathered
    // (HoistGathers.cpp).
    if (!slope || *slope < 0)
      return std::nullopt;
    slopes.push_back(*slope);
    fit.expr = fit.expr + getAffineDimExpr(dim, context) * *slope;
  }
  for (int64_t element = 0, e = table.elements.size(); element < e; ++element) {
    SmallVector<int64_t> at = delinearize(element, strides);
    std::optional<int64_t> expected = offset;
    for (auto [slope, index] : llvm::zip_equal(slopes, at)) {
      std::optional<int64_t> step = llvm::checkedMul(slope, index);
      expected =
          expected && step ? llvm::checkedAdd(*expected, *step) : std::nullopt;
    }
    if (!expected || *expected != valueAt(element))
      return std::nullopt;
    fit.least = std::min(fit.least, *expected);
    fit.greatest = std::max(fit.greatest, *expected);
  }
  return fit;
}

/// Whether `op` is a generic of its indices alone: it reads no init and
/// no input but those `functions` knows (dense constants, where it reads
/// them), and every value it yields is computed from indices and constants
/// (FoldIndexGeneric's domain).
static bool isIndexGeneric(linalg::GenericOp op,
                           const IndexFunctions &functions) {
  auto unread = [&](OpOperand &operand) {
    BlockArgument argument = op.getMatchingBlockArgument(&operand);
    return argument.use_empty() || functions.contains(argument);
  };
  return llvm::all_of(op->getOpOperands(), unread) &&
         llvm::all_of(op.getBody()->getTerminator()->getOperands(),
                      [&](Value yielded) {
                        return functions.contains(yielded) ||
                               matchPattern(yielded, m_Constant());
                      });
}

/// A generic of its indices alone (torch.arange: `index_cast(linalg.index
/// 0)`; adaptive pooling's window counts) becomes the constant it
/// computes. Where it reduces, each element is the last iteration's value:
/// the body never reads what it accumulated.
struct FoldIndexGeneric : OpRewritePattern<linalg::GenericOp> {
  FoldIndexGeneric(MLIRContext *context, walrus::FoldBudget &budget)
      : OpRewritePattern(context), budget(budget) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    IndexFunctions functions(op, budget, /*readConstants=*/true);
    if (op->getNumResults() != 1 || !isIndexGeneric(op, functions))
      return rewriter.notifyMatchFailure(op, "not a generic of its indices");
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    AffineMap map = op.getMatchingIndexingMap(op.getDpsInitOperand(0));
    SmallVector<int64_t> loops = getLoopSizes(op);
    // The shape is the input's: its product is checked, not wrapped.
    std::optional<int64_t> size = int64_t(1);
    for (int64_t dim : type ? type.getShape() : ArrayRef<int64_t>())
      size = size && !ShapedType::isDynamic(dim) ? llvm::checkedMul(*size, dim)
                                                 : std::nullopt;
    if (!type || !size || *size > kMaxTableElements ||
        !map.isProjectedPermutation(/*allowZeroInResults=*/false) ||
        llvm::any_of(loops, ShapedType::isDynamic) ||
        llvm::is_contained(loops, 0))
      return rewriter.notifyMatchFailure(op, "not a table to fold");
    Value yielded = op.getBody()->getTerminator()->getOperand(0);
    SmallVector<Operation *> slice = functions.sliceOf(yielded);
    if (!functions.spend(*size, slice.size()))
      return rewriter.notifyMatchFailure(op, "past the pass's fold budget");
    SmallVector<int64_t> strides = computeStrides(type.getShape());
    SmallVector<int64_t> point;
    for (int64_t loop : loops)
      point.push_back(loop - 1);
    SmallVector<Attribute> elements;
    elements.reserve(*size);
    for (int64_t element = 0; element < *size; ++element) {
      for (auto [result, index] :
           llvm::zip_equal(map.getResults(), delinearize(element, strides)))
        point[cast<AffineDimExpr>(result).getPosition()] = index;
      Attribute value = functions.evaluate(slice, yielded, point);
      if (!value)
        return rewriter.notifyMatchFailure(op, "a body op does not fold");
      elements.push_back(value);
    }
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, DenseElementsAttr::get(type, elements));
    return success();
  }

private:
  walrus::FoldBudget &budget;
};

/// A value of indices alone that a body computes and uses with its data (a
/// causal mask's `cmpi`, a window's bounds or element count) is read from
/// a constant table over the loops it varies along; a `tensor.extract` at
/// indices that are an affine function of the loops (a window's element)
/// becomes an input read at that map.
struct HoistIndexValues : OpRewritePattern<linalg::GenericOp> {
  HoistIndexValues(MLIRContext *context, walrus::FoldBudget &budget)
      : OpRewritePattern(context), budget(budget) {}

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    IndexFunctions functions(op, budget);
    if (isIndexGeneric(op, functions))
      return rewriter.notifyMatchFailure(op, "folds whole");
    // The values the body reads as new inputs, at their maps.
    SmallVector<Value> replaced, inputs;
    SmallVector<AffineMap> maps;
    bool changed = false;
    rewriter.setInsertionPoint(op);
    for (Operation &inner : op.getBody()->without_terminator()) {
      if (auto extract = dyn_cast<tensor::ExtractOp>(inner)) {
        if (std::optional<AffineMap> map =
                getWindowMap(op, extract, functions)) {
          replaced.push_back(extract);
          inputs.push_back(extract.getTensor());
          maps.push_back(*map);
        }
        continue;
      }
      if (inner.getNumResults() != 1 ||
          !isHoisted(inner.getResult(0), functions))
        continue;
      Value value = inner.getResult(0);
      std::optional<Table> table = functions.tabulate(value);
      if (!table)
        continue;
      dropUniformDims(*table);
      if (table->dims.empty()) {
        // One value everywhere: a constant, not a table.
        rewriter.replaceAllUsesWith(
            value, arith::ConstantOp::create(
                       rewriter, op.getLoc(),
                       cast<TypedAttr>(table->elements.front())));
        changed = true;
        continue;
      }
      auto type = RankedTensorType::get(table->shape, value.getType());
      replaced.push_back(value);
      inputs.push_back(arith::ConstantOp::create(
          rewriter, op.getLoc(),
          DenseElementsAttr::get(type, table->elements)));
      SmallVector<AffineExpr> results;
      for (unsigned dim : table->dims)
        results.push_back(rewriter.getAffineDimExpr(dim));
      maps.push_back(
          AffineMap::get(op.getNumLoops(), 0, results, rewriter.getContext()));
    }
    if (inputs.empty())
      return success(changed);
    SmallVector<BlockArgument> arguments =
        walrus::addGenericInputs(rewriter, op, inputs, maps);
    for (auto [value, argument] : llvm::zip_equal(replaced, arguments))
      rewriter.replaceAllUsesWith(value, argument);
    return success();
  }

private:
  /// Whether `value` is one to tabulate: a function of the indices (not a
  /// constant) that a data op or the yield reads, and not an index (those
  /// address a `tensor.extract`, handled as a window).
  static bool isHoisted(Value value, const IndexFunctions &functions) {
    if (!functions.readsIndices(value) || value.getType().isIndex())
      return false;
    return llvm::any_of(value.getUsers(), [&](Operation *user) {
      return user->getNumResults() != 1 ||
             !functions.contains(user->getResult(0));
    });
  }

  /// The map at which `extract` reads its tensor when every index is an
  /// affine function of the loops that stays in bounds (checked over every
  /// iteration), else nullopt.
  static std::optional<AffineMap>
  getWindowMap(linalg::GenericOp op, tensor::ExtractOp extract,
               const IndexFunctions &functions) {
    auto type = dyn_cast<RankedTensorType>(extract.getTensor().getType());
    if (!type || !type.hasStaticShape() ||
        op.getRegion().isAncestor(extract.getTensor().getParentRegion()))
      return std::nullopt;
    SmallVector<AffineExpr> results;
    for (auto [index, extent] :
         llvm::zip_equal(extract.getIndices(), type.getShape())) {
      std::optional<Table> table;
      if (functions.contains(index))
        table = functions.tabulate(index);
      std::optional<AffineIndex> fit =
          table ? fitAffine(*table, op.getContext()) : std::nullopt;
      if (!fit || fit->least < 0 || fit->greatest >= extent)
        return std::nullopt;
      results.push_back(fit->expr);
    }
    return AffineMap::get(op.getNumLoops(), 0, results, op.getContext());
  }

  walrus::FoldBudget &budget;
};

/// A generic whose results are computed apart (each yield reads no other
/// result's init: adaptive pooling's sum beside its window count) becomes
/// one generic per result, so each is matched, folded or dropped alone.
struct SplitIndependentResults : OpRewritePattern<linalg::GenericOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(linalg::GenericOp op,
                                PatternRewriter &rewriter) const override {
    Block *body = op.getBody();
    if (op->getNumResults() < 2 || !op.hasPureTensorSemantics() ||
        llvm::any_of(body->getOperations(),
                     [](Operation &inner) { return inner.getNumRegions(); }))
      return rewriter.notifyMatchFailure(op, "not several tensor results");
    auto yielded = body->getTerminator()->getOperands();
    SmallVector<SetVector<Operation *>> slices(op->getNumResults());
    for (auto [result, value] : llvm::enumerate(yielded)) {
      BackwardSliceOptions options;
      options.filter = [&](Operation *inner) {
        return inner->getBlock() == body;
      };
      options.inclusive = true;
      if (Operation *def = value.getDefiningOp();
          def && def->getBlock() == body &&
          failed(getBackwardSlice(def, &slices[result], options)))
        return rewriter.notifyMatchFailure(op, "no slice");
      // The values the slice reads: no other result's init.
      SmallVector<Value> read{value};
      for (Operation *inner : slices[result])
        llvm::append_range(read, inner->getOperands());
      for (Value operand : read) {
        auto argument = dyn_cast<BlockArgument>(operand);
        if (argument && argument.getOwner() == body &&
            argument.getArgNumber() >= op.getNumDpsInputs() &&
            argument.getArgNumber() != op.getNumDpsInputs() + result)
          return rewriter.notifyMatchFailure(op, "results read each other");
      }
    }
    // Each generic reads the other results' inits too, unused, so that
    // every loop keeps a size (upstream's erase patterns drop those that
    // are not needed for one).
    SmallVector<AffineMap> allMaps = op.getIndexingMapsArray();
    unsigned numInputs = op.getNumDpsInputs();
    SmallVector<Value> results;
    for (auto [index, init] : llvm::enumerate(op.getDpsInits())) {
      unsigned result = index;
      SmallVector<Value> inputs(op.getDpsInputs());
      SmallVector<AffineMap> maps(allMaps.begin(), allMaps.begin() + numInputs);
      for (auto [other, otherInit] : llvm::enumerate(op.getDpsInits()))
        if (other != result) {
          inputs.push_back(otherInit);
          maps.push_back(allMaps[numInputs + other]);
        }
      maps.push_back(allMaps[numInputs + result]);
      auto single = linalg::GenericOp::create(
          rewriter, op.getLoc(), op->getResult(result).getType(), inputs, init,
          maps, op.getIteratorTypesArray(),
          [&](OpBuilder &builder, Location, ValueRange arguments) {
            IRMapping mapping;
            for (unsigned input = 0; input < numInputs; ++input)
              mapping.map(body->getArgument(input), arguments[input]);
            mapping.map(body->getArgument(numInputs + result),
                        arguments.back());
            for (Operation &inner : body->without_terminator())
              if (slices[result].contains(&inner))
                builder.clone(inner, mapping);
            linalg::YieldOp::create(builder, op.getLoc(),
                                    mapping.lookupOrDefault(yielded[result]));
          });
      results.push_back(single->getResult(0));
    }
    rewriter.replaceOp(op, results);
    return success();
  }
};
} // namespace

void walrus::populateIndexFunctionPatterns(RewritePatternSet &patterns,
                                           FoldBudget &budget) {
  patterns.add<FoldIndexGeneric, HoistIndexValues>(patterns.getContext(),
                                                   budget);
  patterns.add<SplitIndependentResults>(patterns.getContext());
}

/// `op` reading `inputs` at `maps` after its own inputs: its body gets an
/// argument for each, returned.
SmallVector<BlockArgument> walrus::addGenericInputs(PatternRewriter &rewriter,
                                                    linalg::GenericOp &op,
                                                    ArrayRef<Value> inputs,
                                                    ArrayRef<AffineMap> maps) {
  SmallVector<Value> allInputs(op.getDpsInputs());
  llvm::append_range(allInputs, inputs);
  SmallVector<AffineMap> allMaps = op.getIndexingMapsArray();
  allMaps.insert(allMaps.begin() + op.getNumDpsInputs(), maps.begin(),
                 maps.end());
  linalg::GenericOp widened =
      walrus::withInputs(rewriter, op, allInputs, allMaps);
  SmallVector<BlockArgument> arguments;
  Block *body = widened.getBody();
  for (auto [position, input] : llvm::enumerate(inputs))
    arguments.push_back(body->insertArgument(op.getNumDpsInputs() + position,
                                             getElementTypeOrSelf(input),
                                             op.getLoc()));
  rewriter.replaceOp(op, widened->getResults());
  op = widened;
  return arguments;
}

linalg::GenericOp walrus::withInputs(PatternRewriter &rewriter,
                                     linalg::GenericOp op, ValueRange inputs,
                                     ArrayRef<AffineMap> maps) {
  rewriter.setInsertionPoint(op);
  auto rewritten = linalg::GenericOp::create(
      rewriter, op.getLoc(), op->getResultTypes(), inputs, op.getDpsInits(),
      maps, op.getIteratorTypesArray());
  rewriter.inlineRegionBefore(op.getRegion(), rewritten.getRegion(),
                              rewritten.getRegion().end());
  return rewritten;
}

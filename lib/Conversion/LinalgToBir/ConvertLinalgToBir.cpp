//===- ConvertLinalgToBir.cpp - The -convert-linalg-to-bir pass -----------===//
//
// Finds the functions a host compiler wrote in linalg on memrefs, builds a
// bir.kernel per function (the op lowerings are in Lowerings.h) and
// replaces the function's linalg ops by a bir.launch of it.
//
//===----------------------------------------------------------------------===//

#include "ElementwiseLowering.h"

#include "Walrus/Conversion/Passes.h"
#include "Walrus/Dialect/BIR/IR/BIR.h"
#include "Walrus/Support/ListedOptions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MLProgram/IR/MLProgram.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

#include <limits>

namespace walrus {
#define GEN_PASS_DEF_CONVERTLINALGTOBIR
#include "Walrus/Conversion/Passes.h.inc"
} // namespace walrus

using namespace mlir;
using namespace walrus;
using namespace walrus::bir;
using namespace walrus::linalg_to_bir;

LogicalResult walrus::linalg_to_bir::unsupported(Operation *op,
                                                 const Twine &why) {
  return op->emitError() << "convert-linalg-to-bir: '"
                         << op->getName().getStringRef()
                         << "' is not supported with " << why;
}

FailureOr<DramTensor> Lowering::getBuffer(Operation *user, Value memref) {
  auto found = tensors.find(memref);
  if (found == tensors.end())
    return unsupported(user, "an operand that is not a function argument, "
                             "a memref.alloc or a constant global");
  return found->second;
}

FailureOr<DramTensor> Lowering::getTensor(Operation *user, Value memref) {
  FailureOr<DramTensor> tensor = getBuffer(user, memref);
  if (succeeded(tensor) && !tensor->foldsToRows)
    return unsupported(user, "an operand whose rows are not evenly strided");
  return tensor;
}

namespace {
/// A memref the kernel reads or writes, and how it is bound.
struct KernelTensor {
  Value memref;
  TensorKind kind;
  std::string name;
};

struct ConvertLinalgToBirPass
    : ListedOptions<
          walrus::impl::ConvertLinalgToBirBase<ConvertLinalgToBirPass>> {
  using ListedOptions::ListedOptions;

  void runOnOperation() override;

private:
  /// Builds the kernel of `func` (a bir.kernel after it holding one
  /// symbolic program) and launches it in place of the linalg ops.
  LogicalResult convert(func::FuncOp func, TargetAttr target);
  /// Lowers every linalg op of `func` into the kernel, in order (barriers
  /// between ops at more than one core); the ops lowered or absorbed.
  FailureOr<SmallVector<Operation *>> lowerOps(func::FuncOp func,
                                               Lowering &lowering);
  FailureOr<SmallVector<KernelTensor>> classify(func::FuncOp func);
  LogicalResult lower(Operation *op, Lowering &lowering);
};
} // namespace

static bool isParallel(utils::IteratorType iterator) {
  return iterator == utils::IteratorType::parallel;
}

static bool isLinalg(Operation &op) {
  return isa<linalg::LinalgOp, linalg::SoftmaxOp>(op);
}

/// An op whose result views its source's elements (a reshape, or a
/// subview with static offsets): the same DRAM tensor.
static bool isView(Operation *op) {
  return isa_and_nonnull<memref::ExpandShapeOp, memref::CollapseShapeOp,
                         memref::SubViewOp>(op);
}

/// The buffer a view sees into.
static Value getRoot(Value memref) {
  while (isView(memref.getDefiningOp()))
    memref = memref.getDefiningOp()->getOperand(0);
  return memref;
}

/// Where `type`'s rows are: static strides, the innermost contiguous, the
/// outer dimensions folding into evenly strided rows.
static std::optional<DramTensor> getLayout(MemRefType type) {
  SmallVector<int64_t> strides;
  int64_t offset;
  if (!type.hasStaticShape() ||
      failed(type.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  DramTensor layout;
  layout.base = offset;
  layout.elementType = getStorageType(type.getElementType());
  int64_t rank = type.getRank();
  if (rank == 0)
    return layout;
  ArrayRef<int64_t> shape = type.getShape();
  if (strides.back() != 1 && shape.back() != 1)
    return std::nullopt;
  for (int64_t dim = 0; dim + 2 < rank; ++dim)
    if (shape[dim] != 1 && strides[dim] != strides[dim + 1] * shape[dim + 1])
      return std::nullopt;
  layout.columns = shape.back();
  layout.rows = type.getNumElements() / layout.columns;
  layout.rowStride = rank >= 2 ? strides[rank - 2] : layout.columns;
  return layout;
}

/// Element counts up to 2^48: every offset into a tensor, and every product
/// of a row index and a stride, then fits in 64 bits.
static constexpr int64_t kMaxElements = int64_t(1) << 48;

/// Whether `type` has at most kMaxElements elements, counted with checked
/// products (its shape is input).
static bool hasSafeSize(MemRefType type) {
  int64_t count = 1;
  for (int64_t dim : type.getShape()) {
    std::optional<int64_t> product = llvm::checkedMul(count, dim);
    if (ShapedType::isDynamic(dim) || !product || *product > kMaxElements)
      return ShapedType::isDynamic(dim);
    count = *product;
  }
  return true;
}

/// A static memref of whole-byte elements whose rows are evenly strided.
static LogicalResult checkMemref(Operation *user, Value value) {
  auto type = dyn_cast<MemRefType>(value.getType());
  if (!type)
    return success();
  if (!hasSafeSize(type))
    return unsupported(user, "a memref of more than 2^48 elements");
  Type element = getStorageType(type.getElementType());
  if (!element.isIntOrFloat() || element.getIntOrFloatBitWidth() % 8 ||
      element.getIntOrFloatBitWidth() > 64 ||
      (type.hasStaticShape() && type.getNumElements() == 0))
    return unsupported(user, "a memref of other than whole-byte elements of "
                             "at most 64 bits or i1, or of no elements");
  std::optional<int64_t> bound = getBoundElementCount(type);
  if (!bound)
    return unsupported(user, "a memref that is not static with evenly "
                             "strided rows");
  if (*bound > kMaxElements)
    return unsupported(user, "a layout that reaches past 2^48 elements");
  return success();
}

/// A memref.get_global of a constant global with its initial value (a
/// weight, as bufferization leaves a tensor constant), or an error.
static LogicalResult checkConstantGlobal(memref::GetGlobalOp getGlobal) {
  auto global = SymbolTable::lookupNearestSymbolFrom<memref::GlobalOp>(
      getGlobal, getGlobal.getNameAttr());
  if (!global || !global.getConstant() || !global.getInitialValue())
    return getGlobal.emitError()
           << "convert-linalg-to-bir: 'memref.get_global' of "
           << getGlobal.getNameAttr()
           << ", which is not a constant global with an initial value (a "
              "kernel reads weights, it does not keep state)";
  return success();
}

/// A linalg op of `func` outside its entry block's top level, which the
/// straight-line kernel cannot hold, if there is one.
static Operation *findUnreachableLinalg(func::FuncOp func) {
  Block *entry = &func.getBody().front();
  Operation *found = nullptr;
  func.walk([&](Operation *op) {
    if (!isLinalg(*op) || op->getBlock() == entry)
      return WalkResult::advance();
    found = op;
    return WalkResult::interrupt();
  });
  return found;
}

/// Fails with an error unless `func` is one block whose linalg ops are
/// all at its top level.
static LogicalResult checkStraightLine(func::FuncOp func) {
  if (Operation *op = findUnreachableLinalg(func)) {
    Operation *parent = op->getParentOp();
    InFlightDiagnostic diagnostic = op->emitError()
                                    << "convert-linalg-to-bir: '"
                                    << op->getName().getStringRef() << "' ";
    if (parent == func.getOperation())
      diagnostic << "is in a block other than the function's entry block";
    else
      diagnostic << "is inside '" << parent->getName().getStringRef() << "'";
    diagnostic << ": only the linalg ops of the entry block's top level "
                  "lower (the kernel is straight-line code)";
    diagnostic.attachNote(parent->getLoc()) << "the enclosing op";
    return failure();
  }
  if (!func.getBody().hasOneBlock())
    return func.emitError("convert-linalg-to-bir: a function of more than "
                          "one block is not supported");
  return success();
}

namespace {
/// The memrefs (by root) a kernel body's ops write, use and return.
struct TensorUses {
  DenseSet<Value> written, used, returned;
};
} // namespace

/// A scalar argument of the function `op` computes from, if any: a value
/// only known when the host runs (a Triton program id or grid size, from
/// which triton-shared computes its offsets).
static BlockArgument findRuntimeScalar(Operation *op) {
  SmallVector<Value> worklist(op->getOperands());
  DenseSet<Value> seen;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!seen.insert(value).second)
      continue;
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (!isa<ShapedType>(argument.getType()) &&
          isa<func::FuncOp>(argument.getOwner()->getParentOp()))
        return argument;
      continue;
    }
    llvm::append_range(worklist, value.getDefiningOp()->getOperands());
  }
  return {};
}

/// Whether `op` reads, on the host after the kernel, what the kernel wrote:
/// a call of an external function (LLVM's integration tests print their
/// results with `printMemrefF32`), or a cast only such calls and the
/// return read (to the unranked memref the print takes).
static bool isHostReader(Operation *op) {
  if (auto call = dyn_cast<func::CallOp>(op)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return callee && callee.isExternal() && call->getNumResults() == 0;
  }
  auto cast = dyn_cast<memref::CastOp>(op);
  return cast && llvm::all_of(cast->getUsers(), [](Operation *user) {
           return isa<func::ReturnOp>(user) || isHostReader(user);
         });
}

/// The memref a host reader reads: the cast's source for a cast.
static Value getReadBuffer(Value operand) {
  auto cast = operand.getDefiningOp<memref::CastOp>();
  return getRoot(cast ? cast.getSource() : operand);
}

/// The uses of `body`'s memrefs, or an error at the first op the kernel
/// cannot hold.
static FailureOr<TensorUses> collectTensorUses(Block &body) {
  TensorUses uses;
  Operation *hostReader = nullptr;
  for (Operation &op : body) {
    if (auto getGlobal = dyn_cast<memref::GetGlobalOp>(op);
        getGlobal && failed(checkConstantGlobal(getGlobal)))
      return failure();
    // What the host reads after the kernel (a cast it returns, as
    // torch-mlir's result with dynamic sizes; a print) stays on the host:
    // the buffers it reads are outputs.
    if (isHostReader(&op) || isa<func::ReturnOp>(op)) {
      if (isa<func::CallOp>(op) && !hostReader)
        hostReader = &op;
      for (Value operand : op.getOperands()) {
        if (!isa<BaseMemRefType>(operand.getType()))
          continue;
        if (isa<func::CallOp, func::ReturnOp>(op))
          uses.returned.insert(getReadBuffer(operand));
        if (!operand.getDefiningOp<memref::CastOp>() &&
            failed(checkMemref(&op, operand)))
          return failure();
      }
      continue;
    }
    if (hostReader && isLinalg(op)) {
      InFlightDiagnostic diagnostic =
          op.emitError() << "convert-linalg-to-bir: a linalg op after the "
                            "host reads the kernel's results: the kernel runs "
                            "whole before the host goes on";
      diagnostic.attachNote(hostReader->getLoc()) << "the host reads here";
      return diagnostic;
    }
    if (isa<memref::AllocOp, memref::DeallocOp, arith::ConstantOp,
            memref::GetGlobalOp>(op) ||
        isLinalg(op) || isView(&op)) {
      for (Value value : llvm::concat<Value>(op.getOperands(), op.getResults()))
        if (failed(checkMemref(&op, value)))
          return failure();
    } else if (BlockArgument scalar = findRuntimeScalar(&op)) {
      return op.emitError()
             << "convert-linalg-to-bir: '" << op.getName().getStringRef()
             << "' computes from the function's argument #"
             << scalar.getArgNumber() << " (" << scalar.getType()
             << "), a value known only when the host runs (as a Triton "
                "program id): a kernel's shapes and addresses are static; "
                "bind such arguments to constants first";
    } else {
      return op.emitError()
             << "convert-linalg-to-bir: '" << op.getName().getStringRef()
             << "' is not supported in a function it lowers";
    }
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(op)) {
      for (Value operand : op.getOperands())
        uses.used.insert(getRoot(operand));
      for (OpOperand &init : dps.getDpsInitsMutable())
        uses.written.insert(getRoot(init.get()));
      // A table an embedding's body reads.
      op.walk([&](memref::LoadOp load) {
        uses.used.insert(getRoot(load.getMemRef()));
      });
    }
  }
  return uses;
}

FailureOr<SmallVector<KernelTensor>>
ConvertLinalgToBirPass::classify(func::FuncOp func) {
  if (failed(checkStraightLine(func)))
    return failure();
  Block &body = func.getBody().front();
  FailureOr<TensorUses> uses = collectTensorUses(body);
  if (failed(uses))
    return failure();
  const DenseSet<Value> &written = uses->written, &used = uses->used,
                        &returned = uses->returned;
  // DRAM is one address space for every kernel of a program: names carry
  // the function's.
  std::string prefix = (func.getSymName() + "_").str();
  SmallVector<KernelTensor> tensors;
  for (BlockArgument argument : body.getArguments())
    if (used.contains(argument) && isa<MemRefType>(argument.getType()))
      tensors.push_back(
          {argument,
           written.contains(argument) ? TensorKind::Output : TensorKind::Input,
           (prefix + "arg" + Twine(argument.getArgNumber())).str()});
  // Weights: the host passes each constant global the ops read.
  for (auto getGlobal : body.getOps<memref::GetGlobalOp>()) {
    if (written.contains(getGlobal.getResult()))
      return getGlobal.emitError()
             << "convert-linalg-to-bir: a linalg op writes the constant global "
             << getGlobal.getNameAttr();
    if (used.contains(getGlobal.getResult()))
      tensors.push_back({getGlobal.getResult(), TensorKind::Input,
                         (prefix + getGlobal.getName()).str()});
  }
  unsigned results = 0, buffers = 0;
  for (auto alloc : body.getOps<memref::AllocOp>()) {
    if (!used.contains(alloc))
      continue;
    if (returned.contains(alloc))
      tensors.push_back({alloc, TensorKind::Output,
                         (prefix + "result" + Twine(results++)).str()});
    else
      tensors.push_back({alloc, TensorKind::Internal,
                         (prefix + "buf" + Twine(buffers++)).str()});
  }
  // The host's own f64 data would have to be converted on the way in.
  for (const KernelTensor &tensor : tensors)
    if (f64AsF32 && tensor.kind != TensorKind::Internal &&
        cast<MemRefType>(tensor.memref.getType()).getElementType().isF64())
      return emitError(tensor.memref.getLoc())
             << "convert-linalg-to-bir: '" << tensor.name
             << "' is an f64 tensor of the host: the engines have no f64, "
                "and f64-as-f32 computes only intermediates in f32 (pass "
                "f32, or f64-as-f32=false to compute in f64 as the "
                "interpreter can)";
  // The launch binds inputs and outputs in the order of their memory
  // locations: arguments, then returned allocations.
  return tensors;
}

/// Whether every memref operand of `op` is seen as evenly strided rows.
static bool operandsFoldToRows(Operation *op, Lowering &lowering) {
  return llvm::all_of(op->getOperands(), [&](Value operand) {
    auto found = lowering.tensors.find(operand);
    return found == lowering.tensors.end() || found->second.foldsToRows;
  });
}

LogicalResult ConvertLinalgToBirPass::lower(Operation *op, Lowering &lowering) {
  if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<TensorType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>))
    return unsupported(op, "tensor operands (bufferize first: "
                           "-one-shot-bufferize=\"bufferize-function-"
                           "boundaries\")");
  if (auto softmax = dyn_cast<linalg::SoftmaxOp>(op))
    return lowerSoftmax(softmax, lowering);
  auto transpose = dyn_cast<linalg::TransposeOp>(op);
  if (transpose && transpose.getPermutation() == ArrayRef<int64_t>{1, 0} &&
      operandsFoldToRows(op, lowering))
    return lowerTranspose(transpose, lowering);
  // (linalg.matmul goes through lowerMatmulChain.)
  auto linalgOp = cast<linalg::LinalgOp>(op);
  if (isa<linalg::BatchMatmulOp>(op) &&
      isTensorEngineMatmul(linalgOp, lowering))
    return lowerMatmul({linalgOp}, lowering);
  SmallVector<utils::IteratorType> iterators = linalgOp.getIteratorTypesArray();
  if (memref::LoadOp load = matchEmbedding(linalgOp))
    return lowerEmbedding(linalgOp, load, lowering);
  // The shaped lowerings take the forms they tile well; what they refuse
  // before emitting anything goes to the general lowering.
  if (llvm::all_of(iterators, isParallel)) {
    ElementwiseLowering elementwise(linalgOp, lowering);
    if (succeeded(quietly(op->getContext(), [&] {
          return elementwise.classifyOperands(/*standalone=*/true);
        })))
      return elementwise.run();
  } else if (iterators.back() == utils::IteratorType::reduction &&
             llvm::all_of(ArrayRef(iterators).drop_back(), isParallel) &&
             isRowReduction(linalgOp) && operandsFoldToRows(op, lowering)) {
    return lowerReduction(linalgOp, lowering);
  }
  if (isTensorEngineContraction(linalgOp, lowering))
    return lowerContraction(linalgOp, lowering);
  return lowerGeneric(linalgOp, lowering);
}

LogicalResult
walrus::linalg_to_bir::quietly(MLIRContext *context,
                               function_ref<LogicalResult()> check) {
  ScopedDiagnosticHandler silence(context,
                                  [](Diagnostic &) { return success(); });
  return check();
}

/// Whether `condition` is true at compile time: a constant, or an op of
/// constants that folds (arith.cmpi of static sizes, as front ends write
/// their bounds checks), a few levels deep.
static bool foldsToTrue(Value condition, unsigned depth = 0) {
  Attribute constant;
  if (matchPattern(condition, m_Constant(&constant))) {
    auto integer = dyn_cast<IntegerAttr>(constant);
    return integer && integer.getValue().isOne();
  }
  Operation *op = condition.getDefiningOp();
  if (!op || depth > 8 || op->getNumResults() != 1)
    return false;
  SmallVector<Attribute> operands;
  for (Value operand : op->getOperands()) {
    Attribute value;
    if (!matchPattern(operand, m_Constant(&value)))
      return false;
    operands.push_back(value);
  }
  SmallVector<OpFoldResult> folded;
  if (failed(op->fold(operands, folded)) || folded.size() != 1)
    return false;
  auto integer = dyn_cast_or_null<IntegerAttr>(
      dyn_cast_if_present<Attribute>(folded.front()));
  return integer && integer.getValue().isOne();
}

/// Drops the cf.assert ops of `func` that hold at compile time; fails at
/// the first that may not (the kernel has no assertions).
static LogicalResult dropAssertions(func::FuncOp func) {
  for (auto assertion :
       llvm::make_early_inc_range(func.getBody().getOps<cf::AssertOp>())) {
    if (!foldsToTrue(assertion.getArg()))
      return assertion.emitError()
             << "convert-linalg-to-bir: 'cf.assert' whose condition is not "
                "known to hold at compile time (the kernel has no "
                "assertions): '"
             << assertion.getMsg() << "'";
    Operation *condition = assertion.getArg().getDefiningOp();
    assertion.erase();
    // The condition's ops are dead now: arith.cmpi is no op a kernel takes.
    SetVector<Operation *> dead;
    dead.insert(condition);
    while (!dead.empty()) {
      Operation *op = dead.pop_back_val();
      if (!op || !isOpTriviallyDead(op))
        continue;
      for (Value operand : op->getOperands())
        if (Operation *producer = operand.getDefiningOp())
          dead.insert(producer);
      op->erase();
    }
  }
  return success();
}

/// Whether `a` and `b` are the same bytes: one value, or two subviews of
/// one memref with the same offsets, sizes and strides.
static bool isSameView(Value a, Value b) {
  if (a == b)
    return true;
  auto left = a.getDefiningOp<memref::SubViewOp>();
  auto right = b.getDefiningOp<memref::SubViewOp>();
  return left && right && left.getSource() == right.getSource() &&
         left.isSameAs(right, isEqualConstantIntOrValue);
}

/// memref.copy is linalg.copy's semantics (upstream bufferization inserts
/// it where it cannot write in place): one lowering for both. A copy onto
/// itself moves nothing: empty-tensor elimination leaves one where an op
/// now writes straight into the slice it was inserted into.
static void copiesToLinalg(func::FuncOp func) {
  for (auto copy :
       llvm::make_early_inc_range(func.getBody().getOps<memref::CopyOp>())) {
    if (isSameView(copy.getSource(), copy.getTarget())) {
      copy.erase();
      continue;
    }
    OpBuilder builder(copy);
    linalg::CopyOp::create(builder, copy.getLoc(), copy.getSource(),
                           copy.getTarget());
    copy.erase();
  }
}

/// `memref` seen as rows x columns of `memloc` (checkMemref accepted it).
static DramTensor getDramTensor(MemlocOp memloc, Value memref) {
  auto type = cast<MemRefType>(memref.getType());
  DramTensor tensor;
  if (std::optional<DramTensor> layout = getLayout(type)) {
    tensor = *layout;
  } else {
    // Only the general lowering reads it, through its strides.
    SmallVector<int64_t> strides;
    (void)type.getStridesAndOffset(strides, tensor.base);
    tensor.elementType = type.getElementType();
    tensor.foldsToRows = false;
  }
  tensor.memloc = memloc;
  tensor.elementType = memloc.getMemoryType().getElementType();
  return tensor;
}

/// Zero fills that the next linalg op, a matmul accumulating into the same
/// buffer, absorbs: it stores its product without reading C
/// (`Lowering::zeroInitialized`), and the fill is not emitted.
static DenseSet<Operation *> findZeroInitialized(func::FuncOp func,
                                                 Lowering &lowering) {
  DenseSet<Operation *> absorbed;
  linalg::FillOp pending;
  for (Operation &op : func.getBody().front()) {
    if (!isLinalg(op))
      continue;
    auto matmul = dyn_cast<linalg::LinalgOp>(op);
    if (pending && matmul &&
        matmul.getDpsInitOperand(0)->get() == pending.getOutputs()[0] &&
        (isTensorEngineMatmul(matmul, lowering) ||
         isTensorEngineContraction(matmul, lowering))) {
      absorbed.insert(pending);
      lowering.zeroInitialized.insert(&op);
    }
    pending = {};
    auto fill = dyn_cast<linalg::FillOp>(op);
    Attribute value;
    if (fill && matchPattern(fill.getInputs()[0], m_Constant(&value)) &&
        isa<FloatAttr>(value) && cast<FloatAttr>(value).getValue().isZero() &&
        isa<MemRefType>(fill.getOutputs()[0].getType()))
      pending = fill;
  }
  return absorbed;
}

Operation *walrus::linalg_to_bir::getNextLinalg(Operation *op) {
  for (Operation *next = op->getNextNode(); next; next = next->getNextNode())
    if (isLinalg(*next))
      return next;
  return nullptr;
}

Operation *walrus::linalg_to_bir::getPreviousLinalg(Operation *op) {
  for (Operation *previous = op->getPrevNode(); previous;
       previous = previous->getPrevNode())
    if (isLinalg(*previous))
      return previous;
  return nullptr;
}

bool walrus::linalg_to_bir::writesMemory(Operation *op) {
  auto effects = dyn_cast<MemoryEffectOpInterface>(op);
  return !effects || effects.hasEffect<MemoryEffects::Write>() ||
         effects.hasEffect<MemoryEffects::Free>();
}

/// Whether two ops have operands of the same element types, in order.
static bool haveSameElementTypes(Operation *first, Operation *second) {
  auto elementType = [](Type type) { return getElementTypeOrSelf(type); };
  return llvm::equal(llvm::map_range(first->getOperandTypes(), elementType),
                     llvm::map_range(second->getOperandTypes(), elementType));
}

/// Whether `next` adds to `first`'s C as `first` does: the same C, m, n
/// and element types, and neither operand in C's buffer.
static bool accumulatesLike(linalg::MatmulOp next, linalg::MatmulOp first,
                            Lowering &lowering) {
  Value c = first.getDpsInitOperand(0)->get();
  if (!next || next.getDpsInitOperand(0)->get() != c ||
      !isTensorEngineMatmul(next, lowering) ||
      llvm::any_of(next.getDpsInputs(),
                   [&](Value input) { return getRoot(input) == getRoot(c); }))
    return false;
  SmallVector<int64_t> ranges = next.getStaticLoopRanges(),
                       firstRanges = first.getStaticLoopRanges();
  return ranges[0] == firstRanges[0] && ranges[1] == firstRanges[1] &&
         haveSameElementTypes(next, first);
}

/// The matmuls from `matmul` on that accumulate into its C one after the
/// other, each the next linalg op.
static SmallVector<linalg::LinalgOp> findChain(linalg::MatmulOp matmul,
                                               Lowering &lowering) {
  SmallVector<linalg::LinalgOp> chain{matmul};
  for (auto next = dyn_cast_or_null<linalg::MatmulOp>(getNextLinalg(matmul));
       accumulatesLike(next, matmul, lowering);
       next = dyn_cast_or_null<linalg::MatmulOp>(getNextLinalg(next)))
    chain.push_back(next);
  return chain;
}

/// Whether `second` is `first`'s sibling: a matmul of the same A (the same
/// buffer through the same map), m, n, k and element types into a zero-
/// filled C of its own, which one nest computes with `first` on one A^T.
static bool isSibling(linalg::MatmulOp first, linalg::MatmulOp second,
                      Lowering &lowering) {
  if (!second || !isTensorEngineMatmul(second, lowering) ||
      !lowering.zeroInitialized.contains(first) ||
      !lowering.zeroInitialized.contains(second) ||
      first.getDpsInputs()[0] != second.getDpsInputs()[0] ||
      first.getIndexingMapsArray()[0] != second.getIndexingMapsArray()[0] ||
      first.getStaticLoopRanges() != second.getStaticLoopRanges())
    return false;
  Value firstC = getRoot(first.getDpsInits()[0]);
  Value secondC = getRoot(second.getDpsInits()[0]);
  return firstC != secondC && getRoot(second.getDpsInputs()[1]) != firstC &&
         haveSameElementTypes(first, second);
}

namespace {
/// The nest a tensor-engine matmul lowers as: the matmuls that accumulate
/// into its C one after the other (findChain), or its sibling (isSibling)
/// when one elementwise op reads both products, and the elementwise op
/// after them as its epilogue, if one can be (findEpilogue) and its
/// operands lower (`epilogueLowering`, classified).
struct MatmulNestPlan {
  SmallVector<linalg::LinalgOp> chain;
  bool siblings = false;
  linalg::LinalgOp epilogue;
  /// The epilogue's block argument that reads C (each sibling's).
  SmallVector<unsigned, 2> epilogueArguments;
  std::optional<ElementwiseLowering> epilogueLowering;
};
} // namespace

/// The block argument by which `consumer` reads `matmul`'s C (findEpilogue
/// found it reads it once).
static unsigned getEpilogueArgument(linalg::LinalgOp consumer,
                                    linalg::MatmulOp matmul) {
  OpOperand *read =
      llvm::find_if(consumer.getDpsInputOperands(), [&](OpOperand *input) {
        return input->get() == matmul.getDpsInitOperand(0)->get();
      })[0];
  return consumer.getMatchingBlockArgument(read).getArgNumber();
}

/// Makes `consumer` the plan's epilogue if the elementwise lowering takes
/// it (classified); an epilogue it does not take lowers on its own.
static bool planEpilogue(linalg::LinalgOp consumer, Lowering &lowering,
                         MatmulNestPlan &plan) {
  plan.epilogueLowering.emplace(consumer, lowering);
  if (failed(quietly(consumer->getContext(), [&] {
        return plan.epilogueLowering->classifyOperands();
      }))) {
    plan.epilogueLowering.reset();
    return false;
  }
  plan.epilogue = consumer;
  return true;
}

/// Plans `matmul` with its sibling when the op after both reads both
/// products as their epilogue: the gate and up projections of a SwiGLU
/// MLP. False (and nothing planned) otherwise.
static bool planSiblings(linalg::MatmulOp matmul,
                         const DenseSet<Operation *> &absorbed,
                         Lowering &lowering, MatmulNestPlan &plan) {
  // The sibling's zero fill, absorbed, may come between them.
  Operation *next = getNextLinalg(matmul);
  while (next && absorbed.contains(next) && isa<linalg::FillOp>(next))
    next = getNextLinalg(next);
  auto sibling = dyn_cast_or_null<linalg::MatmulOp>(next);
  if (!isSibling(matmul, sibling, lowering))
    return false;
  Operation *after = getNextLinalg(sibling);
  linalg::LinalgOp consumer = findEpilogue(matmul, after);
  if (!consumer || consumer != findEpilogue(sibling, after) ||
      absorbed.contains(after) || !planEpilogue(consumer, lowering, plan))
    return false;
  plan.chain = {matmul, sibling};
  plan.siblings = true;
  plan.epilogueArguments = {getEpilogueArgument(consumer, matmul),
                            getEpilogueArgument(consumer, sibling)};
  return true;
}

/// Plans `matmul`'s nest (emits nothing); `absorbed` holds the ops another
/// nest already took.
static void planMatmulNest(linalg::MatmulOp matmul,
                           const DenseSet<Operation *> &absorbed,
                           Lowering &lowering, MatmulNestPlan &plan) {
  plan.chain = findChain(matmul, lowering);
  if (plan.chain.size() == 1 && planSiblings(matmul, absorbed, lowering, plan))
    return;
  Operation *next = getNextLinalg(plan.chain.back());
  linalg::LinalgOp consumer =
      findEpilogue(cast<linalg::MatmulOp>(plan.chain.back()), next);
  if (!consumer || absorbed.contains(next) ||
      !planEpilogue(consumer, lowering, plan))
    return;
  plan.epilogueArguments = {getEpilogueArgument(consumer, matmul)};
}

/// Lowers `matmul`'s nest as planMatmulNest plans it; adds what it
/// absorbed to `absorbed`.
static LogicalResult lowerMatmulChain(linalg::MatmulOp matmul,
                                      DenseSet<Operation *> &absorbed,
                                      Lowering &lowering) {
  MatmulNestPlan plan;
  planMatmulNest(matmul, absorbed, lowering, plan);
  absorbed.insert(std::next(plan.chain.begin()), plan.chain.end());
  if (!plan.epilogue)
    return lowerMatmul(plan.chain, lowering);
  absorbed.insert(plan.epilogue);
  MatmulEpilogue epilogue{&*plan.epilogueLowering, plan.epilogueArguments};
  return lowerMatmul(plan.chain, lowering, &epilogue, plan.siblings);
}

/// The DRAM tensor of every classified memref and every view of one;
/// `bound` gets the memrefs the launch passes (all but internal ones).
static DenseMap<Value, DramTensor> mapTensors(func::FuncOp func,
                                              ArrayRef<KernelTensor> classified,
                                              KernelBuilder &kernelBuilder,
                                              SmallVectorImpl<Value> &bound) {
  MLIRContext *context = func.getContext();
  DenseMap<Value, DramTensor> tensors;
  for (const KernelTensor &tensor : classified) {
    auto type = cast<MemRefType>(tensor.memref.getType());
    // A rank-0 memref is one element: DRAM tensors have a dimension. A
    // strided one is the buffer its layout reaches, as the launch binds it.
    SmallVector<int64_t> shape(type.getShape());
    if (!type.getLayout().isIdentity())
      shape = {*getBoundElementCount(type)};
    else if (shape.empty())
      shape = {1};
    // The host sees its own tensors as they are; only the kernel sees its
    // internal ones.
    Type element = tensor.kind == TensorKind::Internal
                       ? kernelBuilder.getComputeType(type.getElementType())
                       : getStorageType(type.getElementType());
    MemlocOp memloc = kernelBuilder.addMemloc(
        tensor.name, tensor.kind, DramType::get(context, shape, element));
    tensors[tensor.memref] = getDramTensor(memloc, tensor.memref);
    if (tensor.kind != TensorKind::Internal)
      bound.push_back(tensor.memref);
  }
  // A view sees its root's DRAM tensor with its own rows and columns.
  for (Operation &op : func.getBody().front()) {
    if (!isView(&op))
      continue;
    auto root = tensors.find(getRoot(op.getResult(0)));
    if (root != tensors.end())
      tensors[op.getResult(0)] =
          getDramTensor(root->second.memloc, op.getResult(0));
  }
  return tensors;
}

/// Whether `op` reads, writes or computes f64 values.
static bool touchesF64(Operation &op) {
  auto isF64 = [](Type type) { return getElementTypeOrSelf(type).isF64(); };
  bool found = false;
  op.walk([&](Operation *inner) {
    found |= llvm::any_of(inner->getOperandTypes(), isF64) ||
             llvm::any_of(inner->getResultTypes(), isF64);
  });
  return found;
}

/// The elementwise op each reduction computes tile by tile (the op only it
/// reads); adds them to `absorbed`.
static DenseMap<Operation *, linalg::LinalgOp>
findReductionProducers(func::FuncOp func, DenseSet<Operation *> &absorbed,
                       Lowering &lowering) {
  DenseMap<Operation *, linalg::LinalgOp> producers;
  for (Operation &op : func.getBody().front()) {
    auto reduction = dyn_cast<linalg::LinalgOp>(op);
    if (!reduction || !isLinalg(op) || !operandsFoldToRows(&op, lowering))
      continue;
    if (linalg::LinalgOp producer = findReductionProducer(reduction, lowering);
        producer && !absorbed.contains(producer)) {
      producers[&op] = producer;
      absorbed.insert(producer);
    }
  }
  return producers;
}

/// The reductions that lower with the ops that normalize by them, one nest
/// per row tile; adds those ops to `absorbed`.
static DenseMap<Operation *, NormalizationChain>
findNormalizations(func::FuncOp func,
                   const DenseMap<Operation *, linalg::LinalgOp> &producers,
                   DenseSet<Operation *> &absorbed, Lowering &lowering) {
  DenseMap<Operation *, NormalizationChain> normalizations;
  for (Operation &op : func.getBody().front()) {
    auto reduction = dyn_cast<linalg::LinalgOp>(op);
    if (!reduction || !isLinalg(op) || absorbed.contains(&op) ||
        !operandsFoldToRows(&op, lowering))
      continue;
    std::optional<NormalizationChain> chain =
        findNormalization(reduction, producers.lookup(&op), lowering);
    if (!chain || absorbed.contains(chain->normalize) ||
        llvm::any_of(chain->rowOps, [&](linalg::LinalgOp rowOp) {
          return absorbed.contains(rowOp);
        }))
      continue;
    absorbed.insert(chain->normalize);
    absorbed.insert(chain->rowOps.begin(), chain->rowOps.end());
    if (chain->fill && !absorbed.contains(chain->fill))
      absorbed.insert(chain->fill);
    else
      chain->fill = {};
    normalizations[&op] = *chain;
  }
  return normalizations;
}

FailureOr<SmallVector<Operation *>>
ConvertLinalgToBirPass::lowerOps(func::FuncOp func, Lowering &lowering) {
  KernelBuilder &kernelBuilder = lowering.kernel;
  SmallVector<Operation *> lowered;
  DenseSet<Operation *> absorbed = findZeroInitialized(func, lowering);
  DenseMap<Operation *, AttentionChain> chains;
  for (const AttentionChain &chain :
       findAttentionChains(func.getBody().front(), lowering))
    chains[chain.scores] = chain;
  DenseMap<Operation *, linalg::LinalgOp> producers =
      findReductionProducers(func, absorbed, lowering);
  DenseMap<Operation *, NormalizationChain> normalizations =
      findNormalizations(func, producers, absorbed, lowering);
  unsigned emitted = 0;
  for (Operation &op : func.getBody().front()) {
    if (!isLinalg(op))
      continue;
    if (absorbed.contains(&op)) {
      lowered.push_back(&op);
      continue;
    }
    if (f64AsF32 && touchesF64(op))
      op.emitRemark("convert-linalg-to-bir: f64 computed in f32 (the engines "
                    "have no f64; f64-as-f32=false keeps it)");
    // Every core reads what every core wrote before it.
    if (emitted++ && lncSize > 1)
      kernelBuilder.create<CoreBarrierOp>(
          op.getLoc(), ("after_op" + Twine(emitted - 1)).str());
    // An attention chain lowers as one nest when its tiles fit; a matmul
    // with the matmuls and epilogue it absorbs; any other op alone.
    FailureOr<bool> fused = false;
    auto chain = chains.find(&op);
    if (chain != chains.end()) {
      fused = lowerAttention(chain->second, lowering);
      if (succeeded(fused) && *fused) {
        for (Operation *part : {chain->second.scaling.getOperation(),
                                chain->second.softmax.getOperation(),
                                chain->second.context.getOperation()})
          if (part)
            absorbed.insert(part);
      }
    }
    LogicalResult status = failed(fused) ? failure() : success();
    if (succeeded(fused) && !*fused) {
      auto matmul = dyn_cast<linalg::MatmulOp>(op);
      auto normalization = normalizations.find(&op);
      if (normalization != normalizations.end())
        status = lowerNormalization(normalization->second, lowering);
      else if (linalg::LinalgOp producer = producers.lookup(&op))
        status = lowerReduction(cast<linalg::LinalgOp>(op), lowering, producer);
      else if (matmul && isTensorEngineMatmul(matmul, lowering))
        status = lowerMatmulChain(matmul, absorbed, lowering);
      else
        status = lower(&op, lowering);
    }
    if (failed(status))
      return failure();
    if (kernelBuilder.overLimit())
      return op.emitError()
             << "convert-linalg-to-bir: the kernel would have more than "
             << kernelBuilder.getInstructionLimit() << " instructions over its "
             << kernelBuilder.getLncSize()
             << " core(s) (instruction-limit counts every core's copy)";
    lowered.push_back(&op);
  }
  return lowered;
}

/// Puts `kernel` into the host's symbol table, launches it before `func`'s
/// terminator with `bound`, and erases the lowered ops and the buffers,
/// constants and views nothing uses any more.
static void launchKernel(func::FuncOp func, KernelOp kernel,
                         ArrayRef<Value> bound, ArrayRef<Operation *> lowered) {
  SymbolTable(func->getParentOp()).insert(kernel);
  // Before the first call of the host that reads the results (a cast it
  // reads only renames the buffer), else before the terminator.
  Block &body = func.getBody().front();
  auto reader = llvm::find_if(body, [](Operation &op) {
    return isa<func::CallOp>(op) && isHostReader(&op);
  });
  OpBuilder builder(reader != body.end() ? &*reader : body.getTerminator());
  LaunchOp::create(builder, func.getLoc(), kernel.getSymName(), bound);
  for (Operation *op : lowered)
    op->erase();
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(func.getBody().front())))
    if (isa<memref::DeallocOp>(op) ||
        ((isa<memref::AllocOp, arith::ConstantOp>(op) || isView(&op)) &&
         op.use_empty()))
      op.erase();
}

/// `<func>_kernel`, or with the first `_<n>` suffix that no symbol of the
/// host holds yet.
static std::string getUniqueKernelName(func::FuncOp func) {
  Operation *host = func->getParentOp();
  std::string stem = (func.getSymName() + "_kernel").str(), name = stem;
  for (unsigned suffix = 1; SymbolTable::lookupSymbolIn(
           host, StringAttr::get(func.getContext(), name));
       ++suffix)
    name = stem + "_" + std::to_string(suffix);
  return name;
}

LogicalResult ConvertLinalgToBirPass::convert(func::FuncOp func,
                                              TargetAttr target) {
  copiesToLinalg(func);
  if (failed(dropAssertions(func)))
    return failure();
  FailureOr<SmallVector<KernelTensor>> classified = classify(func);
  if (failed(classified))
    return failure();
  OpBuilder builder(&getContext());
  builder.setInsertionPointAfter(func);
  auto kernel =
      KernelOp::create(builder, func.getLoc(), getUniqueKernelName(func));
  builder.setInsertionPointToEnd(&kernel.getBody().front());
  auto program = ModuleOp::create(builder, func.getLoc(), "nc_symbolic");
  program->setAttr(BIRDialect::kLncSizeAttrName,
                   builder.getI64IntegerAttr(lncSize));
  program->setAttr(BIRDialect::kTargetAttrName, target);
  builder.setInsertionPointToEnd(program.getBody());
  auto main = FuncOp::create(builder, func.getLoc(), "main");

  KernelBuilder kernelBuilder(main, lncSize, target, instructionLimit,
                              f64AsF32);
  SmallVector<Value> bound;
  DenseMap<Value, DramTensor> tensors =
      mapTensors(func, *classified, kernelBuilder, bound);
  TileSizes tiles;
  if (columnTile > 0) {
    tiles.columns = tiles.vectorColumns = columnTile;
    tiles.fitVectorColumns = false;
  }
  tiles.matmulBuffers = matmulBuffers;
  tiles.elementwiseBuffers = elementwiseBuffers;
  tiles.normalizationBuffers = normalizationBuffers;
  tiles.attentionBuffers = attentionBuffers;
  tiles.autoCast = autoCast == "matmult";
  Lowering lowering{kernelBuilder, tensors, tiles, {}};
  FailureOr<SmallVector<Operation *>> lowered = lowerOps(func, lowering);
  if (failed(lowered)) {
    kernel.erase();
    return failure();
  }
  // Buffers a fused nest kept in SBUF are left without accesses.
  for (MemlocOp memloc : llvm::make_early_inc_range(main.getMemlocs()))
    if (memloc.getKind() == TensorKind::Internal && memloc->use_empty())
      memloc.erase();
  launchKernel(func, kernel, bound, *lowered);
  return success();
}

void ConvertLinalgToBirPass::runOnOperation() {
  ModuleOp host = getOperation();
  struct Range {
    const Option<int64_t> &option;
    int64_t min, max;
  };
  for (const Range &range :
       {Range{lncSize, 1, BIRDialect::kMaxLncSize}, Range{columnTile, 0, 65536},
        Range{matmulBuffers, 1, 4}, Range{elementwiseBuffers, 1, 4},
        Range{normalizationBuffers, 1, 4}, Range{attentionBuffers, 1, 4},
        Range{instructionLimit, 1, std::numeric_limits<int64_t>::max()}}) {
    int64_t value = range.option;
    if (value >= range.min && value <= range.max)
      continue;
    InFlightDiagnostic error = host.emitError()
                               << "convert-linalg-to-bir: "
                               << range.option.getArgStr() << " must be ";
    if (range.max == std::numeric_limits<int64_t>::max())
      error << "positive";
    else
      error << "in [" << range.min << ", " << range.max << "]";
    error << ", not " << value;
    return signalPassFailure();
  }
  if (autoCast != "matmult" && autoCast != "none") {
    host.emitError() << "convert-linalg-to-bir: unknown auto-cast '" << autoCast
                     << "' (matmult or none)";
    return signalPassFailure();
  }
  TargetAttr target = TargetAttr::getPreset(&getContext(), targetName);
  if (!target) {
    host.emitError() << "convert-linalg-to-bir: unknown target '" << targetName
                     << "' (trn1, trn2 or trn3)";
    return signalPassFailure();
  }
  // Front ends declare globals their programs may not use (torch-mlir's
  // @global_seed): a private one nothing names is dropped.
  for (auto global : llvm::make_early_inc_range(
           host.getBody()->getOps<ml_program::GlobalOp>()))
    if (global.isPrivate() && SymbolTable::symbolKnownUseEmpty(global, host))
      global.erase();
  SmallVector<func::FuncOp> funcs;
  host.walk([&](func::FuncOp func) {
    bool holdsLinalg = false;
    func.walk([&](Operation *op) {
      // A function of copies alone (a concat) is a kernel too.
      holdsLinalg = isLinalg(*op) || isa<memref::CopyOp>(op);
      return holdsLinalg ? WalkResult::interrupt() : WalkResult::advance();
    });
    if (holdsLinalg)
      funcs.push_back(func);
  });
  for (func::FuncOp func : funcs)
    if (failed(convert(func, target)))
      signalPassFailure();
}

//===- BIRDialect.cpp - The bir dialect -----------------------------------===//

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

using namespace mlir;
using namespace walrus::bir;

#include "Walrus/Dialect/BIR/IR/BIROpsDialect.cpp.inc"

void BIRDialect::initialize() {
  registerAttributes();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "Walrus/Dialect/BIR/IR/BIROps.cpp.inc"
      >();
}

/// `bir.shrink_dim` names a free dimension of a memory location and
/// `bir.live_n` is its (positive) extent.
static LogicalResult verifyShrinkAnnotation(Operation *op,
                                            NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  auto memloc = dyn_cast<MemlocOp>(op);
  if (!memloc)
    return op->emitError() << "'" << name << "' belongs on a bir.memloc";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isSignlessInteger(64))
    return op->emitError() << "'" << name << "' must be an i64 integer";
  ArrayRef<int64_t> shape = memloc.getMemoryType().getShape();
  auto dim = op->getAttrOfType<IntegerAttr>(BIRDialect::kShrinkDimAttrName);
  if (!dim || dim.getInt() < 1 ||
      dim.getInt() >= static_cast<int64_t>(shape.size()))
    return op->emitError() << "'bir.shrink_dim' must name a free dimension "
                              "of the memory location";
  if (name == BIRDialect::kLiveNAttrName &&
      value.getInt() != shape[dim.getInt()])
    return op->emitError() << "'bir.live_n' (" << value.getInt()
                           << ") must be the extent of dimension "
                           << dim.getInt() << " (" << shape[dim.getInt()]
                           << ")";
  return success();
}

/// Verifies the module attributes `bir.lnc_size`, `bir.neuron_core_id` and
/// `bir.target`, and the memory-location annotations of -shrink-dn.
LogicalResult BIRDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == kTargetAttrName) {
    if (!isa<TargetAttr>(attr.getValue()))
      return op->emitError()
             << "'" << name << "' must be a #bir.target attribute";
    return success();
  }
  if (name == kShrinkDimAttrName || name == kLiveNAttrName)
    return verifyShrinkAnnotation(op, attr);
  if (name == kSpillHomeAttrName) {
    auto memloc = dyn_cast<MemlocOp>(op);
    if (!memloc || !isa<UnitAttr>(attr.getValue()) ||
        memloc.getMemoryType().getMemorySpace() != MemorySpace::DRAM)
      return op->emitError()
             << "'" << name << "' is a unit attribute of a DRAM bir.memloc";
    return success();
  }
  if (name == kRotatingAttrName) {
    auto memloc = dyn_cast<MemlocOp>(op);
    auto index = dyn_cast<IntegerAttr>(attr.getValue());
    if (!memloc || !index || !index.getType().isSignlessInteger(64) ||
        index.getInt() < 0 ||
        memloc.getMemoryType().getMemorySpace() == MemorySpace::DRAM)
      return op->emitError() << "'" << name
                             << "' is the non-negative i64 buffer index of an "
                                "SBUF or PSUM bir.memloc";
    return success();
  }
  if (name != kLncSizeAttrName && name != kNeuronCoreIdAttrName)
    return op->emitError() << "unknown bir attribute '" << name << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError() << "'" << name << "' belongs on a builtin.module";
  auto value = dyn_cast<IntegerAttr>(attr.getValue());
  if (!value || !value.getType().isSignlessInteger(64))
    return op->emitError() << "'" << name << "' must be an i64 integer";
  if (name == kLncSizeAttrName) {
    if (value.getInt() < 1 || value.getInt() > kMaxLncSize)
      return op->emitError() << "'" << name << "' must be 1 to " << kMaxLncSize
                             << ", got " << value.getInt();
    return success();
  }
  int64_t lncSize = getLncSize(op);
  if (value.getInt() < 0 || value.getInt() >= lncSize)
    return op->emitError() << "'" << name << "' " << value.getInt()
                           << " is outside [0, lnc_size = " << lncSize << ")";
  return success();
}

/// The value of `name` on the closest enclosing (or own) module.
static Attribute lookupModuleAttr(Operation *op, StringRef name) {
  for (; op; op = op->getParentOp())
    if (isa<ModuleOp>(op))
      if (Attribute attr = op->getAttr(name))
        return attr;
  return {};
}

TargetAttr walrus::bir::getTarget(Operation *op) {
  if (auto target = dyn_cast_if_present<TargetAttr>(
          lookupModuleAttr(op, BIRDialect::kTargetAttrName)))
    return target;
  return TargetAttr::getDefault(op->getContext());
}

LogicalResult walrus::bir::checkLncSizeOption(Operation *op, StringRef pass,
                                              int64_t lncSize) {
  if (lncSize >= 0 && lncSize <= BIRDialect::kMaxLncSize)
    return success();
  return op->emitError() << pass << ": lnc-size must be 0 (bir.lnc_size) to "
                         << BIRDialect::kMaxLncSize << ", got " << lncSize;
}

int64_t walrus::bir::getLncSize(Operation *op) {
  if (auto size = dyn_cast_if_present<IntegerAttr>(
          lookupModuleAttr(op, BIRDialect::kLncSizeAttrName)))
    return size.getInt();
  return 1;
}

std::optional<int64_t> walrus::bir::getNeuronCoreId(Operation *op) {
  if (auto id = dyn_cast_if_present<IntegerAttr>(
          lookupModuleAttr(op, BIRDialect::kNeuronCoreIdAttrName)))
    return id.getInt();
  return std::nullopt;
}

SmallVector<LoopOp, 4> walrus::bir::getEnclosingLoops(Operation *op) {
  SmallVector<LoopOp, 4> loops;
  for (Operation *parent = op->getParentOp(); parent;
       parent = parent->getParentOp())
    if (auto loop = dyn_cast<LoopOp>(parent))
      loops.push_back(loop);
  std::reverse(loops.begin(), loops.end());
  return loops;
}

bool walrus::bir::isCrossCore(Operation *op) {
  return isa<CoreBarrierOp, CollectiveOp, Sb2SbOp>(op);
}

MemlocOp walrus::bir::getDefiningMemloc(Value tensor) {
  while (auto view = tensor.getDefiningOp<ViewOp>())
    tensor = view.getSource();
  return tensor.getDefiningOp<MemlocOp>();
}

//===- KernelOps.cpp - bir.kernel and bir.launch --------------------------===//
//
// The host-facing ops: the container a kernel lives in and the reference a
// host function makes to it.
//
//===----------------------------------------------------------------------===//

#include "Walrus/Dialect/BIR/IR/Kernels.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace walrus::bir;

void KernelOp::build(OpBuilder &builder, OperationState &state,
                     StringRef name) {
  state.addAttribute(mlir::SymbolTable::getSymbolAttrName(),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

// Its modules print and parse as `module`, as at the top level.
StringRef KernelOp::getDefaultDialect() { return "builtin"; }

LogicalResult KernelOp::verifyRegions() {
  for (Operation &op : getBody().front()) {
    auto module = dyn_cast<ModuleOp>(op);
    if (!module || !isProgramModule(module))
      return op.emitOpError("cannot sit in a bir.kernel: a kernel holds only "
                            "builtin.modules with bir.funcs (its symbolic "
                            "program, or the per-core programs of it)");
  }
  return success();
}

SmallVector<MemlocOp> walrus::bir::getLaunchedMemlocs(FuncOp func) {
  SmallVector<MemlocOp> memlocs;
  for (MemlocOp memloc : func.getMemlocs())
    if (memloc.getKind() != TensorKind::Internal &&
        memloc.getMemoryType().getMemorySpace() == MemorySpace::DRAM)
      memlocs.push_back(memloc);
  return memlocs;
}

std::optional<int64_t> walrus::bir::getBoundElementCount(MemRefType memref) {
  if (!memref.hasStaticShape())
    return std::nullopt;
  if (memref.getLayout().isIdentity())
    return memref.getNumElements();
  SmallVector<int64_t> strides;
  int64_t offset;
  if (failed(memref.getStridesAndOffset(strides, offset)) ||
      ShapedType::isDynamic(offset) || offset < 0 ||
      llvm::any_of(strides, ShapedType::isDynamic))
    return std::nullopt;
  // offset + sum((size - 1) * stride) + 1, with every product checked.
  std::optional<int64_t> last = offset;
  for (auto [size, stride] : llvm::zip(memref.getShape(), strides)) {
    if (size == 0)
      return 0;
    std::optional<int64_t> step = llvm::checkedMul(size - 1, stride);
    if (!step || *step < 0 || !last)
      return std::nullopt;
    last = llvm::checkedAdd(*last, *step);
  }
  return last ? llvm::checkedAdd(*last, int64_t(1)) : std::nullopt;
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto kernel =
      symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr());
  if (!kernel)
    return emitOpError() << getKernelAttr() << " does not name a bir.kernel";
  // Every core of a split kernel has the same memory locations, so the
  // first program module stands for all.
  auto modules = kernel.getBody().front().getOps<ModuleOp>();
  FuncOp main;
  if (!modules.empty())
    main = symbolTable.lookupSymbolIn<FuncOp>(
        *modules.begin(), StringAttr::get(getContext(), "main"));
  if (!main)
    return emitOpError() << "kernel " << getKernelAttr()
                         << " has no @main function to bind arguments to";
  SmallVector<MemlocOp> memlocs = getLaunchedMemlocs(main);
  if (memlocs.size() != getArguments().size())
    return emitOpError() << "passes " << getArguments().size()
                         << " argument(s), but @main of kernel "
                         << getKernelAttr() << " has " << memlocs.size()
                         << " DRAM input(s) and output(s)";
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getArguments(), memlocs))) {
    auto [argument, memloc] = pair;
    auto memref = cast<MemRefType>(argument.getType());
    MemoryType type = memloc.getMemoryType();
    if (getStorageType(memref.getElementType()) != type.getElementType() ||
        getBoundElementCount(memref) != type.getNumElements())
      return emitOpError() << "argument #" << index << " (" << memref
                           << ") does not match '" << memloc.getName()
                           << "' of kernel " << getKernelAttr() << " ("
                           << memloc.getType() << ")";
  }
  return success();
}

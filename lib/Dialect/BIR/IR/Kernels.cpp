//===- Kernels.cpp - Where kernels are ------------------------------------===//

#include "Walrus/Dialect/BIR/IR/Kernels.h"

using namespace mlir;
using namespace walrus::bir;

bool walrus::bir::isProgramModule(ModuleOp module) {
  return !module.getOps<FuncOp>().empty();
}

/// Why a program module cannot sit in `parent`, or nothing when it can.
static std::optional<std::string> misplacedReason(Operation *parent) {
  if (auto module = dyn_cast<ModuleOp>(parent))
    return isProgramModule(module)
               ? std::optional<std::string>("inside another kernel module")
               : std::nullopt;
  if (isa<KernelOp>(parent))
    return std::nullopt;
  return ("inside '" + parent->getName().getStringRef() + "'").str();
}

FailureOr<SmallVector<ModuleOp>>
walrus::bir::findProgramModules(Operation *root) {
  SmallVector<ModuleOp> modules;
  bool misplaced = false;
  root->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa<FuncOp>(op))
      return WalkResult::skip();
    auto module = dyn_cast<ModuleOp>(op);
    if (!module || !isProgramModule(module))
      return WalkResult::advance();
    if (op != root) {
      if (std::optional<std::string> why = misplacedReason(op->getParentOp())) {
        module.emitError() << "kernel module is " << *why
                           << ": kernels sit in a builtin.module or a "
                              "bir.kernel";
        misplaced = true;
      }
    }
    modules.push_back(module);
    return WalkResult::advance();
  });
  if (misplaced)
    return failure();
  return modules;
}

LogicalResult walrus::bir::forEachKernelFunc(Operation *root,
                                             function_ref<void(FuncOp)> fn) {
  FailureOr<SmallVector<ModuleOp>> programs = findProgramModules(root);
  if (failed(programs))
    return failure();
  for (ModuleOp program : *programs)
    for (FuncOp func : program.getOps<FuncOp>())
      fn(func);
  return success();
}

bool walrus::bir::needsSplit(ModuleOp module) {
  return getLncSize(module) > 1 && !getNeuronCoreId(module);
}

LogicalResult walrus::bir::expectSplit(ModuleOp module, StringRef pass) {
  if (!needsSplit(module))
    return success();
  return module.emitError()
         << pass << " works on per-core programs, but this kernel is still "
         << "symbolic over " << getLncSize(module)
         << " cores: run -lnc-split first";
}

std::string walrus::bir::getQualifiedName(FuncOp func) {
  SmallVector<StringRef> names{func.getSymName()};
  for (Operation *op = func->getParentOp(); op; op = op->getParentOp())
    if (auto name =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      names.push_back(name.getValue());
  std::string qualified;
  for (StringRef name : llvm::reverse(names))
    qualified += (qualified.empty() ? "@" : "::@") + name.str();
  return qualified;
}

std::string walrus::bir::onCore(Operation *op) {
  if (std::optional<int64_t> core = getNeuronCoreId(op))
    return (" on core " + Twine(*core)).str();
  return "";
}

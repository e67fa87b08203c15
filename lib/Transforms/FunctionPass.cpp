//===- FunctionPass.cpp - Nesting a pass onto every kernel function -------===//

#include "FunctionPass.h"

using namespace mlir;
using namespace walrus;

void walrus::nestOnFunctions(Operation *root, ArrayRef<ModuleOp> programs,
                             OpPassManager &pm,
                             function_ref<std::unique_ptr<Pass>()> createPass) {
  // One nested pass manager per distinct path of op names from `root`:
  // the pass manager runs all ops of a name in a region in parallel.
  DenseMap<std::pair<OpPassManager *, OperationName>, OpPassManager *> nested;
  llvm::SmallPtrSet<OpPassManager *, 4> withPass;
  for (ModuleOp program : programs) {
    SmallVector<Operation *> path;
    for (Operation *op = program; op != root; op = op->getParentOp())
      path.push_back(op);
    OpPassManager *current = &pm;
    for (Operation *op : llvm::reverse(path)) {
      OpPassManager *&next = nested[{current, op->getName()}];
      if (!next)
        next = &current->nest(op->getName());
      current = next;
    }
    if (withPass.insert(current).second)
      current->nest<bir::FuncOp>().addPass(createPass());
  }
}

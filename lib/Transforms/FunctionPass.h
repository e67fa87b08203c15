//===- FunctionPass.h - Passes on one bir.func at a time --------*- C++ -*-===//
//
// The function-local passes (vn-split, shrink-dn, sb-alloc, sb-alloc-verify,
// print-bir-summary) are op-agnostic passes built on FunctionPass
// (docs/Rationale.md, "Function passes"):
//
// - scheduled on a bir.func (`--pass-pipeline='...(bir.func(sb-alloc))'`),
//   they do their work on it;
// - scheduled on anything else (the top module, as `walrus-opt -sb-alloc`
//   does, a host module or a bir.kernel), they find the kernels below by the
//   kernel rule (Kernels.h) and run themselves on every bir.func through a
//   nested pipeline that mirrors where the functions sit, so MLIR's pass
//   manager runs the per-core programs in parallel, orders their
//   diagnostics and instruments each function.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_TRANSFORMS_FUNCTIONPASS_H
#define WALRUS_LIB_TRANSFORMS_FUNCTIONPASS_H

#include "Walrus/Dialect/BIR/IR/Kernels.h"
#include "Walrus/Support/ListedOptions.h"

#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassManager.h"

#include <mutex>

namespace walrus {

/// Adds to `pm`, anchored on `root`'s op name, the nesting that reaches the
/// functions of every module in `programs` (all under `root`), with a pass
/// from `createPass` on each.
void nestOnFunctions(
    mlir::Operation *root, llvm::ArrayRef<mlir::ModuleOp> programs,
    mlir::OpPassManager &pm,
    llvm::function_ref<std::unique_ptr<mlir::Pass>()> createPass);

/// What the per-function instances of a pass produce for one output (a
/// report file, printed text), gathered from the threads they run on and
/// handed back in program order. The dispatching instance makes it before
/// the functions run; the instances share it through their copies.
template <typename T> class FunctionResults {
public:
  explicit FunctionResults(llvm::ArrayRef<mlir::ModuleOp> programs) {
    for (mlir::ModuleOp program : programs)
      for (bir::FuncOp func : program.getOps<bir::FuncOp>())
        order.try_emplace(func, order.size());
  }

  void add(bir::FuncOp func, T result) {
    std::lock_guard<std::mutex> lock(mutex);
    results.emplace_back(order.lookup(func), std::move(result));
  }

  /// The results, in program order.
  std::vector<T> take() {
    llvm::sort(results, llvm::less_first());
    std::vector<T> ordered;
    for (auto &entry : results)
      ordered.push_back(std::move(entry.second));
    results.clear();
    return ordered;
  }

private:
  llvm::DenseMap<mlir::Operation *, size_t> order;
  std::mutex mutex;
  std::vector<std::pair<size_t, T>> results;
};

/// The base of a function-local pass: `BaseT` is its ODS-generated base
/// (op-agnostic); the pass implements runOnFunction and, for what it needs
/// across functions, beforeFunctions / afterFunctions.
template <typename BaseT> class FunctionPass : public ListedOptions<BaseT> {
public:
  using ListedOptions<BaseT>::ListedOptions;

protected:
  /// The pass's work on one function.
  virtual void runOnFunction(bir::FuncOp func) = 0;

  /// On the dispatching instance, before the functions run: checks and
  /// shared state for the per-function instances (copied into them).
  virtual mlir::LogicalResult
  beforeFunctions(llvm::ArrayRef<mlir::ModuleOp> programs) {
    return mlir::success();
  }

  /// On the dispatching instance, after every function succeeded.
  virtual mlir::LogicalResult afterFunctions() { return mlir::success(); }

private:
  void runOnOperation() final {
    mlir::Operation *op = this->getOperation();
    if (auto func = mlir::dyn_cast<bir::FuncOp>(op))
      return runOnFunction(func);
    mlir::FailureOr<llvm::SmallVector<mlir::ModuleOp>> programs =
        bir::findProgramModules(op);
    if (mlir::failed(programs) || mlir::failed(beforeFunctions(*programs)))
      return this->signalPassFailure();
    if (programs->empty()) {
      if (mlir::failed(afterFunctions()))
        return this->signalPassFailure();
      return this->markAllAnalysesPreserved();
    }
    mlir::OpPassManager pm(op->getName());
    nestOnFunctions(op, *programs, pm, [&] { return this->clone(); });
    if (mlir::failed(this->runPipeline(pm, op)) ||
        mlir::failed(afterFunctions()))
      return this->signalPassFailure();
    // As for MLIR's own nested pass managers: the nested pipeline verified
    // each function after the pass, and nothing outside the functions
    // changed, so the pass manager need not verify everything again (which
    // costs as much as the passes on large kernels). No Walrus analysis
    // lives on the ops around the functions.
    this->markAllAnalysesPreserved();
  }
};

} // namespace walrus

#endif // WALRUS_LIB_TRANSFORMS_FUNCTIONPASS_H

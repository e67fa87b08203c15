//===- Kernels.h - Where kernels are ----------------------------*- C++ -*-===//
//
// The one rule every Walrus pass and verifier uses to find kernels in a
// host compiler's module (docs/Rationale.md, "Where kernels are").
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_DIALECT_BIR_IR_KERNELS_H
#define WALRUS_DIALECT_BIR_IR_KERNELS_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

namespace walrus::bir {

/// Whether `module` is a program module: a builtin.module that directly
/// holds `bir.func`s (a symbolic kernel, or one core of a split one).
bool isProgramModule(mlir::ModuleOp module);

/// Every program module at or under `root`, in program order. A program
/// module sits at `root`, in a builtin.module (a host module, at any depth)
/// or in a bir.kernel, and holds no other program module; one anywhere else
/// is a located error naming where it sits, so no pass skips a kernel
/// silently. Function bodies are not walked.
mlir::FailureOr<llvm::SmallVector<mlir::ModuleOp>>
findProgramModules(mlir::Operation *root);

/// Calls `fn` on every bir.func of the program modules at or under `root`
/// (findProgramModules), in program order; fails as it does.
mlir::LogicalResult forEachKernelFunc(mlir::Operation *root,
                                      llvm::function_ref<void(FuncOp)> fn);

/// The memory locations a bir.launch binds, in the order of its
/// arguments: `func`'s DRAM inputs and outputs, in declaration order.
llvm::SmallVector<MemlocOp> getLaunchedMemlocs(FuncOp func);

/// Whether `module` is a symbolic kernel that still has to be split: more
/// than one core and no `bir.neuron_core_id`.
bool needsSplit(mlir::ModuleOp module);

/// Fails with an error at `module` when it still has to be split: `pass`
/// works on per-core programs only.
mlir::LogicalResult expectSplit(mlir::ModuleOp module, llvm::StringRef pass);

/// " on core N" for an op of a per-core program, else "": errors on the
/// per-core copies of one source line say which copy they are about.
std::string onCore(mlir::Operation *op);

/// "@module::@func" (or "@func" in an unnamed module) for diagnostics and
/// reports.
std::string getQualifiedName(FuncOp func);

} // namespace walrus::bir

#endif // WALRUS_DIALECT_BIR_IR_KERNELS_H

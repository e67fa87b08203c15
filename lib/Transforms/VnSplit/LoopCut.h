//===- LoopCut.h - Index-set splitting of bir.loop --------------*- C++ -*-===//
//
// Cutting a loop into loops over consecutive runs of its iterations
// changes nothing the program does (the iterations run in the same order),
// but each part's accesses reach only part of what the whole loop's reach:
// -vn-split cuts the loops walking a tensor too large for SB so that the
// tensor splits into pieces that fit (docs/VnSplit.md, "Loop cuts").
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_LIB_TRANSFORMS_VNSPLIT_LOOPCUT_H
#define WALRUS_LIB_TRANSFORMS_VNSPLIT_LOOPCUT_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

namespace walrus {

/// The loops that walk `memloc` in `users` (instructions): for each of its
/// symbolic accesses, the outermost loop around the instruction whose
/// induction variable moves the start. Failure, saying why, when there is
/// none, when one holds another (cutting the outer one would copy the
/// inner one) or when one holds a core barrier, collective or sb2sb.
mlir::FailureOr<llvm::SmallVector<bir::LoopOp>>
getWalkingLoops(mlir::Value memloc, llvm::ArrayRef<mlir::Operation *> users,
                std::string &why);

/// Loops cut into parts, until undone.
class LoopCuts {
public:
  /// Cuts each of `loops` into `parts` loops (fewer when it has fewer
  /// iterations) of consecutive iterations, in order, the first keeping
  /// the original operation. Returns how many loops were added.
  int64_t cut(llvm::ArrayRef<bir::LoopOp> loops, int64_t parts);
  /// Erases the added loops and restores the cut ones.
  void undo();

private:
  llvm::SmallVector<std::pair<bir::LoopOp, mlir::IntegerAttr>> originalUppers;
  llvm::SmallVector<bir::LoopOp> added;
};

} // namespace walrus

#endif // WALRUS_LIB_TRANSFORMS_VNSPLIT_LOOPCUT_H

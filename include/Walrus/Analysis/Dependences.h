//===- Dependences.h - Which instructions must stay in order -----*- C++
//-*-===//
//
// The memory dependences among the instructions and loops of a run of a
// block: one must stay after another when both touch a byte and one of
// them writes it (read after write, write after read, write after write).
// -bir-schedule reorders within these (docs/Schedule.md).
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_DEPENDENCES_H
#define WALRUS_ANALYSIS_DEPENDENCES_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/ADT/SmallVector.h"

namespace walrus {

/// Whether a scheduler may move `op` within its block: an instruction that
/// does not reach across cores (a barrier, a collective, a copy into another
/// core's SBUF: the other cores' order depends on it), or a loop.
bool isReorderable(mlir::Operation *op);

/// The maximal runs of reorderable ops of `block`, in order.
llvm::SmallVector<llvm::SmallVector<mlir::Operation *>>
getReorderableRuns(mlir::Block &block);

/// For each op of `run` (reorderable ops of one block, in order), the
/// earlier ops of the run it depends on. A loop accesses what the
/// instructions inside it do. Two accesses conflict when they may touch a
/// common byte: the same memory location (or one of its views, or one in
/// the same storage set) where the rectangles they touch over every
/// iteration overlap (any byte when one goes through a view or has no
/// rectangle), or two placed on-chip tensors whose bytes overlap.
llvm::SmallVector<llvm::SmallVector<unsigned, 4>>
getDependences(llvm::ArrayRef<mlir::Operation *> run);

} // namespace walrus

#endif // WALRUS_ANALYSIS_DEPENDENCES_H

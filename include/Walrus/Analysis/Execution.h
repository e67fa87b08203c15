//===- Execution.h - The instructions a core executes -----------*- C++ -*-===//
//
// A core runs its function's instructions in order, each loop's body once
// per iteration, skipping those whose mask is false for it. The timeline
// walks them one at a time without storing them (ExecutionCursor), and
// checks how many there are before it starts (countExecuted): the count
// costs a walk of the IR, however many iterations the loops have.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_ANALYSIS_EXECUTION_H
#define WALRUS_ANALYSIS_EXECUTION_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/ADT/SmallVector.h"

namespace walrus {

/// The instructions `shard` executes in `block`, in order, loops unrolled;
/// a loop with no instruction inside is skipped.
class ExecutionCursor {
public:
  ExecutionCursor(mlir::Block &block, int64_t shard);

  /// The next executed instruction, or null after the last.
  mlir::Operation *next();
  /// The induction variables, outermost first, of the instruction `next`
  /// returned.
  llvm::ArrayRef<int64_t> getIvs() const { return ivs; }

private:
  struct Frame {
    mlir::Block::iterator at, end;
    bir::LoopOp loop; // null for the function's body
  };
  llvm::SmallVector<Frame, 4> frames;
  llvm::SmallVector<int64_t, 4> ivs;
  int64_t shard;
};

/// The instruction a core executes most often, and how often.
struct HeaviestInstruction {
  mlir::Operation *op = nullptr;
  int64_t times = 0;
};

/// How many instructions `shard` executes in `block`, saturated at
/// INT64_MAX; `heaviest` (when given) follows the one run most often.
int64_t countExecuted(mlir::Block &block, int64_t shard,
                      HeaviestInstruction *heaviest = nullptr);

} // namespace walrus

#endif // WALRUS_ANALYSIS_EXECUTION_H

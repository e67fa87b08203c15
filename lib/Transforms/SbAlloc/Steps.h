//===- Steps.h - The IR-changing steps of -sb-alloc -------------*- C++ -*-===//

#ifndef WALRUS_LIB_TRANSFORMS_SBALLOC_STEPS_H
#define WALRUS_LIB_TRANSFORMS_SBALLOC_STEPS_H

#include "Walrus/Analysis/Liveness.h"
#include "Walrus/Analysis/RowAlignment.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace walrus {

/// Fresh names for the memory locations the steps add to a function. The
/// function's names are read when the first fresh one is needed: most
/// functions need none, and at 100k tensors reading them is not free.
class MemlocNamer {
public:
  explicit MemlocNamer(bir::FuncOp func) : func(func) {}

  /// `base`, or `base` with a number appended, that no memory location of
  /// the function has and no earlier call returned.
  std::string getUnusedName(llvm::StringRef base);

private:
  bir::FuncOp func;
  std::optional<llvm::StringSet<>> names;
};

/// memloc_split: gives each independent segment of an SBUF tensor's life a
/// clone of its own (docs/SbAlloc.md). `liveness` is `func`'s; it is stale
/// once this returns a number of clones other than 0.
unsigned splitDisjointSegments(bir::FuncOp func, const TensorLiveness &liveness,
                               MemlocNamer &namer, bool explain);

/// find_partners: groups of tensors one of `copies` (each with its program
/// point, in program order) moves between that may share one place.
/// Groups whose tensors together need more than `budget` bytes per
/// partition are dropped with the remark "accumulation group is too large
/// for SB".
llvm::SmallVector<llvm::SmallVector<bir::MemlocOp, 2>>
findPartners(llvm::ArrayRef<std::pair<bir::TensorCopyOp, unsigned>> copies,
             const TensorLiveness &liveness, int64_t budget, bool explain);

/// find_partners' accumulation groups: where each SBUF tensor a matmult
/// reads must start, and its partition band class (Height), for its rows
/// to meet the other operand's on the tensor engine (RowAlignment.h).
/// Fails, with an error, when no placement can align them.
mlir::FailureOr<RowBands> stampRowBands(bir::FuncOp func, int64_t partitions,
                                        bool explain);

/// One remark per tensor whose start its partners' rows chose.
void explainRowBands(const RowBands &rowBands, int64_t partitions);

/// Spills `memloc` to a DRAM home: every instruction that uses it gets a
/// short tensor of its own, reloaded before and stored after. Fails (with
/// an error) for tensors whose contents cross the program boundary or that
/// have views.
/// The short tensors made are added to `spillLocals`.
mlir::LogicalResult
spillToDram(bir::MemlocOp memloc, MemlocNamer &namer,
            llvm::SmallPtrSetImpl<mlir::Operation *> &spillLocals);

} // namespace walrus

#endif // WALRUS_LIB_TRANSFORMS_SBALLOC_STEPS_H

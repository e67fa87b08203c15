//===- SbAllocSteps.h - The IR-changing steps of -sb-alloc ------*- C++ -*-===//

#ifndef WALRUS_LIB_TRANSFORMS_SBALLOCSTEPS_H
#define WALRUS_LIB_TRANSFORMS_SBALLOCSTEPS_H

#include "Walrus/Analysis/Liveness.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/StringSet.h"

namespace walrus {

/// `base`, or `base` with a number appended, not in `names`; adds it.
std::string getUnusedName(llvm::StringSet<> &names, llvm::StringRef base);

/// The names of `func`'s memory locations.
llvm::StringSet<> getMemlocNames(bir::FuncOp func);

/// memloc_split: gives each independent segment of an SBUF tensor's life a
/// clone of its own (docs/SbAlloc.md). Returns the number of clones.
unsigned splitDisjointSegments(bir::FuncOp func, llvm::StringSet<> &names,
                               bool explain);

/// find_partners: groups of tensors a copy moves between that may share
/// one place. Groups whose tensors together need more than `budget` bytes
/// per partition are dropped with the remark "accumulation group is too
/// large for SB".
llvm::SmallVector<llvm::SmallVector<bir::MemlocOp, 2>>
findPartners(bir::FuncOp func, const TensorLiveness &liveness, int64_t budget,
             bool explain);

/// Spills `memloc` to a DRAM home: every instruction that uses it gets a
/// short tensor of its own, reloaded before and stored after. Fails (with
/// an error) for tensors whose contents cross the program boundary or that
/// have views.
/// The short tensors made are added to `spillLocals`.
mlir::LogicalResult
spillToDram(bir::MemlocOp memloc, llvm::StringSet<> &names,
            llvm::SmallPtrSetImpl<mlir::Operation *> &spillLocals);

} // namespace walrus

#endif // WALRUS_LIB_TRANSFORMS_SBALLOCSTEPS_H

//===- VerticalFusion.h - The fold half of -vn-split ------------*- C++ -*-===//

#ifndef WALRUS_LIB_TRANSFORMS_VNSPLIT_VERTICALFUSION_H
#define WALRUS_LIB_TRANSFORMS_VNSPLIT_VERTICALFUSION_H

#include "Walrus/Dialect/BIR/IR/BIR.h"

#include "llvm/ADT/StringSet.h"

namespace walrus {

/// Removes every temporary of `func` that is written once and read only by
/// a copy of exactly what was written, making its producer write the copy's
/// destination (docs/VnSplit.md, "Fold"). With `explain`, every fold and
/// every blocked candidate gets a remark. Tensors named in
/// `remotelyWritten` are written by other cores and stay. Returns the
/// number of folds.
unsigned foldCopiesIntoProducers(bir::FuncOp func,
                                 const llvm::StringSet<> &remotelyWritten,
                                 bool explain);

} // namespace walrus

#endif // WALRUS_LIB_TRANSFORMS_VNSPLIT_VERTICALFUSION_H

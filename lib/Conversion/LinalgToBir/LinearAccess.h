//===- LinearAccess.h - Operands as linear functions of the loops -*- C++
//-*-===//
//
// An operand of a linalg op whose indexing map is linear in the loops is
// at `offset + sum(coef_d * i_d)` of its DRAM tensor: what the general
// lowering and the tensor-engine contraction lowering read it through.
//
//===----------------------------------------------------------------------===//

#ifndef WALRUS_CONVERSION_LINALGTOBIR_LINEARACCESS_H
#define WALRUS_CONVERSION_LINALGTOBIR_LINEARACCESS_H

#include "Lowerings.h"

namespace walrus::linalg_to_bir {

/// Where an operand's elements are: element `offset + sum(coefficients[d] *
/// i_d)` of its memory location, for loop indices i.
struct LinearAccess {
  DramTensor tensor;
  llvm::SmallVector<int64_t> coefficients;
  int64_t offset = 0;
};

/// The access of `operand` of `op` through its indexing map and its
/// memref's strides, or an error; its every element checked to lie in its
/// memory location for the loop `ranges`.
mlir::FailureOr<LinearAccess> getLinearAccess(mlir::linalg::LinalgOp op,
                                              mlir::OpOperand &operand,
                                              llvm::ArrayRef<int64_t> ranges,
                                              Lowering &lowering);

} // namespace walrus::linalg_to_bir

#endif // WALRUS_CONVERSION_LINALGTOBIR_LINEARACCESS_H

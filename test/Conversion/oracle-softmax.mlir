// RUN: %python %utils/linalg_oracle.py %s --reference-file %S/Inputs/softmax-reference.mlir --reference softmax_reference --bin %walrus_tools --lnc-size 1 --rtol 1e-6 --atol 1e-7 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --reference-file %S/Inputs/softmax-reference.mlir --reference softmax_reference --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s

// linalg.softmax, which upstream lowers to LLVM only after decomposing it
// on tensors, against the same computation written out in linalg
// (Inputs/softmax-reference.mlir): max, subtract, exp, sum, divide. Walrus
// multiplies by the reciprocal of the sum: within 2 ulp.

// CHECK: softmax_arg1: 21000 elements
// CHECK: oracle: within tolerance
func.func @softmax(%x: memref<140x150xf32>, %y: memref<140x150xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<140x150xf32>) outs(%y : memref<140x150xf32>)
  return
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s

// A function that returns its argument, and one buffer twice: each result
// is read back from the memory location that holds it (the argument's own,
// the one returned allocation), not from a result numbered by position.

// CHECK:      ret_arg0: 2048 elements, max error 0
// CHECK-NEXT: ret_result0: 2048 elements, max error 0
// CHECK-NEXT: ret_result0: 2048 elements, max error 0
// CHECK-NEXT: oracle: identical
func.func @ret(%x: tensor<64x32xf32>) -> (tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>) {
  %e = tensor.empty() : tensor<64x32xf32>
  %y = linalg.add ins(%x, %x : tensor<64x32xf32>, tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %x, %y, %y : tensor<64x32xf32>, tensor<64x32xf32>, tensor<64x32xf32>
}

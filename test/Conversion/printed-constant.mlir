// RUN: walrus-opt %s -walrus-from-linalg=lnc-size=2 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: identical

// The form of LLVM's CPU integration tests (mlir/test/Integration/Dialect/
// Linalg/CPU): arith on constant tensors, printed. The sum folds; the
// kernel copies it into the buffer the host prints.
// CHECK-LABEL: func.func @printed_sum
// CHECK:         bir.launch @printed_sum_kernel
// CHECK-NEXT:    call @printMemrefF32
// CHECK-LABEL: bir.kernel @printed_sum_kernel
func.func @printed_sum() {
  %a = arith.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = arith.constant dense<[10.0, 20.0, 30.0]> : tensor<3xf32>
  %sum = arith.addf %a, %b : tensor<3xf32>
  %unranked = tensor.cast %sum : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%unranked) : (tensor<*xf32>) -> ()
  return
}
func.func private @printMemrefF32(%ptr : tensor<*xf32>)

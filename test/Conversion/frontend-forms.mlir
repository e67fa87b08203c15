// RUN: walrus-opt %s -walrus-from-linalg | FileCheck %s

// What front ends put around the linalg: torch-mlir declares a seed global
// in every module it emits (dropped when private and unused) and checks
// static sizes with cf.assert (dropped when the condition folds to true).

// CHECK-NOT:   ml_program.global
// CHECK-LABEL: func.func @main
// CHECK-NOT:   cf.assert
// CHECK:       bir.launch @main_kernel
// CHECK:       bir.kernel @main_kernel
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @main(%arg0: tensor<128x64xf32>) -> tensor<128x64xf32> {
    %c64 = arith.constant 64 : index
    %c64_0 = arith.constant 64 : index
    %eq = arith.cmpi eq, %c64, %c64_0 : index
    cf.assert %eq, "mismatching contracting dimension"
    %cst = arith.constant 1.000000e+00 : f32
    %0 = tensor.empty() : tensor<128x64xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<128x64xf32>) outs(%0 : tensor<128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.addf %in, %cst : f32
      linalg.yield %2 : f32
    } -> tensor<128x64xf32>
    return %1 : tensor<128x64xf32>
  }
}

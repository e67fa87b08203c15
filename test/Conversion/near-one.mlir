// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func softplus --bin %walrus_tools --pipeline --atol 2e-7 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func elu --bin %walrus_tools --lnc-size 2 --pipeline --atol 2e-7 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// math.log1p and math.expm1, which the scalar engine has no function for,
// become log(1 + x) and exp(x) - 1 (-normalize-linalg): an absolute error
// of about 2^-24 near 0, within 2e-7 of MLIR's run.

// torch's softplus (beta 1, threshold 20) as torch-mlir writes it.
// CHECK-LABEL: func.func @softplus
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:    %[[S:.*]] = arith.addf %[[E]], %cst{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = math.log %[[S]] : f32
// CHECK-NOT:     math.log1p
func.func @softplus(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %threshold = arith.constant 2.000000e+01 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %big = arith.cmpf ogt, %in, %threshold : f32
    %exp = math.exp %in : f32
    %soft = math.log1p %exp : f32
    %v = arith.select %big, %in, %soft : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// torch's ELU (alpha 1): expm1 below 0.
// CHECK-LABEL: func.func @elu
// CHECK:         %[[E:.*]] = math.exp %{{.*}} : f32
// CHECK-NEXT:    %{{.*}} = arith.subf %[[E]], %cst{{.*}} : f32
// CHECK-NOT:     math.expm1
func.func @elu(%x: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %neg = arith.cmpf ole, %in, %zero : f32
    %em1 = math.expm1 %in : f32
    %v = arith.select %neg, %em1, %in : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// RUN: walrus-opt %s -split-input-file -walrus-from-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func cube --bin %walrus_tools --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func fourth --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func root --bin %walrus_tools --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s --check-prefix=ORACLE

// torch-mlir's GPT-2 GELU, op by op, raises to 3 in a generic of its own
// (`math.powf %x, 3.0`): x^2 on the scalar engine, then times x, in place
// on the result's tile; x^4 squares twice. Two roundings where libm's
// powf has one: within 2 ulp of MLIR's run.
// ORACLE: oracle: {{identical|within tolerance}}

// CHECK-LABEL: bir.kernel @cube_kernel
// CHECK:         bir.activation square %[[T:[a-z_0-9]+]][{{.*}}], %[[X:[a-z_0-9]+]][{{.*}}] :
// CHECK-NEXT:    bir.tensor_tensor multiply %[[T]][{{.*}}], %[[T]][{{.*}}], %[[X]][{{.*}}] :
func.func @cube(%x: tensor<1x5x3072xf32>) -> tensor<1x5x3072xf32> {
  %c3 = arith.constant 3.000000e+00 : f32
  %e = tensor.empty() : tensor<1x5x3072xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<1x5x3072xf32>) outs(%e : tensor<1x5x3072xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %c3 : f32
    linalg.yield %p : f32
  } -> tensor<1x5x3072xf32>
  return %y : tensor<1x5x3072xf32>
}

// -----

// CHECK-LABEL: bir.kernel @fourth_kernel
// CHECK:         bir.activation square %[[T:[a-z_0-9]+]][{{.*}}], %{{.*}} :
// CHECK-NEXT:    bir.activation square %[[T]][{{.*}}], %[[T]][{{.*}}] :
func.func @fourth(%x: tensor<200x64xf32>) -> tensor<200x64xf32> {
  %c4 = arith.constant 4 : i32
  %e = tensor.empty() : tensor<200x64xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<200x64xf32>) outs(%e : tensor<200x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.fpowi %in, %c4 : f32, i32
    linalg.yield %p : f32
  } -> tensor<200x64xf32>
  return %y : tensor<200x64xf32>
}

// -----

// x ** 0.5 and x ** -0.5 are the scalar engine's sqrt and rsqrt (equal to
// powf but at -0 and -inf). Inputs in [-1, 1): NaN below 0 on both sides.
// CHECK-LABEL: bir.kernel @root_kernel
// CHECK:         bir.activation sqrt
// CHECK:         bir.activation rsqrt
func.func @root(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %half = arith.constant 5.000000e-01 : f32
  %minus_half = arith.constant -5.000000e-01 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.powf %in, %half : f32
    %a = math.absf %in : f32
    %s = math.powf %a, %minus_half : f32
    %t = arith.addf %r, %s : f32
    linalg.yield %t : f32
  } -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

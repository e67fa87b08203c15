// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func unary --lnc-size 2 --pipeline --atol 1e-7 --rtol 1e-6 | FileCheck %s --check-prefix=UNARY
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func hardswish --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func casts | FileCheck %s --check-prefix=EXACT

// The scalar bodies torch-mlir emits: sqrt, abs, log, erf and powf by 2
// (activation engine functions: computed in f64 and rounded once, so
// within one f32 ulp of libm's, which is not always correctly rounded),
// hardswish with its clamps as cmpf + select (x + 3 is never -0, so the
// clamp at 0 is a max), and integer-to-float casts (exact).

// Near misses of GELU's constants (a NaN or 0.50001 scale) are not GELU:
// they lower op by op, erf included, and compute what they say.
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func gelu_nan_scale | FileCheck %s --check-prefix=NAN-SCALE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func gelu_near_scale --atol 1e-7 --rtol 1e-6 | FileCheck %s --check-prefix=NEAR
// NEAR: oracle: {{identical|within tolerance}}
// A NaN scale makes every output NaN, on both sides: the oracle says that
// nothing was compared (its NaN payloads are LLVM's choice).
// NAN-SCALE: gelu_nan_scale_arg1: 64 elements, max error 0 (64 NaN on both sides)
// NAN-SCALE: oracle: vacuous: every output element is NaN on both sides

// UNARY: oracle: within tolerance
// EXACT: oracle: identical

#map = affine_map<(d0, d1) -> (d0, d1)>
module {
  func.func @unary(%arg0: tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>) {
    %0 = tensor.empty() : tensor<4x8xf32>
    %sq = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %a = math.absf %in : f32
      %s = math.sqrt %a : f32
      linalg.yield %s : f32
    } -> tensor<4x8xf32>
    %lg = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %c2 = arith.constant 2.000000e+00 : f32
      %a = arith.addf %in, %c2 : f32
      %l = math.log %a : f32
      linalg.yield %l : f32
    } -> tensor<4x8xf32>
    %er = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %e = math.erf %in : f32
      linalg.yield %e : f32
    } -> tensor<4x8xf32>
    %pw = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %c2 = arith.constant 2.000000e+00 : f32
      %p = math.powf %in, %c2 : f32
      linalg.yield %p : f32
    } -> tensor<4x8xf32>
    return %sq, %lg, %er, %pw : tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>, tensor<4x8xf32>
  }
  // torch's hardswish: x * min(max(x + 3, 0), 6) / 6, clamps as cmpf + select.
  func.func @hardswish(%arg0: tensor<4x8xf32>) -> tensor<4x8xf32> {
    %cst = arith.constant 3.000000e+00 : f32
    %cst_0 = arith.constant 0.000000e+00 : f32
    %cst_1 = arith.constant 6.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xf32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %2 = arith.addf %in, %cst : f32
      %3 = arith.cmpf ult, %2, %cst_0 : f32
      %4 = arith.select %3, %cst_0, %2 : f32
      %5 = arith.cmpf ugt, %4, %cst_1 : f32
      %6 = arith.select %5, %cst_1, %4 : f32
      %7 = arith.mulf %in, %6 : f32
      %8 = arith.divf %7, %cst_1 : f32
      linalg.yield %8 : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func @casts(%arg0: tensor<4x8xi32>) -> tensor<4x8xf32> {
    %0 = tensor.empty() : tensor<4x8xf32>
    %1 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<4x8xi32>) outs(%0 : tensor<4x8xf32>) {
    ^bb0(%in: i32, %out: f32):
      %e = arith.extsi %in : i32 to i64
      %f = arith.sitofp %e : i64 to f32
      linalg.yield %f : f32
    } -> tensor<4x8xf32>
    return %1 : tensor<4x8xf32>
  }
  func.func @gelu_nan_scale(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %half = arith.constant 0x7FC00000 : f32
      %one = arith.constant 1.0 : f32
      %r = arith.constant 0.707106769 : f32
      %s = arith.mulf %a, %r : f32
      %e = math.erf %s : f32
      %p = arith.addf %one, %e : f32
      %h = arith.mulf %a, %half : f32
      %g = arith.mulf %h, %p : f32
      linalg.yield %g : f32
    }
    return
  }
  func.func @gelu_near_scale(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
    linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                    iterator_types = ["parallel", "parallel"]}
        ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
    ^bb0(%a: f32, %o: f32):
      %half = arith.constant 0.50001 : f32
      %one = arith.constant 1.0 : f32
      %r = arith.constant 0.707106769 : f32
      %s = arith.mulf %a, %r : f32
      %e = math.erf %s : f32
      %p = arith.addf %one, %e : f32
      %h = arith.mulf %a, %half : f32
      %g = arith.mulf %h, %p : f32
      linalg.yield %g : f32
    }
    return
  }
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -walrus-from-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir 2>/dev/null | FileCheck %s --check-prefix=F32
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir=f64-as-f32=false 2>&1 | FileCheck %s --check-prefix=F64

// torch's LayerNorm with its variance in f64. The engines have no f64:
// by default (f64-as-f32) every f64 intermediate buffer and tile is f32,
// with a remark at each op that computed in f64. Within 1e-5 of the f64
// computation on the CPU (f32 sums of 32 squares of values below 2).

// ORACLE: oracle: within tolerance
// REMARK: f64-as-f32.mlir:{{.*}} remark: convert-linalg-to-bir: f64 computed in f32 (the engines have no f64; f64-as-f32=false keeps it)
// (The f64 squared deviations are computed by the variance's sum tile by
// tile, so the buffer left in f64 is the variance's.)
// F32-NOT: f64
// F32:     bir.memloc "layer_norm_buf2" internal : !bir.dram<1x16x1xf32>
// F32-NOT: f64
// F64:     bir.memloc "layer_norm_buf2" internal : !bir.dram<1x16x1xf64>

#map = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
#map2 = affine_map<(d0, d1, d2) -> (d2)>
module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @layer_norm(%arg0: tensor<1x16x32xf32>, %arg1: tensor<32xf32>, %arg2: tensor<32xf32>) -> tensor<1x16x32xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 3.200000e+01 : f32
    %cst_1 = arith.constant 0.000000e+00 : f64
    %cst_2 = arith.constant 3.200000e+01 : f64
    %cst_3 = arith.constant 9.9999999999999998E-13 : f64
    %0 = tensor.empty() : tensor<1x16x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x16x1xf32>) -> tensor<1x16x1xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<1x16x32xf32>) outs(%1 : tensor<1x16x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %s = arith.addf %in, %out : f32
      linalg.yield %s : f32
    } -> tensor<1x16x1xf32>
    %3 = tensor.empty() : tensor<1x16x32xf64>
    %4 = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %2 : tensor<1x16x32xf32>, tensor<1x16x1xf32>) outs(%3 : tensor<1x16x32xf64>) {
    ^bb0(%in: f32, %in_m: f32, %out: f64):
      %m = arith.divf %in_m, %cst_0 : f32
      %d = arith.subf %in, %m : f32
      %e = arith.extf %d : f32 to f64
      %q = arith.mulf %e, %e : f64
      linalg.yield %q : f64
    } -> tensor<1x16x32xf64>
    %5 = tensor.empty() : tensor<1x16x1xf64>
    %6 = linalg.fill ins(%cst_1 : f64) outs(%5 : tensor<1x16x1xf64>) -> tensor<1x16x1xf64>
    %7 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction"]} ins(%4 : tensor<1x16x32xf64>) outs(%6 : tensor<1x16x1xf64>) {
    ^bb0(%in: f64, %out: f64):
      %s = arith.addf %in, %out : f64
      linalg.yield %s : f64
    } -> tensor<1x16x1xf64>
    %8 = tensor.empty() : tensor<1x16x32xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map2, #map2, #map], iterator_types = ["parallel", "parallel", "parallel"]} ins(%arg0, %2, %7, %arg1, %arg2 : tensor<1x16x32xf32>, tensor<1x16x1xf32>, tensor<1x16x1xf64>, tensor<32xf32>, tensor<32xf32>) outs(%8 : tensor<1x16x32xf32>) {
    ^bb0(%in: f32, %in_m: f32, %in_v: f64, %w: f32, %b: f32, %out: f32):
      %m = arith.divf %in_m, %cst_0 : f32
      %v = arith.divf %in_v, %cst_2 : f64
      %ve = arith.addf %v, %cst_3 : f64
      %vt = arith.truncf %ve : f64 to f32
      %r = math.rsqrt %vt : f32
      %d = arith.subf %in, %m : f32
      %n = arith.mulf %d, %r : f32
      %y = arith.mulf %n, %w : f32
      %z = arith.addf %y, %b : f32
      linalg.yield %z : f32
    } -> tensor<1x16x32xf32>
    return %9 : tensor<1x16x32xf32>
  }
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func global_max --lnc-size 2 --pipeline | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func total --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func max_hw --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func column_sums --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func transpose_generic --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func transpose_heads --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func sum_dim1 --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func mean_keepdim --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func bias_nchw --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func matvec --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func dot --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func batch_reduce --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func imatmul --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func maxpool --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func transpose_heads --lnc-size 1 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func transpose_heads --lnc-size 4 --pipeline | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv --lnc-size 1 | FileCheck %s --check-prefix=OK
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func conv --lnc-size 4 --pipeline | FileCheck %s --check-prefix=OK

// The general lowering (docs/LinalgToBir.md, "The general lowering") on
// the forms torch-mlir emits: permutations as generics, linalg.transpose of
// attention heads, reductions along an outer dimension and keepdim means,
// broadcasts along outer dimensions, matvec / dot / batch_reduce_matmul,
// integer matmul, a strided NCHW convolution and a max pool, a full sum,
// a keepdim max over H and W, column sums. Each agrees
// with MLIR's own CPU execution.

// OK: oracle: {{identical|within tolerance}}
#map = affine_map<(d0, d1) -> (d0, d1)>
#mapT = affine_map<(d0, d1) -> (d1, d0)>
module {
  // torch's aten.t / permute as torch-mlir emits it: a generic whose input map permutes.
  func.func @transpose_generic(%arg0: tensor<200x96xf32>) -> tensor<96x200xf32> {
    %0 = tensor.empty() : tensor<96x200xf32>
    %1 = linalg.generic {indexing_maps = [#mapT, #map], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<200x96xf32>) outs(%0 : tensor<96x200xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<96x200xf32>
    return %1 : tensor<96x200xf32>
  }
  // Attention heads: [B, S, H, D] -> [B, H, S, D].
  func.func @transpose_heads(%arg0: tensor<2x16x4x8xf32>) -> tensor<2x4x16x8xf32> {
    %0 = tensor.empty() : tensor<2x4x16x8xf32>
    %t = linalg.transpose ins(%arg0 : tensor<2x16x4x8xf32>) outs(%0 : tensor<2x4x16x8xf32>) permutation = [0, 2, 1, 3]
    return %t : tensor<2x4x16x8xf32>
  }
  // torch.sum(x, dim=1) of a 3-D tensor.
  func.func @sum_dim1(%arg0: tensor<4x50x30xf32>) -> tensor<4x30xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<4x30xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<4x30xf32>) -> tensor<4x30xf32>
    %r = linalg.reduce ins(%arg0 : tensor<4x50x30xf32>) outs(%1 : tensor<4x30xf32>) dimensions = [1]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
    return %r : tensor<4x30xf32>
  }
  // torch.mean(x, dim=-1, keepdim=True), the form LayerNorm emits.
  func.func @mean_keepdim(%arg0: tensor<2x64x96xf32>) -> tensor<2x64x1xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 9.600000e+01 : f32
    %0 = tensor.empty() : tensor<2x64x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x64x1xf32>) -> tensor<2x64x1xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0 : tensor<2x64x96xf32>) outs(%1 : tensor<2x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.addf %in, %out : f32
      linalg.yield %5 : f32
    } -> tensor<2x64x1xf32>
    %3 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%2 : tensor<2x64x1xf32>) outs(%0 : tensor<2x64x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %5 = arith.divf %in, %cst_0 : f32
      linalg.yield %5 : f32
    } -> tensor<2x64x1xf32>
    return %3 : tensor<2x64x1xf32>
  }
  // A bias along the channels of NCHW: a broadcast along outer dims.
  func.func @bias_nchw(%arg0: tensor<2x8x5x6xf32>, %arg1: tensor<8xf32>) -> tensor<2x8x5x6xf32> {
    %0 = tensor.empty() : tensor<2x8x5x6xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%arg0, %arg1 : tensor<2x8x5x6xf32>, tensor<8xf32>) outs(%0 : tensor<2x8x5x6xf32>) {
    ^bb0(%in: f32, %b: f32, %out: f32):
      %5 = arith.addf %in, %b : f32
      linalg.yield %5 : f32
    } -> tensor<2x8x5x6xf32>
    return %1 : tensor<2x8x5x6xf32>
  }
  func.func @matvec(%a: tensor<40x24xf32>, %x: tensor<24xf32>) -> tensor<40xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<40xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<40xf32>) -> tensor<40xf32>
    %2 = linalg.matvec ins(%a, %x : tensor<40x24xf32>, tensor<24xf32>) outs(%1 : tensor<40xf32>) -> tensor<40xf32>
    return %2 : tensor<40xf32>
  }
  func.func @dot(%a: tensor<100xf32>, %b: tensor<100xf32>) -> tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<f32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %2 = linalg.dot ins(%a, %b : tensor<100xf32>, tensor<100xf32>) outs(%1 : tensor<f32>) -> tensor<f32>
    return %2 : tensor<f32>
  }
  func.func @batch_reduce(%a: tensor<3x16x8xf32>, %b: tensor<3x8x12xf32>) -> tensor<16x12xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<16x12xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<16x12xf32>) -> tensor<16x12xf32>
    %2 = linalg.batch_reduce_matmul ins(%a, %b : tensor<3x16x8xf32>, tensor<3x8x12xf32>) outs(%1 : tensor<16x12xf32>) -> tensor<16x12xf32>
    return %2 : tensor<16x12xf32>
  }
  func.func @imatmul(%a: tensor<16x8xi32>, %b: tensor<8x12xi32>) -> tensor<16x12xi32> {
    %c0 = arith.constant 0 : i32
    %0 = tensor.empty() : tensor<16x12xi32>
    %1 = linalg.fill ins(%c0 : i32) outs(%0 : tensor<16x12xi32>) -> tensor<16x12xi32>
    %2 = linalg.matmul ins(%a, %b : tensor<16x8xi32>, tensor<8x12xi32>) outs(%1 : tensor<16x12xi32>) -> tensor<16x12xi32>
    return %2 : tensor<16x12xi32>
  }
  func.func @conv(%x: tensor<1x3x9x9xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<1x4x4x4xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %w : tensor<1x3x9x9xf32>, tensor<4x3x3x3xf32>) outs(%1 : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
    return %2 : tensor<1x4x4x4xf32>
  }
  func.func @maxpool(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x3x3xf32> {
    %cst = arith.constant -3.40282347E+38 : f32
    %0 = tensor.empty() : tensor<1x4x3x3xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    %2 = tensor.empty() : tensor<3x3xf32>
    %3 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%x, %2 : tensor<1x4x8x8xf32>, tensor<3x3xf32>) outs(%1 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
    return %3 : tensor<1x4x3x3xf32>
  }
  func.func @total(%x: tensor<300x70xf32>) -> tensor<f32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<f32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %2 = linalg.reduce ins(%x : tensor<300x70xf32>) outs(%1 : tensor<f32>) dimensions = [0, 1]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
    return %2 : tensor<f32>
  }
  func.func @max_hw(%x: tensor<2x6x9x7xf32>) -> tensor<2x6x1x1xf32> {
    %cst = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<2x6x1x1xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<2x6x1x1xf32>) -> tensor<2x6x1x1xf32>
    %2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%x : tensor<2x6x9x7xf32>) outs(%1 : tensor<2x6x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.maximumf %in, %out : f32
      linalg.yield %m : f32
    } -> tensor<2x6x1x1xf32>
    return %2 : tensor<2x6x1x1xf32>
  }
  func.func @column_sums(%x: tensor<50x700xf32>) -> tensor<700xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<700xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<700xf32>) -> tensor<700xf32>
    %2 = linalg.reduce ins(%x : tensor<50x700xf32>) outs(%1 : tensor<700xf32>) dimensions = [0]
      (%in: f32, %init: f32) {
        %s = arith.addf %in, %init : f32
        linalg.yield %s : f32
      }
    return %2 : tensor<700xf32>
  }
  func.func @global_max(%x: tensor<200x30xf32>) -> tensor<f32> {
    %cst = arith.constant 0xFF800000 : f32
    %0 = tensor.empty() : tensor<f32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<f32>) -> tensor<f32>
    %2 = linalg.reduce ins(%x : tensor<200x30xf32>) outs(%1 : tensor<f32>) dimensions = [0, 1]
      (%in: f32, %init: f32) {
        %m = arith.maximumf %in, %init : f32
        linalg.yield %m : f32
      }
    return %2 : tensor<f32>
  }
}

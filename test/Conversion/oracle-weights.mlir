// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func linear --lnc-size 2 --pipeline --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=LINEAR
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func scale | FileCheck %s --check-prefix=SCALE
// RUN: walrus-opt %s -walrus-from-linalg=auto-cast=none | FileCheck %s

// Weights as torch-mlir emits them: dense constants, a splat and a
// dense_resource blob. Bufferization makes each a constant memref.global;
// the host passes it to bir.launch (keeping the memref.get_global), and
// walrus-run reads its data from the global, so the oracle runs on the
// model's own weights. (Bufferization numbers the globals of one type in
// no fixed order across functions.)

// LINEAR: oracle: within tolerance
// SCALE: oracle: identical

// CHECK-LABEL: func.func @linear
// CHECK:       %[[W:.*]] = memref.get_global @[[WG:__constant_2x3xf32[_0-9]*]] : memref<2x3xf32>
// CHECK:       %[[B:.*]] = memref.get_global @[[BG:__constant_2xf32[_0-9]*]] : memref<2xf32>
// CHECK:       bir.launch @linear_kernel(%arg0, %[[W]], %[[B]], %{{.*}}) : memref<4x3xf32>, memref<2x3xf32>, memref<2xf32>, memref<4x2xf32>
// CHECK:       bir.memloc "linear_[[WG]]" input : !bir.dram<2x3xf32>
// CHECK:       bir.memloc "linear_[[BG]]" input : !bir.dram<2xf32>

module {
  ml_program.global private mutable @global_seed(dense<0> : tensor<i64>) : tensor<i64>
  func.func @linear(%arg0: tensor<4x3xf32>) -> tensor<4x2xf32> {
    %cst = arith.constant dense<[[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]]> : tensor<2x3xf32>
    %cst_0 = arith.constant dense<[0.125, -0.5]> : tensor<2xf32>
    %cst_1 = arith.constant 0.000000e+00 : f32
    %0 = tensor.empty() : tensor<3x2xf32>
    %transposed = linalg.transpose ins(%cst : tensor<2x3xf32>) outs(%0 : tensor<3x2xf32>) permutation = [1, 0]
    %1 = tensor.empty() : tensor<4x2xf32>
    %2 = linalg.fill ins(%cst_1 : f32) outs(%1 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %3 = linalg.matmul ins(%arg0, %transposed : tensor<4x3xf32>, tensor<3x2xf32>) outs(%2 : tensor<4x2xf32>) -> tensor<4x2xf32>
    %4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%3, %cst_0 : tensor<4x2xf32>, tensor<2xf32>) outs(%1 : tensor<4x2xf32>) {
    ^bb0(%in: f32, %in_2: f32, %out: f32):
      %5 = arith.addf %in, %in_2 : f32
      linalg.yield %5 : f32
    } -> tensor<4x2xf32>
    return %4 : tensor<4x2xf32>
  }
  func.func @scale(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %w = arith.constant dense_resource<torch_tensor_2_3_torch.float32> : tensor<2x3xf32>
    %s = arith.constant dense<0.5> : tensor<2x3xf32>
    %0 = tensor.empty() : tensor<2x3xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %w, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
      %2 = arith.mulf %in, %in_1 : f32
      %3 = arith.addf %2, %in_2 : f32
      linalg.yield %3 : f32
    } -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}
{-#
  dialect_resources: {
    builtin: {
      torch_tensor_2_3_torch.float32: "0x040000000000803F000000400000404000008040000000C00000A0C0"
    }
  }
#-}

// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func matmul_accumulate_i8 --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func matmul_f16_into_f32 --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func matmul_transpose_b --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func mmt4d --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func pooling_nhwc_sum --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func depthwise_nhwc --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s

// The forms of IREE's e2e matmul and convolution tests: an i8 x i8 -> i32
// accumulate, f16 into f32, a transposed B through indexing_maps, the
// data-tiled mmt4d, NHWC pooling and depthwise convolution, each
// accumulating into a tensor argument. Each agrees with MLIR's CPU
// execution.

// CHECK: oracle: {{identical|within tolerance}}

func.func @matmul_accumulate_i8(%lhs: tensor<16x24xi8>, %rhs: tensor<24x20xi8>, %acc: tensor<16x20xi32>) -> tensor<16x20xi32> {
  %result = linalg.matmul ins(%lhs, %rhs: tensor<16x24xi8>, tensor<24x20xi8>) outs(%acc: tensor<16x20xi32>) -> tensor<16x20xi32>
  return %result: tensor<16x20xi32>
}
func.func @matmul_f16_into_f32(%lhs: tensor<64x48xf16>, %rhs: tensor<48x40xf16>, %acc: tensor<64x40xf32>) -> tensor<64x40xf32> {
  %result = linalg.matmul ins(%lhs, %rhs: tensor<64x48xf16>, tensor<48x40xf16>) outs(%acc: tensor<64x40xf32>) -> tensor<64x40xf32>
  return %result: tensor<64x40xf32>
}
func.func @matmul_transpose_b(%lhs: tensor<32x16xf32>, %rhs: tensor<24x16xf32>, %acc: tensor<32x24xf32>) -> tensor<32x24xf32> {
  %result = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%lhs, %rhs: tensor<32x16xf32>, tensor<24x16xf32>) outs(%acc: tensor<32x24xf32>) -> tensor<32x24xf32>
  return %result: tensor<32x24xf32>
}
func.func @mmt4d(%lhs: tensor<2x3x8x4xf32>, %rhs: tensor<5x3x8x4xf32>, %acc: tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32> {
  %result = linalg.mmt4d ins(%lhs, %rhs: tensor<2x3x8x4xf32>, tensor<5x3x8x4xf32>) outs(%acc: tensor<2x5x8x8xf32>) -> tensor<2x5x8x8xf32>
  return %result: tensor<2x5x8x8xf32>
}
func.func @pooling_nhwc_sum(%x: tensor<1x8x8x4xf32>, %acc: tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32> {
  %w = tensor.empty() : tensor<2x2xf32>
  %r = linalg.pooling_nhwc_sum {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %w : tensor<1x8x8x4xf32>, tensor<2x2xf32>) outs(%acc : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  return %r : tensor<1x4x4x4xf32>
}
func.func @depthwise_nhwc(%x: tensor<1x10x10x8xf32>, %w: tensor<3x3x8xf32>, %acc: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %r = linalg.depthwise_conv_2d_nhwc_hwc {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %w : tensor<1x10x10x8xf32>, tensor<3x3x8xf32>) outs(%acc : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %r : tensor<1x8x8x8xf32>
}

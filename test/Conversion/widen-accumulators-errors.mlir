// RUN: walrus-opt %s -widen-accumulators=refuse -verify-diagnostics
// RUN: not walrus-opt %s -walrus-from-linalg=widen-accumulators=false 2>&1 | FileCheck %s

// widen-accumulators=false: a 16-bit accumulator is an error at the op.

// CHECK: error: accumulates in 'bf16'
func.func @matmul_bf16(%a: tensor<16x32xbf16>, %b: tensor<32x16xbf16>, %c: tensor<16x16xbf16>) -> tensor<16x16xbf16> {
  // expected-error @+1 {{accumulates in 'bf16', which MLIR rounds at every step and the tensor engine cannot (it sums in f32 PSUM): let widen-accumulators accumulate in f32}}
  %r = linalg.matmul ins(%a, %b : tensor<16x32xbf16>, tensor<32x16xbf16>) outs(%c : tensor<16x16xbf16>) -> tensor<16x16xbf16>
  return %r : tensor<16x16xbf16>
}

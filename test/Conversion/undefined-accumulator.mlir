// RUN: walrus-opt %s -normalize-linalg -verify-diagnostics -o /dev/null
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --pipeline | FileCheck %s

// A matmul that accumulates into tensor.empty() (three public files fill
// one tensor and accumulate into another) reads values nothing defined:
// a warning at the op, and the oracle reports the output as undefined
// instead of comparing what two allocations happened to hold.
// CHECK: oracle: undefined: accumulates into 'tensor.empty()' (init #0), whose values are undefined
func.func @forward(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<64x16xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  // expected-warning @+1 {{accumulates into 'tensor.empty()' (init #0), whose values are undefined: the result depends on what the memory held (fill it first)}}
  %c = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %c : tensor<64x16xf32>
}

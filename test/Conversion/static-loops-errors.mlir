// RUN: walrus-opt %s -split-input-file -normalize-linalg -verify-diagnostics

// A loop -normalize-linalg cannot unroll is an error at the loop: a kernel
// is straight-line code.

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @too_many(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cn = arith.constant 100000 : index
  %half = arith.constant 0.5 : f32
  // expected-error @+1 {{'scf.for' of 100000 iterations of 5 ops is not unrolled: past the 65536 ops it may copy (a kernel is straight-line code)}}
  %r = scf.for %i = %c0 to %cn step %c1 iter_args(%acc = %x) -> (tensor<64x32xf32>) {
    %e = tensor.empty() : tensor<64x32xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %half : f32
      linalg.yield %m : f32
    } -> tensor<64x32xf32>
    scf.yield %y : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

// -----

// 2^64 - 1 iterations: the count is checked, not wrapped.
func.func @huge(%x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %cn = arith.constant -1 : i64
  // expected-error @+1 {{'scf.for' of 18446744073709551615 iterations of 1 ops is not unrolled}}
  %r = scf.for unsigned %i = %c0 to %cn step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) : i64 {
    scf.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// -----

func.func @dynamic(%x: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{'scf.for' whose trip count is not a constant is not unrolled (a kernel is straight-line code)}}
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<4xf32>) {
    scf.yield %acc : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

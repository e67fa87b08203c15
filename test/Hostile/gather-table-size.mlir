// RUN: walrus-opt %s -walrus-from-linalg -verify-diagnostics

// A gather's table is flattened to rows of its last extent: 2^62 rows of 4
// is past 2^63 elements, so the read is not gathered (no overflowed
// shape), and the lowering names it.

func.func @huge_table(%ids: tensor<3xi64>, %table: tensor<4611686018427387904x4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  // expected-error @+1 {{'linalg.generic' is not supported with 'memref.load' in its body: a read that is neither at an affine function of the loops nor, on tensors before -normalize-linalg, at rows computed from the inputs and loops alone of a table under 2^63 elements (a row read from what the op writes)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%in: i64, %out: f32):
    %i = arith.index_cast %in : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<4611686018427387904x4xf32>
    %w = arith.addf %v, %v : f32
    linalg.yield %w : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

// RUN: walrus-opt %s -walrus-from-linalg -verify-diagnostics

// A read at a row computed from what the op writes (the value it
// accumulates) is neither a window nor a gather: its rows are not known
// before the op runs.

func.func @row_from_output(%table: tensor<8x4xf32>, %init: tensor<4x4xf32>) -> tensor<4x4xf32> {
  // expected-error @+1 {{'linalg.generic' is not supported with 'memref.load' in its body: a read that is neither at an affine function of the loops nor, on tensors before -normalize-linalg, at rows computed from the inputs and loops alone of a table under 2^63 elements (a row read from what the op writes)}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%init : tensor<4x4xf32>) {
  ^bb0(%out: f32):
    %row = arith.fptosi %out : f32 to i64
    %i = arith.index_cast %row : i64 to index
    %j = linalg.index 1 : index
    %v = tensor.extract %table[%i, %j] : tensor<8x4xf32>
    linalg.yield %v : f32
  } -> tensor<4x4xf32>
  return %r : tensor<4x4xf32>
}

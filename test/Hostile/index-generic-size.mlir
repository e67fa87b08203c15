// RUN: walrus-opt %s -normalize-linalg | FileCheck %s

// A generic of its indices whose shape's element count passes int64
// (2^32 x 2^32 wraps to 0) is not folded: before, the wrapped count made
// an empty constant of the huge type, silently.
// CHECK-LABEL: func.func @wraps
// CHECK-NOT:     arith.constant dense
// CHECK:         linalg.index 0
func.func @wraps() -> tensor<4294967296x4294967296xi64> {
  %0 = tensor.empty() : tensor<4294967296x4294967296xi64>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%0 : tensor<4294967296x4294967296xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<4294967296x4294967296xi64>
  return %1 : tensor<4294967296x4294967296xi64>
}

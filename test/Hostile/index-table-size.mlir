// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: not walrus-opt %s -split-input-file -walrus-from-linalg 2>&1 | FileCheck %s --check-prefix=LOWER

// A value of the indices read with data is tabulated only up to 2^20
// elements: a causal mask over 2048 x 2048 positions (4M) stays in the
// body, and the lowering names it at the op. The loop sizes are checked,
// not multiplied blindly: 2^32 x 2^32 would wrap to 0.

// CHECK-LABEL: func.func @mask_2048
// CHECK-NOT:     arith.constant dense
// CHECK:         linalg.index 1
// LOWER: error: convert-linalg-to-bir: 'linalg.generic' is not supported with 'arith.index_cast' of loop indices in its body: -normalize-linalg makes a value of the indices a constant table when it folds, varies over at most 2^20 elements and fits what is left of its 2^24 folds
func.func @mask_2048(%scores: tensor<1x2048x2048xf32>) -> tensor<1x2048x2048xf32> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<1x2048x2048xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores : tensor<1x2048x2048xf32>) outs(%e : tensor<1x2048x2048xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %diff = arith.subi %jj, %ii : i64
    %keep = arith.cmpi sle, %diff, %c0_i64 : i64
    %v = arith.select %keep, %in, %cst : f32
    linalg.yield %v : f32
  } -> tensor<1x2048x2048xf32>
  return %r : tensor<1x2048x2048xf32>
}

// -----

// CHECK-LABEL: func.func @wraps
// CHECK-NOT:     arith.constant dense
// CHECK:         linalg.index 0
func.func @wraps(%x: tensor<4294967296x4294967296xf32>) -> tensor<4294967296x4294967296xf32> {
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<4294967296x4294967296xf32>) outs(%x : tensor<4294967296x4294967296xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c = arith.index_cast %s : index to i64
    %f = arith.sitofp %c : i64 to f32
    %m = arith.mulf %in, %f : f32
    linalg.yield %m : f32
  } -> tensor<4294967296x4294967296xf32>
  return %1 : tensor<4294967296x4294967296xf32>
}

// -----

// A loop of no iterations: no table, no affine fit of no values (which
// read element 0 of an empty table); the read stays in the body.
// CHECK-LABEL: func.func @no_iterations
// CHECK:         tensor.extract
func.func @no_iterations(%t: tensor<8xf32>, %x: tensor<0xf32>) -> tensor<0xf32> {
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]} ins(%x : tensor<0xf32>) outs(%x : tensor<0xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 0 : index
    %v = tensor.extract %t[%i] : tensor<8xf32>
    %s = arith.addf %in, %v : f32
    linalg.yield %s : f32
  } -> tensor<0xf32>
  return %1 : tensor<0xf32>
}

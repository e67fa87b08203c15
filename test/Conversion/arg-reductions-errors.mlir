// RUN: walrus-opt %s -split-input-file -walrus-from-linalg -verify-diagnostics

// The last index of the maximum (`cmpf oge`: ties move the index) is not
// the first one ArgReductions.cpp computes: the generic stays whole, and
// the lowering names its two outputs.

func.func @argmax_last(%x: tensor<6x40xf32>) -> tensor<6xi64> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<6xi64>
  %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<6xi64>) -> tensor<6xi64>
  %2 = tensor.empty() : tensor<6xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<6xf32>) -> tensor<6xf32>
  // expected-error @+1 {{'linalg.generic' is not supported with more than one output}}
  %4:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x40xf32>) outs(%3, %1 : tensor<6xf32>, tensor<6xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i64
    %7 = arith.maximumf %in, %out : f32
    %8 = arith.cmpf oge, %in, %out : f32
    %9 = arith.select %8, %6, %out_0 : i64
    linalg.yield %7, %9 : f32, i64
  } -> (tensor<6xf32>, tensor<6xi64>)
  return %4#1 : tensor<6xi64>
}

// -----

// An i8 index over 200 elements: the rewrite's "no index yet" (the extent,
// 200) does not fit the index's type, so the generic stays whole.

func.func @argmax_i8_index(%x: tensor<6x200xf32>) -> tensor<6xi8> {
  %c0_i8 = arith.constant 0 : i8
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<6xi8>
  %1 = linalg.fill ins(%c0_i8 : i8) outs(%0 : tensor<6xi8>) -> tensor<6xi8>
  %2 = tensor.empty() : tensor<6xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<6xf32>) -> tensor<6xf32>
  // expected-error @+1 {{'linalg.generic' is not supported with more than one output}}
  %4:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x200xf32>) outs(%3, %1 : tensor<6xf32>, tensor<6xi8>) {
  ^bb0(%in: f32, %out: f32, %out_0: i8):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i8
    %7 = arith.maximumf %in, %out : f32
    %8 = arith.cmpf ogt, %in, %out : f32
    %9 = arith.select %8, %6, %out_0 : i8
    linalg.yield %7, %9 : f32, i8
  } -> (tensor<6xf32>, tensor<6xi8>)
  return %4#1 : tensor<6xi8>
}

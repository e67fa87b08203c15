// RUN: walrus-opt %s -allow-unregistered-dialect -split-input-file -raise-softmax | FileCheck %s

// Forms one op away from a softmax of scores stay as written (and nothing
// crashes on them): a maximum by an op of no registered dialect, and a
// "sum" whose generic reduces two dimensions.

#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-LABEL: func.func @unknown_maximum
// CHECK-NOT:   linalg.softmax
func.func @unknown_maximum(%a: tensor<4x3xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %re = tensor.empty() : tensor<4x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = "foo.max"(%in, %out) : (f32, f32) -> f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%si : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<4x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

// -----

#id = affine_map<(d0, d1) -> (d0, d1)>
#keep = affine_map<(d0, d1) -> (d0, 0)>
#all = affine_map<(d0, d1) -> (0, 0)>
// CHECK-LABEL: func.func @total_not_per_row
// CHECK-NOT:   linalg.softmax
func.func @total_not_per_row(%a: tensor<4x3xf32>, %b: tensor<3x8xf32>) -> tensor<4x8xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %re = tensor.empty() : tensor<4x1xf32>
  %one = tensor.empty() : tensor<1x1xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %s = linalg.matmul ins(%a, %b : tensor<4x3xf32>, tensor<3x8xf32>) outs(%z : tensor<4x8xf32>) -> tensor<4x8xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<4x1xf32>) -> tensor<4x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%s : tensor<4x8xf32>) outs(%mi : tensor<4x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<4x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]} ins(%s, %max : tensor<4x8xf32>, tensor<4x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %y = math.exp %d : f32
    linalg.yield %y : f32
  } -> tensor<4x8xf32>
  %si = linalg.fill ins(%zero : f32) outs(%one : tensor<1x1xf32>) -> tensor<1x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #all], iterator_types = ["reduction", "reduction"]} ins(%exp : tensor<4x8xf32>) outs(%si : tensor<1x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %y = arith.addf %in, %out : f32
    linalg.yield %y : f32
  } -> tensor<1x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #all, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<4x8xf32>, tensor<1x1xf32>) outs(%e : tensor<4x8xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<4x8xf32>
  return %p : tensor<4x8xf32>
}

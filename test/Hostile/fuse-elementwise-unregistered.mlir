// RUN: walrus-opt %s -allow-unregistered-dialect -fuse-elementwise | FileCheck %s

// A body op of no registered dialect is not elementwise arithmetic: the
// pass leaves both generics as they are (and does not crash on the op's
// missing dialect).
// CHECK-COUNT-2: linalg.generic
#id = affine_map<(d0) -> (d0)>
func.func @unknown_body(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = "foo.op"(%in) : (f32) -> f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%a : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %b : tensor<8xf32>
}

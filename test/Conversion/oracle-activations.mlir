// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 --rtol 1e-6 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 | FileCheck %s

// exp, tanh, sigmoid and silu as front ends write them (sigmoid as
// 1 / (1 + exp(-x)), silu as x * sigmoid(x)): one activation each. The
// interpreter evaluates the function in double and rounds once; the CPU
// calls libm in f32: the two differ by at most 2 ulp (rtol 1e-6).

// CHECK: arg1: 30000 elements
// CHECK: arg2: 30000 elements
// CHECK: oracle: within tolerance
func.func @activations(%x: memref<150x200xf32>, %y: memref<150x200xf32>, %z: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %e = math.exp %a : f32
    %t = math.tanh %e : f32
    %n = arith.negf %t : f32
    %en = math.exp %n : f32
    %d = arith.addf %one, %en : f32
    %s = arith.divf %one, %d : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<150x200xf32>) outs(%z : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %en = math.exp %n : f32
    %d = arith.addf %en, %one : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a, %s : f32
    linalg.yield %silu : f32
  }
  return
}

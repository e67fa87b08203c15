// RUN: %python %utils/linalg_oracle.py %s --func scalar --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=SCALAR
// RUN: %python %utils/linalg_oracle.py %s --func vec --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 | FileCheck %s --check-prefix=VEC

// Rank 0 (one element: a DRAM tensor of shape 1) and rank 1 (one row).

// SCALAR: scalar_arg1: 1 elements, max error 0
// SCALAR: oracle: identical
func.func @scalar(%x: memref<f32>, %y: memref<f32>) {
  linalg.copy ins(%x : memref<f32>) outs(%y : memref<f32>)
  return
}

// VEC: vec_arg1: 1000 elements
// VEC: oracle: {{identical|within tolerance}}
func.func @vec(%x: memref<1000xf32>, %y: memref<1000xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
    ins(%x : memref<1000xf32>) outs(%y : memref<1000xf32>) {
  ^bb0(%a: f32, %o: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  }
  return
}

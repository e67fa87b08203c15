// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 --atol 1e-5 --rtol 1e-5 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s

// Row sums and maxima over 700 columns (two column tiles). The max is
// exact; the sum is added in another order (per tile, then the tiles) than
// the CPU's running f32 sum: within 1e-5 on sums of at most 700 terms of
// magnitude below 1.

// CHECK: arg1: 300 elements, max error 0
// CHECK: arg2: 300 elements
// CHECK: oracle: within tolerance
func.func @row_stats(%x: memref<300x700xf32>, %mx: memref<300xf32>, %sum: memref<300xf32>) {
  %low = arith.constant -1.0e30 : f32
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%low : f32) outs(%mx : memref<300xf32>)
  linalg.fill ins(%zero : f32) outs(%sum : memref<300xf32>)
  linalg.reduce ins(%x : memref<300x700xf32>) outs(%mx : memref<300xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<300x700xf32>) outs(%sum : memref<300xf32>) {
  ^bb0(%in: f32, %acc: f32):
    %s = arith.addf %in, %acc : f32
    linalg.yield %s : f32
  }
  return
}

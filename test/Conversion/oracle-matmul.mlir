// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func matmul --lnc-size 1 --atol 1e-4 --rtol 1e-5 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func matmul --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-5 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func transposed --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-5 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --func batched --lnc-size 4 --pipeline --atol 1e-4 --rtol 1e-5 | FileCheck %s

// Matmuls with m, n and k that are not multiples of 128 or 512: the
// tensor engine sums the products in another order than the CPU's running
// f32 sum (the interpreter in double, rounded once): within 1e-4 on sums
// of at most 300 products of magnitude below 1.

// CHECK: oracle: within tolerance
func.func @matmul(%a: memref<150x300xf32>, %b: memref<300x600xf32>, %c: memref<150x600xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<150x600xf32>)
  linalg.matmul ins(%a, %b : memref<150x300xf32>, memref<300x600xf32>) outs(%c : memref<150x600xf32>)
  return
}

func.func @transposed(%at: memref<200x130xf32>, %bt: memref<70x200xf32>, %c: memref<130x70xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%at, %bt : memref<200x130xf32>, memref<70x200xf32>) outs(%c : memref<130x70xf32>)
  return
}

func.func @batched(%a: memref<3x140x64xf32>, %b: memref<3x64x90xf32>, %c: memref<3x140x90xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<3x140x64xf32>, memref<3x64x90xf32>) outs(%c : memref<3x140x90xf32>)
  return
}

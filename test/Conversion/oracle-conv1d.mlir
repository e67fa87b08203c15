// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 --atol 1e-4 --rtol 1e-5 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-5 | FileCheck %s

// A 3-tap convolution over time as three matmuls on shifted views of the
// input (subviews: evenly strided rows at an offset) accumulating into the
// output, then bias and ReLU. Views lower as the DRAM tensor they see
// into, with their own base and row stride.

// CHECK: conv1d_arg3: 20800 elements
// CHECK: oracle: within tolerance
func.func @conv1d(%x: memref<262x96xf32>, %w: memref<3x96x80xf32>, %b: memref<80xf32>, %y: memref<260x80xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%y : memref<260x80xf32>)
  %x0 = memref.subview %x[0, 0] [260, 96] [1, 1] : memref<262x96xf32> to memref<260x96xf32, strided<[96, 1]>>
  %x1 = memref.subview %x[1, 0] [260, 96] [1, 1] : memref<262x96xf32> to memref<260x96xf32, strided<[96, 1], offset: 96>>
  %x2 = memref.subview %x[2, 0] [260, 96] [1, 1] : memref<262x96xf32> to memref<260x96xf32, strided<[96, 1], offset: 192>>
  %w0 = memref.subview %w[0, 0, 0] [1, 96, 80] [1, 1, 1] : memref<3x96x80xf32> to memref<96x80xf32, strided<[80, 1]>>
  %w1 = memref.subview %w[1, 0, 0] [1, 96, 80] [1, 1, 1] : memref<3x96x80xf32> to memref<96x80xf32, strided<[80, 1], offset: 7680>>
  %w2 = memref.subview %w[2, 0, 0] [1, 96, 80] [1, 1, 1] : memref<3x96x80xf32> to memref<96x80xf32, strided<[80, 1], offset: 15360>>
  linalg.matmul ins(%x0, %w0 : memref<260x96xf32, strided<[96, 1]>>, memref<96x80xf32, strided<[80, 1]>>) outs(%y : memref<260x80xf32>)
  linalg.matmul ins(%x1, %w1 : memref<260x96xf32, strided<[96, 1], offset: 96>>, memref<96x80xf32, strided<[80, 1], offset: 7680>>) outs(%y : memref<260x80xf32>)
  linalg.matmul ins(%x2, %w2 : memref<260x96xf32, strided<[96, 1], offset: 192>>, memref<96x80xf32, strided<[80, 1], offset: 15360>>) outs(%y : memref<260x80xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%b : memref<80xf32>) outs(%y : memref<260x80xf32>) {
  ^bb0(%c: f32, %o: f32):
    %s = arith.addf %o, %c : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return
}

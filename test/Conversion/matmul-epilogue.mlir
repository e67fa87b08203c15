// RUN: walrus-opt %s -convert-linalg-to-bir="lnc-size=2 auto-cast=none" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// An elementwise op right after a matmul, reading its product (here bias
// and ReLU, in place), is the matmul's epilogue: it reads each block tile
// of C where the block holds it in SBUF and stores its own result. C's
// product never reaches DRAM. The bias, the same for every row, is loaded
// once per block of columns, before the row tiles (here two, one per
// core) that use it.

// CHECK:       bir.dma %[[BIAS:.*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %dense_arg2[#bir.ap<0, {{\[\[}}0, 128], [1, 96]]>]
// CHECK-SAME:  {{^}} : !bir.sbuf<128x96xf32>, !bir.dram<96xf32>
// CHECK:       bir.matmult %[[ACC:.*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], {{.*}} start stop
// CHECK-NEXT:  bir.tensor_copy %[[BLOCK:.*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[ACC]]
// CHECK-NEXT:  bir.tensor_tensor add %[[SUM:.*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[BLOCK]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[BIAS]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>]
// CHECK-NEXT:  bir.tensor_scalar max %[[RELU:.*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[SUM]]{{.*}}, 0.000000e+00
// CHECK-NEXT:  bir.dma %{{.*}}[#bir.sap<()[s0] -> (s0 * 12288), {{\[\[}}96, 128], [1, 96]]>], %[[RELU]]
// CHECK-NOT:   bir.dma %[[BIAS]]
// CHECK:       bir.tensor_tensor add %[[SUM]][#bir.ap<0, {{\[\[}}96, 2], [1, 96]]>], %[[BLOCK]][#bir.ap<0, {{\[\[}}96, 2], [1, 96]]>], %[[BIAS]][#bir.ap<0, {{\[\[}}96, 2], [1, 96]]>]
// CHECK-NOT:   bir.dma %dense_result0{{.*}}, %mm_c

// ORACLE: dense_result0: 12480 elements
// ORACLE: oracle: within tolerance
func.func @dense(%x: memref<130x64xf32>, %w: memref<64x96xf32>, %b: memref<96xf32>) -> memref<130x96xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<130x96xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<130x96xf32>)
  linalg.matmul ins(%x, %w : memref<130x64xf32>, memref<64x96xf32>) outs(%c : memref<130x96xf32>)
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%c, %b : memref<130x96xf32>, memref<96xf32>) outs(%c : memref<130x96xf32>) {
  ^bb0(%a: f32, %bias: f32, %o: f32):
    %s = arith.addf %a, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  return %c : memref<130x96xf32>
}

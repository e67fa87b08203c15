// RUN: walrus-opt %s -convert-linalg-to-bir=lnc-size=2 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func scale_rows --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func spread_rows --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func add_scalar --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// EXACT: oracle: identical

// An input with one value per row (RMSNorm's 1 / rms, torch's keepdim
// column) or one value in all (a 0-d tensor) loads one element per
// partition into a one-column tile, and the engines read it with free step
// 0 for every column: a DMA of the value repeated across the row would
// move one packet per element. A float product by it runs on the scalar
// engine, the value its per-partition scale: exactly the product.

// CHECK-LABEL: bir.kernel @scale_rows_kernel
// CHECK:       %[[COL:.*]] = bir.memloc "in_col" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x1xf32>
// CHECK:       %[[COL1:.*]] = bir.memloc "in_col_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x1xf32>
// CHECK:       bir.dma %[[COL]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %scale_rows_arg1[#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:  bir.activation identity %[[T:.*]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %{{.*}}[#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>] scales %[[COL]][#bir.ap<0, {{\[\[}}1, 128], [0, 200]]>]
// The partial row tile, 44 rows from row 256, on core 0 (its second
// tile: the second set of tiles, the row tiles rotating as in any
// elementwise op).
// CHECK:       bir.dma %[[COL1]][#bir.ap<0, {{\[\[}}1, 44], [1, 1]]>], %scale_rows_arg1[#bir.ap<256, {{\[\[}}1, 44], [1, 1]]>]
// CHECK-NEXT:  bir.activation identity %{{.*}} scales %[[COL1]][#bir.ap<0, {{\[\[}}1, 44], [0, 200]]>]

// The value yielded as it is: spread over a full tile before the store.
// CHECK-LABEL: bir.kernel @spread_rows_kernel
// CHECK:       bir.dma %[[COL:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %spread_rows_arg0[#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:  bir.tensor_copy %[[OUT:.*]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[COL]][#bir.ap<0, {{\[\[}}1, 128], [0, 200]]>]
// CHECK-NEXT:  bir.dma %spread_rows_arg1[#bir.sap<()[s0] -> (s0 * 25600), {{\[\[}}200, 128], [1, 200]]>], %[[OUT]]

// One value in all: every partition reads the same element.
// CHECK-LABEL: bir.kernel @add_scalar_kernel
// CHECK:       bir.dma %[[COL:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %add_scalar_arg1[#bir.ap<0, {{\[\[}}0, 128], [1, 1]]>]
// CHECK-NEXT:  bir.tensor_tensor add %{{.*}}, %[[COL]][#bir.ap<0, {{\[\[}}1, 128], [0, 200]]>]
func.func @scale_rows(%x: memref<300x200xf32>, %r: memref<300xf32>, %g: memref<200xf32>, %y: memref<300x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %r, %g : memref<300x200xf32>, memref<300xf32>, memref<200xf32>) outs(%y : memref<300x200xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %o: f32):
    %s = arith.mulf %a, %b : f32
    %t = arith.mulf %s, %c : f32
    linalg.yield %t : f32
  }
  return
}
func.func @spread_rows(%r: memref<300x1xf32>, %y: memref<300x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%r : memref<300x1xf32>) outs(%y : memref<300x200xf32>) {
  ^bb0(%b: f32, %o: f32):
    linalg.yield %b : f32
  }
  return
}
func.func @add_scalar(%x: memref<300x200xf32>, %s: memref<f32>, %y: memref<300x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : memref<300x200xf32>, memref<f32>) outs(%y : memref<300x200xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %t = arith.addf %a, %b : f32
    linalg.yield %t : f32
  }
  return
}

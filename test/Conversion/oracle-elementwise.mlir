// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 4 --pipeline | FileCheck %s --check-prefix=EXACT

// Elementwise arithmetic with a row broadcast (a bias over columns) and a
// column broadcast (one value per row), on shapes that are not multiples
// of 128 rows or of the column tile. Add, multiply, subtract and max round
// once in f32 on both sides: the outputs are identical bit for bit.

// EXACT: arg3: 53200 elements, max error 0
// EXACT: oracle: identical
func.func @bias_scale(%x: memref<2x133x200xf32>, %bias: memref<200xf32>,
                      %scale: memref<2x133xf32>, %y: memref<2x133x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, j)>,
                                   affine_map<(b, i, j) -> (j)>,
                                   affine_map<(b, i, j) -> (b, i)>,
                                   affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %bias, %scale : memref<2x133x200xf32>, memref<200xf32>, memref<2x133xf32>)
      outs(%y : memref<2x133x200xf32>) {
  ^bb0(%a: f32, %b: f32, %s: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %sum = arith.addf %a, %b : f32
    %scaled = arith.mulf %sum, %s : f32
    %shifted = arith.subf %scaled, %a : f32
    %relu = arith.maximumf %shifted, %zero : f32
    linalg.yield %relu : f32
  }
  return
}

// RUN: %python %utils/linalg_oracle.py %s --func first_column --bin %walrus_tools | FileCheck %s --check-prefix=FIRST
// RUN: %python %utils/linalg_oracle.py %s --func first_column_3d --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=FIRST3D

// An input indexed (i, j) -> (i, 0) holds every row's value in its first
// column, whatever its width: the row's value is read 200 elements apart,
// not from the next element (found by the mutation driver: the lowering
// read x's first 150 elements).

// FIRST: first_column_arg1: 30000 elements, max error 0
// FIRST: oracle: identical
func.func @first_column(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, 0)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  }
  return
}

// FIRST3D: first_column_3d_arg2: 3900 elements, max error 0
// FIRST3D: oracle: identical
func.func @first_column_3d(%x: memref<3x130x7xf32>, %z: memref<3x130x10xf32>, %y: memref<3x130x10xf32>) {
  linalg.generic {indexing_maps = [affine_map<(b, i, j) -> (b, i, 0)>, affine_map<(b, i, j) -> (b, i, j)>,
                                   affine_map<(b, i, j) -> (b, i, j)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %z : memref<3x130x7xf32>, memref<3x130x10xf32>) outs(%y : memref<3x130x10xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.subf %c, %a : f32
    linalg.yield %s : f32
  }
  return
}

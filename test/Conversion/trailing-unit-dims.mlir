// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func rows_of_one --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func row_of_one_per_column --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// EXACT: oracle: identical

// An input read past its last loop's dim at a unit dim ((i, j) -> (i, j, 0):
// a gather's rows of one element) is that dim's extent long per row, not
// one element: the load walks rows 16 elements apart (before, it read a
// column of 4 consecutive elements as the rows).

// CHECK-LABEL: bir.kernel @rows_of_one_kernel
// CHECK:       bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}16, 4], [1, 16]]>], %rows_of_one_arg0[#bir.ap<0, {{\[\[}}16, 4], [1, 16]]>] : !bir.sbuf<128x16xf32>, !bir.dram<4x16x1xf32>
func.func @rows_of_one(%x: memref<4x16x1xf32>, %y: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1, 0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : memref<4x16x1xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %n = arith.negf %in : f32
    linalg.yield %n : f32
  }
  return
}

// -----

// The same read broadcast across rows: one row of 16 columns.

// CHECK-LABEL: bir.kernel @row_of_one_per_column_kernel
// CHECK:       bir.dma %{{.*}}, %row_of_one_per_column_arg0[#bir.ap<0, {{\[\[}}0, 4], [1, 16]]>] : !bir.sbuf<128x16xf32>, !bir.dram<16x1xf32>
func.func @row_of_one_per_column(%x: memref<16x1xf32>, %z: memref<4x16xf32>, %y: memref<4x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, 0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %z : memref<16x1xf32>, memref<4x16xf32>) outs(%y : memref<4x16xf32>) {
  ^bb0(%in: f32, %in_1: f32, %out: f32):
    %n = arith.addf %in, %in_1 : f32
    linalg.yield %n : f32
  }
  return
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func pad --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func concat --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func slices --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func reshape --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func column_stride --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func insert --lnc-size 2 --pipeline | FileCheck %s

// The tensor ops torch-mlir emits around its linalg, after bufferization:
// tensor.pad (a linalg.map filling the padding, then a copy into a
// subview whose rows are not evenly strided: the general lowering takes
// it), tensor.concat and tensor.insert_slice (copies into subviews),
// tensor.extract_slice and tensor.expand_shape (views read in place), and
// a subview with a column step of 2.

// CHECK: oracle: identical

module {
  func.func @pad(%arg0: tensor<1x3x8x8xf32>) -> tensor<1x3x10x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x3x8x8xf32> to tensor<1x3x10x10xf32>
    return %padded : tensor<1x3x10x10xf32>
  }
  func.func @concat(%a: tensor<4x8xf32>, %b: tensor<4x8xf32>) -> tensor<4x16xf32> {
    %0 = tensor.concat dim(1) %a, %b : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  func.func @slices(%a: tensor<1x128x768xf32>) -> tensor<1x128x64xf32> {
    %s = tensor.extract_slice %a[0, 0, 64] [1, 128, 64] [1, 1, 1] : tensor<1x128x768xf32> to tensor<1x128x64xf32>
    %e = tensor.empty() : tensor<1x128x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<1x128x64xf32>) outs(%e : tensor<1x128x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<1x128x64xf32>
    return %r : tensor<1x128x64xf32>
  }
  func.func @reshape(%a: tensor<1x128x768xf32>) -> tensor<1x128x12x64xf32> {
    %e = tensor.expand_shape %a [[0], [1], [2, 3]] output_shape [1, 128, 12, 64] : tensor<1x128x768xf32> into tensor<1x128x12x64xf32>
    %t = tensor.empty() : tensor<1x128x12x64xf32>
    %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%e : tensor<1x128x12x64xf32>) outs(%t : tensor<1x128x12x64xf32>) {
    ^bb0(%in: f32, %out: f32):
      %n = arith.negf %in : f32
      linalg.yield %n : f32
    } -> tensor<1x128x12x64xf32>
    return %r : tensor<1x128x12x64xf32>
  }
  func.func @insert(%a: tensor<4x16xf32>, %b: tensor<4x8xf32>) -> tensor<4x16xf32> {
    %0 = tensor.insert_slice %b into %a[0, 8] [4, 8] [1, 1] : tensor<4x8xf32> into tensor<4x16xf32>
    return %0 : tensor<4x16xf32>
  }
  func.func @column_stride(%x: memref<8x8xf32>, %y: memref<8x4xf32>) {
    %v = memref.subview %x[0, 0] [8, 4] [1, 2] : memref<8x8xf32> to memref<8x4xf32, strided<[8, 2]>>
    linalg.copy ins(%v : memref<8x4xf32, strided<[8, 2]>>) outs(%y : memref<8x4xf32>)
    return
  }
}

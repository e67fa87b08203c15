// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func repeat --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func tiled --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE

// scf.for with constant bounds around linalg on tensors becomes its
// iterations in sequence: a layer applied a fixed number of times, and a
// frontend's tiles (extract_slice, linalg, insert_slice at the induction
// variable), whose offsets become static.

// ORACLE: oracle: identical

// CHECK-LABEL: func.func @repeat
// CHECK-NOT:     scf.for
// CHECK:         %[[A:.*]] = linalg.generic {{.*}} ins(%arg0 :
// CHECK:         %[[B:.*]] = linalg.generic {{.*}} ins(%[[A]] :
// CHECK:         %[[C:.*]] = linalg.generic {{.*}} ins(%[[B]] :
// CHECK:         return %[[C]]

// CHECK-LABEL: func.func @tiled
// CHECK-NOT:     scf.for
// CHECK:         tensor.extract_slice %arg0[0, 0] [64, 64] [1, 1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[0, 0] [64, 64] [1, 1]
// CHECK:         tensor.extract_slice %arg0[64, 0] [64, 64] [1, 1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[64, 0] [64, 64] [1, 1]
// CHECK:         tensor.extract_slice %arg0[128, 0] [64, 64] [1, 1]
// CHECK:         tensor.insert_slice %{{.*}} into %{{.*}}[128, 0] [64, 64] [1, 1]
// CHECK:         tensor.extract_slice %arg0[192, 0] [64, 64] [1, 1]
// CHECK:         %[[LAST:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[192, 0] [64, 64] [1, 1]
// CHECK:         return %[[LAST]]

// BIR-LABEL: bir.kernel @repeat_kernel
// BIR-LABEL: bir.kernel @tiled_kernel

#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @repeat(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %half = arith.constant 0.5 : f32
  %r = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<64x32xf32>) {
    %e = tensor.empty() : tensor<64x32xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%acc : tensor<64x32xf32>) outs(%e : tensor<64x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %m = arith.mulf %in, %half : f32
      %s = arith.addf %m, %in : f32
      linalg.yield %s : f32
    } -> tensor<64x32xf32>
    scf.yield %y : tensor<64x32xf32>
  }
  return %r : tensor<64x32xf32>
}

func.func @tiled(%x: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %c0 = arith.constant 0 : index
  %c64 = arith.constant 64 : index
  %c256 = arith.constant 256 : index
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<256x64xf32>
  %r = scf.for %i = %c0 to %c256 step %c64 iter_args(%acc = %init) -> (tensor<256x64xf32>) {
    %tile = tensor.extract_slice %x[%i, 0] [64, 64] [1, 1] : tensor<256x64xf32> to tensor<64x64xf32>
    %out = tensor.extract_slice %acc[%i, 0] [64, 64] [1, 1] : tensor<256x64xf32> to tensor<64x64xf32>
    %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%tile : tensor<64x64xf32>) outs(%out : tensor<64x64xf32>) {
    ^bb0(%in: f32, %o: f32):
      %m = arith.maximumf %in, %zero : f32
      linalg.yield %m : f32
    } -> tensor<64x64xf32>
    %next = tensor.insert_slice %y into %acc[%i, 0] [64, 64] [1, 1] : tensor<64x64xf32> into tensor<256x64xf32>
    scf.yield %next : tensor<256x64xf32>
  }
  return %r : tensor<256x64xf32>
}

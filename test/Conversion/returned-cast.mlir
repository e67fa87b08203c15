// RUN: walrus-opt %s -split-input-file -walrus-from-linalg -verify-diagnostics | FileCheck %s

// torch-mlir returns its result through a tensor.cast to dynamic sizes
// (`tensor<?x?x512xf32>`): the kernel writes the static buffer, the host
// returns the cast of it after the launch. The oracle's run of this form:
// oracle-frontend-files.test.
// CHECK-LABEL: func.func @forward
// CHECK-SAME:    (%[[X:.*]]: memref<4x8x16xf32>) -> memref<?x?x16xf32>
// CHECK-NEXT:    %[[OUT:.*]] = memref.alloc() {{.*}} : memref<4x8x16xf32>
// CHECK-NEXT:    %[[CAST:.*]] = memref.cast %[[OUT]] : memref<4x8x16xf32> to memref<?x?x16xf32>
// CHECK-NEXT:    bir.launch @forward_kernel(%[[X]], %[[OUT]]) : memref<4x8x16xf32>, memref<4x8x16xf32>
// CHECK-NEXT:    return %[[CAST]] : memref<?x?x16xf32>
// CHECK:         bir.memloc "forward_result0" output : !bir.dram<4x8x16xf32>
func.func @forward(%x: tensor<4x8x16xf32>) -> tensor<?x?x16xf32> {
  %0 = tensor.empty() : tensor<4x8x16xf32>
  %1 = linalg.add ins(%x, %x : tensor<4x8x16xf32>, tensor<4x8x16xf32>) outs(%0 : tensor<4x8x16xf32>) -> tensor<4x8x16xf32>
  %cast = tensor.cast %1 : tensor<4x8x16xf32> to tensor<?x?x16xf32>
  return %cast : tensor<?x?x16xf32>
}

// -----

// A cast a linalg op reads folds into it (upstream's folder, run by
// normalize-linalg): the op reads the static buffer.
// CHECK-LABEL: func.func @cast_read
// CHECK-SAME:    (%[[X:.*]]: memref<4x16xf32>, %[[Y:.*]]: memref<4x16xf32>)
// CHECK-NEXT:    bir.launch @cast_read_kernel(%[[X]], %[[Y]])
func.func @cast_read(%x: memref<4x16xf32>, %y: memref<4x16xf32>) {
  %c = memref.cast %x : memref<4x16xf32> to memref<?x16xf32>
  linalg.copy ins(%c : memref<?x16xf32>) outs(%y : memref<4x16xf32>)
  return
}

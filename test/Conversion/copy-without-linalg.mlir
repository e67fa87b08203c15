// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s

// A function whose only op is a memref.copy (bufferization's copy of a
// constant into the buffer the host prints) is a kernel of one copy:
// -convert-linalg-to-bir writes it as linalg.copy, loading linalg where the
// input holds no linalg op.
// CHECK-LABEL: func.func @constant_copy
// CHECK:         %[[G:.*]] = memref.get_global @__constant_3xf32
// CHECK-NEXT:    %[[A:.*]] = memref.alloc()
// CHECK:         bir.launch @constant_copy_kernel(%[[G]], %[[A]])
// CHECK-NEXT:    call @printMemrefF32
// CHECK-NOT:     memref.copy
// CHECK-LABEL: bir.kernel @constant_copy_kernel
// CHECK:         bir.dma %[[IN:.*]][{{.*}}], %constant_copy___constant_3xf32[
// CHECK-NEXT:    bir.dma %constant_copy_result0[{{.*}}], %[[IN]][
module {
  memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<[1.1e+01, 2.2e+01, 3.3e+01]>
  func.func @constant_copy() {
    %0 = memref.get_global @__constant_3xf32 : memref<3xf32>
    %alloc = memref.alloc() : memref<3xf32>
    memref.copy %0, %alloc : memref<3xf32> to memref<3xf32>
    %cast = memref.cast %alloc : memref<3xf32> to memref<*xf32>
    call @printMemrefF32(%cast) : (memref<*xf32>) -> ()
    return
  }
  func.func private @printMemrefF32(memref<*xf32>)
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 1 --pipeline --dram-to-sb-bytes 65536 | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 4 --pipeline | FileCheck %s

// fill, copy and transpose move bits: identical. The transposed copy is
// returned in a buffer the function allocates.

// CHECK: arg1: 39900 elements, max error 0
// CHECK: result0: 39900 elements, max error 0
// CHECK: oracle: identical
func.func @moves(%x: memref<190x210xf32>, %filled: memref<190x210xf32>) -> memref<210x190xf32> {
  %c = arith.constant 0.5 : f32
  %t = memref.alloc() : memref<190x210xf32>
  linalg.fill ins(%c : f32) outs(%filled : memref<190x210xf32>)
  linalg.copy ins(%x : memref<190x210xf32>) outs(%t : memref<190x210xf32>)
  %r = memref.alloc() : memref<210x190xf32>
  linalg.transpose ins(%t : memref<190x210xf32>) outs(%r : memref<210x190xf32>) permutation = [1, 0]
  memref.dealloc %t : memref<190x210xf32>
  return %r : memref<210x190xf32>
}

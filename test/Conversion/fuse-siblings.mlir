// RUN: walrus-opt %s -split-input-file -fuse-siblings=explain -verify-diagnostics | FileCheck %s

// rope's halves as bufferization leaves them: each half reads x1, x2, cos
// and sin and writes its rows of the result, with a copy of the first
// half onto itself between them. The copy goes, and one generic computes
// both halves, reading each input once.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @halves
// CHECK-NOT:   memref.copy
// CHECK:       linalg.generic
// CHECK-SAME:    ins(%[[X1:[a-z_0-9]+]], %[[C:[a-z_0-9]+]], %[[X2:[a-z_0-9]+]], %[[S:[a-z_0-9]+]] :
// CHECK-SAME:    outs(%[[O1:[a-z_0-9]+]], %[[O2:[a-z_0-9]+]] :
// CHECK:       ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32, %[[D:.*]]: f32, %[[E:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:    %[[P0:.*]] = arith.mulf %[[A]], %[[B]]
// CHECK-NEXT:    %[[P1:.*]] = arith.mulf %[[D]], %[[E]]
// CHECK-NEXT:    %[[R0:.*]] = arith.subf %[[P0]], %[[P1]]
// CHECK-NEXT:    %[[P2:.*]] = arith.mulf %[[A]], %[[E]]
// CHECK-NEXT:    %[[P3:.*]] = arith.mulf %[[D]], %[[B]]
// CHECK-NEXT:    %[[R1:.*]] = arith.addf %[[P2]], %[[P3]]
// CHECK-NEXT:    linalg.yield %[[R0]], %[[R1]] : f32, f32
// CHECK-NOT:   linalg.generic
func.func @halves(%x: memref<128x512xf32>, %c: memref<64x512xf32>, %s: memref<64x512xf32>) -> memref<128x512xf32> {
  %x1 = memref.subview %x[0, 0] [64, 512] [1, 1] : memref<128x512xf32> to memref<64x512xf32, strided<[512, 1]>>
  %x2 = memref.subview %x[64, 0] [64, 512] [1, 1] : memref<128x512xf32> to memref<64x512xf32, strided<[512, 1], offset: 32768>>
  %out = memref.alloc() : memref<128x512xf32>
  %o1 = memref.subview %out[0, 0] [64, 512] [1, 1] : memref<128x512xf32> to memref<64x512xf32, strided<[512, 1]>>
  // expected-note @below {{the op merged in}}
  linalg.generic {indexing_maps = [#map, #map, #map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %c, %x2, %s : memref<64x512xf32, strided<[512, 1]>>, memref<64x512xf32>, memref<64x512xf32, strided<[512, 1], offset: 32768>>, memref<64x512xf32>)
      outs(%o1 : memref<64x512xf32, strided<[512, 1]>>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %e: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.mulf %d, %e : f32
    %2 = arith.subf %0, %1 : f32
    linalg.yield %2 : f32
  }
  %o1b = memref.subview %out[0, 0] [64, 512] [1, 1] : memref<128x512xf32> to memref<64x512xf32, strided<[512, 1]>>
  memref.copy %o1, %o1b : memref<64x512xf32, strided<[512, 1]>> to memref<64x512xf32, strided<[512, 1]>>
  %o2 = memref.subview %out[64, 0] [64, 512] [1, 1] : memref<128x512xf32> to memref<64x512xf32, strided<[512, 1], offset: 32768>>
  // expected-remark @below {{fuse-siblings: merged with an elementwise op that reads the same buffer}}
  linalg.generic {indexing_maps = [#map, #map, #map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %s, %x2, %c : memref<64x512xf32, strided<[512, 1]>>, memref<64x512xf32>, memref<64x512xf32, strided<[512, 1], offset: 32768>>, memref<64x512xf32>)
      outs(%o2 : memref<64x512xf32, strided<[512, 1], offset: 32768>>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %e: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.mulf %d, %e : f32
    %2 = arith.addf %0, %1 : f32
    linalg.yield %2 : f32
  }
  return %out : memref<128x512xf32>
}

// -----

// A copy between them writes memory: the second may not move past it.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @write_between
// CHECK-COUNT-2: linalg.generic
func.func @write_between(%x: memref<64x512xf32>, %y: memref<64x512xf32>, %z: memref<64x512xf32>, %w: memref<64x512xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  memref.copy %x, %w : memref<64x512xf32> to memref<64x512xf32>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%z : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// Another linalg op reads the first one's result: the first keeps its one
// output (a reduction's producer, an epilogue, the forms the lowering
// recognises around its reader).

#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
// CHECK-LABEL: func.func @output_read
// CHECK-COUNT-3: linalg.generic
func.func @output_read(%x: memref<64x512xf32>, %y: memref<64x512xf32>, %z: memref<64x512xf32>, %sum: memref<64xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%z : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : memref<64x512xf32>) outs(%sum : memref<64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = arith.addf %a, %o : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// The second reads what the first writes; and two ops that read different
// views of one buffer over different loops.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @reads_written
// CHECK-COUNT-2: linalg.generic
func.func @reads_written(%x: memref<64x512xf32>, %y: memref<64x512xf32>, %z: memref<64x512xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<64x512xf32>, memref<64x512xf32>) outs(%z : memref<64x512xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.addf %a, %b : f32
    linalg.yield %0 : f32
  }
  return
}

// CHECK-LABEL: func.func @other_loops
// CHECK-COUNT-2: linalg.generic
func.func @other_loops(%x: memref<64x512xf32>, %y: memref<64x512xf32>, %z: memref<64x256xf32>) {
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  %half = memref.subview %x[0, 0] [64, 256] [1, 1] : memref<64x512xf32> to memref<64x256xf32, strided<[512, 1]>>
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%half : memref<64x256xf32, strided<[512, 1]>>) outs(%z : memref<64x256xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// A merged op takes the next sibling in turn: three ops reading x are one
// generic of three outputs.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @three
// CHECK:       linalg.generic
// CHECK-SAME:    ins(%{{.*}} : memref<64x512xf32>)
// CHECK-SAME:    outs(%{{.*}}, %{{.*}}, %{{.*}} :
// CHECK:       math.exp
// CHECK:       math.tanh
// CHECK:       math.sqrt
// CHECK:       linalg.yield {{.*}} : f32, f32, f32
// CHECK-NOT:   linalg.generic
func.func @three(%x: memref<64x512xf32>, %y: memref<64x512xf32>, %z: memref<64x512xf32>, %w: memref<64x512xf32>) {
  // expected-note @below {{the op merged in}}
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%y : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  // expected-remark @below {{fuse-siblings: merged with an elementwise op that reads the same buffer}}
  // expected-note @below {{the op merged in}}
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%z : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.tanh %a : f32
    linalg.yield %0 : f32
  }
  // expected-remark @below {{fuse-siblings: merged with an elementwise op that reads the same buffer}}
  linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x512xf32>) outs(%w : memref<64x512xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.sqrt %a : f32
    linalg.yield %0 : f32
  }
  return
}

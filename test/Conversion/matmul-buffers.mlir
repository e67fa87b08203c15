// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir=auto-cast=none | FileCheck %s
// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir="matmul-buffers=1 auto-cast=none" | FileCheck %s --check-prefix=ONE
// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir=auto-cast=none -walrus-pipeline=report 2>&1 | FileCheck %s --check-prefix=ALLOC
// RUN: %python %utils/linalg_oracle.py %s --func ragged --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options "matmul-buffers=3 auto-cast=none" --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func ragged --bin %walrus_tools --lnc-size 1 --pipeline --lowering-options "matmul-buffers=1 auto-cast=none" --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// k = 6144 is 48 k tiles: 6 groups of 8. The first group initialises the
// block with buffers 0 (loads, A^T and PSUM tile); a loop of 2 iterations
// runs groups 1-4, one on buffers 1 and one on buffers 0 in each; the
// last group (buffers 1) stores the row tile. Within a group the 8 matmults
// accumulate in one PSUM tile, start to stop, and the vector engine adds
// it into the block once. Each group loads the next group's B after its
// row tile's A (here all 8 k tiles after the one row tile): the last
// group of an iteration loads the first of the next, or of the group after
// the loop.

// CHECK-LABEL: bir.kernel @long_k_kernel
// CHECK:       %[[A0:.*]] = bir.memloc "mm_a" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x1024xf32>
// CHECK-NEXT:  %[[S0:.*]] = bir.memloc "mm_stationary" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x1024xf32>
// CHECK-NEXT:  %[[B0:.*]] = bir.memloc "mm_b" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x512xf32>
// CHECK-NEXT:  %[[A1:.*]] = bir.memloc "mm_a_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x1024xf32>
// CHECK-NEXT:  %[[S1:.*]] = bir.memloc "mm_stationary_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x1024xf32>
// CHECK-NEXT:  %[[B1:.*]] = bir.memloc "mm_b_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x512xf32>
// CHECK-NEXT:  %[[P0:.*]] = bir.memloc "mm_acc" internal {bir.rotating = 0 : i64} : !bir.psum<128x64xf32>
// CHECK-NEXT:  %[[P1:.*]] = bir.memloc "mm_acc_1" internal {bir.rotating = 1 : i64} : !bir.psum<128x64xf32>
// CHECK-NEXT:  %[[C:.*]] = bir.memloc "mm_c" internal : !bir.sbuf<128x64xf32>
// Group 0: its B's 8 k tiles in one transfer, A's rows for them in
// another, then group 1's B.
// CHECK-NEXT:  bir.dma %[[B0]][#bir.ap<0, {{\[\[}}512, 128], [64, 8], [1, 64]]>], %long_k_arg1[#bir.ap<0, {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK-NEXT:  bir.dma %[[A0]][#bir.ap<0, {{\[\[}}1024, 128], [1, 1024]]>], %long_k_arg0[#bir.sap<()[s0] -> (s0 * 786432), {{\[\[}}6144, 128], [1, 1024]]>]
// CHECK-NEXT:  bir.transpose %[[S0]][#bir.ap<0, {{\[\[}}1024, 128], [1, 128]]>], %[[A0]][#bir.ap<0, {{\[\[}}1024, 128], [1, 128]]>]
// CHECK-COUNT-7: bir.transpose %[[S0]]
// CHECK-NEXT:  bir.dma %[[B1]][#bir.ap<0, {{\[\[}}512, 128], [64, 8], [1, 64]]>], %long_k_arg1[#bir.ap<65536, {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK-NEXT:  bir.matmult %[[P0]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[S0]][#bir.ap<0, {{\[\[}}1024, 128], [1, 128]]>], %[[B0]][#bir.ap<0, {{\[\[}}512, 128], [1, 64]]>] start :
// CHECK-COUNT-6: bir.matmult %[[P0]]{{.*}}, %[[B0]]{{.*}}>] :
// CHECK-NEXT:  bir.matmult %[[P0]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[S0]][#bir.ap<896, {{\[\[}}1024, 128], [1, 128]]>], %[[B0]][#bir.ap<448, {{\[\[}}512, 128], [1, 64]]>] stop :
// CHECK-NEXT:  bir.tensor_copy %[[C]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[P0]]
// Groups 1 and 2, then 3 and 4, each loading the next one's B.
// CHECK-NEXT:  bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.dma %[[A1]][{{.*}}], %long_k_arg0[#bir.sap<(d0)[s0] -> (d0 * 2048 + s0 * 786432 + 1024), {{\[\[}}6144, 128], [1, 1024]]>]
// CHECK-COUNT-8: bir.transpose %[[S1]]
// CHECK-NEXT:    bir.dma %[[B0]][{{.*}}], %long_k_arg1[#bir.sap<(d0)[s0] -> (d0 * 131072 + 131072), {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK-NEXT:    bir.matmult %[[P1]][{{.*}}], %[[S1]][{{.*}}], %[[B1]][{{.*}}] start :
// CHECK-COUNT-7: bir.matmult %[[P1]]
// CHECK-NEXT:    bir.tensor_tensor add %[[C]][{{.*}}], %[[C]][{{.*}}], %[[P1]]
// CHECK-NEXT:    bir.dma %[[A0]][{{.*}}], %long_k_arg0[#bir.sap<(d0)[s0] -> (d0 * 2048 + s0 * 786432 + 2048), {{\[\[}}6144, 128], [1, 1024]]>]
// CHECK-COUNT-8: bir.transpose %[[S0]]
// CHECK-NEXT:    bir.dma %[[B1]][{{.*}}], %long_k_arg1[#bir.sap<(d0)[s0] -> (d0 * 131072 + 196608), {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK-COUNT-8: bir.matmult %[[P0]]
// CHECK-NEXT:    bir.tensor_tensor add %[[C]][{{.*}}], %[[C]][{{.*}}], %[[P0]]
// CHECK-NEXT:  }
// Group 5, its B loaded by group 4; then the row tile leaves.
// CHECK-NEXT:  bir.dma %[[A1]][{{.*}}], %long_k_arg0[#bir.sap<()[s0] -> (s0 * 786432 + 5120), {{\[\[}}6144, 128], [1, 1024]]>]
// CHECK-COUNT-8: bir.transpose %[[S1]]
// CHECK-COUNT-8: bir.matmult %[[P1]]
// CHECK-NEXT:  bir.tensor_tensor add %[[C]][{{.*}}], %[[C]][{{.*}}], %[[P1]]
// CHECK-NEXT:  bir.dma %long_k_result0[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>], %[[C]]

// One buffer: one set of tiles, no rotation marks, groups 1-4 in one loop.
// Each group loads its own B first: a group that loaded the next one's B
// would overwrite the tiles its later row tiles still read.
// ONE-LABEL: bir.kernel @long_k_kernel
// ONE:       bir.memloc "mm_a" internal : !bir.sbuf<128x1024xf32>
// ONE-NEXT:  bir.memloc "mm_stationary" internal : !bir.sbuf<128x1024xf32>
// ONE-NEXT:  %[[B:.*]] = bir.memloc "mm_b" internal : !bir.sbuf<128x512xf32>
// ONE-NEXT:  bir.memloc "mm_acc" internal : !bir.psum<128x64xf32>
// ONE-NEXT:  bir.memloc "mm_c" internal : !bir.sbuf<128x64xf32>
// ONE-NOT:   bir.memloc
// ONE-NEXT:  bir.dma %[[B]][{{.*}}], %long_k_arg1[#bir.ap<0,
// ONE-NOT:   bir.dma %[[B]]
// ONE:       bir.loop 0 to 4 step 1 {
// ONE-NEXT:    bir.dma %[[B]][{{.*}}], %long_k_arg1[#bir.sap<(d0)[s0] -> (d0 * 65536 + 65536),
// ONE-NOT:     bir.dma %[[B]]
// ONE:       }
// ONE-NEXT:  bir.dma %[[B]][{{.*}}], %long_k_arg1[#bir.ap<327680,
// ONE-NOT:   bir.dma %[[B]]
// ONE:       bir.dma %long_k_result0
// ONE-NOT:   bir.rotating

// After allocation the rotating buffers are live through the whole loop
// and never share bytes: each buffer at its own address, the PSUM tiles in
// banks 0 and 1. The report says what the second buffers take.
// ALLOC: sb-alloc: @long_k_kernel::@nc_symbolic::@main: {{.*}}, 3 extra rotating buffer(s) take 10240 B/partition
// ALLOC: bir.memloc "mm_a" internal address 2048 base_partition 0 {bir.rotating = 0 : i64} : !bir.sbuf<128x1024xf32>
// ALLOC-NEXT: bir.memloc "mm_stationary" internal address 6144 base_partition 0 {bir.rotating = 0 : i64} : !bir.sbuf<128x1024xf32>
// ALLOC-NEXT: bir.memloc "mm_b" internal address 0 base_partition 0 {bir.rotating = 0 : i64} : !bir.sbuf<128x512xf32>
// ALLOC-NEXT: bir.memloc "mm_a_1" internal address 12544 base_partition 0 {bir.rotating = 1 : i64} : !bir.sbuf<128x1024xf32>
// ALLOC-NEXT: bir.memloc "mm_stationary_1" internal address 16640 base_partition 0 {bir.rotating = 1 : i64} : !bir.sbuf<128x1024xf32>
// ALLOC-NEXT: bir.memloc "mm_b_1" internal address 10240 base_partition 0 {bir.rotating = 1 : i64} : !bir.sbuf<128x512xf32>
// ALLOC-NEXT: bir.memloc "mm_acc" internal address 0 base_partition 0 {bir.rotating = 0 : i64} : !bir.psum<128x64xf32>
// ALLOC-NEXT: bir.memloc "mm_acc_1" internal address 2048 base_partition 0 {bir.rotating = 1 : i64} : !bir.psum<128x64xf32>
// ALLOC-NEXT: bir.memloc "mm_c" internal address 12288 base_partition 0 : !bir.sbuf<128x64xf32>
func.func @long_k(%a: memref<128x6144xf32>, %b: memref<6144x64xf32>) -> memref<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<128x64xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x64xf32>)
  linalg.matmul ins(%a, %b : memref<128x6144xf32>, memref<6144x64xf32>) outs(%c : memref<128x64xf32>)
  return %c : memref<128x64xf32>
}

// -----

// Ragged everywhere, three buffers, two cores, against MLIR: 300 rows (two
// full row tiles and 44), k = 2200 (two groups of 8 k tiles, then one full
// tile and 24 rows), 600 columns (a full PSUM tile and 88), C read first.
// With one buffer on one core (three row tiles reading each group's B),
// this was wrong before each group loaded its own B.
// ORACLE: oracle: within tolerance
func.func @ragged(%a: memref<300x2200xf32>, %b: memref<2200x600xf32>, %c: memref<300x600xf32>) {
  linalg.matmul ins(%a, %b : memref<300x2200xf32>, memref<2200x600xf32>) outs(%c : memref<300x600xf32>)
  return
}

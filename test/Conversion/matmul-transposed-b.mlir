// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func ragged --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func ragged --bin %walrus_tools --lnc-size 1 --pipeline --lowering-options "matmul-buffers=1 auto-cast=none" --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func ragged --bin %walrus_tools --lnc-size 3 --pipeline --lowering-options matmul-buffers=3 --bf16-exact-inputs --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func both_transposed --bin %walrus_tools --lnc-size 2 --pipeline --bf16-exact-inputs --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// A matmul whose B is stored n outer, as torch's nn.Linear keeps its weight
// ([out, in]) and IREE's matmul_transpose_b reads it: B^T's rows load with
// their k contiguous (a run of 1024 elements per partition, not one element
// per run), are cast to bf16 and turned on the tensor engine into the
// moving operand, a transfer per 128 of B's columns. 192 columns: a column
// tile of 128 rows of B^T and one of 64; k = 2048: two groups of 8 k
// tiles, the first group's B loaded before the nest, the second's B after
// the first row tile's A.

// CHECK-LABEL: bir.kernel @linear_kernel
// CHECK:       %[[B0:.*]] = bir.memloc "mm_b" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x1536xbf16>
// CHECK:       %[[B1:.*]] = bir.memloc "mm_b_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x1536xbf16>
// CHECK-NEXT:  %[[BT:.*]] = bir.memloc "mm_bt" internal : !bir.sbuf<128x2048xf32>
// CHECK-NEXT:  %[[BT16:.*]] = bir.memloc "mm_bt_bf16" internal : !bir.sbuf<128x2048xbf16>
// Column tile 0 of B^T: 128 rows, k contiguous; cast; k tile 0 into B's
// rows 0-127, columns 0-127, k tile 1 into columns 192-319 (k tiles are
// 192 columns apart).
// CHECK:       bir.dma %[[BT]][#bir.ap<0, {{\[\[}}2048, 128], [1, 1024]]>], %linear_arg1[#bir.ap<0, {{\[\[}}2048, 128], [1, 1024]]>]
// CHECK-NEXT:  bir.activation identity %[[BT16]][#bir.ap<0, {{\[\[}}2048, 128], [1, 1024]]>], %[[BT]][#bir.ap<0, {{\[\[}}2048, 128], [1, 1024]]>]
// CHECK-NEXT:  bir.transpose %[[B0]][#bir.ap<0, {{\[\[}}1536, 128], [1, 128]]>], %[[BT16]][#bir.ap<0, {{\[\[}}2048, 128], [1, 128]]>]
// CHECK-NEXT:  bir.transpose %[[B0]][#bir.ap<192, {{\[\[}}1536, 128], [1, 128]]>], %[[BT16]][#bir.ap<128, {{\[\[}}2048, 128], [1, 128]]>]
// CHECK-COUNT-6: bir.transpose %[[B0]]
// Column tile 1: 64 rows of B^T in a transfer of its own, into columns
// 128-191 of each k tile.
// CHECK-NEXT:  bir.dma %[[BT]][#bir.ap<1024, {{\[\[}}2048, 64], [1, 1024]]>], %linear_arg1[#bir.ap<262144, {{\[\[}}2048, 64], [1, 1024]]>]
// CHECK-NEXT:  bir.activation identity %[[BT16]][#bir.ap<1024, {{\[\[}}2048, 64], [1, 1024]]>], %[[BT]][#bir.ap<1024, {{\[\[}}2048, 64], [1, 1024]]>]
// CHECK-NEXT:  bir.transpose %[[B0]][#bir.ap<128, {{\[\[}}1536, 128], [1, 64]]>], %[[BT16]][#bir.ap<1024, {{\[\[}}2048, 64], [1, 128]]>]
// CHECK-COUNT-7: bir.transpose %[[B0]]
// The first row tile's A, then the second group's column tile 0.
// CHECK-NEXT:  bir.dma %mm_a
// CHECK-NEXT:  bir.activation identity %mm_a_bf16
// CHECK-COUNT-8: bir.transpose %mm_stationary
// CHECK-NEXT:  bir.dma %[[BT]][#bir.ap<0, {{\[\[}}2048, 128], [1, 1024]]>], %linear_arg1[#bir.ap<1024, {{\[\[}}2048, 128], [1, 1024]]>]
// CHECK-NEXT:  bir.activation identity %[[BT16]]
// CHECK-COUNT-8: bir.transpose %[[B1]]
// CHECK-NEXT:  bir.matmult %mm_acc[{{.*}}], %mm_stationary[{{.*}}], %[[B0]][#bir.ap<0, {{\[\[}}1536, 128], [1, 192]]>] start :
func.func @linear(%x: memref<256x2048xf32>, %w: memref<192x2048xf32>) -> memref<256x192xf32> {
  %zero = arith.constant 0.0 : f32
  %y = memref.alloc() : memref<256x192xf32>
  linalg.fill ins(%zero : f32) outs(%y : memref<256x192xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%x, %w : memref<256x2048xf32>, memref<192x2048xf32>) outs(%y : memref<256x192xf32>)
  return %y : memref<256x192xf32>
}

// -----

// Ragged everywhere against MLIR: 300 rows, 600 columns (four column tiles
// of B^T and one of 88 rows), k = 2200 (two groups of 8 k tiles, one of a
// tile and 24 rows), C read first; f32 and bf16 operands, one to three
// buffers, one to three cores.
// ORACLE: oracle: {{identical|within tolerance}}
func.func @ragged(%a: memref<300x2200xf32>, %w: memref<600x2200xf32>, %c: memref<300x600xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : memref<300x2200xf32>, memref<600x2200xf32>) outs(%c : memref<300x600xf32>)
  return
}

// -----

// Both operands transposed: A^T loads k outer as it is, B^T turns.
func.func @both_transposed(%a: memref<700x300xf32>, %w: memref<600x700xf32>, %c: memref<300x600xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%a, %w : memref<700x300xf32>, memref<600x700xf32>) outs(%c : memref<300x600xf32>)
  return
}

// RUN: walrus-opt %s -convert-linalg-to-bir="lnc-size=2 auto-cast=none" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --func taps --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=TAPS
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --func accumulate --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ACCUMULATE

// Matmuls that accumulate one after the other into the same C are one
// nest: C's block stays in SBUF while the k tiles of every term run, and C
// is stored once. With a zero fill before the first, its first product
// initialises the block. Here the terms read A from one tensor two rows
// apart (a convolution's taps): per k tile each term's B goes to its own
// slot of the moving tile, and A^T is loaded once per row tile as a window
// two columns wider (128 rows, then the 2 after them), which each term
// reads from its shift.

// CHECK-LABEL: bir.kernel @taps_kernel
// CHECK:       %[[STAT:.*]] = bir.memloc "mm_stationary" internal : !bir.sbuf<128x130xf32>
// CHECK:       %[[B:.*]] = bir.memloc "mm_b" internal : !bir.sbuf<128x192xf32>
// CHECK:       bir.dma %[[B]][#bir.ap<0, {{\[\[}}192, 64], [1, 96]]>], %taps_arg1[#bir.ap<0, {{\[\[}}96, 64], [1, 96]]>]
// CHECK-NEXT:  bir.dma %[[B]][#bir.ap<96, {{\[\[}}192, 64], [1, 96]]>], %taps_arg1[#bir.ap<6144, {{\[\[}}96, 64], [1, 96]]>]
// CHECK-NEXT:  bir.dma %mm_a[{{.*}}], %taps_arg0[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[STAT]][#bir.ap<0, {{\[\[}}130, 64], [1, 128]]>]
// CHECK-NEXT:  bir.dma %mm_a[{{.*}}], %taps_arg0[#bir.sap<()[s0] -> (s0 * 8192 + 8192), {{\[\[}}64, 2], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[STAT]][#bir.ap<128, {{\[\[}}130, 64], [1, 2]]>]
// CHECK-NEXT:  bir.matmult %[[ACC:[a-z_0-9]+]][{{.*}}], %[[STAT]][#bir.ap<0, {{\[\[}}130, 64], [1, 128]]>], %[[B]][#bir.ap<0, {{\[\[}}192, 64], [1, 96]]>]
// CHECK-NEXT:  bir.tensor_copy %mm_c[#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[ACC]]
// CHECK-NEXT:  bir.matmult %[[ACC]][{{.*}}], %[[STAT]][#bir.ap<2, {{\[\[}}130, 64], [1, 128]]>], %[[B]][#bir.ap<96, {{\[\[}}192, 64], [1, 96]]>]
// CHECK-NEXT:  bir.tensor_tensor add %mm_c[#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %mm_c[#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[ACC]]
// CHECK-NEXT:  bir.dma %taps_result0[#bir.sap<()[s0] -> (s0 * 12288), {{\[\[}}96, 128], [1, 96]]>], %mm_c
// The last two rows, on core 1: rows 128-129, then 130-131, one window.
// CHECK:       bir.dma %mm_a{{.*}}, %taps_arg0[#bir.ap<8192, {{\[\[}}64, 2], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[STAT]][#bir.ap<0, {{\[\[}}130, 64], [1, 2]]>]
// CHECK-NEXT:  bir.dma %mm_a{{.*}}, %taps_arg0[#bir.ap<8320, {{\[\[}}64, 2], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[STAT]][#bir.ap<2, {{\[\[}}130, 64], [1, 2]]>]
// CHECK:       bir.matmult %[[ACC]][{{.*}}], %[[STAT]][#bir.ap<2, {{\[\[}}130, 64], [1, 2]]>]
// CHECK:       bir.dma %taps_result0[#bir.ap<12288, {{\[\[}}96, 2], [1, 96]]>]
// CHECK-NOT:   bir.dma %taps_result0

// TAPS: oracle: within tolerance
func.func @taps(%x: memref<132x64xf32>, %w: memref<2x64x96xf32>) -> memref<130x96xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<130x96xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<130x96xf32>)
  %x0 = memref.subview %x[0, 0] [130, 64] [1, 1] : memref<132x64xf32> to memref<130x64xf32, strided<[64, 1]>>
  %w0 = memref.subview %w[0, 0, 0] [1, 64, 96] [1, 1, 1] : memref<2x64x96xf32> to memref<64x96xf32, strided<[96, 1]>>
  linalg.matmul ins(%x0, %w0 : memref<130x64xf32, strided<[64, 1]>>, memref<64x96xf32, strided<[96, 1]>>) outs(%c : memref<130x96xf32>)
  %x1 = memref.subview %x[2, 0] [130, 64] [1, 1] : memref<132x64xf32> to memref<130x64xf32, strided<[64, 1], offset: 128>>
  %w1 = memref.subview %w[1, 0, 0] [1, 64, 96] [1, 1, 1] : memref<2x64x96xf32> to memref<64x96xf32, strided<[96, 1], offset: 6144>>
  linalg.matmul ins(%x1, %w1 : memref<130x64xf32, strided<[64, 1], offset: 128>>, memref<64x96xf32, strided<[96, 1], offset: 6144>>) outs(%c : memref<130x96xf32>)
  return %c : memref<130x96xf32>
}

// Without a fill, C is loaded once and every term of the chain (here of
// different k, one with B transposed) adds to it: the first term's two k
// tiles are one group (one PSUM sum, one add), the second term's group
// takes the next buffers and the next PSUM tile. The transposed B's rows
// (n outer) load as they are stored and turn on the tensor engine.
// CHECK-LABEL: bir.kernel @accumulate_kernel
// CHECK:       bir.dma %mm_c[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %accumulate_arg2
// CHECK-NEXT:  bir.dma %mm_b[#bir.ap<0, {{\[\[}}128, 128], [1, 64]]>], %accumulate_arg1[#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>]
// CHECK-NEXT:  bir.dma %mm_b[#bir.ap<64, {{\[\[}}128, 72], [1, 64]]>], %accumulate_arg1[#bir.ap<8192, {{\[\[}}64, 72], [1, 64]]>]
// CHECK-NEXT:  bir.dma %mm_a[#bir.ap<0, {{\[\[}}256, 40], [1, 200]]>], %accumulate_arg0[#bir.ap<0, {{\[\[}}200, 40], [1, 200]]>]
// CHECK-NEXT:  bir.transpose
// CHECK-NEXT:  bir.transpose
// CHECK-NEXT:  bir.matmult %mm_acc[{{.*}}] start {mask
// CHECK-NEXT:  bir.matmult %mm_acc[{{.*}}] stop {mask
// CHECK-NEXT:  bir.tensor_tensor add %mm_c[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %mm_c[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %mm_acc[
// CHECK-NEXT:  bir.dma %mm_bt[#bir.ap<0, {{\[\[}}256, 64], [1, 30]]>], %accumulate_arg4[#bir.ap<0, {{\[\[}}30, 64], [1, 30]]>]
// CHECK-NEXT:  bir.transpose %mm_b_1[#bir.ap<0, {{\[\[}}128, 30], [1, 64]]>], %mm_bt[#bir.ap<0, {{\[\[}}256, 64], [1, 30]]>]
// CHECK-NEXT:  bir.dma %mm_a_1[#bir.ap<0, {{\[\[}}256, 40], [1, 30]]>], %accumulate_arg3
// CHECK-NEXT:  bir.transpose %mm_stationary_1
// CHECK-NEXT:  bir.matmult %mm_acc_1[{{.*}}] start stop {mask
// CHECK-NEXT:  bir.tensor_tensor add %mm_c[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %mm_c[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %mm_acc_1[
// CHECK-NEXT:  bir.dma %accumulate_arg2[#bir.ap<0, {{\[\[}}64, 40], [1, 64]]>], %mm_c
// CHECK-NOT:   bir.dma %accumulate_arg2

// ACCUMULATE: oracle: within tolerance
func.func @accumulate(%a: memref<40x200xf32>, %b: memref<200x64xf32>, %c: memref<40x64xf32>, %d: memref<40x30xf32>, %e: memref<64x30xf32>) {
  linalg.matmul ins(%a, %b : memref<40x200xf32>, memref<200x64xf32>) outs(%c : memref<40x64xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%d, %e : memref<40x30xf32>, memref<64x30xf32>) outs(%c : memref<40x64xf32>)
  return
}


// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s
// RUN: walrus-opt %s -convert-linalg-to-bir=auto-cast=none | FileCheck %s --check-prefix=NONE
// RUN: not walrus-opt %s -convert-linalg-to-bir=auto-cast=fp8 2>&1 | FileCheck %s --check-prefix=BAD
//
// Inputs bf16 holds exactly: the cast changes no operand, so the result is
// the f32 one up to the order of its sums.
// RUN: %python %utils/linalg_oracle.py %s --func cast --bin %walrus_tools --lnc-size 2 --pipeline --bf16-exact-inputs --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func cast_transposed --bin %walrus_tools --pipeline --bf16-exact-inputs --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=EXACT
// Inputs uniform in [-1, 1): within the documented bound, 2^-7 times the
// sum of |a| |b| over k (at most k = 300 here: 2.34), and farther from the
// f32 result than f32 arithmetic would be (the cast happened).
// RUN: %python %utils/linalg_oracle.py %s --func cast --bin %walrus_tools --pipeline --atol 2.34 --no-auto-cast-bound | FileCheck %s --check-prefix=BOUND
// RUN: not %python %utils/linalg_oracle.py %s --func cast --bin %walrus_tools --pipeline --atol 1e-4 --no-auto-cast-bound | FileCheck %s --check-prefix=CAST
// EXACT: oracle: within tolerance
// BOUND: oracle: within tolerance
// CAST: oracle: mismatch

// f32 operands go to the tensor engine in bf16 (the Neuron compiler's
// default, --auto-cast matmult): B's rows arrive in one f32 staging tile
// and the scalar engine casts them into the rotating bf16 moving tiles;
// A's rows likewise into bf16 before the tensor engine turns them (a bf16
// transpose); the products accumulate in f32 PSUM and the block stays f32.
// CHECK-LABEL: bir.kernel @cast_kernel
// CHECK:       %[[A:.*]] = bir.memloc "mm_a" internal : !bir.sbuf<128x384xf32>
// CHECK-NEXT:  %[[A16:.*]] = bir.memloc "mm_a_bf16" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x384xbf16>
// CHECK-NEXT:  %[[S:.*]] = bir.memloc "mm_stationary" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x384xbf16>
// CHECK-NEXT:  %[[B32:.*]] = bir.memloc "mm_b_f32" internal : !bir.sbuf<128x480xf32>
// CHECK-NEXT:  %[[B:.*]] = bir.memloc "mm_b" internal : !bir.sbuf<128x480xbf16>
// CHECK-NEXT:  %[[A16B:.*]] = bir.memloc "mm_a_bf16_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x384xbf16>
// CHECK-NEXT:  %[[SB:.*]] = bir.memloc "mm_stationary_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x384xbf16>
// CHECK-NEXT:  %[[P:.*]] = bir.memloc "mm_acc" internal {bir.rotating = 0 : i64} : !bir.psum<128x160xf32>
// CHECK-NEXT:  %[[PB:.*]] = bir.memloc "mm_acc_1" internal {bir.rotating = 1 : i64} : !bir.psum<128x160xf32>
// CHECK-NEXT:  %[[C:.*]] = bir.memloc "mm_c" internal : !bir.sbuf<128x320xf32>
// CHECK-NEXT:  bir.dma %[[B32]][#bir.ap<0, {{\[\[}}480, 128], [160, 2], [1, 160]]>], %cast_arg1[#bir.ap<0, {{\[\[}}160, 128], [20480, 2], [1, 160]]>]
// CHECK-NEXT:  bir.activation identity %[[B]][#bir.ap<0, {{\[\[}}480, 128], [160, 2], [1, 160]]>], %[[B32]][#bir.ap<0, {{\[\[}}480, 128], [160, 2], [1, 160]]>] : !bir.sbuf<128x480xbf16>, !bir.sbuf<128x480xf32>
// CHECK-NEXT:  bir.dma %[[B32]][#bir.ap<320, {{\[\[}}480, 44], [1, 160]]>], %cast_arg1[#bir.ap<40960, {{\[\[}}160, 44], [1, 160]]>]
// CHECK-NEXT:  bir.activation identity %[[B]][#bir.ap<320, {{\[\[}}480, 44], [1, 160]]>], %[[B32]]
// CHECK-NEXT:  bir.dma %[[A]][#bir.ap<0, {{\[\[}}384, 128], [1, 300]]>], %cast_arg0[#bir.ap<0, {{\[\[}}300, 128], [1, 300]]>]
// CHECK-NEXT:  bir.activation identity %[[A16]][#bir.ap<0, {{\[\[}}384, 128], [1, 300]]>], %[[A]][#bir.ap<0, {{\[\[}}384, 128], [1, 300]]>] : !bir.sbuf<128x384xbf16>, !bir.sbuf<128x384xf32>
// CHECK-NEXT:  bir.transpose %[[S]][#bir.ap<0, {{\[\[}}384, 128], [1, 128]]>], %[[A16]][#bir.ap<0, {{\[\[}}384, 128], [1, 128]]>] : !bir.sbuf<128x384xbf16>, !bir.sbuf<128x384xbf16>
// CHECK-NEXT:  bir.transpose %[[S]]
// CHECK-NEXT:  bir.transpose %[[S]]
// CHECK-NEXT:  bir.matmult %[[P]][{{.*}}], %[[S]][{{.*}}], %[[B]][{{.*}}] start : !bir.psum<128x160xf32>, !bir.sbuf<128x384xbf16>, !bir.sbuf<128x480xbf16>
// CHECK-NEXT:  bir.matmult %[[P]]
// CHECK-NEXT:  bir.matmult %[[P]][{{.*}}] stop
// CHECK-NEXT:  bir.tensor_copy %[[C]][{{.*}}], %[[P]]
// The second row tile (72 rows) casts into the other buffers.
// CHECK-NEXT:  bir.dma %[[A]][#bir.ap<0, {{\[\[}}384, 72], [1, 300]]>]
// CHECK-NEXT:  bir.activation identity %[[A16B]][#bir.ap<0, {{\[\[}}384, 72], [1, 300]]>], %[[A]]
// CHECK:       bir.matmult %[[PB]][{{.*}}], %[[SB]]

// A stored transposed arrives in an f32 staging tile and is cast into the
// stationary operand directly.
// CHECK-LABEL: bir.kernel @cast_transposed_kernel
// CHECK:       %[[ST32:.*]] = bir.memloc "mm_stationary_f32" internal : !bir.sbuf<128x384xf32>
// CHECK-NEXT:  %[[ST:.*]] = bir.memloc "mm_stationary" internal : !bir.sbuf<128x384xbf16>
// CHECK:       bir.dma %[[ST32]][#bir.ap<0, {{\[\[}}384, 128], [128, 2], [1, 64]]>], %cast_transposed_arg0[#bir.ap<0, {{\[\[}}64, 128], [8192, 2], [1, 64]]>]
// CHECK-NEXT:  bir.activation identity %[[ST]][#bir.ap<0, {{\[\[}}384, 128], [128, 2], [1, 64]]>], %[[ST32]]
// CHECK-NOT:   bir.transpose

// auto-cast=none keeps the operands f32: no staging, no activation.
// NONE-LABEL: bir.kernel @cast_kernel
// NONE:       bir.memloc "mm_a" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x384xf32>
// NONE-NEXT:  bir.memloc "mm_stationary" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x384xf32>
// NONE-NEXT:  bir.memloc "mm_b" internal : !bir.sbuf<128x480xf32>
// NONE-NOT:   bir.activation
// NONE:       bir.matmult {{.*}} : !bir.psum<128x160xf32>, !bir.sbuf<128x384xf32>, !bir.sbuf<128x480xf32>
// NONE-NOT:   bir.activation
// NONE-LABEL: bir.kernel @cast_transposed_kernel

// BAD: error: convert-linalg-to-bir: unknown auto-cast 'fp8' (matmult or none)
func.func @cast(%a: memref<200x300xf32>, %b: memref<300x160xf32>) -> memref<200x160xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<200x160xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<200x160xf32>)
  linalg.matmul ins(%a, %b : memref<200x300xf32>, memref<300x160xf32>) outs(%c : memref<200x160xf32>)
  return %c : memref<200x160xf32>
}

func.func @cast_transposed(%a: memref<300x64xf32>, %b: memref<300x96xf32>, %c: memref<64x96xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %b : memref<300x64xf32>, memref<300x96xf32>) outs(%c : memref<64x96xf32>)
  return
}

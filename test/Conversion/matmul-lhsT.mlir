// RUN: walrus-opt %s -convert-linalg-to-bir="lnc-size=1 auto-cast=none" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func lhs_t --bin %walrus_tools --lnc-size 1 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func lhs_t --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-5 --bf16-exact-inputs | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// A stored [k, m] (NKI's lhsT) is already the tensor engine's stationary
// operand. Each k group's A^T comes in for every row tile of the block at
// once: partition k reads one run of the block's 300 rows, not a run of
// 128 per row tile (256 bytes of bf16, a packet each). Row tile i of k
// tile t sits at column (t * 3 + i) * 128 of the stationary tile.

// CHECK-LABEL: bir.kernel @lhs_t_kernel
// CHECK:       %[[AT:.*]] = bir.memloc "mm_stationary" internal{{.*}}: !bir.sbuf<128x768xf32>
// CHECK:       bir.dma %[[AT]][#bir.ap<0, {{\[\[}}768, 128], [384, 2], [1, 300]]>], %lhs_t_arg0[#bir.ap<0, {{\[\[}}300, 128], [38400, 2], [1, 300]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<0, {{\[\[}}768, 128], [1, 128]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<384, {{\[\[}}768, 128], [1, 128]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<128, {{\[\[}}768, 128], [1, 128]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<512, {{\[\[}}768, 128], [1, 128]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<256, {{\[\[}}768, 128], [1, 44]]>]
// CHECK:       bir.matmult %{{.*}}, %[[AT]][#bir.ap<640, {{\[\[}}768, 128], [1, 44]]>]
// CHECK-NOT:   bir.dma %[[AT]]
func.func @lhs_t(%at: memref<256x300xf32>, %b: memref<256x64xf32>, %c: memref<300x64xf32>) {
  %zero = arith.constant 0.0 : f32
  linalg.fill ins(%zero : f32) outs(%c : memref<300x64xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                                 affine_map<(m, n, k) -> (k, n)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%at, %b : memref<256x300xf32>, memref<256x64xf32>) outs(%c : memref<300x64xf32>)
  return
}

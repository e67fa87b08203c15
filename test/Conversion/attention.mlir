// RUN: walrus-opt %s -convert-linalg-to-bir="lnc-size=2 auto-cast=none" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --reference-file %S/Inputs/attention-reference.mlir --reference attention_reference --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -convert-linalg-to-bir=lnc-size=2 | FileCheck %s --check-prefix=CAST
// RUN: %python %utils/linalg_oracle.py %s --reference-file %S/Inputs/attention-reference.mlir --reference attention_reference --bin %walrus_tools --lnc-size 2 --pipeline --scale-tol 1e-2 | FileCheck %s --check-prefix=ORACLE

// With the default auto-cast the tensor engine's operands are bf16: Q's
// and K's rows and V are cast on the scalar engine as they arrive, and
// exp writes the probabilities in bf16 for their transposes; the scores,
// their maximum and the sums stay f32. Within 1% of the largest magnitude
// of the result.
// CAST-LABEL: bir.func @main
// CAST-DAG:   %[[KR:.*]] = bir.memloc "at_krows" internal : !bir.sbuf<128x256xf32>
// CAST-DAG:   %[[KR16:.*]] = bir.memloc "at_krows_bf16" internal : !bir.sbuf<128x128xbf16>
// CAST-DAG:   %[[KT:.*]] = bir.memloc "at_k" internal : !bir.sbuf<128x200xbf16>
// CAST-DAG:   %[[V:.*]] = bir.memloc "at_v" internal : !bir.sbuf<128x98xbf16>
// CAST-DAG:   %[[V32:.*]] = bir.memloc "at_v_f32" internal : !bir.sbuf<128x96xf32>
// CAST-DAG:   %[[S:.*]] = bir.memloc "at_s" internal : !bir.sbuf<128x200xf32>
// CAST-DAG:   %[[S16:.*]] = bir.memloc "at_s_bf16" internal : !bir.sbuf<128x200xbf16>
// CAST:       bir.dma %[[KR]][#bir.ap<0, {{\[\[}}256, 128], [1, 64]]>], %attention_arg1
// CAST-NEXT:  bir.dma %[[KR]][#bir.ap<128, {{\[\[}}256, 72], [1, 64]]>], %attention_arg1
// CAST-NEXT:  bir.activation identity %[[KR16]][#bir.ap<0, {{\[\[}}128, 128], [1, 64]]>], %[[KR]][#bir.ap<0, {{\[\[}}256, 128], [1, 64]]>]
// CAST-NEXT:  bir.transpose %[[KT]][#bir.ap<0, {{\[\[}}200, 64], [1, 128]]>], %[[KR16]]
// CAST:       bir.memset %[[V]][#bir.ap<48, {{\[\[}}98, 128], [49, 2]]>], 1.000000e+00
// CAST-NEXT:  bir.dma %[[V32]][#bir.ap<0, {{\[\[}}96, 128], [1, 48]]>], %attention_arg2
// CAST-NEXT:  bir.dma %[[V32]][#bir.ap<48, {{\[\[}}96, 72], [1, 48]]>], %attention_arg2
// CAST-NEXT:  bir.activation identity %[[V]][#bir.ap<0, {{\[\[}}98, 128], [1, 48]]>], %[[V32]][#bir.ap<0, {{\[\[}}96, 128], [1, 48]]>]
// CAST-NEXT:  bir.activation identity %[[V]][#bir.ap<49, {{\[\[}}98, 72], [1, 48]]>], %[[V32]][#bir.ap<48, {{\[\[}}96, 72], [1, 48]]>]
// CAST:       bir.tensor_scalar multiply %[[STAT:.*]][{{.*}}], %[[STAT]][{{.*}}], -1.000000e+00
// CAST-NEXT:  bir.activation exp %[[S16]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>] bias %[[STAT]]
// CAST-NEXT:  bir.transpose %{{.*}}, %[[S16]]

// softmax(Q K^T) V as three linalg ops lowers as one nest: K^T and V are
// loaded once per core, each tile of 130 query rows keeps its row of 200
// scores in SBUF from the first matmul through the softmax (in place) to
// the second, and the two S x S buffers are never touched. The vector
// engine only takes the row's maximum and subtracts it; V's panel holds a
// column of ones after each key tile (49 columns a tile), so P V's last
// column is the row sum of P, and only the 48 outputs are divided by it
// on their way out of PSUM.

// CHECK-LABEL: bir.func @main
// CHECK-NOT:   attention_buf
// CHECK-DAG:   %[[KT:.*]] = bir.memloc "at_k" internal : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[V:.*]] = bir.memloc "at_v" internal : !bir.sbuf<128x98xf32>
// CHECK-DAG:   %[[S:.*]] = bir.memloc "at_s" internal : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[STAT:.*]] = bir.memloc "at_stat" internal : !bir.sbuf<128x1xf32>
// CHECK-DAG:   %[[O:.*]] = bir.memloc "at_o" internal : !bir.sbuf<128x48xf32>
// CHECK-DAG:   %[[ACC:.*]] = bir.memloc "at_acc" internal : !bir.psum<128x200xf32>
// CHECK-DAG:   %[[ACC2:.*]] = bir.memloc "at_ctx" internal : !bir.psum<128x49xf32>
// K is stored [keys, d]: both key tiles come in as rows, side by side in
// one staging tile (their transfers wait for nothing), then the tensor
// engine turns each into its columns of K^T (a DMA reading K transposed
// would move one packet per element); V in two key tiles after the
// column of ones; then each core's query rows, before its first tile.
// CHECK:       bir.dma %[[KR:.*]][#bir.ap<0, {{\[\[}}256, 128], [1, 64]]>], %attention_arg1[#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>]
// CHECK-NEXT:  bir.dma %[[KR]][#bir.ap<128, {{\[\[}}256, 72], [1, 64]]>], %attention_arg1[#bir.ap<8192, {{\[\[}}64, 72], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[KT]][#bir.ap<0, {{\[\[}}200, 64], [1, 128]]>], %[[KR]][#bir.ap<0, {{\[\[}}256, 128], [1, 64]]>]
// CHECK-NEXT:  bir.transpose %[[KT]][#bir.ap<128, {{\[\[}}200, 64], [1, 72]]>], %[[KR]][#bir.ap<128, {{\[\[}}256, 72], [1, 64]]>]
// CHECK-NEXT:  bir.memset %[[V]][#bir.ap<48, {{\[\[}}98, 128], [49, 2]]>], 1.000000e+00
// CHECK-NEXT:  bir.dma %[[V]][#bir.ap<0, {{\[\[}}98, 128], [1, 48]]>], %{{.*}}[#bir.ap<0, {{\[\[}}48, 128], [1, 48]]>]
// CHECK-NEXT:  bir.dma %[[V]][#bir.ap<49, {{\[\[}}98, 72], [1, 48]]>], %{{.*}}[#bir.ap<6144, {{\[\[}}48, 72], [1, 48]]>]
// CHECK-NEXT:  bir.dma %[[QR:.*]][#bir.ap<0, {{\[\[}}128, 128], [1, 64]]>], %attention_arg0[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.dma %[[QR]][#bir.ap<0, {{\[\[}}128, 2], [1, 64]]>], %attention_arg0[#bir.ap<8192, {{\[\[}}64, 2], [1, 64]]>] {mask = #[[CORE1:.*]]}
// Core 0's 128 rows: Q^T, the scores, the softmax, P^T per key tile, P V
// and its row sums, the division by the sums read across the row.
// CHECK-NEXT:  bir.transpose %[[QT:.*]][#bir.ap<0, {{\[\[}}128, 64], [1, 128]]>], %[[QR]][#bir.ap<0, {{\[\[}}128, 128], [1, 64]]>] {mask = #[[CORE0]]}
// CHECK-NEXT:  bir.matmult %[[ACC]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[QT]][{{.*}}], %[[KT]][#bir.ap<0, {{\[\[}}200, 64], [1, 200]]>] start stop
// CHECK-NEXT:  bir.activation identity %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[ACC]]
// CHECK-NEXT:  bir.tensor_reduce max %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[S]]
// CHECK-NEXT:  bir.tensor_scalar multiply %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], -1.000000e+00
// CHECK-NEXT:  bir.activation exp %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>] bias %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [0, 200]]>]
// CHECK-NEXT:  bir.transpose %[[PT:.*]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 128]]>]
// CHECK-NEXT:  bir.matmult %[[ACC2]][#bir.ap<0, {{\[\[}}49, 128], [1, 49]]>], %[[PT]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %[[V]][#bir.ap<0, {{\[\[}}98, 128], [1, 49]]>] start
// CHECK-NEXT:  bir.transpose %[[PT]][#bir.ap<0, {{\[\[}}128, 72], [1, 128]]>], %[[S]][#bir.ap<128, {{\[\[}}200, 128], [1, 72]]>]
// CHECK-NEXT:  bir.matmult %[[ACC2]][#bir.ap<0, {{\[\[}}49, 128], [1, 49]]>], %[[PT]][#bir.ap<0, {{\[\[}}128, 72], [1, 128]]>], %[[V]][#bir.ap<49, {{\[\[}}98, 72], [1, 49]]>] stop
// CHECK-NEXT:  bir.tensor_tensor divide %[[O]][#bir.ap<0, {{\[\[}}48, 128], [1, 48]]>], %[[ACC2]][#bir.ap<0, {{\[\[}}49, 128], [1, 48]]>], %[[ACC2]][#bir.ap<48, {{\[\[}}49, 128], [0, 48]]>]
// CHECK-NEXT:  bir.dma %attention_arg3[#bir.sap<()[s0] -> (s0 * 6144), {{\[\[}}48, 128], [1, 48]]>], %[[O]]
// Core 1's 2 rows, from the same columns of the staged rows.
// CHECK-NEXT:  bir.transpose %[[QT]][#bir.ap<0, {{\[\[}}128, 64], [1, 2]]>], %[[QR]][#bir.ap<0, {{\[\[}}128, 2], [1, 64]]>] {mask = #[[CORE1]]}

// ORACLE: attention_arg3: 6240 elements
// ORACLE: oracle: within tolerance
func.func @attention(%q: memref<130x64xf32>, %k: memref<200x64xf32>, %v: memref<200x48xf32>,
                     %o: memref<130x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<130x200xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<130x200xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : memref<130x64xf32>, memref<200x64xf32>) outs(%s : memref<130x200xf32>)
  %p = memref.alloc() : memref<130x200xf32>
  linalg.softmax dimension(1) ins(%s : memref<130x200xf32>) outs(%p : memref<130x200xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<130x48xf32>)
  linalg.matmul ins(%p, %v : memref<130x200xf32>, memref<200x48xf32>) outs(%o : memref<130x48xf32>)
  memref.dealloc %s : memref<130x200xf32>
  memref.dealloc %p : memref<130x200xf32>
  return
}

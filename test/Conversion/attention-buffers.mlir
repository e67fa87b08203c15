// RUN: walrus-opt %s -convert-linalg-to-bir="auto-cast=none attention-buffers=2" | FileCheck %s
// RUN: walrus-opt %s -convert-linalg-to-bir="auto-cast=none attention-buffers=1" | FileCheck %s --check-prefix=ONE
// RUN: walrus-opt %s -walrus-from-linalg="auto-cast=none attention-buffers=2" | FileCheck %s --check-prefix=PLACED
// RUN: walrus-opt %s -walrus-from-linalg="report attention-buffers=1" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESTIMATE-ONE
// RUN: walrus-opt %s -walrus-from-linalg="report attention-buffers=2" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESTIMATE-TWO
// RUN: walrus-opt %s -walrus-from-linalg="report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=ESTIMATE-FOUR
// RUN: %python %utils/linalg_oracle.py %s --lowering-options "auto-cast=none attention-buffers=3" --reference-file %S/Inputs/attention-buffers-reference.mlir --reference attention_reference --bin %walrus_tools --lnc-size 2 --pipeline --schedule-options "" --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --reference-file %S/Inputs/attention-buffers-reference.mlir --reference attention_reference --bin %walrus_tools --lnc-size 1 --pipeline --scale-tol 1e-2 | FileCheck %s --check-prefix=ORACLE

// attention-buffers (default 4; 2 here) rotates the tiles of a query tile over
// consecutive query tiles: 520 queries are four full tiles and 8 rows;
// the loop runs two tiles an iteration, the first with set 0, the second
// with set 1 (Q^T, scores, statistics, P^T, output and both PSUM
// accumulators), and the 8 rows take set 0 again. K, V and the query rows
// are shared: every query row comes in before the first tile (a loop of
// transfers into columns of their own), so no tile's loads wait behind
// the last tile's store.

// CHECK-LABEL: bir.func @main
// CHECK-DAG:   %[[K:.*]] = bir.memloc "at_k" internal : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[V:.*]] = bir.memloc "at_v" internal : !bir.sbuf<128x98xf32>
// CHECK-DAG:   %[[QR:.*]] = bir.memloc "at_qrows" internal : !bir.sbuf<128x640xf32>
// CHECK-DAG:   %[[QT0:.*]] = bir.memloc "at_qt" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x128xf32>
// CHECK-DAG:   %[[S0:.*]] = bir.memloc "at_s" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[O0:.*]] = bir.memloc "at_o" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x48xf32>
// CHECK-DAG:   %[[A0:.*]] = bir.memloc "at_acc" internal {bir.rotating = 0 : i64} : !bir.psum<128x200xf32>
// CHECK-DAG:   %[[C0:.*]] = bir.memloc "at_ctx" internal {bir.rotating = 0 : i64} : !bir.psum<128x49xf32>
// CHECK-DAG:   %[[QT1:.*]] = bir.memloc "at_qt_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x128xf32>
// CHECK-DAG:   %[[S1:.*]] = bir.memloc "at_s_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[O1:.*]] = bir.memloc "at_o_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x48xf32>
// CHECK-DAG:   %[[A1:.*]] = bir.memloc "at_acc_1" internal {bir.rotating = 1 : i64} : !bir.psum<128x200xf32>
// CHECK-DAG:   %[[C1:.*]] = bir.memloc "at_ctx_1" internal {bir.rotating = 1 : i64} : !bir.psum<128x49xf32>
// CHECK:       bir.loop 0 to 4 step 1 {
// CHECK-NEXT:    bir.dma %[[QR]][#bir.sap<(d0)[s0] -> (d0 * 128), {{\[\[}}640, 128], [1, 64]]>], %attention_arg0[#bir.sap<(d0)[s0] -> (d0 * 8192 + s0 * 8192), {{\[\[}}64, 128], [1, 64]]>]
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.dma %[[QR]][#bir.ap<512, {{\[\[}}640, 8], [1, 64]]>], %attention_arg0[#bir.ap<32768, {{\[\[}}64, 8], [1, 64]]>]
// CHECK-NEXT:  bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.transpose %[[QT0]][#bir.ap<0, {{\[\[}}128, 64], [1, 128]]>], %[[QR]][#bir.sap<(d0)[s0] -> (d0 * 256), {{\[\[}}640, 128], [1, 64]]>]
// CHECK-NEXT:    bir.matmult %[[A0]]
// CHECK-NEXT:    bir.activation identity %[[S0]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[A0]]
// CHECK:         bir.matmult %[[C0]]{{.*}}, %[[V]][#bir.ap<49, {{\[\[}}98, 72], [1, 49]]>] stop
// CHECK:         bir.dma %attention_arg3[#bir.sap<(d0)[s0] -> (d0 * 12288 + s0 * 6144), {{\[\[}}48, 128], [1, 48]]>], %[[O0]]
// CHECK-NEXT:    bir.transpose %[[QT1]][#bir.ap<0, {{\[\[}}128, 64], [1, 128]]>], %[[QR]][#bir.sap<(d0)[s0] -> (d0 * 256 + 128), {{\[\[}}640, 128], [1, 64]]>]
// CHECK-NEXT:    bir.matmult %[[A1]]
// CHECK-NEXT:    bir.activation identity %[[S1]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[A1]]
// CHECK:         bir.matmult %[[C1]]{{.*}}, %[[V]][#bir.ap<49, {{\[\[}}98, 72], [1, 49]]>] stop
// CHECK:         bir.dma %attention_arg3[#bir.sap<(d0)[s0] -> (d0 * 12288 + s0 * 6144 + 6144), {{\[\[}}48, 128], [1, 48]]>], %[[O1]]
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.transpose %[[QT0]][#bir.ap<0, {{\[\[}}128, 64], [1, 8]]>], %[[QR]][#bir.ap<512, {{\[\[}}640, 8], [1, 64]]>]
// CHECK:       bir.dma %attention_arg3[#bir.ap<24576, {{\[\[}}48, 8], [1, 48]]>], %[[O0]][#bir.ap<0, {{\[\[}}48, 8], [1, 48]]>]

// With one set, nothing rotates: a loop over the four full tiles.
// ONE-NOT:   bir.rotating
// ONE:       bir.loop 0 to 4 step 1 {
// ONE-NOT:   bir.rotating

// After allocation the two sets' tiles never share a byte: SBUF and PSUM
// (each accumulator in a bank of its own).
// PLACED-DAG: bir.memloc "at_s" internal address 2304 base_partition 0 {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// PLACED-DAG: bir.memloc "at_s_1" internal address 3104 base_partition 0 {bir.rotating = 1 : i64} : !bir.sbuf<128x200xf32>
// PLACED-DAG: bir.memloc "at_o" internal address 7144 base_partition 0 {bir.rotating = 0 : i64} : !bir.sbuf<128x48xf32>
// PLACED-DAG: bir.memloc "at_o_1" internal address 7336 base_partition 0 {bir.rotating = 1 : i64} : !bir.sbuf<128x48xf32>
// PLACED-DAG: bir.memloc "at_acc" internal address 0 base_partition 0 {bir.rotating = 0 : i64} : !bir.psum<128x200xf32>
// PLACED-DAG: bir.memloc "at_acc_1" internal address 2048 base_partition 0 {bir.rotating = 1 : i64} : !bir.psum<128x200xf32>
// PLACED-DAG: bir.memloc "at_ctx" internal address 4096 base_partition 0 {bir.rotating = 0 : i64} : !bir.psum<128x49xf32>
// PLACED-DAG: bir.memloc "at_ctx_1" internal address 6144 base_partition 0 {bir.rotating = 1 : i64} : !bir.psum<128x49xf32>

// The timing model's estimate (trn2, auto-cast, scheduled): the next
// tile's scores go ahead while the softmax of the last one runs.
// ESTIMATE-ONE: kernel of 1 core(s): 15.004 us
// ESTIMATE-TWO: 7 extra rotating buffer(s)
// ESTIMATE-TWO: kernel of 1 core(s): 9.601 us
// The default, four sets (the four full tiles in one turn each, auto-cast
// adding the bf16 tiles to each set).
// ESTIMATE-FOUR: 21 extra rotating buffer(s)
// ESTIMATE-FOUR: kernel of 1 core(s): 8.078 us

// ORACLE: attention_arg3: 24960 elements
// ORACLE: oracle: within tolerance
func.func @attention(%q: memref<520x64xf32>, %k: memref<200x64xf32>, %v: memref<200x48xf32>,
                     %o: memref<520x48xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<520x200xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<520x200xf32>)
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%q, %k : memref<520x64xf32>, memref<200x64xf32>) outs(%s : memref<520x200xf32>)
  %p = memref.alloc() : memref<520x200xf32>
  linalg.softmax dimension(1) ins(%s : memref<520x200xf32>) outs(%p : memref<520x200xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<520x48xf32>)
  linalg.matmul ins(%p, %v : memref<520x200xf32>, memref<200x48xf32>) outs(%o : memref<520x48xf32>)
  memref.dealloc %s : memref<520x200xf32>
  memref.dealloc %p : memref<520x200xf32>
  return
}

// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=1" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// linalg.softmax outside an attention nest: a core's row tiles take turns
// among sets of tiles (normalization-buffers, at most one per row tile),
// marked bir.rotating, so one tile's load and store overlap the last
// one's softmax. Three row tiles, three sets, each tile in its own.

// CHECK-LABEL: bir.kernel @rows_kernel
// CHECK-DAG:   %[[X0:.*]] = bir.memloc "sm_x" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[Y0:.*]] = bir.memloc "sm_y" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[X1:.*]] = bir.memloc "sm_x_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[X2:.*]] = bir.memloc "sm_x_2" internal {bir.rotating = 2 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[Y2:.*]] = bir.memloc "sm_y_2" internal {bir.rotating = 2 : i64} : !bir.sbuf<128x200xf32>
// CHECK:       bir.dma %[[X0]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %rows_arg0[#bir.sap<()[s0] -> (s0 * 25600), {{\[\[}}200, 128], [1, 200]]>]
// CHECK:       bir.dma %rows_result0[#bir.sap<()[s0] -> (s0 * 25600), {{\[\[}}200, 128], [1, 200]]>], %[[Y0]]
// CHECK:       bir.dma %[[X1]][{{.*}}], %rows_arg0[#bir.sap<()[s0] -> (s0 * 25600 + 25600),
// CHECK:       bir.dma %[[X2]][#bir.ap<0, {{\[\[}}200, 44], [1, 200]]>], %rows_arg0[#bir.ap<51200,
// CHECK:       bir.dma %rows_result0[#bir.ap<51200, {{\[\[}}200, 44], [1, 200]]>], %[[Y2]]
func.func @rows(%x: tensor<300x200xf32>) -> tensor<300x200xf32> {
  %e = tensor.empty() : tensor<300x200xf32>
  %y = linalg.softmax dimension(1) ins(%x : tensor<300x200xf32>) outs(%e : tensor<300x200xf32>) -> tensor<300x200xf32>
  return %y : tensor<300x200xf32>
}

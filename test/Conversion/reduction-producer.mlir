// RUN: walrus-opt %s -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2" | FileCheck %s
// RUN: walrus-opt %s -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=1" | FileCheck %s --check-prefix=ROTATE
// RUN: %python %utils/linalg_oracle.py %s --func inverse_rms --bin %walrus_tools --lnc-size 1 --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func inverse_rms --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func squares_kept --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// RMSNorm's statistic as torch-mlir writes it: x ** 2, a sum over the row
// kept as a column (keepdim), then rsqrt(mean + eps); nothing normalizes
// by it here (normalization.mlir has the whole RMSNorm in one nest). The squares are
// read by the sum alone, so the reduction computes them tile by tile from
// x (on the scalar engine) and reduces them in SBUF: the 300 x 700 buffer
// of squares is never written or read (docs/LinalgToBir.md, "Reductions
// and softmax"). Within f32 summation order of MLIR's CPU execution.

// ORACLE: oracle: {{identical|within tolerance}}

// On one core the three row tiles take turns between two sets of tiles
// (elementwise-buffers): the accumulator, partial sum, x and square tiles
// of set 0, then of set 1, then set 0 again for the last 44 rows.
// ROTATE-LABEL: bir.kernel @inverse_rms_kernel
// ROTATE-DAG:   %[[ACC0:.*]] = bir.memloc "red_acc" internal {bir.rotating = 0 : i64}
// ROTATE-DAG:   %[[ACC1:.*]] = bir.memloc "red_acc_1" internal {bir.rotating = 1 : i64}
// ROTATE-DAG:   %[[SQ0:.*]] = bir.memloc "t" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x700xf32>
// ROTATE-DAG:   %[[SQ1:.*]] = bir.memloc "t_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x700xf32>
// ROTATE:       bir.dma %[[ACC0]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]
// ROTATE:       bir.tensor_reduce add %{{.*}}, %[[SQ0]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// ROTATE:       bir.dma %[[ACC1]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]
// ROTATE:       bir.tensor_reduce add %{{.*}}, %[[SQ1]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// ROTATE:       bir.dma %[[ACC0]][#bir.ap<0, {{\[\[}}1, 44], [1, 1]]>]
// ROTATE:       bir.tensor_reduce add %{{.*}}, %[[SQ0]][#bir.ap<0, {{\[\[}}700, 44], [1, 700]]>]

// CHECK-LABEL: bir.kernel @inverse_rms_kernel
// CHECK-NOT:   internal : !bir.dram<300x700xf32>
// CHECK:       bir.core_barrier "after_op1"
// CHECK-NEXT:  bir.dma %[[ACC:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[SUM:[a-z0-9_]+]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:  bir.dma %[[X:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %inverse_rms_arg0[#bir.sap<()[s0] -> (s0 * 89600), {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.activation square %[[SQ:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %[[X]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.tensor_reduce add %[[PART:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[SQ]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.tensor_tensor add %[[ACC]][{{.*}}], %[[ACC]][{{.*}}], %[[PART]]
// CHECK-NEXT:  bir.dma %[[SUM]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>], %[[ACC]]
func.func @inverse_rms(%x: tensor<300x700xf32>) -> tensor<300x1xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %two = arith.constant 2.000000e+00 : f32
  %n = arith.constant 7.000000e+02 : f32
  %eps = arith.constant 9.99999974E-6 : f32
  %e0 = tensor.empty() : tensor<300x700xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<300x700xf32>) outs(%e0 : tensor<300x700xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = math.powf %in, %two : f32
    linalg.yield %p : f32
  } -> tensor<300x700xf32>
  %e1 = tensor.empty() : tensor<300x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<300x1xf32>) -> tensor<300x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<300x700xf32>) outs(%f : tensor<300x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<300x1xf32>
  %e2 = tensor.empty() : tensor<300x1xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<300x1xf32>) outs(%e2 : tensor<300x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %n : f32
    %a = arith.addf %d, %eps : f32
    %q = math.rsqrt %a : f32
    linalg.yield %q : f32
  } -> tensor<300x1xf32>
  return %r : tensor<300x1xf32>
}

// The squares are also returned: the buffer is written, and the sum reads
// it as any reduction does.
// CHECK-LABEL: bir.kernel @squares_kept_kernel
// CHECK:       bir.activation square %[[SQ:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.dma %squares_kept_result0[{{.*}}], %[[SQ]]
// CHECK:       bir.dma %[[IN:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %squares_kept_result0[
// CHECK-NEXT:  bir.tensor_reduce add %{{.*}}, %[[IN]]
func.func @squares_kept(%x: tensor<300x700xf32>) -> (tensor<300x1xf32>, tensor<300x700xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  %e0 = tensor.empty() : tensor<300x700xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<300x700xf32>) outs(%e0 : tensor<300x700xf32>) {
  ^bb0(%in: f32, %out: f32):
    %p = arith.mulf %in, %in : f32
    linalg.yield %p : f32
  } -> tensor<300x700xf32>
  %e1 = tensor.empty() : tensor<300x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<300x1xf32>) -> tensor<300x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%sq : tensor<300x700xf32>) outs(%f : tensor<300x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.addf %in, %out : f32
    linalg.yield %s : f32
  } -> tensor<300x1xf32>
  return %sum, %sq : tensor<300x1xf32>, tensor<300x700xf32>
}

// RUN: walrus-opt %s -split-input-file -widen-accumulators | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func matmul_bf16 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func batch_matmul_f16 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: not %python %utils/linalg_oracle.py %s --func matmul_bf16 --bin %walrus_tools --accumulate-as-written | FileCheck %s --check-prefix=AS-WRITTEN

// A contraction into bf16 or f16: MLIR rounds the running sum at every
// step, the tensor engine sums in f32 PSUM. -widen-accumulators writes
// what the engine computes: the same op into an f32 init, truncated once.
// The oracle runs MLIR on the same rewrite and says so; run as written,
// the two differ.

// ORACLE: oracle: MLIR runs bf16/f16 contractions accumulating in f32, rounded once
// ORACLE: oracle: {{identical|within tolerance}}
// AS-WRITTEN-NOT: accumulating in f32
// AS-WRITTEN: oracle: mismatch

// CHECK-LABEL: func.func @matmul_bf16
// CHECK:         %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK:         %[[WIDE_ZERO:.*]] = arith.extf %[[ZERO]] : bf16 to f32
// CHECK:         %[[EMPTY:.*]] = tensor.empty() : tensor<64x64xf32>
// CHECK:         %[[INIT:.*]] = linalg.fill ins(%[[WIDE_ZERO]] : f32) outs(%[[EMPTY]] : tensor<64x64xf32>)
// CHECK:         %[[SUM:.*]] = linalg.matmul ins(%arg0, %arg1 : tensor<64x256xbf16>, tensor<256x64xbf16>) outs(%[[INIT]] : tensor<64x64xf32>) -> tensor<64x64xf32>
// CHECK:         %[[ROUNDED:.*]] = arith.truncf %[[SUM]] : tensor<64x64xf32> to tensor<64x64xbf16>
// CHECK:         return %[[ROUNDED]]

// BIR-LABEL: bir.kernel @matmul_bf16_kernel
// BIR:         bir.matmult %{{.*}} : !bir.psum<{{.*}}xf32>, !bir.sbuf<{{.*}}xbf16>, !bir.sbuf<{{.*}}xbf16>
func.func @matmul_bf16(%a: tensor<64x256xbf16>, %b: tensor<256x64xbf16>) -> tensor<64x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64x64xbf16>
  %f = linalg.fill ins(%zero : bf16) outs(%e : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  %r = linalg.matmul ins(%a, %b : tensor<64x256xbf16>, tensor<256x64xbf16>) outs(%f : tensor<64x64xbf16>) -> tensor<64x64xbf16>
  return %r : tensor<64x64xbf16>
}

// -----

// An accumulator that is an argument (C += A B) is widened with extf.

// CHECK-LABEL: func.func @batch_matmul_f16
// CHECK:         %[[INIT:.*]] = arith.extf %arg2 : tensor<2x32x16xf16> to tensor<2x32x16xf32>
// CHECK:         %[[SUM:.*]] = linalg.batch_matmul ins(%arg0, %arg1 : tensor<2x32x64xf16>, tensor<2x64x16xf16>) outs(%[[INIT]] : tensor<2x32x16xf32>) -> tensor<2x32x16xf32>
// CHECK:         arith.truncf %[[SUM]] : tensor<2x32x16xf32> to tensor<2x32x16xf16>
func.func @batch_matmul_f16(%a: tensor<2x32x64xf16>, %b: tensor<2x64x16xf16>, %c: tensor<2x32x16xf16>) -> tensor<2x32x16xf16> {
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x32x64xf16>, tensor<2x64x16xf16>) outs(%c : tensor<2x32x16xf16>) -> tensor<2x32x16xf16>
  return %r : tensor<2x32x16xf16>
}

// -----

// An f32 accumulator, and a generic reduction into bf16, are left alone.

// CHECK-LABEL: func.func @as_written
// CHECK-NOT:     arith.extf
// CHECK:         linalg.matmul ins(%arg0, %arg1 : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%arg2 : tensor<8x8xf32>)
// CHECK:         linalg.generic
// CHECK-NOT:     arith.truncf
func.func @as_written(%a: tensor<8x8xbf16>, %b: tensor<8x8xbf16>, %c: tensor<8x8xf32>, %d: tensor<8xbf16>) -> (tensor<8x8xf32>, tensor<8xbf16>) {
  %r = linalg.matmul ins(%a, %b : tensor<8x8xbf16>, tensor<8x8xbf16>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]} ins(%a : tensor<8x8xbf16>) outs(%d : tensor<8xbf16>) {
  ^bb0(%x: bf16, %acc: bf16):
    %y = arith.addf %x, %acc : bf16
    linalg.yield %y : bf16
  } -> tensor<8xbf16>
  return %r, %s : tensor<8x8xf32>, tensor<8xbf16>
}

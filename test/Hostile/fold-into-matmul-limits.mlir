// RUN: walrus-opt %s -fold-into-matmul | FileCheck %s
// RUN: not walrus-opt %s -walrus-from-linalg -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOWER

// Batches whose rows stacked would overflow int64 (2^62 x 4) stay a
// batch_matmul: before the check the stacked matmul had 0 rows. The
// lowering then refuses the sizes with an error at the op.
// CHECK-LABEL: func.func @huge
// CHECK-NOT:   tensor.collapse_shape
// CHECK:       linalg.batch_matmul
// CHECK-NOT:   linalg.matmul
// LOWER: error: convert-linalg-to-bir: 'memref.alloc' is not supported with a memref of more than 2^48 elements
func.func @huge(%x: tensor<4611686018427387904x4x8xf32>, %w: tensor<8x16xf32>, %c: tensor<4611686018427387904x4x16xf32>) -> tensor<4611686018427387904x4x16xf32> {
  %e = tensor.empty() : tensor<4611686018427387904x8x16xf32>
  %wb = linalg.broadcast ins(%w : tensor<8x16xf32>) outs(%e : tensor<4611686018427387904x8x16xf32>) dimensions = [0]
  %mm = linalg.batch_matmul ins(%x, %wb : tensor<4611686018427387904x4x8xf32>, tensor<4611686018427387904x8x16xf32>) outs(%c : tensor<4611686018427387904x4x16xf32>) -> tensor<4611686018427387904x4x16xf32>
  return %mm : tensor<4611686018427387904x4x16xf32>
}

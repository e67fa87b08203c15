// RUN: walrus-opt %s -fold-into-matmul | FileCheck %s
// RUN: not walrus-opt %s -walrus-from-linalg 2>&1 | FileCheck %s --check-prefix=LOWER

// The operands' cast stays: an unsigned batch_matmul stacks into an
// unsigned matmul.
// CHECK-LABEL: func.func @unsigned
// CHECK:       linalg.matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%{{.*}}, %{{.*}} : tensor<80x24xi8>, tensor<24x16xi8>) outs(%{{.*}} : tensor<80x16xi32>)
func.func @unsigned(%x: tensor<2x40x24xi8>, %w: tensor<24x16xi8>) -> tensor<2x40x16xi32> {
  %zero = arith.constant 0 : i32
  %e1 = tensor.empty() : tensor<2x24x16xi8>
  %wb = linalg.broadcast ins(%w : tensor<24x16xi8>) outs(%e1 : tensor<2x24x16xi8>) dimensions = [0]
  %e2 = tensor.empty() : tensor<2x40x16xi32>
  %c = linalg.fill ins(%zero : i32) outs(%e2 : tensor<2x40x16xi32>) -> tensor<2x40x16xi32>
  %mm = linalg.batch_matmul {cast = #linalg.type_fn<cast_unsigned>} ins(%x, %wb : tensor<2x40x24xi8>, tensor<2x24x16xi8>) outs(%c : tensor<2x40x16xi32>) -> tensor<2x40x16xi32>
  return %mm : tensor<2x40x16xi32>
}

// The lowering refuses unsigned products as it did before the fold, at the
// matmul, with the reason.
// LOWER: error: convert-linalg-to-bir: 'linalg.matmul' is not supported with 'arith.extui' of other than i1 in its body

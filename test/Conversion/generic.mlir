// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir | FileCheck %s

// The general lowering: the output's innermost loop is the columns, its
// longest other parallel loop the partitions, every other loop a bir.loop
// (docs/LinalgToBir.md, "The general lowering").

// torch.sum(x, dim=1): the reduced loop is a bir.loop around the tile,
// which starts from the output's values and adds each slice of 4 x 30.

// CHECK-LABEL: bir.kernel @sum_dim1_kernel
// CHECK:       bir.dma %[[ACC:.*]][#bir.ap<0, {{\[\[}}30, 4], [1, 30]]>], %sum_dim1_arg1[#bir.ap<0, {{\[\[}}30, 4], [1, 30]]>]
// CHECK-NEXT:  bir.loop 0 to 50 step 1 {
// CHECK-NEXT:    bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}30, 4], [1, 30]]>], %sum_dim1_arg0[#bir.sap<(d0)[s0] -> (d0 * 30), {{\[\[}}1500, 4], [1, 30]]>]
// CHECK-NEXT:    bir.tensor_tensor add %[[ACC]][#bir.ap<0, {{\[\[}}30, 4], [1, 30]]>], %[[IN]][{{.*}}], %[[ACC]][{{.*}}]
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.dma %sum_dim1_arg1[#bir.ap<0, {{\[\[}}30, 4], [1, 30]]>], %[[ACC]]
func.func @sum_dim1(%x: memref<4x50x30xf32>, %y: memref<4x30xf32>) {
  linalg.reduce ins(%x : memref<4x50x30xf32>) outs(%y : memref<4x30xf32>) dimensions = [1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return
}

// -----

// Attention heads, [B, S, H, D] -> [B, H, S, D]: S is the partitions, D
// the columns, B and H loops; each tile is loaded with the input's strides
// and stored as it is.

// CHECK-LABEL: bir.kernel @heads_kernel
// CHECK:       bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.loop 0 to 4 step 1 {
// CHECK-NEXT:      bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}8, 16], [1, 8]]>], %heads_arg0[#bir.sap<(d0, d1)[s0] -> (d0 * 512 + d1 * 8), {{\[\[}}32, 16], [1, 8]]>]
// CHECK-NEXT:      bir.dma %heads_arg1[#bir.sap<(d0, d1)[s0] -> (d0 * 512 + d1 * 128), {{\[\[}}8, 16], [1, 8]]>], %[[IN]][#bir.ap<0, {{\[\[}}8, 16], [1, 8]]>]
// CHECK-NEXT:    }
// CHECK-NEXT:  }
func.func @heads(%x: memref<2x16x4x8xf32>, %y: memref<2x4x16x8xf32>) {
  linalg.transpose ins(%x : memref<2x16x4x8xf32>) outs(%y : memref<2x4x16x8xf32>) permutation = [0, 2, 1, 3]
  return
}

// -----

// A stride-2 convolution: the output channels are the partitions, the
// output columns the columns (the input's step 2), the output rows a loop
// (the input's rows 2 * 9 apart), and c, kh, kw loops that multiply and
// accumulate on the vector engine, the weight broadcast along the columns.

// CHECK-LABEL: bir.kernel @conv_kernel
// CHECK:       bir.loop 0 to 4 step 1 {
// CHECK-NEXT:    bir.dma %[[ACC:.*]][#bir.ap<0, {{\[\[}}4, 4], [1, 4]]>], %conv_arg2[#bir.sap<(d0)[s0] -> (d0 * 4), {{\[\[}}16, 4], [1, 4]]>]
// CHECK-NEXT:    bir.loop 0 to 3 step 1 {
// CHECK-NEXT:      bir.loop 0 to 3 step 1 {
// CHECK-NEXT:        bir.loop 0 to 3 step 1 {
// CHECK-NEXT:          bir.dma %[[X:.*]][#bir.ap<0, {{\[\[}}4, 4], [1, 4]]>], %conv_arg0[#bir.sap<(d0, d1, d2, d3)[s0] -> (d0 * 18 + d1 * 81 + d2 * 9 + d3), {{\[\[}}0, 4], [2, 4]]>]
// CHECK-NEXT:          bir.dma %[[W:.*]][#bir.ap<0, {{\[\[}}4, 4], [1, 4]]>], %conv_arg1[#bir.sap<(d0, d1, d2, d3)[s0] -> (d1 * 9 + d2 * 3 + d3), {{\[\[}}27, 4], [0, 4]]>]
// CHECK-NEXT:          bir.tensor_tensor multiply %[[P:.*]][{{.*}}], %[[X]][{{.*}}], %[[W]][{{.*}}]
// CHECK-NEXT:          bir.tensor_tensor add %[[ACC]][{{.*}}], %[[ACC]][{{.*}}], %[[P]][{{.*}}]
func.func @conv(%x: memref<1x3x9x9xf32>, %w: memref<4x3x3x3xf32>, %y: memref<1x4x4x4xf32>) {
  linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>}
      ins(%x, %w : memref<1x3x9x9xf32>, memref<4x3x3x3xf32>) outs(%y : memref<1x4x4x4xf32>)
  return
}

// -----

// A full sum: no output loop is left for the columns, so the input's
// contiguous reduction loop is, and its other reduction loop goes on the
// partitions, 128 rows at a time: each tile is reduced along its columns,
// the column of sums turned into a row on the tensor engine and reduced
// again, then added to the one-element accumulator.

// CHECK-LABEL: bir.kernel @total_kernel
// CHECK:       bir.dma %[[ACC:.*]][#bir.ap<0, {{\[\[}}1, 1], [1, 1]]>], %total_arg1[#bir.ap<0, {{\[\[}}0, 1], [0, 1]]>]
// CHECK-NEXT:  bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}70, 128], [1, 70]]>], %total_arg0[#bir.sap<(d0)[s0] -> (d0 * 8960), {{\[\[}}70, 128], [1, 70]]>]
// CHECK-NEXT:    bir.tensor_reduce add %[[PART:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[IN]][#bir.ap<0, {{\[\[}}70, 128], [1, 70]]>]
// CHECK-NEXT:    bir.transpose %[[ROW:.*]][#bir.ap<0, {{\[\[}}128, 1], [1, 128]]>], %[[PART]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:    bir.tensor_reduce add %[[PART]][#bir.ap<0, {{\[\[}}1, 1], [1, 1]]>], %[[ROW]][#bir.ap<0, {{\[\[}}128, 1], [1, 128]]>]
// CHECK-NEXT:    bir.tensor_tensor add %[[ACC]][{{.*}}], %[[ACC]][{{.*}}], %[[PART]][{{.*}}]
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.dma %[[IN]][#bir.ap<0, {{\[\[}}70, 44], [1, 70]]>], %total_arg0[#bir.ap<17920, {{\[\[}}70, 44], [1, 70]]>]
// CHECK:       bir.dma %total_arg1[#bir.ap<0, {{\[\[}}0, 1], [0, 1]]>], %[[ACC]]
func.func @total(%x: memref<300x70xf32>, %y: memref<f32>) {
  linalg.reduce ins(%x : memref<300x70xf32>) outs(%y : memref<f32>) dimensions = [0, 1]
    (%in: f32, %init: f32) {
      %s = arith.addf %in, %init : f32
      linalg.yield %s : f32
    }
  return
}

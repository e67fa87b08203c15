// RUN: walrus-opt %s -walrus-from-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --pipeline --ids-below 20 | FileCheck %s --check-prefix=ORACLE

// BERT's position embedding (torch-mlir): the ids are the first 16 of a
// longer buffer of positions, a one-row strided view, read as flat ids;
// then the gather of the table rows they name.
// ORACLE: oracle: identical
// CHECK-LABEL: bir.kernel @positions_kernel
// CHECK:         bir.dma %[[IDS:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}1, 16], [1, 1]]>], %positions_arg0[#bir.ap<0, {{\[\[}}1, 16], [1, 1]]>] : !bir.sbuf<16x1xi64>, !bir.dram<1x64xi64>
// CHECK-NEXT:    bir.dma_gather %{{.*}}, %positions_arg1[{{.*}}], %[[IDS]][#bir.ap<0, {{\[\[}}1, 16], [1, 1]]>]
#ids = affine_map<(d0, d1, d2) -> (d0, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
func.func @positions(%buffer: tensor<1x64xi64>, %table: tensor<20x32xf32>) -> tensor<1x16x32xf32> {
  %c20 = arith.constant 20 : index
  %slice = tensor.extract_slice %buffer[0, 0] [1, 16] [1, 1] : tensor<1x64xi64> to tensor<1x16xi64>
  %e = tensor.empty() : tensor<1x16x32xf32>
  %y = linalg.generic {indexing_maps = [#ids, #out], iterator_types = ["parallel", "parallel", "parallel"]} ins(%slice : tensor<1x16xi64>) outs(%e : tensor<1x16x32xf32>) {
  ^bb0(%in: i64, %o: f32):
    %row = arith.index_cast %in : i64 to index
    %col = linalg.index 2 : index
    %v = tensor.extract %table[%row, %col] : tensor<20x32xf32>
    linalg.yield %v : f32
  } -> tensor<1x16x32xf32>
  return %y : tensor<1x16x32xf32>
}

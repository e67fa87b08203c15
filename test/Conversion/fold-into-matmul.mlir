// RUN: walrus-opt %s -split-input-file -fold-into-matmul | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func linear3d --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func mm_weight_t --bin %walrus_tools --lnc-size 1 --pipeline --bf16-exact-inputs --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func scores --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func transposed_a --bin %walrus_tools --lnc-size 1 --pipeline --bf16-exact-inputs --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func batched_broadcast --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-4 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// Each function is checked against MLIR running it as written (the oracle
// lowers it after the fold).
// ORACLE: oracle: {{identical|within tolerance}}

// torch-mlir's aten.linear on [1, S, In]: the weight [Out, In] transposed,
// broadcast over the batch, batch_matmul, then the bias. The matmul reads
// the weight as it is stored, (n, k), over the stacked rows of A; the
// transpose and the broadcast are gone.
// CHECK-LABEL: func.func @linear3d
// CHECK-SAME:    (%[[X:.*]]: tensor<1x200x96xf32>, %[[W:.*]]: tensor<160x96xf32>, %[[B:.*]]: tensor<160xf32>)
// CHECK-NOT:   linalg.transpose
// CHECK:       %[[A:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<1x200x96xf32> into tensor<200x96xf32>
// CHECK:       %[[E:.*]] = tensor.empty() : tensor<200x160xf32>
// CHECK:       %[[C:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E]] : tensor<200x160xf32>)
// CHECK:       %[[MM:.*]] = linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[A]], %[[W]] : tensor<200x96xf32>, tensor<160x96xf32>) outs(%[[C]] : tensor<200x160xf32>)
// CHECK:       %[[Y:.*]] = tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [1, 200, 160]
// CHECK:       linalg.generic {{.*}} ins(%[[Y]], %[[B]]
// CHECK-NOT:   linalg.batch_matmul
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1, d0)>
#map2 = affine_map<(d0, d1, d2) -> (d1, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> (d2)>
func.func @linear3d(%x: tensor<1x200x96xf32>, %w: tensor<160x96xf32>, %bias: tensor<160xf32>) -> tensor<1x200x160xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<96x160xf32>
  %wt = linalg.transpose ins(%w : tensor<160x96xf32>) outs(%e0 : tensor<96x160xf32>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<1x96x160xf32>
  %wb = linalg.generic {indexing_maps = [#map2, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%wt : tensor<96x160xf32>) outs(%e1 : tensor<1x96x160xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x96x160xf32>
  %e2 = tensor.empty() : tensor<1x200x160xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x200x160xf32>) -> tensor<1x200x160xf32>
  %mm = linalg.batch_matmul ins(%x, %wb : tensor<1x200x96xf32>, tensor<1x96x160xf32>) outs(%c : tensor<1x200x160xf32>) -> tensor<1x200x160xf32>
  %y = linalg.generic {indexing_maps = [#map3, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%mm, %bias : tensor<1x200x160xf32>, tensor<160xf32>) outs(%e2 : tensor<1x200x160xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<1x200x160xf32>
  return %y : tensor<1x200x160xf32>
}

// -----

// A 2-D aten.mm by a transposed weight, the transpose as torch-mlir writes
// it (a generic that reads in order and writes permuted) behind a
// tensor.cast: the matmul reads the weight (n, k).
// CHECK-DAG:   #[[MK:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG:   #[[NK:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG:   #[[MN:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @mm_weight_t
// CHECK-SAME:    (%[[X:.*]]: tensor<130x300xf32>, %[[W:.*]]: tensor<70x300xf32>)
// CHECK-NOT:   linalg.generic
// CHECK:       linalg.matmul indexing_maps = [#[[MK]], #[[NK]], #[[MN]]] ins(%[[X]], %[[W]] : tensor<130x300xf32>, tensor<70x300xf32>)
#in_order = affine_map<(d0, d1) -> (d0, d1)>
#permuted = affine_map<(d0, d1) -> (d1, d0)>
func.func @mm_weight_t(%x: tensor<130x300xf32>, %w: tensor<70x300xf32>) -> tensor<130x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<300x70xf32>
  %wt = linalg.generic {indexing_maps = [#in_order, #permuted], iterator_types = ["parallel", "parallel"]} ins(%w : tensor<70x300xf32>) outs(%e0 : tensor<300x70xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<300x70xf32>
  %cast = tensor.cast %wt : tensor<300x70xf32> to tensor<300x70xf32>
  %e1 = tensor.empty() : tensor<130x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e1 : tensor<130x70xf32>) -> tensor<130x70xf32>
  %mm = linalg.matmul ins(%x, %cast : tensor<130x300xf32>, tensor<300x70xf32>) outs(%c : tensor<130x70xf32>) -> tensor<130x70xf32>
  return %mm : tensor<130x70xf32>
}

// -----

// A weight broadcast over 3 batches with linalg.broadcast, not transposed,
// into a C that is not a fill: the batches' rows stack into one matmul
// that reads the weight (k, n) (the default maps), C collapsed with them.
// CHECK-LABEL: func.func @batched_broadcast
// CHECK-SAME:    (%[[X:.*]]: tensor<3x50x40xf32>, %[[W:.*]]: tensor<40x20xf32>, %[[C:.*]]: tensor<3x50x20xf32>)
// CHECK:       %[[A:.*]] = tensor.collapse_shape %[[X]] {{\[\[}}0, 1], [2]] : tensor<3x50x40xf32> into tensor<150x40xf32>
// CHECK:       %[[C2:.*]] = tensor.collapse_shape %[[C]] {{\[\[}}0, 1], [2]] : tensor<3x50x20xf32> into tensor<150x20xf32>
// CHECK:       %[[MM:.*]] = linalg.matmul ins(%[[A]], %[[W]] : tensor<150x40xf32>, tensor<40x20xf32>) outs(%[[C2]] : tensor<150x20xf32>)
// CHECK:       tensor.expand_shape %[[MM]] {{\[\[}}0, 1], [2]] output_shape [3, 50, 20]
// CHECK-NOT:   linalg.broadcast
func.func @batched_broadcast(%x: tensor<3x50x40xf32>, %w: tensor<40x20xf32>, %c: tensor<3x50x20xf32>) -> tensor<3x50x20xf32> {
  %e = tensor.empty() : tensor<3x40x20xf32>
  %wb = linalg.broadcast ins(%w : tensor<40x20xf32>) outs(%e : tensor<3x40x20xf32>) dimensions = [0]
  %mm = linalg.batch_matmul ins(%x, %wb : tensor<3x50x40xf32>, tensor<3x40x20xf32>) outs(%c : tensor<3x50x20xf32>) -> tensor<3x50x20xf32>
  return %mm : tensor<3x50x20xf32>
}

// -----

// torch-mlir's attention scores: K transposed per head ([0, 2, 1]) into
// batch_matmul, which reads K (b, n, k) instead; a batch_matmul whose A
// is transposed per batch reads it (b, k, m).
// CHECK-DAG:   #[[BMK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
// CHECK-DAG:   #[[BNK:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d2, d3)>
// CHECK-DAG:   #[[BKM:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>
// CHECK-DAG:   #[[BKN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-DAG:   #[[BMN:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
// CHECK-LABEL: func.func @scores
// CHECK-SAME:    (%[[Q:[^:]*]]: tensor<4x130x64xf32>, %[[K:[^:]*]]: tensor<4x130x64xf32>)
// CHECK-NOT:   linalg.transpose
// CHECK:       linalg.batch_matmul indexing_maps = [#[[BMK]], #[[BNK]], #[[BMN]]] ins(%[[Q]], %[[K]] :
// CHECK-LABEL: func.func @transposed_a
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<2x96x40xf32>, %[[W:[^:]*]]: tensor<2x96x24xf32>,
// CHECK:       linalg.batch_matmul indexing_maps = [#[[BKM]], #[[BKN]], #[[BMN]]] ins(%[[X]], %[[W]] :
func.func @scores(%q: tensor<4x130x64xf32>, %k: tensor<4x130x64xf32>) -> tensor<4x130x130xf32> {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<4x64x130xf32>
  %kt = linalg.transpose ins(%k : tensor<4x130x64xf32>) outs(%e0 : tensor<4x64x130xf32>) permutation = [0, 2, 1]
  %e1 = tensor.empty() : tensor<4x130x130xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e1 : tensor<4x130x130xf32>) -> tensor<4x130x130xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<4x130x64xf32>, tensor<4x64x130xf32>) outs(%c : tensor<4x130x130xf32>) -> tensor<4x130x130xf32>
  return %s : tensor<4x130x130xf32>
}
func.func @transposed_a(%x: tensor<2x96x40xf32>, %w: tensor<2x96x24xf32>, %c: tensor<2x40x24xf32>) -> tensor<2x40x24xf32> {
  %e = tensor.empty() : tensor<2x40x96xf32>
  %xt = linalg.transpose ins(%x : tensor<2x96x40xf32>) outs(%e : tensor<2x40x96xf32>) permutation = [0, 2, 1]
  %mm = linalg.batch_matmul ins(%xt, %w : tensor<2x40x96xf32>, tensor<2x96x24xf32>) outs(%c : tensor<2x40x24xf32>) -> tensor<2x40x24xf32>
  return %mm : tensor<2x40x24xf32>
}

// -----

// Left as they are: a B that differs between batches (a copy per batch is
// not a broadcast), a transpose of other dimensions. A transpose another
// op also reads stays for it while the matmul reads around it.
// CHECK-LABEL: func.func @left_alone
// CHECK:       %[[T:.*]] = linalg.transpose
// CHECK:       linalg.batch_matmul ins(%{{.*}}, %[[T]] :
// CHECK-LABEL: func.func @shared_transpose
// CHECK-SAME:    (%[[X:[^:]*]]: tensor<8x16xf32>, %[[W:[^:]*]]: tensor<4x16xf32>,
// CHECK:       %[[T:.*]] = linalg.transpose
// CHECK:       linalg.matmul indexing_maps = [#{{.*}}, #{{.*}}, #{{.*}}] ins(%[[X]], %[[W]] :
// CHECK:       return %{{.*}}, %[[T]]
func.func @left_alone(%x: tensor<2x8x16xf32>, %w: tensor<16x2x4xf32>, %c: tensor<2x8x4xf32>) -> tensor<2x8x4xf32> {
  %e = tensor.empty() : tensor<2x16x4xf32>
  %wt = linalg.transpose ins(%w : tensor<16x2x4xf32>) outs(%e : tensor<2x16x4xf32>) permutation = [1, 0, 2]
  %mm = linalg.batch_matmul ins(%x, %wt : tensor<2x8x16xf32>, tensor<2x16x4xf32>) outs(%c : tensor<2x8x4xf32>) -> tensor<2x8x4xf32>
  return %mm : tensor<2x8x4xf32>
}
func.func @shared_transpose(%x: tensor<8x16xf32>, %w: tensor<4x16xf32>, %c: tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<16x4xf32>) {
  %e = tensor.empty() : tensor<16x4xf32>
  %wt = linalg.transpose ins(%w : tensor<4x16xf32>) outs(%e : tensor<16x4xf32>) permutation = [1, 0]
  %mm = linalg.matmul ins(%x, %wt : tensor<8x16xf32>, tensor<16x4xf32>) outs(%c : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %mm, %wt : tensor<8x4xf32>, tensor<16x4xf32>
}


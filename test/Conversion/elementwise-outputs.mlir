// RUN: walrus-opt %s -split-input-file -normalize-linalg -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -fuse-siblings -convert-linalg-to-bir="lnc-size=1" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func two_outputs --bin %walrus_tools --lnc-size 2 --pipeline --atol 0 --rtol 0 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func one_row --bin %walrus_tools --lnc-size 1 --pipeline --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rope_halves --bin %walrus_tools --lnc-size 1 --pipeline --atol 0 --rtol 0 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// A generic with two outputs (what -fuse-siblings merges) computes both
// from the same loaded tiles and stores each. Its 64 rows of 1024 columns,
// stored row after row, are 128 rows of 512 columns: each tile fills the
// partitions, and the engines take half as many passes.

#map = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-LABEL: func.func @two_outputs
// CHECK-DAG:   %[[IN:.*]] = bir.memloc "in" {{.*}} : !bir.sbuf<128x512xf32>
// CHECK-DAG:   %[[IN1:.*]] = bir.memloc "in_1" {{.*}} : !bir.sbuf<128x512xf32>
// CHECK:       bir.dma %[[IN]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %two_outputs_arg0[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:  bir.dma %[[IN1]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %two_outputs_arg1[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:  bir.tensor_tensor multiply %[[P:[a-z_0-9]+]][{{.*}}], %[[IN]][{{.*}}], %[[IN1]]
// CHECK-NEXT:  bir.dma %two_outputs_arg2[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>], %[[P]]
// CHECK-NEXT:  bir.tensor_tensor add %[[Q:[a-z_0-9]+]][{{.*}}], %[[IN]][{{.*}}], %[[IN1]]
// CHECK-NEXT:  bir.dma %two_outputs_arg3[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>], %[[Q]]
// CHECK-NOT:   bir.dma
func.func @two_outputs(%x: memref<64x1024xf32>, %y: memref<64x1024xf32>, %p: memref<64x1024xf32>, %q: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : memref<64x1024xf32>, memref<64x1024xf32>) outs(%p, %q : memref<64x1024xf32>, memref<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32, %o2: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %a, %b : f32
    linalg.yield %0, %1 : f32, f32
  }
  return
}

// -----

// One row of 65536: 128 rows of 512 columns.
// CHECK-LABEL: func.func @one_row
// CHECK:       bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %one_row_arg0[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:  bir.activation exp
// CHECK-NEXT:  bir.dma %one_row_arg1[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>]
func.func @one_row(%x: memref<1x65536xf32>, %y: memref<1x65536xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<1x65536xf32>) outs(%y : memref<1x65536xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// An input broadcast across the rows reads the same columns in every
// row: the rows stay as written. So do rows whose columns would fold
// into runs shorter than 512.
// CHECK-LABEL: func.func @broadcast_stays
// CHECK:       bir.dma %in[#bir.ap<0, {{\[\[}}1024, 64], [1, 1024]]>], %broadcast_stays_arg0
// CHECK-LABEL: func.func @short_rows_stay
// CHECK:       bir.dma %in[#bir.ap<0, {{\[\[}}768, 64], [1, 768]]>], %short_rows_stay_arg0
func.func @broadcast_stays(%x: memref<64x1024xf32>, %b: memref<1024xf32>, %y: memref<64x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<64x1024xf32>, memref<1024xf32>) outs(%y : memref<64x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %0 = arith.addf %a, %c : f32
    linalg.yield %0 : f32
  }
  return
}
func.func @short_rows_stay(%x: memref<64x768xf32>, %y: memref<64x768xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<64x768xf32>) outs(%y : memref<64x768xf32>) {
  ^bb0(%a: f32, %o: f32):
    %0 = math.exp %a : f32
    linalg.yield %0 : f32
  }
  return
}

// -----

// rope as torch-mlir emits it: -fuse-siblings merges its halves, which
// read x1, x2, cos and sin once and write their rows of the result.
// CHECK-LABEL: func.func @rope_halves
// CHECK-COUNT-4: bir.dma %in
// CHECK-NOT:   bir.dma %in
// CHECK:       bir.dma %rope_halves_result0[#bir.sap<()[s0] -> (s0 * 65536), {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NOT:   bir.dma %in
// CHECK:       bir.dma %rope_halves_result0[#bir.sap<()[s0] -> (s0 * 65536 + 65536), {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NOT:   bir.dma
func.func @rope_halves(%x: tensor<128x1024xf32>, %c: tensor<64x1024xf32>, %s: tensor<64x1024xf32>) -> tensor<128x1024xf32> {
  %x1 = tensor.extract_slice %x[0, 0] [64, 1024] [1, 1] : tensor<128x1024xf32> to tensor<64x1024xf32>
  %x2 = tensor.extract_slice %x[64, 0] [64, 1024] [1, 1] : tensor<128x1024xf32> to tensor<64x1024xf32>
  %e0 = tensor.empty() : tensor<64x1024xf32>
  %first = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %c, %x2, %s : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e0 : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %e: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.mulf %d, %e : f32
    %2 = arith.subf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x1024xf32>
  %e1 = tensor.empty() : tensor<64x1024xf32>
  %second = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%x1, %s, %x2, %c : tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>, tensor<64x1024xf32>) outs(%e1 : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %b: f32, %d: f32, %e: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.mulf %d, %e : f32
    %2 = arith.addf %0, %1 : f32
    linalg.yield %2 : f32
  } -> tensor<64x1024xf32>
  %cat = tensor.concat dim(0) %first, %second : (tensor<64x1024xf32>, tensor<64x1024xf32>) -> tensor<128x1024xf32>
  return %cat : tensor<128x1024xf32>
}

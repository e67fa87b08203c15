// RUN: walrus-opt %s -normalize-linalg | FileCheck %s --check-prefix=NORMAL
// RUN: walrus-opt %s -normalize-linalg -fuse-elementwise -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=1" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// torch.cat of two elementwise results (rotary embeddings' halves):
// -normalize-linalg writes the concatenation as inserts into an empty
// tensor (upstream's decomposition), so empty-tensor elimination has
// each generic write its rows of the result, and no part goes through a
// buffer of its own to be copied.

// NORMAL-LABEL: func.func @halves
// NORMAL:       %[[E:.*]] = tensor.empty() : tensor<128x96xf32>
// NORMAL:       %[[LOW:.*]] = tensor.insert_slice %{{.*}} into %[[E]][0, 0] [64, 96] [1, 1]
// NORMAL:       tensor.insert_slice %{{.*}} into %[[LOW]][64, 0] [64, 96] [1, 1]
// NORMAL-NOT:   tensor.concat

// CHECK-LABEL: bir.kernel @halves_kernel
// CHECK-NOT:   halves_buf
// CHECK:       bir.dma %halves_result0[#bir.ap<0, {{\[\[}}96, 64], [1, 96]]>]
// CHECK:       bir.dma %halves_result0[#bir.ap<6144, {{\[\[}}96, 64], [1, 96]]>]
#map = affine_map<(d0, d1) -> (d0, d1)>
func.func @halves(%x: tensor<128x96xf32>, %c: tensor<64x96xf32>) -> tensor<128x96xf32> {
  %lo = tensor.extract_slice %x[0, 0] [64, 96] [1, 1] : tensor<128x96xf32> to tensor<64x96xf32>
  %hi = tensor.extract_slice %x[64, 0] [64, 96] [1, 1] : tensor<128x96xf32> to tensor<64x96xf32>
  %e = tensor.empty() : tensor<64x96xf32>
  %a = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%lo, %hi, %c : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
    %m = arith.mulf %p, %r : f32
    %s = arith.subf %m, %q : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %b = linalg.generic {indexing_maps = [#map, #map, #map, #map], iterator_types = ["parallel", "parallel"]} ins(%lo, %hi, %c : tensor<64x96xf32>, tensor<64x96xf32>, tensor<64x96xf32>) outs(%e : tensor<64x96xf32>) {
  ^bb0(%p: f32, %q: f32, %r: f32, %o: f32):
    %m = arith.mulf %q, %r : f32
    %s = arith.addf %m, %p : f32
    linalg.yield %s : f32
  } -> tensor<64x96xf32>
  %cat = tensor.concat dim(0) %a, %b : (tensor<64x96xf32>, tensor<64x96xf32>) -> tensor<128x96xf32>
  return %cat : tensor<128x96xf32>
}

// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func batchnorm --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func max_dim --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func relu6 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func div_by_scalar --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func positions --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 2>&1 | FileCheck %s --check-prefix=BIR

// The forms torch-mlir emits for BatchNorm, max over a dimension, ReLU6, a
// scalar divisor and torch.arange, each against MLIR running it as
// written.
// ORACLE: oracle: identical

// torch-mlir's BatchNorm (eval): epsilon is an f64 constant truncated to
// f32 inside the body. 1e-5 is not an f32: the truncation rounds to
// nearest even, 9.99999974E-6, as the CPU's fptrunc does.
// CHECK-LABEL: func.func @batchnorm
// CHECK:         %[[EPS:.*]] = arith.constant 9.99999974E-6 : f32
// CHECK:         linalg.generic
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: f32, %[[VAR:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.addf %[[VAR]], %[[EPS]] : f32
// CHECK-NOT:       arith.truncf
// BIR-LABEL: bir.kernel @batchnorm_kernel
// BIR:         bir.tensor_scalar add %{{.*}}, 9.9999997473787516E-6 :
// BIR:         bir.activation rsqrt
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @batchnorm(%x: tensor<1x16x8x8xf32>, %w: tensor<16xf32>, %b: tensor<16xf32>, %mean: tensor<16xf32>, %var: tensor<16xf32>) -> tensor<1x16x8x8xf32> {
  %eps = arith.constant 1.000000e-05 : f64
  %0 = linalg.generic {indexing_maps = [#map, #map1, #map1, #map1, #map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %w, %b, %mean, %var : tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%x : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %in_w: f32, %in_b: f32, %in_m: f32, %in_v: f32, %out: f32):
    %1 = arith.truncf %eps : f64 to f32
    %2 = arith.addf %in_v, %1 : f32
    %3 = math.rsqrt %2 : f32
    %4 = arith.subf %in, %in_m : f32
    %5 = arith.mulf %4, %3 : f32
    %6 = arith.mulf %5, %in_w : f32
    %7 = arith.addf %6, %in_b : f32
    linalg.yield %7 : f32
  } -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// torch's max over a dimension (aten.max.dim): one generic computes the max
// and its index. Only the max is returned: the index's output, its fill and
// the body ops that computed it go, and a max reduction is left.
// CHECK-LABEL: func.func @max_dim
// CHECK-NOT:     i64
// CHECK:         %[[INIT:.*]] = linalg.fill
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%{{.*}} : tensor<128x96xf32>) outs(%[[INIT]] : tensor<128x1xf32>) {
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[MAX:.*]] = arith.maximumf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[MAX]] : f32
// BIR-LABEL: bir.kernel @max_dim_kernel
// BIR:         bir.tensor_reduce max
#m1_0 = affine_map<(d0, d1) -> (d0, d1)>
#m1_1 = affine_map<(d0, d1) -> (d0, 0)>
func.func @max_dim(%x: tensor<128x96xf32>) -> tensor<128x1xf32> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<128x1xi64>
  %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<128x1xi64>) -> tensor<128x1xi64>
  %2 = tensor.empty() : tensor<128x1xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<128x1xf32>) -> tensor<128x1xf32>
  %4:2 = linalg.generic {indexing_maps = [#m1_0, #m1_1, #m1_1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<128x96xf32>) outs(%3, %1 : tensor<128x1xf32>, tensor<128x1xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i64
    %7 = arith.maximumf %in, %out : f32
    %8 = arith.cmpf ogt, %in, %out : f32
    %9 = arith.select %8, %6, %out_0 : i64
    linalg.yield %7, %9 : f32, i64
  } -> (tensor<128x1xf32>, tensor<128x1xi64>)
  return %4#0 : tensor<128x1xf32>
}

// -----

// torch-mlir's ReLU6 (MobileNetV3's hardswish and clamps): the bound 6 is a
// 0-d tensor, a fill of an i64 converted by a generic, then read by the
// clamp. The clamp reads the value itself, and the scalar tensors go.
// CHECK-LABEL: func.func @relu6
// CHECK:         %[[SIX:.*]] = arith.constant 6.000000e+00 : f32
// CHECK-NOT:     tensor<i64>
// CHECK-NOT:     tensor<f32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}} : tensor<1x16x8x8xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[LESS:.*]] = arith.cmpf olt, %[[IN]], %[[SIX]] : f32
// CHECK-NEXT:      arith.select %[[LESS]], %[[IN]], %[[SIX]] : f32
// BIR-LABEL: bir.kernel @relu6_kernel
// BIR:         bir.tensor_scalar minnum %{{.*}}, 6.000000e+00 :
#m2_0 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m2_s = affine_map<() -> ()>
#m2_1 = affine_map<(d0, d1, d2, d3) -> ()>
func.func @relu6(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %c6_i64 = arith.constant 6 : i64
  %0 = tensor.empty() : tensor<1x16x8x8xf32>
  %1 = tensor.empty() : tensor<i64>
  %2 = linalg.fill ins(%c6_i64 : i64) outs(%1 : tensor<i64>) -> tensor<i64>
  %3 = tensor.empty() : tensor<f32>
  %4 = linalg.generic {indexing_maps = [#m2_s, #m2_s], iterator_types = []} ins(%2 : tensor<i64>) outs(%3 : tensor<f32>) {
  ^bb0(%in: i64, %out: f32):
    %7 = arith.sitofp %in : i64 to f32
    linalg.yield %7 : f32
  } -> tensor<f32>
  %5 = linalg.generic {indexing_maps = [#m2_0, #m2_1, #m2_0], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %4 : tensor<1x16x8x8xf32>, tensor<f32>) outs(%0 : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %in_0: f32, %out: f32):
    %7 = arith.cmpf olt, %in, %in_0 : f32
    %8 = arith.select %7, %in, %in_0 : f32
    linalg.yield %8 : f32
  } -> tensor<1x16x8x8xf32>
  return %5 : tensor<1x16x8x8xf32>
}

// -----

// A scalar divisor as a tensor<f64> constant (StableHLO, torch-mlir's
// division by a Python float): the body reads the constant, which folds to
// f32 through its truncation.
// CHECK-LABEL: func.func @div_by_scalar
// CHECK:         %[[EIGHT:.*]] = arith.constant 8.000000e+00 : f32
// CHECK-NOT:     tensor<f64>
// CHECK:         ^bb0(%[[IN:.*]]: f32, %{{.*}}: f32):
// CHECK-NEXT:      arith.divf %[[IN]], %[[EIGHT]] : f32
// BIR-LABEL: bir.kernel @div_by_scalar_kernel
// BIR:         bir.tensor_scalar divide %{{.*}}, 8.000000e+00 :
#m3_0 = affine_map<(d0, d1) -> (d0, d1)>
#m3_1 = affine_map<(d0, d1) -> ()>
func.func @div_by_scalar(%x: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %cst = arith.constant dense<8.000000e+00> : tensor<f64>
  %0 = tensor.empty() : tensor<64x32xf32>
  %1 = linalg.generic {indexing_maps = [#m3_0, #m3_1, #m3_0], iterator_types = ["parallel", "parallel"]} ins(%x, %cst : tensor<64x32xf32>, tensor<f64>) outs(%0 : tensor<64x32xf32>) {
  ^bb0(%in: f32, %in_0: f64, %out: f32):
    %2 = arith.truncf %in_0 : f64 to f32
    %3 = arith.divf %in, %2 : f32
    linalg.yield %3 : f32
  } -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// -----

// torch.arange (GPT-2's position ids): a generic of its indices alone is
// the constant it computes, folded element by element by upstream's
// folders; the kernel reads it as a weight.
// CHECK-LABEL: func.func @positions
// CHECK:         %[[IDS:.*]] = arith.constant dense<[0, 1, 2, 3, 4]> : tensor<5xi64>
// CHECK-NOT:     linalg.index
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[IDS]] : tensor<5x16xf32>, tensor<5xi64>)
// BIR-LABEL: bir.kernel @positions_kernel
// BIR:         bir.memloc "positions___constant_5xi64{{.*}}" input : !bir.dram<5xi64>
#m4 = affine_map<(d0) -> (d0)>
#m4a = affine_map<(d0, d1) -> (d0, d1)>
#m4b = affine_map<(d0, d1) -> (d0)>
func.func @positions(%x: tensor<5x16xf32>) -> tensor<5x16xf32> {
  %0 = tensor.empty() : tensor<5xi64>
  %1 = linalg.generic {indexing_maps = [#m4], iterator_types = ["parallel"]} outs(%0 : tensor<5xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<5xi64>
  %2 = tensor.empty() : tensor<5x16xf32>
  %3 = linalg.generic {indexing_maps = [#m4a, #m4b, #m4a], iterator_types = ["parallel", "parallel"]} ins(%x, %1 : tensor<5x16xf32>, tensor<5xi64>) outs(%2 : tensor<5x16xf32>) {
  ^bb0(%in: f32, %p: i64, %out: f32):
    %f = arith.sitofp %p : i64 to f32
    %s = arith.addf %in, %f : f32
    linalg.yield %s : f32
  } -> tensor<5x16xf32>
  return %3 : tensor<5x16xf32>
}

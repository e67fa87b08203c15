// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 -o /dev/null
// RUN: %python %utils/linalg_oracle.py %s --func max_dim --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func argmin_keepdim --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func argmax_ints --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: identical

// torch.max(x, dim) as torch-mlir emits it: one generic yielding the
// running maximum and the index where the input first passed it. It
// becomes the maximum alone, the first index of it (a min-reduction from
// the extent, 40) and a pick of that index where the maximum passed the
// init (ArgReductions.cpp).

// CHECK-LABEL: func.func @max_dim
// CHECK-DAG:     %[[J:.*]] = arith.constant dense<[0, 1, 2, {{.*}}, 39]> : tensor<40xi64>
// CHECK-DAG:     %[[NONE:.*]] = arith.constant 40 : i64
// CHECK-DAG:     %[[LOWEST:.*]] = arith.constant 0xFF800000 : f32
// CHECK:         %[[ZEROS:.*]] = linalg.fill ins(%c0_i64 : i64)
// CHECK:         %[[LOWESTS:.*]] = linalg.fill ins(%[[LOWEST]] : f32)
// CHECK:         %[[MAX:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<6x40xf32>) outs(%[[LOWESTS]] : tensor<6xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: f32, %[[OUT:.*]]: f32):
// CHECK-NEXT:      %[[M:.*]] = arith.maximumf %[[IN]], %[[OUT]] : f32
// CHECK-NEXT:      linalg.yield %[[M]] : f32
// CHECK:         %[[NONES:.*]] = linalg.fill ins(%[[NONE]] : i64)
// CHECK:         %[[FIRST:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0, %[[MAX]], %[[J]] : tensor<6x40xf32>, tensor<6xf32>, tensor<40xi64>) outs(%[[NONES]] : tensor<6xi64>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[XMAX:.*]]: f32, %[[POS:.*]]: i64, %[[SOFAR:.*]]: i64):
// CHECK-NEXT:      %[[EQ:.*]] = arith.cmpf oeq, %[[X]], %[[XMAX]] : f32
// CHECK-NEXT:      %[[CAND:.*]] = arith.select %[[EQ]], %[[POS]], %[[NONE]] : i64
// CHECK-NEXT:      %[[MIN:.*]] = arith.minsi %[[CAND]], %[[SOFAR]] : i64
// CHECK-NEXT:      linalg.yield %[[MIN]] : i64
// CHECK:         %[[PICK:.*]] = linalg.generic {{.*}} iterator_types = ["parallel"]} ins(%[[MAX]], %[[FIRST]] : tensor<6xf32>, tensor<6xi64>) outs(%[[ZEROS]] : tensor<6xi64>)
// CHECK-NEXT:    ^bb0(%[[V:.*]]: f32, %[[F:.*]]: i64, %[[I0:.*]]: i64):
// CHECK-NEXT:      %[[PAST:.*]] = arith.cmpf ogt, %[[V]], %[[LOWEST]] : f32
// CHECK-NEXT:      %[[SEL:.*]] = arith.select %[[PAST]], %[[F]], %[[I0]] : i64
// CHECK-NEXT:      linalg.yield %[[SEL]] : i64
// CHECK:         return %[[MAX]], %[[PICK]]
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d0)>
func.func @max_dim(%x: tensor<6x40xf32>) -> (tensor<6xf32>, tensor<6xi64>) {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0xFF800000 : f32
  %0 = tensor.empty() : tensor<6xi64>
  %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<6xi64>) -> tensor<6xi64>
  %2 = tensor.empty() : tensor<6xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<6xf32>) -> tensor<6xf32>
  %4:2 = linalg.generic {indexing_maps = [#map, #map1, #map1], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x40xf32>) outs(%3, %1 : tensor<6xf32>, tensor<6xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i64
    %7 = arith.maximumf %in, %out : f32
    %8 = arith.cmpf ogt, %in, %out : f32
    %9 = arith.select %8, %6, %out_0 : i64
    linalg.yield %7, %9 : f32, i64
  } -> (tensor<6xf32>, tensor<6xi64>)
  return %4#0, %4#1 : tensor<6xf32>, tensor<6xi64>
}

// -----

// argmin with keepdim: the comparison written the other way round
// (running > element), the results one column wide.

// CHECK-LABEL: func.func @argmin_keepdim
// CHECK:         arith.minimumf
// CHECK:         arith.minsi
// CHECK:         arith.cmpf olt
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @argmin_keepdim(%x: tensor<6x40xf32>) -> tensor<6x1xi64> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0x7F800000 : f32
  %0 = tensor.empty() : tensor<6x1xi64>
  %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<6x1xi64>) -> tensor<6x1xi64>
  %2 = tensor.empty() : tensor<6x1xf32>
  %3 = linalg.fill ins(%cst : f32) outs(%2 : tensor<6x1xf32>) -> tensor<6x1xf32>
  %4:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, 0)>, affine_map<(d0, d1) -> (d0, 0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<6x40xf32>) outs(%3, %1 : tensor<6x1xf32>, tensor<6x1xi64>) {
  ^bb0(%in: f32, %out: f32, %out_0: i64):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i64
    %7 = arith.minimumf %in, %out : f32
    %8 = arith.cmpf ogt, %out, %in : f32
    %9 = arith.select %8, %6, %out_0 : i64
    linalg.yield %7, %9 : f32, i64
  } -> (tensor<6x1xf32>, tensor<6x1xi64>)
  return %4#1 : tensor<6x1xi64>
}

// -----

// Integers (argmax of token scores as i32), the index yielded first.

// CHECK-LABEL: func.func @argmax_ints
// CHECK:         arith.maxsi
// CHECK:         arith.cmpi eq
// CHECK:         arith.cmpi sgt
func.func @argmax_ints(%x: tensor<8x16xi32>) -> tensor<8xi64> {
  %c0_i64 = arith.constant 0 : i64
  %lowest = arith.constant -2147483648 : i32
  %0 = tensor.empty() : tensor<8xi64>
  %1 = linalg.fill ins(%c0_i64 : i64) outs(%0 : tensor<8xi64>) -> tensor<8xi64>
  %2 = tensor.empty() : tensor<8xi32>
  %3 = linalg.fill ins(%lowest : i32) outs(%2 : tensor<8xi32>) -> tensor<8xi32>
  %4:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<8x16xi32>) outs(%1, %3 : tensor<8xi64>, tensor<8xi32>) {
  ^bb0(%in: i32, %out_i: i64, %out: i32):
    %5 = linalg.index 1 : index
    %6 = arith.index_cast %5 : index to i64
    %7 = arith.maxsi %in, %out : i32
    %8 = arith.cmpi sgt, %in, %out : i32
    %9 = arith.select %8, %6, %out_i : i64
    linalg.yield %9, %7 : i64, i32
  } -> (tensor<8xi64>, tensor<8xi32>)
  return %4#0 : tensor<8xi64>
}

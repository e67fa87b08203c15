// RUN: %python %utils/linalg_oracle.py %s --func relu --bin %walrus_tools | FileCheck %s --check-prefix=RELU
// RUN: %python %utils/linalg_oracle.py %s --func clamp --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=CLAMP
// RUN: %python %utils/linalg_oracle.py %s --func floor_at --bin %walrus_tools | FileCheck %s --check-prefix=FLOOR
// RUN: %python %utils/linalg_oracle.py %s --func relu_nan --bin %walrus_tools | FileCheck %s --check-prefix=NAN
// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s

// The ReLU and clamps torch-mlir writes, select(cmpf(x, c), x, c), are
// one max or min of x and c: maximum / minimum where the select lets a NaN
// x through, maxnum / minnum where it picks c (docs/LinalgToBir.md).

// CHECK-LABEL: bir.kernel @relu_kernel
// CHECK:         bir.tensor_scalar max %{{.*}}, 0.000000e+00 :
// CHECK-LABEL: bir.kernel @clamp_kernel
// CHECK:         bir.tensor_scalar maxnum %{{.*}}, -1.000000e+00 :
// CHECK-NEXT:    bir.tensor_scalar minnum %{{.*}}, 6.000000e+00 :
// CHECK-LABEL: bir.kernel @floor_at_kernel
// CHECK:         bir.tensor_scalar max %{{.*}}, 5.000000e-01 :

// RELU: relu_arg1: 6400 elements, max error 0
// RELU: oracle: identical
func.func @relu(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ugt, %in, %cst : f32
    %1 = arith.select %0, %in, %cst : f32
    linalg.yield %1 : f32
  }
  return
}

// torch's clamp(min=-1, max=6) (x * 8 first, so that both bounds bite).
// CLAMP: clamp_arg1: 6400 elements, max error 0
// CLAMP: oracle: identical
func.func @clamp(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  %eight = arith.constant 8.000000e+00 : f32
  %lo = arith.constant -1.000000e+00 : f32
  %hi = arith.constant 6.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %s = arith.mulf %in, %eight : f32
    %0 = arith.cmpf ult, %s, %lo : f32
    %1 = arith.select %0, %lo, %s : f32
    %2 = arith.cmpf ugt, %1, %hi : f32
    %3 = arith.select %2, %hi, %1 : f32
    linalg.yield %3 : f32
  }
  return
}

// The constant first and the arms swapped: 0.5 > x ? 0.5 : x.
// FLOOR: floor_at_arg1: 6400 elements, max error 0
// FLOOR: oracle: identical
func.func @floor_at(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  %half = arith.constant 5.000000e-01 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%in: f32, %out: f32):
    %0 = arith.cmpf ogt, %half, %in : f32
    %1 = arith.select %0, %half, %in : f32
    linalg.yield %1 : f32
  }
  return
}

// t = x * inf - inf is NaN where x > 0: the unordered compare (ugt) lets
// the NaN through (max), the ordered one (ogt) picks the constant (maxnum).
// NAN: relu_nan_arg1: 6400 elements, max error 0
// NAN: relu_nan_arg2: 6400 elements, max error 0
// NAN: oracle: identical
func.func @relu_nan(%x: memref<160x40xf32>, %y: memref<160x40xf32>, %z: memref<160x40xf32>) {
  %cst = arith.constant 0.000000e+00 : f32
  %inf = arith.constant 0x7F800000 : f32
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %inf : f32
    %t = arith.subf %m, %inf : f32
    %0 = arith.cmpf ugt, %t, %cst : f32
    %1 = arith.select %0, %t, %cst : f32
    linalg.yield %1 : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%z : memref<160x40xf32>) {
  ^bb0(%in: f32, %o: f32):
    %m = arith.mulf %in, %inf : f32
    %t = arith.subf %m, %inf : f32
    %2 = arith.cmpf ogt, %t, %cst : f32
    %3 = arith.select %2, %t, %cst : f32
    linalg.yield %3 : f32
  }
  return
}

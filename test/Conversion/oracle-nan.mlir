// RUN: %python %utils/linalg_oracle.py %s --func maximum_nan --bin %walrus_tools --nan-bits | FileCheck %s --check-prefix=MAXIMUM
// RUN: %python %utils/linalg_oracle.py %s --func minimum_nan --bin %walrus_tools --nan-bits --lnc-size 2 --pipeline | FileCheck %s --check-prefix=MINIMUM
// RUN: %python %utils/linalg_oracle.py %s --func maxnum_nan --bin %walrus_tools --nan-bits | FileCheck %s --check-prefix=MAXNUM
// RUN: %python %utils/linalg_oracle.py %s --func max_reduce_nan --bin %walrus_tools --nan-bits | FileCheck %s --check-prefix=REDUCE
// RUN: %python %utils/linalg_oracle.py %s --func divide --bin %walrus_tools --nan-bits --lnc-size 2 --pipeline | FileCheck %s --check-prefix=DIVIDE
// RUN: %python %utils/linalg_oracle.py %s --func fill_payload --bin %walrus_tools --nan-bits | FileCheck %s --check-prefix=PAYLOAD
// RUN: %python %utils/linalg_oracle.py %s --func fill_payload_f32 --bin %walrus_tools --nan-bits | FileCheck %s --check-prefix=PAYLOAD32

// NaN and rounding as arith defines them, compared bit for bit (a NaN
// matches only a NaN of the same bits): maximumf / minimumf propagate a
// NaN, maxnumf / minnumf ignore it, c / x is one correctly rounded divide,
// and a fill writes the bits of its constant, payload included.

// MAXIMUM: maximum_nan_arg1: 6400 elements, max error 0
// MAXIMUM: oracle: identical
func.func @maximum_nan(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %nan = arith.constant 0x7FC00000 : f32
    %m = arith.maximumf %a, %nan : f32
    linalg.yield %m : f32
  }
  return
}

// MINIMUM: minimum_nan_arg1: 6400 elements, max error 0
// MINIMUM: oracle: identical
func.func @minimum_nan(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %nan = arith.constant 0x7FC00000 : f32
    %m = arith.minimumf %nan, %a : f32
    linalg.yield %m : f32
  }
  return
}

// MAXNUM: maxnum_nan_arg1: 6400 elements, max error 0
// MAXNUM: oracle: identical
func.func @maxnum_nan(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %nan = arith.constant 0x7FC00000 : f32
    %m = arith.maxnumf %a, %nan : f32
    %n = arith.minnumf %nan, %m : f32
    linalg.yield %n : f32
  }
  return
}

// Reductions: t = x * inf - inf is NaN where x > 0 and -inf elsewhere,
// so every row holds NaNs; the maximum is NaN, the maximumNumber is not.
// REDUCE: max_reduce_nan_arg1: 130 elements, max error 0
// REDUCE: max_reduce_nan_arg2: 130 elements, max error 0
// REDUCE: oracle: identical
func.func @max_reduce_nan(%x: memref<130x300xf32>, %y: memref<130xf32>, %z: memref<130xf32>) {
  %t = memref.alloc() : memref<130x300xf32>
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<130x300xf32>) outs(%t : memref<130x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %inf = arith.constant 0x7F800000 : f32
    %m = arith.mulf %a, %inf : f32
    %s = arith.subf %m, %inf : f32
    linalg.yield %s : f32
  }
  linalg.reduce ins(%t : memref<130x300xf32>) outs(%y : memref<130xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.maximumf %a, %acc : f32
      linalg.yield %m : f32
    }
  linalg.reduce ins(%t : memref<130x300xf32>) outs(%z : memref<130xf32>) dimensions = [1]
    (%a: f32, %acc: f32) {
      %m = arith.maxnumf %a, %acc : f32
      linalg.yield %m : f32
    }
  memref.dealloc %t : memref<130x300xf32>
  return
}

// DIVIDE: divide_arg1: 6400 elements, max error 0
// DIVIDE: oracle: identical
func.func @divide(%x: memref<160x40xf32>, %y: memref<160x40xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xf32>) outs(%y : memref<160x40xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.7 : f32
    %q = arith.divf %c, %a : f32
    %d = arith.constant 3.0 : f32
    %r = arith.divf %q, %d : f32
    %s = arith.subf %d, %r : f32
    linalg.yield %s : f32
  }
  return
}

// PAYLOAD: fill_payload_arg0: 300 elements, max error 0
// PAYLOAD: oracle: identical
func.func @fill_payload(%y: memref<3x100xbf16>) {
  %c = arith.constant 0xFFFF : bf16
  linalg.fill ins(%c : bf16) outs(%y : memref<3x100xbf16>)
  return
}

// PAYLOAD32: fill_payload_f32_arg0: 300 elements, max error 0
// PAYLOAD32: oracle: identical
func.func @fill_payload_f32(%y: memref<3x100xf32>) {
  %c = arith.constant 0xFFC12345 : f32
  linalg.fill ins(%c : f32) outs(%y : memref<3x100xf32>)
  return
}

// RUN: %python %utils/linalg_oracle.py %s --func add_i8 --bin %walrus_tools | FileCheck %s --check-prefix=ADD8
// RUN: %python %utils/linalg_oracle.py %s --func mul_i32 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=MUL32
// RUN: %python %utils/linalg_oracle.py %s --func sub_i16 --bin %walrus_tools | FileCheck %s --check-prefix=SUB16
// RUN: %python %utils/linalg_oracle.py %s --func add_i64 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ADD64
// RUN: %python %utils/linalg_oracle.py %s --func mul_i64 --bin %walrus_tools | FileCheck %s --check-prefix=MUL64
// RUN: %python %utils/linalg_oracle.py %s --func fill_i64 --bin %walrus_tools | FileCheck %s --check-prefix=FILL64
// RUN: %python %utils/linalg_oracle.py %s --func sum_i8 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=SUM8
// RUN: %python %utils/linalg_oracle.py %s --func max_i8 --bin %walrus_tools | FileCheck %s --check-prefix=MAX8

// Integer arithmetic is arith's: two's complement, wrapping at the element
// width, exact at every width (i64 above 2^53 included). The seeded inputs
// are integers in [-8, 8), so every function below overflows on most of
// its elements.

// ADD8: add_i8_arg1: 6400 elements, max error 0
// ADD8: oracle: identical
func.func @add_i8(%x: memref<160x40xi8>, %y: memref<160x40xi8>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xi8>) outs(%y : memref<160x40xi8>) {
  ^bb0(%a: i8, %o: i8):
    %c = arith.constant 125 : i8
    %s = arith.addi %a, %c : i8
    linalg.yield %s : i8
  }
  return
}

// MUL32: mul_i32_arg1: 6400 elements, max error 0
// MUL32: oracle: identical
func.func @mul_i32(%x: memref<160x40xi32>, %y: memref<160x40xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xi32>) outs(%y : memref<160x40xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c = arith.constant 1073741824 : i32
    %m = arith.muli %a, %c : i32
    %t = arith.muli %m, %a : i32
    linalg.yield %t : i32
  }
  return
}

// c - x with the constant on the left, wrapping.
// SUB16: sub_i16_arg1: 6400 elements, max error 0
// SUB16: oracle: identical
func.func @sub_i16(%x: memref<160x40xi16>, %y: memref<160x40xi16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xi16>) outs(%y : memref<160x40xi16>) {
  ^bb0(%a: i16, %o: i16):
    %c = arith.constant -32765 : i16
    %s = arith.subi %c, %a : i16
    linalg.yield %s : i16
  }
  return
}

// 2^53 + 1 is not a double: only integer arithmetic gets the low bit.
// ADD64: add_i64_arg1: 6400 elements, max error 0
// ADD64: oracle: identical
func.func @add_i64(%x: memref<160x40xi64>, %y: memref<160x40xi64>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xi64>) outs(%y : memref<160x40xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c = arith.constant 9007199254740993 : i64
    %s = arith.addi %a, %c : i64
    linalg.yield %s : i64
  }
  return
}

// MUL64: mul_i64_arg2: 6400 elements, max error 0
// MUL64: oracle: identical
func.func @mul_i64(%x: memref<160x40xi64>, %z: memref<160x40xi64>, %y: memref<160x40xi64>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x, %z : memref<160x40xi64>, memref<160x40xi64>) outs(%y : memref<160x40xi64>) {
  ^bb0(%a: i64, %b: i64, %o: i64):
    %c = arith.constant 4611686018427387905 : i64
    %m = arith.muli %a, %c : i64
    %t = arith.muli %m, %b : i64
    %u = arith.subi %t, %c : i64
    linalg.yield %u : i64
  }
  return
}

// FILL64: fill_i64_arg0: 300 elements, max error 0
// FILL64: oracle: identical
func.func @fill_i64(%y: memref<3x100xi64>) {
  %c = arith.constant -9223372036854775807 : i64
  linalg.fill ins(%c : i64) outs(%y : memref<3x100xi64>)
  return
}

// A sum of 300 elements of [-8, 8) wraps in i8; linalg starts it from the
// output's value.
// SUM8: sum_i8_arg1: 130 elements, max error 0
// SUM8: oracle: identical
func.func @sum_i8(%x: memref<130x300xi8>, %y: memref<130xi8>) {
  linalg.reduce ins(%x : memref<130x300xi8>) outs(%y : memref<130xi8>) dimensions = [1]
    (%a: i8, %acc: i8) {
      %s = arith.addi %a, %acc : i8
      linalg.yield %s : i8
    }
  return
}

// MAX8: max_i8_arg1: 6400 elements, max error 0
// MAX8: oracle: identical
func.func @max_i8(%x: memref<160x40xi8>, %y: memref<160x40xi8>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<160x40xi8>) outs(%y : memref<160x40xi8>) {
  ^bb0(%a: i8, %o: i8):
    %c = arith.constant 125 : i8
    %s = arith.addi %a, %c : i8
    %m = arith.maxsi %s, %a : i8
    %n = arith.minsi %m, %c : i8
    linalg.yield %n : i8
  }
  return
}

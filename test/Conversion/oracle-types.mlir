// RUN: %python %utils/linalg_oracle.py %s --func ints --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=INTS
// RUN: %python %utils/linalg_oracle.py %s --func halves --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=HALVES
// RUN: %python %utils/linalg_oracle.py %s --func mixed --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=MIXED

// Element types other than f32. Integer arithmetic and one f16 product
// round once on both sides: identical. A matmul of bf16 operands into f32
// (the extf of linalg's body is the tensor engine reading bf16) sums in
// another order than the CPU: within 1e-5.

// INTS: ints_arg1: 5000 elements, max error 0
// INTS: oracle: identical
func.func @ints(%x: memref<100x50xi32>, %y: memref<100x50xi32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<100x50xi32>) outs(%y : memref<100x50xi32>) {
  ^bb0(%a: i32, %o: i32):
    %c = arith.constant 3 : i32
    %s = arith.addi %a, %c : i32
    %m = arith.muli %s, %a : i32
    linalg.yield %m : i32
  }
  return
}

// HALVES: halves_arg1: 9100 elements, max error 0
// HALVES: oracle: identical
func.func @halves(%x: memref<130x70xf16>, %y: memref<130x70xf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<130x70xf16>) outs(%y : memref<130x70xf16>) {
  ^bb0(%a: f16, %o: f16):
    %e = arith.mulf %a, %a : f16
    linalg.yield %e : f16
  }
  return
}

// MIXED: mixed_arg2: 1024 elements
// MIXED: oracle: {{identical|within tolerance}}
func.func @mixed(%a: memref<64x32xbf16>, %b: memref<32x16xbf16>, %c: memref<64x16xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xbf16>, memref<32x16xbf16>) outs(%c : memref<64x16xf32>)
  return
}

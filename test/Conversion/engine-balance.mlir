// RUN: walrus-opt %s -convert-linalg-to-bir="lnc-size=1" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --atol 0 --rtol 0 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: identical

// A product by a constant may run on the scalar engine (its scale) or
// the vector engine (tensor_scalar), rounded once either way: each goes
// to the engine with fewer passes over the tile so far. The sum of two
// tiles takes the vector engine two passes; the first two products then
// go to the scalar engine, the third (two passes each) back to the vector
// engine. The oracle holds the result to the bit.

// CHECK-LABEL: bir.kernel @balance_kernel
// CHECK:       bir.tensor_tensor add %[[S:[a-z_0-9]+]]
// CHECK-NEXT:  bir.activation identity %[[M:[a-z_0-9]+]][{{.*}}], %[[S]][{{.*}}] scale 5.000000e-01
// CHECK-NEXT:  bir.activation identity %[[N:[a-z_0-9]+]][{{.*}}], %[[M]][{{.*}}] scale 3.000000e+00
// CHECK-NEXT:  bir.tensor_scalar multiply %{{[a-z_0-9]+}}[{{.*}}], %[[N]][{{.*}}], 2.500000e-01
func.func @balance(%a: memref<200x96xf32>, %b: memref<200x96xf32>, %y: memref<200x96xf32>) {
  %half = arith.constant 0.5 : f32
  %three = arith.constant 3.0 : f32
  %quarter = arith.constant 0.25 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : memref<200x96xf32>, memref<200x96xf32>) outs(%y : memref<200x96xf32>) {
  ^bb0(%x: f32, %z: f32, %o: f32):
    %s = arith.addf %x, %z : f32
    %m = arith.mulf %s, %half : f32
    %n = arith.mulf %three, %m : f32
    %p = arith.mulf %n, %quarter : f32
    linalg.yield %p : f32
  }
  return
}

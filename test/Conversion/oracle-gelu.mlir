// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-7 | FileCheck %s --check-prefix=ORACLE

// The exact GELU, 0.5 * x * (1 + erf(x / sqrt(2))), as front ends write
// it (torch-mlir: a product of x, the sum and 0.5 in either order, the erf
// argument a product or a quotient), is one `activation gelu`; the
// interpreter's GELU is the erf form. Anything else with math.erf in it is
// an error.

// CHECK-LABEL: func.func @gelu_product
// CHECK:       bir.dma
// CHECK-NEXT:  bir.activation gelu
// CHECK-NEXT:  bir.dma
// CHECK-LABEL: func.func @gelu_quotient
// CHECK:       bir.dma
// CHECK-NEXT:  bir.activation gelu
// CHECK-NEXT:  bir.dma

// ORACLE: gelu_product_arg1: 30000 elements
// ORACLE: oracle: within tolerance
func.func @gelu_product(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %rsqrt2 = arith.constant 0.707106769 : f32
    %s = arith.mulf %a, %rsqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %e, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  return
}

func.func @gelu_quotient(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %sqrt2 = arith.constant 1.41421354 : f32
    %s = arith.divf %a, %sqrt2 : f32
    %e = math.erf %s : f32
    %p = arith.addf %one, %e : f32
    %m = arith.mulf %p, %a : f32
    %r = arith.mulf %half, %m : f32
    linalg.yield %r : f32
  }
  return
}

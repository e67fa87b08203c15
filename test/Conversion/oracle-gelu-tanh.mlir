// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func gelu_tanh_products --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func gelu_tanh_power --bin %walrus_tools --pipeline --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func not_gelu --bin %walrus_tools --pipeline --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE

// GELU's tanh approximation, 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x +
// 0.044715 * x^3))) (torch's approximate="tanh"), is one `activation
// gelu_apprx_tanh` on the scalar engine (NKI's nl.gelu_apprx_tanh), the
// products in any order and x^3 as products or a power, where the body
// would take nine vector-engine instructions. The interpreter computes it
// in f64 and rounds once: within an f32 rounding or two of the body's own
// arithmetic.

// CHECK-LABEL: func.func @gelu_tanh_products
// CHECK:       bir.dma %in_1{{.*}}, %gelu_tanh_products_arg0
// CHECK-NEXT:  bir.tensor_tensor add
// CHECK-NEXT:  bir.activation gelu_apprx_tanh
// CHECK-NEXT:  bir.dma
// CHECK-LABEL: func.func @gelu_tanh_power
// CHECK:       bir.dma
// CHECK-NEXT:  bir.activation gelu_apprx_tanh
// CHECK-NEXT:  bir.dma
// A constant other than 0.044715 is not the approximation: the body's
// instructions stay.
// CHECK-LABEL: func.func @not_gelu
// CHECK-NOT:   gelu_apprx_tanh
// CHECK:       bir.activation tanh
// CHECK-NOT:   gelu_apprx_tanh

// ORACLE: oracle: within tolerance

// The MLP's form (examples/models/gen_layers.py): a bias added first, x^3
// as two products.
func.func @gelu_tanh_products(%x: memref<150x200xf32>, %b: memref<200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<150x200xf32>, memref<200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a0: f32, %a1: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %c0 = arith.constant 0.7978845608 : f32
    %c1 = arith.constant 0.044715 : f32
    %z = arith.addf %a0, %a1 : f32
    %z2 = arith.mulf %z, %z : f32
    %z3 = arith.mulf %z2, %z : f32
    %k = arith.mulf %z3, %c1 : f32
    %i = arith.addf %z, %k : f32
    %u = arith.mulf %i, %c0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %z, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  return
}

// x^3 as a power, the constants on the other side of each product.
func.func @gelu_tanh_power(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %three = arith.constant 3.0 : f32
    %beta = arith.constant 0.797884583 : f32
    %kappa = arith.constant 4.471500e-02 : f32
    %cube = math.powf %a, %three : f32
    %k = arith.mulf %kappa, %cube : f32
    %i = arith.addf %k, %a : f32
    %u = arith.mulf %beta, %i : f32
    %t = math.tanh %u : f32
    %p = arith.addf %one, %t : f32
    %m = arith.mulf %half, %p : f32
    %r = arith.mulf %a, %m : f32
    linalg.yield %r : f32
  }
  return
}

func.func @not_gelu(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %c0 = arith.constant 0.7978845608 : f32
    %c1 = arith.constant 0.05 : f32
    %a2 = arith.mulf %a, %a : f32
    %a3 = arith.mulf %a2, %a : f32
    %k = arith.mulf %a3, %c1 : f32
    %i = arith.addf %a, %k : f32
    %u = arith.mulf %i, %c0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %a, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  }
  return
}

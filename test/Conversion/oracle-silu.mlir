// RUN: walrus-opt %s -normalize-linalg -fuse-elementwise -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="auto-cast=none" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func silu_quotient --bin %walrus_tools --lnc-size 2 --pipeline --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func silu_quotient_op_by_op --bin %walrus_tools --pipeline --lowering-options auto-cast=none --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func not_silu --bin %walrus_tools --pipeline --rtol 1e-6 --atol 1e-6 | FileCheck %s --check-prefix=ORACLE

// silu written as x / (1 + exp(-x)) (numpy references such as NKIBench's,
// and torch-mlir's silu once its sigmoid and product fuse into a quotient)
// is one `activation silu` on the scalar engine, where the body would take
// a negate, an exp, an add and a divide. The interpreter computes it in
// f64 and rounds once: within an f32 rounding or two of the body's own
// arithmetic.

// CHECK-LABEL: func.func @silu_quotient
// CHECK:       bir.dma %in{{.*}}, %silu_quotient_arg0
// CHECK-NEXT:  bir.activation silu
// CHECK-NEXT:  bir.dma
func.func @silu_quotient(%x: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %en = math.exp %n : f32
    %d = arith.addf %en, %one : f32
    %s = arith.divf %a, %d : f32
    linalg.yield %s : f32
  }
  return
}

// The same as four generics, one per numpy op, on tensors: after
// -fuse-elementwise it is the quotient above.
// CHECK-LABEL: func.func @silu_quotient_op_by_op
// CHECK:       bir.dma %in{{.*}}, %silu_quotient_op_by_op_arg0
// CHECK-NEXT:  bir.activation silu
// CHECK-NEXT:  bir.dma
func.func @silu_quotient_op_by_op(%x: tensor<130x300xf32>) -> tensor<130x300xf32> {
  %e0 = tensor.empty() : tensor<130x300xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<130x300xf32>) outs(%e0 : tensor<130x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<130x300xf32>
  %e1 = tensor.empty() : tensor<130x300xf32>
  %exp = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%neg : tensor<130x300xf32>) outs(%e1 : tensor<130x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<130x300xf32>
  %e2 = tensor.empty() : tensor<130x300xf32>
  %den = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%exp : tensor<130x300xf32>) outs(%e2 : tensor<130x300xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %r = arith.addf %one, %a : f32
    linalg.yield %r : f32
  } -> tensor<130x300xf32>
  %e3 = tensor.empty() : tensor<130x300xf32>
  %silu = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%x, %den : tensor<130x300xf32>, tensor<130x300xf32>) outs(%e3 : tensor<130x300xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<130x300xf32>
  return %silu : tensor<130x300xf32>
}

// A numerator other than the exp's argument is not silu: the body's
// instructions stay.
// CHECK-LABEL: func.func @not_silu
// CHECK-NOT:   activation silu
// CHECK:       bir.activation exp
// CHECK:       divide
// CHECK-NOT:   activation silu
func.func @not_silu(%x: memref<150x200xf32>, %z: memref<150x200xf32>, %y: memref<150x200xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %z : memref<150x200xf32>, memref<150x200xf32>) outs(%y : memref<150x200xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %en = math.exp %n : f32
    %d = arith.addf %en, %one : f32
    %s = arith.divf %b, %d : f32
    linalg.yield %s : f32
  }
  return
}

// Tiles are as wide as the instructions emitted allow: a set of silu's
// tiles is its input, the activation's result and the output (four f32
// tiles with the headroom), not one per op of the body, so its tiles take
// the widest 2048 columns where eight would fit 1536.
// CHECK-LABEL: func.func @silu_wide
// CHECK:       bir.memloc "in" {{.*}} !bir.sbuf<128x2048xf32>
// CHECK:       bir.dma %in{{.*}}, %silu_wide_arg0[#bir.sap<()[s0] -> (s0 * 524288), {{\[\[}}4096, 128], [1, 2048]]>]
// CHECK-NEXT:  bir.activation silu
func.func @silu_wide(%x: memref<128x4096xf32>, %y: memref<128x4096xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x4096xf32>) outs(%y : memref<128x4096xf32>) {
  ^bb0(%a: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %n = arith.negf %a : f32
    %en = math.exp %n : f32
    %d = arith.addf %en, %one : f32
    %s = arith.divf %a, %d : f32
    linalg.yield %s : f32
  }
  return
}

// ORACLE: oracle: within tolerance

// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --reference-file %S/Inputs/attention-kt-reference.mlir --reference attention_kt_reference --bin %walrus_tools --lnc-size 4 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s
// RUN: walrus-opt %s -convert-linalg-to-bir | FileCheck %s --check-prefix=FUSED

// The fused attention with K stored already transposed ([d, keys]: the
// first matmul reads B as (k, n)), a head dimension over 128 (two d tiles
// accumulated in PSUM) and 4 cores.

// FUSED: bir.memloc "at_s"
// FUSED-NOT: attention_kt_buf

// CHECK: attention_kt_arg3: 8000 elements
// CHECK: oracle: within tolerance
func.func @attention_kt(%q: memref<200x160xf32>, %kt: memref<160x300xf32>, %v: memref<300x40xf32>,
                        %o: memref<200x40xf32>) {
  %zero = arith.constant 0.0 : f32
  %s = memref.alloc() : memref<200x300xf32>
  linalg.fill ins(%zero : f32) outs(%s : memref<200x300xf32>)
  linalg.matmul ins(%q, %kt : memref<200x160xf32>, memref<160x300xf32>) outs(%s : memref<200x300xf32>)
  %p = memref.alloc() : memref<200x300xf32>
  linalg.softmax dimension(1) ins(%s : memref<200x300xf32>) outs(%p : memref<200x300xf32>)
  linalg.fill ins(%zero : f32) outs(%o : memref<200x40xf32>)
  linalg.matmul ins(%p, %v : memref<200x300xf32>, memref<300x40xf32>) outs(%o : memref<200x40xf32>)
  return
}

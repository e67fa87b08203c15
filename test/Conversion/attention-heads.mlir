// RUN: walrus-opt %s -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="auto-cast=none" | FileCheck %s
// RUN: walrus-opt %s -walrus-from-linalg="lnc-size=2" | FileCheck %s --check-prefix=PIPELINE
// RUN: %python %utils/linalg_oracle.py %s --lowering-options auto-cast=none --reference-file %S/Inputs/attention-heads-reference.mlir --reference attention_heads_reference --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --reference-file %S/Inputs/attention-heads-reference.mlir --reference attention_heads_reference --bin %walrus_tools --lnc-size 2 --pipeline --scale-tol 1e-2 | FileCheck %s --check-prefix=ORACLE

// Multi-head attention as front ends write it: per head, the columns of
// Q, K and V are sliced out, softmax(Q K^T) V computed, and the result
// inserted into its columns of the context. Empty-tensor elimination
// before bufferization makes each head's nest store straight into its
// columns of the result (elements 0 and 32 of each 64-wide row): no
// per-head DRAM buffer, no copy through SBUF into the context.

// CHECK-LABEL: bir.func @main
// CHECK-NOT:   attention_heads_buf
// CHECK:       bir.dma %attention_heads_result0[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 32]]>], %at_o[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>]
// CHECK:       bir.dma %attention_heads_result0[#bir.ap<8192, {{\[\[}}64, 2], [1, 32]]>], %at_o_1[#bir.ap<0, {{\[\[}}32, 2], [1, 32]]>]
// CHECK:       bir.dma %attention_heads_result0[#bir.sap<()[s0] -> (s0 * 8192 + 32), {{\[\[}}64, 128], [1, 32]]>], %at_o_2[#bir.ap<0, {{\[\[}}32, 128], [1, 32]]>]
// CHECK:       bir.dma %attention_heads_result0[#bir.ap<8224, {{\[\[}}64, 2], [1, 32]]>], %at_o_3[#bir.ap<0, {{\[\[}}32, 2], [1, 32]]>]
// CHECK-NOT:   bir.dma %attention_heads_result0

// PIPELINE-NOT: attention_heads_buf
// PIPELINE:     bir.memloc "attention_heads_result0" output
// PIPELINE-NOT: attention_heads_buf

// ORACLE: attention_heads_result0: 8320 elements
// ORACLE: oracle: within tolerance
func.func @attention_heads(%q: tensor<130x64xf32>, %k: tensor<130x64xf32>, %v: tensor<130x64xf32>) -> tensor<130x64xf32> {
  %zero = arith.constant 0.0 : f32
  %context = tensor.empty() : tensor<130x64xf32>
  %q0 = tensor.extract_slice %q[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %k0 = tensor.extract_slice %k[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %v0 = tensor.extract_slice %v[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %se0 = tensor.empty() : tensor<130x130xf32>
  %sf0 = linalg.fill ins(%zero : f32) outs(%se0 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %s0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q0, %k0 : tensor<130x32xf32>, tensor<130x32xf32>) outs(%sf0 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %pe0 = tensor.empty() : tensor<130x130xf32>
  %p0 = linalg.softmax dimension(1) ins(%s0 : tensor<130x130xf32>) outs(%pe0 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %oe0 = tensor.empty() : tensor<130x32xf32>
  %of0 = linalg.fill ins(%zero : f32) outs(%oe0 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %o0 = linalg.matmul ins(%p0, %v0 : tensor<130x130xf32>, tensor<130x32xf32>) outs(%of0 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %c0 = tensor.insert_slice %o0 into %context[0, 0] [130, 32] [1, 1] : tensor<130x32xf32> into tensor<130x64xf32>
  %q1 = tensor.extract_slice %q[0, 32] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %k1 = tensor.extract_slice %k[0, 32] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %v1 = tensor.extract_slice %v[0, 32] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %se1 = tensor.empty() : tensor<130x130xf32>
  %sf1 = linalg.fill ins(%zero : f32) outs(%se1 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %s1 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q1, %k1 : tensor<130x32xf32>, tensor<130x32xf32>) outs(%sf1 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %pe1 = tensor.empty() : tensor<130x130xf32>
  %p1 = linalg.softmax dimension(1) ins(%s1 : tensor<130x130xf32>) outs(%pe1 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %oe1 = tensor.empty() : tensor<130x32xf32>
  %of1 = linalg.fill ins(%zero : f32) outs(%oe1 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %o1 = linalg.matmul ins(%p1, %v1 : tensor<130x130xf32>, tensor<130x32xf32>) outs(%of1 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %c1 = tensor.insert_slice %o1 into %c0[0, 32] [130, 32] [1, 1] : tensor<130x32xf32> into tensor<130x64xf32>
  return %c1 : tensor<130x64xf32>
}

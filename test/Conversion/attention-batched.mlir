// RUN: walrus-opt %s -normalize-linalg -fuse-elementwise -raise-softmax -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2 auto-cast=none" | FileCheck %s
// RUN: walrus-opt %s -walrus-from-linalg="lnc-size=2 auto-cast=none" -o /dev/null
// RUN: %python %utils/linalg_oracle.py %s --func scaled_heads --bin %walrus_tools --lnc-size 2 --pipeline --lowering-options auto-cast=none --atol 1e-6 --rtol 1e-5 --scale-tol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func probabilities --bin %walrus_tools --lnc-size 1 --pipeline --lowering-options auto-cast=none --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: {{identical|within tolerance}}

// Attention over two heads as torch-mlir writes it (bert): the scores of a
// batch matmul divided by a constant, the softmax as maximum (beside an
// argmax nothing reads), subtraction, exp, sum and division, each row
// value through a keepdim expand_shape, then P V. It lowers as one nest
// per head: the scores are scaled by 1/8 on their way out of PSUM, and
// neither they nor the probabilities reach DRAM. The heads take two
// copies of K^T, V and the query rows in turn, head 1's loaded before
// head 0's work (they start 64 x 200, 200 x 48 and 130 x 64 elements
// in), and the query tiles' sets rotate across the heads.

// CHECK-LABEL: bir.kernel @scaled_heads_kernel
// CHECK-NOT:   scaled_heads_buf
// CHECK-DAG:   %[[KT:.*]] = bir.memloc "at_k" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[KT1:.*]] = bir.memloc "at_k_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[V1:.*]] = bir.memloc "at_v_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x98xf32>
// CHECK-DAG:   %[[Q1:.*]] = bir.memloc "at_qrows_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x128xf32>
// CHECK-DAG:   %[[S:.*]] = bir.memloc "at_s" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[S1:.*]] = bir.memloc "at_s_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[ACC:.*]] = bir.memloc "at_acc" internal {bir.rotating = 0 : i64} : !bir.psum<128x200xf32>
// CHECK:       bir.dma %[[KT]][#bir.ap<0, {{\[\[}}200, 64], [1, 200]]>], %scaled_heads_arg1[#bir.ap<0, {{\[\[}}200, 64], [1, 200]]>]
// CHECK:       bir.dma %[[KT1]][#bir.ap<0, {{\[\[}}200, 64], [1, 200]]>], %scaled_heads_arg1[#bir.ap<12800, {{\[\[}}200, 64], [1, 200]]>]
// CHECK:       bir.dma %[[V1]][#bir.ap<0, {{\[\[}}98, 128], [1, 48]]>], %scaled_heads_arg2[#bir.ap<9600, {{\[\[}}48, 128], [1, 48]]>]
// CHECK:       bir.dma %[[Q1]][{{.*}}], %scaled_heads_arg0[#bir.sap<()[s0] -> (s0 * 8192 + 8320)
// CHECK:       bir.activation identity %[[S]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>], %[[ACC]][#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>] scale 1.250000e-01
// CHECK:       bir.activation exp
// CHECK:       bir.dma %scaled_heads_result0[#bir.sap<()[s0] -> (s0 * 6144), {{\[\[}}48, 128], [1, 48]]>]
// CHECK:       bir.activation identity %[[S1]]{{.*}} scale 1.250000e-01
// CHECK:       bir.dma %scaled_heads_result0[#bir.sap<()[s0] -> (s0 * 6144 + 6240)
// CHECK:       bir.dma %scaled_heads_result0[#bir.ap<12384, {{\[\[}}48, 2], [1, 48]]>]
// CHECK-NOT:   bir.dma

#id = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#row = affine_map<(d0, d1, d2) -> (d0, d1)>
#keep = affine_map<(d0, d1, d2) -> (d0, d1, 0)>
func.func @scaled_heads(%q: tensor<2x130x64xf32>, %kt: tensor<2x64x200xf32>,
                        %v: tensor<2x200x48xf32>) -> tensor<2x130x48xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %c0 = arith.constant 0 : i64
  %eight = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<2x130x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x130x200xf32>) -> tensor<2x130x200xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x130x64xf32>, tensor<2x64x200xf32>) outs(%z : tensor<2x130x200xf32>) -> tensor<2x130x200xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s : tensor<2x130x200xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %out: f32):
    %d = arith.divf %in, %eight : f32
    linalg.yield %d : f32
  } -> tensor<2x130x200xf32>
  %re = tensor.empty() : tensor<2x130xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x130xf32>) -> tensor<2x130xf32>
  %ie = tensor.empty() : tensor<2x130xi64>
  %ii = linalg.fill ins(%c0 : i64) outs(%ie : tensor<2x130xi64>) -> tensor<2x130xi64>
  %max:2 = linalg.generic {indexing_maps = [#id, #row, #row], iterator_types = ["parallel", "parallel", "reduction"]} ins(%scaled : tensor<2x130x200xf32>) outs(%mi, %ii : tensor<2x130xf32>, tensor<2x130xi64>) {
  ^bb0(%in: f32, %out: f32, %arg: i64):
    %i = linalg.index 2 : index
    %ii64 = arith.index_cast %i : index to i64
    %m = arith.maximumf %in, %out : f32
    %gt = arith.cmpf ogt, %in, %out : f32
    %a = arith.select %gt, %ii64, %arg : i64
    linalg.yield %m, %a : f32, i64
  } -> (tensor<2x130xf32>, tensor<2x130xi64>)
  %maxk = tensor.expand_shape %max#0 [[0], [1, 2]] output_shape [2, 130, 1] : tensor<2x130xf32> into tensor<2x130x1xf32>
  %sub = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scaled, %maxk : tensor<2x130x200xf32>, tensor<2x130x1xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x130x200xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%sub : tensor<2x130x200xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %out: f32):
    %x = math.exp %in : f32
    linalg.yield %x : f32
  } -> tensor<2x130x200xf32>
  %se = tensor.empty() : tensor<2x130x1xf32>
  %si = linalg.fill ins(%zero : f32) outs(%se : tensor<2x130x1xf32>) -> tensor<2x130x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp : tensor<2x130x200xf32>) outs(%si : tensor<2x130x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %in, %out : f32
    linalg.yield %a : f32
  } -> tensor<2x130x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x130x200xf32>, tensor<2x130x1xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<2x130x200xf32>
  %ce = tensor.empty() : tensor<2x130x48xf32>
  %cz = linalg.fill ins(%zero : f32) outs(%ce : tensor<2x130x48xf32>) -> tensor<2x130x48xf32>
  %c = linalg.batch_matmul ins(%p, %v : tensor<2x130x200xf32>, tensor<2x200x48xf32>) outs(%cz : tensor<2x130x48xf32>) -> tensor<2x130x48xf32>
  return %c : tensor<2x130x48xf32>
}

// softmax(Q K^T) alone, of two batches (NKIBench's bmm_softmax): each
// tile of query rows computes its scores into SBUF, normalises them there
// and stores the probabilities, the row's 200 values one run of DRAM.
// Batch 1's rows start 130 x 200 = 26000 elements in.

// CHECK-LABEL: bir.kernel @probabilities_kernel
// CHECK-NOT:   probabilities_buf
// CHECK-DAG:   %[[S:.*]] = bir.memloc "at_s" internal {{.*}}: !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[P:.*]] = bir.memloc "at_p" internal {{.*}}: !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[P1:.*]] = bir.memloc "at_p_1" internal {{.*}}: !bir.sbuf<128x200xf32>
// CHECK-DAG:   %[[STAT:.*]] = bir.memloc "at_stat" internal {{.*}}: !bir.sbuf<128x1xf32>
// CHECK:       bir.activation identity %[[S]]{{.*}} : !bir.sbuf<128x200xf32>, !bir.psum<128x200xf32>
// CHECK-NEXT:  bir.tensor_reduce max %[[STAT]]
// CHECK-NEXT:  bir.tensor_scalar multiply %[[STAT]]
// CHECK-NEXT:  bir.activation exp %[[S]]
// CHECK-NEXT:  bir.tensor_reduce add %[[STAT]]
// CHECK-NEXT:  bir.activation reciprocal %[[STAT]]
// CHECK-NEXT:  bir.tensor_tensor multiply %[[P]]
// CHECK-NEXT:  bir.dma %probabilities_result0[#bir.sap<()[s0] -> (s0 * 25600), {{\[\[}}200, 128], [1, 200]]>], %[[P]]
// CHECK:       bir.dma %probabilities_result0[#bir.sap<()[s0] -> (s0 * 25600 + 26000), {{\[\[}}200, 128], [1, 200]]>], %[[P1]]
// CHECK-NOT:   probabilities_buf

func.func @probabilities(%q: tensor<2x130x64xf32>, %kt: tensor<2x64x200xf32>) -> tensor<2x130x200xf32> {
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e = tensor.empty() : tensor<2x130x200xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x130x200xf32>) -> tensor<2x130x200xf32>
  %s = linalg.batch_matmul ins(%q, %kt : tensor<2x130x64xf32>, tensor<2x64x200xf32>) outs(%z : tensor<2x130x200xf32>) -> tensor<2x130x200xf32>
  %re = tensor.empty() : tensor<2x130x1xf32>
  %mi = linalg.fill ins(%ninf : f32) outs(%re : tensor<2x130x1xf32>) -> tensor<2x130x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%s : tensor<2x130x200xf32>) outs(%mi : tensor<2x130x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %m = arith.maximumf %in, %out : f32
    linalg.yield %m : f32
  } -> tensor<2x130x1xf32>
  %exp = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%s, %max : tensor<2x130x200xf32>, tensor<2x130x1xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %m: f32, %out: f32):
    %d = arith.subf %in, %m : f32
    %x = math.exp %d : f32
    linalg.yield %x : f32
  } -> tensor<2x130x200xf32>
  %si = linalg.fill ins(%zero : f32) outs(%re : tensor<2x130x1xf32>) -> tensor<2x130x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "parallel", "reduction"]} ins(%exp : tensor<2x130x200xf32>) outs(%si : tensor<2x130x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %a = arith.addf %out, %in : f32
    linalg.yield %a : f32
  } -> tensor<2x130x1xf32>
  %p = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel", "parallel"]} ins(%exp, %sum : tensor<2x130x200xf32>, tensor<2x130x1xf32>) outs(%e : tensor<2x130x200xf32>) {
  ^bb0(%in: f32, %t: f32, %out: f32):
    %d = arith.divf %in, %t : f32
    linalg.yield %d : f32
  } -> tensor<2x130x200xf32>
  return %p : tensor<2x130x200xf32>
}

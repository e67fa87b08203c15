// The reference of attention-heads.mlir: the softmax written out.
func.func @attention_heads_reference(%q: tensor<130x64xf32>, %k: tensor<130x64xf32>, %v: tensor<130x64xf32>) -> tensor<130x64xf32> {
  %zero = arith.constant 0.0 : f32
  %context = tensor.empty() : tensor<130x64xf32>
  %q0 = tensor.extract_slice %q[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %k0 = tensor.extract_slice %k[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %v0 = tensor.extract_slice %v[0, 0] [130, 32] [1, 1] : tensor<130x64xf32> to tensor<130x32xf32>
  %se0 = tensor.empty() : tensor<130x130xf32>
  %sf0 = linalg.fill ins(%zero : f32) outs(%se0 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %s0 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%q0, %k0 : tensor<130x32xf32>, tensor<130x32xf32>) outs(%sf0 : tensor<130x130xf32>) -> tensor<130x130xf32>
  %pe0 = tensor.empty() : tensor<130x130xf32>
  %p0 = func.call @softmax_rows(%s0) : (tensor<130x130xf32>) -> tensor<130x130xf32>
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
  %p1 = func.call @softmax_rows(%s1) : (tensor<130x130xf32>) -> tensor<130x130xf32>
  %oe1 = tensor.empty() : tensor<130x32xf32>
  %of1 = linalg.fill ins(%zero : f32) outs(%oe1 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %o1 = linalg.matmul ins(%p1, %v1 : tensor<130x130xf32>, tensor<130x32xf32>) outs(%of1 : tensor<130x32xf32>) -> tensor<130x32xf32>
  %c1 = tensor.insert_slice %o1 into %c0[0, 32] [130, 32] [1, 1] : tensor<130x32xf32> into tensor<130x64xf32>
  return %c1 : tensor<130x64xf32>
}

// softmax along dimension 1, written out in ops upstream MLIR lowers to LLVM.
func.func private @softmax_rows(%s: tensor<130x130xf32>) -> tensor<130x130xf32> {
  %zero = arith.constant 0.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %rows = tensor.empty() : tensor<130xf32>
  %max0 = linalg.fill ins(%lowest : f32) outs(%rows : tensor<130xf32>) -> tensor<130xf32>
  %max = linalg.reduce ins(%s : tensor<130x130xf32>) outs(%max0 : tensor<130xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %full = tensor.empty() : tensor<130x130xf32>
  %exps = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                          iterator_types = ["parallel", "parallel"]}
      ins(%s, %max : tensor<130x130xf32>, tensor<130xf32>) outs(%full : tensor<130x130xf32>) {
  ^bb0(%x: f32, %m: f32, %out: f32):
    %d = arith.subf %x, %m : f32
    %e = math.exp %d : f32
    linalg.yield %e : f32
  } -> tensor<130x130xf32>
  %sum0 = linalg.fill ins(%zero : f32) outs(%rows : tensor<130xf32>) -> tensor<130xf32>
  %sum = linalg.reduce ins(%exps : tensor<130x130xf32>) outs(%sum0 : tensor<130xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  %p = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%exps, %sum : tensor<130x130xf32>, tensor<130xf32>) outs(%full : tensor<130x130xf32>) {
  ^bb0(%x: f32, %t: f32, %out: f32):
    %d = arith.divf %x, %t : f32
    linalg.yield %d : f32
  } -> tensor<130x130xf32>
  return %p : tensor<130x130xf32>
}

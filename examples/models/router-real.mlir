// Mixtral-8x7B's MoE router over a decode batch of 128 tokens: logits
// [128, 4096] x [4096, 8], one per expert, as torch-mlir writes
// nn.Linear(4096, 8, bias=False): the weight [8, 4096] transposed, a zero
// fill of the result, then linalg.matmul into it (bench/frontend.py). Few
// rows and columns with a long K: the cores share K.
func.func @router(%x: tensor<128x4096xf32>, %w: tensor<8x4096xf32>) -> tensor<128x8xf32> {
  %zero = arith.constant 0.000000e+00 : f32
  %empty_t = tensor.empty() : tensor<4096x8xf32>
  %wt = linalg.transpose ins(%w : tensor<8x4096xf32>) outs(%empty_t : tensor<4096x8xf32>) permutation = [1, 0]
  %empty = tensor.empty() : tensor<128x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x8xf32>) -> tensor<128x8xf32>
  %logits = linalg.matmul ins(%x, %wt : tensor<128x4096xf32>, tensor<4096x8xf32>) outs(%fill : tensor<128x8xf32>) -> tensor<128x8xf32>
  return %logits : tensor<128x8xf32>
}

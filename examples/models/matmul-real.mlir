// The NKI matrix multiplication tutorial's shape, [4096, 8192] x [8192, 8192]
// in bf16, as torch-mlir writes torch.mm: a zero fill of the result, then
// linalg.matmul into it (bench/frontend.py, the fast-kernels target).
func.func @matmul(%a: tensor<4096x8192xbf16>, %b: tensor<8192x8192xbf16>) -> tensor<4096x8192xbf16> {
  %zero = arith.constant 0.000000e+00 : bf16
  %empty = tensor.empty() : tensor<4096x8192xbf16>
  %fill = linalg.fill ins(%zero : bf16) outs(%empty : tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
  %product = linalg.matmul ins(%a, %b : tensor<4096x8192xbf16>, tensor<8192x8192xbf16>) outs(%fill : tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
  return %product : tensor<4096x8192xbf16>
}

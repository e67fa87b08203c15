// Two functions, so two kernels, each lowered to the per-core modules
// @nc00 and @nc01.
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @scale(%x: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %two = arith.constant 2.0 : f32
  %empty = tensor.empty() : tensor<256x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x64xf32>) outs(%empty : tensor<256x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %m = arith.mulf %a, %two : f32
    linalg.yield %m : f32
  } -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}
func.func @exponent(%x: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %empty = tensor.empty() : tensor<256x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<256x64xf32>) outs(%empty : tensor<256x64xf32>) {
  ^bb0(%a: f32, %b: f32):
    %e = math.exp %a : f32
    linalg.yield %e : f32
  } -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

module {
  func.func @scale(%arg0: tensor<2x3xf32>) -> tensor<2x3xf32> {
    %w = arith.constant dense_resource<__elided__> : tensor<2x3xf32>
    %s = arith.constant dense<0.5> : tensor<2x3xf32>
    %0 = tensor.empty() : tensor<2x3xf32>
    %1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%arg0, %w, %s : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) outs(%0 : tensor<2x3xf32>) {
    ^bb0(%in: f32, %in_1: f32, %in_2: f32, %out: f32):
      %2 = arith.mulf %in, %in_1 : f32
      %3 = arith.addf %2, %in_2 : f32
      linalg.yield %3 : f32
    } -> tensor<2x3xf32>
    return %1 : tensor<2x3xf32>
  }
}

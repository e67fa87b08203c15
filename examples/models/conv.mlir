// python3 examples/models/gen_layers.py conv
func.func @conv(%x: tensor<74x96xf32>, %w: tensor<3x96x96xf32>, %b: tensor<96xf32>, %p: tensor<96x96xf32>) -> tensor<72x96xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv_hidden = arith.constant 0.010416666666666666 : f32
  %ve2 = tensor.empty() : tensor<72x96xf32>
  %vf1 = linalg.fill ins(%zero : f32) outs(%ve2 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vwin3 = tensor.extract_slice %x[0, 0] [72, 96] [1, 1] : tensor<74x96xf32> to tensor<72x96xf32>
  %vk4 = tensor.extract_slice %w[0, 0, 0] [1, 96, 96] [1, 1, 1] : tensor<3x96x96xf32> to tensor<96x96xf32>
  %vc5 = linalg.matmul ins(%vwin3, %vk4 : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf1 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vwin6 = tensor.extract_slice %x[1, 0] [72, 96] [1, 1] : tensor<74x96xf32> to tensor<72x96xf32>
  %vk7 = tensor.extract_slice %w[1, 0, 0] [1, 96, 96] [1, 1, 1] : tensor<3x96x96xf32> to tensor<96x96xf32>
  %vc8 = linalg.matmul ins(%vwin6, %vk7 : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vc5 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vwin9 = tensor.extract_slice %x[2, 0] [72, 96] [1, 1] : tensor<74x96xf32> to tensor<72x96xf32>
  %vk10 = tensor.extract_slice %w[2, 0, 0] [1, 96, 96] [1, 1, 1] : tensor<3x96x96xf32> to tensor<96x96xf32>
  %vc11 = linalg.matmul ins(%vwin9, %vk10 : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vc8 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve13 = tensor.empty() : tensor<72x96xf32>
  %vg12 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vc11, %b : tensor<72x96xf32>, tensor<96xf32>) outs(%ve13 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %s = arith.addf %a0, %a1 : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve15 = tensor.empty() : tensor<72x96xf32>
  %vf14 = linalg.fill ins(%zero : f32) outs(%ve15 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm16 = linalg.matmul ins(%vg12, %p : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf14 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmid17 = tensor.extract_slice %x[1, 0] [72, 96] [1, 1] : tensor<74x96xf32> to tensor<72x96xf32>
  %ve19 = tensor.empty() : tensor<72x96xf32>
  %vg18 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm16, %vmid17 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve19 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  return %vg18 : tensor<72x96xf32>
}

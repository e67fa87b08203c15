// python3 examples/models/gen_layers.py mlp --seq 2048 --hidden 4096 --ffn 16384
func.func @mlp(%x: tensor<2048x4096xf32>, %w1: tensor<4096x16384xf32>, %b1: tensor<16384xf32>, %w2: tensor<16384x4096xf32>, %b2: tensor<4096xf32>) -> tensor<2048x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv_hidden = arith.constant 0.000244140625 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0.7978845608 : f32
  %c1 = arith.constant 0.044715 : f32
  %ve2 = tensor.empty() : tensor<2048x16384xf32>
  %vf1 = linalg.fill ins(%zero : f32) outs(%ve2 : tensor<2048x16384xf32>) -> tensor<2048x16384xf32>
  %vmm3 = linalg.matmul ins(%x, %w1 : tensor<2048x4096xf32>, tensor<4096x16384xf32>) outs(%vf1 : tensor<2048x16384xf32>) -> tensor<2048x16384xf32>
  %ve5 = tensor.empty() : tensor<2048x16384xf32>
  %vg4 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm3, %b1 : tensor<2048x16384xf32>, tensor<16384xf32>) outs(%ve5 : tensor<2048x16384xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %z = arith.addf %a0, %a1 : f32
    %z3 = arith.mulf %z, %z : f32
    %z3b = arith.mulf %z3, %z : f32
    %k = arith.mulf %z3b, %c1 : f32
    %i = arith.addf %z, %k : f32
    %u = arith.mulf %i, %c0 : f32
    %t = math.tanh %u : f32
    %p = arith.addf %t, %one : f32
    %h = arith.mulf %z, %half : f32
    %r = arith.mulf %h, %p : f32
    linalg.yield %r : f32
  } -> tensor<2048x16384xf32>
  %ve7 = tensor.empty() : tensor<2048x4096xf32>
  %vf6 = linalg.fill ins(%zero : f32) outs(%ve7 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm8 = linalg.matmul ins(%vg4, %w2 : tensor<2048x16384xf32>, tensor<16384x4096xf32>) outs(%vf6 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve10 = tensor.empty() : tensor<2048x4096xf32>
  %vg9 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm8, %b2, %x : tensor<2048x4096xf32>, tensor<4096xf32>, tensor<2048x4096xf32>) outs(%ve10 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.addf %a0, %a1 : f32
    %r = arith.addf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  return %vg9 : tensor<2048x4096xf32>
}

// python3 examples/models/gen_layers.py decoder
func.func @decoder(%x: tensor<72x96xf32>, %g1: tensor<96xf32>, %wq: tensor<96x96xf32>, %wk: tensor<96x96xf32>, %wv: tensor<96x96xf32>, %wo: tensor<96x96xf32>, %g2: tensor<96xf32>, %w1: tensor<96x160xf32>, %w3: tensor<96x160xf32>, %w2: tensor<160x96xf32>) -> tensor<72x96xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv_hidden = arith.constant 0.010416666666666666 : f32
  %scale = arith.constant 0.14433756729740643 : f32
  %ve2 = tensor.empty() : tensor<72x96xf32>
  %vg1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<72x96xf32>) outs(%ve2 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve5 = tensor.empty() : tensor<72xf32>
  %vf4 = linalg.fill ins(%zero : f32) outs(%ve5 : tensor<72xf32>) -> tensor<72xf32>
  %vred3 = linalg.reduce ins(%vg1 : tensor<72x96xf32>) outs(%vf4 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve7 = tensor.empty() : tensor<72xf32>
  %vg6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred3 : tensor<72xf32>) outs(%ve7 : tensor<72xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<72xf32>
  %ve9 = tensor.empty() : tensor<72x96xf32>
  %vg8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vg6, %g1 : tensor<72x96xf32>, tensor<72xf32>, tensor<96xf32>) outs(%ve9 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve11 = tensor.empty() : tensor<72x96xf32>
  %vf10 = linalg.fill ins(%zero : f32) outs(%ve11 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm12 = linalg.matmul ins(%vg8, %wq : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf10 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve14 = tensor.empty() : tensor<72x96xf32>
  %vg13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm12 : tensor<72x96xf32>) outs(%ve14 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %scale : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve16 = tensor.empty() : tensor<72x96xf32>
  %vf15 = linalg.fill ins(%zero : f32) outs(%ve16 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm17 = linalg.matmul ins(%vg8, %wk : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf15 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve19 = tensor.empty() : tensor<72x96xf32>
  %vf18 = linalg.fill ins(%zero : f32) outs(%ve19 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm20 = linalg.matmul ins(%vg8, %wv : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf18 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve21 = tensor.empty() : tensor<72x96xf32>
  %vh22 = tensor.extract_slice %vg13[0, 0] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh23 = tensor.extract_slice %vmm17[0, 0] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh24 = tensor.extract_slice %vmm20[0, 0] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %ve26 = tensor.empty() : tensor<72x72xf32>
  %vf25 = linalg.fill ins(%zero : f32) outs(%ve26 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %vmm27 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh22, %vh23 : tensor<72x48xf32>, tensor<72x48xf32>) outs(%vf25 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %ve29 = tensor.empty() : tensor<72x72xf32>
  %vsm28 = linalg.softmax dimension(1) ins(%vmm27 : tensor<72x72xf32>) outs(%ve29 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %ve31 = tensor.empty() : tensor<72x48xf32>
  %vf30 = linalg.fill ins(%zero : f32) outs(%ve31 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vmm32 = linalg.matmul ins(%vsm28, %vh24 : tensor<72x72xf32>, tensor<72x48xf32>) outs(%vf30 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vctx33 = tensor.insert_slice %vmm32 into %ve21[0, 0] [72, 48] [1, 1] : tensor<72x48xf32> into tensor<72x96xf32>
  %vh34 = tensor.extract_slice %vg13[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh35 = tensor.extract_slice %vmm17[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh36 = tensor.extract_slice %vmm20[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %ve38 = tensor.empty() : tensor<72x72xf32>
  %vf37 = linalg.fill ins(%zero : f32) outs(%ve38 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %vmm39 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh34, %vh35 : tensor<72x48xf32>, tensor<72x48xf32>) outs(%vf37 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %ve41 = tensor.empty() : tensor<72x72xf32>
  %vsm40 = linalg.softmax dimension(1) ins(%vmm39 : tensor<72x72xf32>) outs(%ve41 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %ve43 = tensor.empty() : tensor<72x48xf32>
  %vf42 = linalg.fill ins(%zero : f32) outs(%ve43 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vmm44 = linalg.matmul ins(%vsm40, %vh36 : tensor<72x72xf32>, tensor<72x48xf32>) outs(%vf42 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vctx45 = tensor.insert_slice %vmm44 into %vctx33[0, 48] [72, 48] [1, 1] : tensor<72x48xf32> into tensor<72x96xf32>
  %ve47 = tensor.empty() : tensor<72x96xf32>
  %vf46 = linalg.fill ins(%zero : f32) outs(%ve47 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm48 = linalg.matmul ins(%vctx45, %wo : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf46 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve50 = tensor.empty() : tensor<72x96xf32>
  %vg49 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vmm48 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve50 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve52 = tensor.empty() : tensor<72x96xf32>
  %vg51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg49 : tensor<72x96xf32>) outs(%ve52 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve55 = tensor.empty() : tensor<72xf32>
  %vf54 = linalg.fill ins(%zero : f32) outs(%ve55 : tensor<72xf32>) -> tensor<72xf32>
  %vred53 = linalg.reduce ins(%vg51 : tensor<72x96xf32>) outs(%vf54 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve57 = tensor.empty() : tensor<72xf32>
  %vg56 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred53 : tensor<72xf32>) outs(%ve57 : tensor<72xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<72xf32>
  %ve59 = tensor.empty() : tensor<72x96xf32>
  %vg58 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg49, %vg56, %g2 : tensor<72x96xf32>, tensor<72xf32>, tensor<96xf32>) outs(%ve59 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve61 = tensor.empty() : tensor<72x160xf32>
  %vf60 = linalg.fill ins(%zero : f32) outs(%ve61 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm62 = linalg.matmul ins(%vg58, %w1 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf60 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve64 = tensor.empty() : tensor<72x160xf32>
  %vf63 = linalg.fill ins(%zero : f32) outs(%ve64 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm65 = linalg.matmul ins(%vg58, %w3 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf63 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve67 = tensor.empty() : tensor<72x160xf32>
  %vg66 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm62, %vmm65 : tensor<72x160xf32>, tensor<72x160xf32>) outs(%ve67 : tensor<72x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x160xf32>
  %ve69 = tensor.empty() : tensor<72x96xf32>
  %vf68 = linalg.fill ins(%zero : f32) outs(%ve69 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm70 = linalg.matmul ins(%vg66, %w2 : tensor<72x160xf32>, tensor<160x96xf32>) outs(%vf68 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve72 = tensor.empty() : tensor<72x96xf32>
  %vg71 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg49, %vmm70 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve72 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  return %vg71 : tensor<72x96xf32>
}

// python3 examples/models/gen_layers.py decoder --reference
func.func @decoder(%x: tensor<72x96xf32>, %g1: tensor<96xf32>, %wq: tensor<2x96x48xf32>, %wk: tensor<2x96x48xf32>, %wv: tensor<2x96x48xf32>, %wo: tensor<2x48x96xf32>, %g2: tensor<96xf32>, %w1: tensor<96x160xf32>, %w3: tensor<96x160xf32>, %w2: tensor<160x96xf32>) -> tensor<72x96xf32> {
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
  %ve11 = tensor.empty() : tensor<2x72x48xf32>
  %vf10 = linalg.fill ins(%zero : f32) outs(%ve11 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %vbmm12 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wq : tensor<72x96xf32>, tensor<2x96x48xf32>) outs(%vf10 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %ve14 = tensor.empty() : tensor<2x72x48xf32>
  %vf13 = linalg.fill ins(%zero : f32) outs(%ve14 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %vbmm15 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wk : tensor<72x96xf32>, tensor<2x96x48xf32>) outs(%vf13 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %ve17 = tensor.empty() : tensor<2x72x48xf32>
  %vf16 = linalg.fill ins(%zero : f32) outs(%ve17 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %vbmm18 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wv : tensor<72x96xf32>, tensor<2x96x48xf32>) outs(%vf16 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %ve20 = tensor.empty() : tensor<2x72x72xf32>
  %vf19 = linalg.fill ins(%zero : f32) outs(%ve20 : tensor<2x72x72xf32>) -> tensor<2x72x72xf32>
  %vbmm21 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vbmm12, %vbmm15 : tensor<2x72x48xf32>, tensor<2x72x48xf32>) outs(%vf19 : tensor<2x72x72xf32>) -> tensor<2x72x72xf32>
  %ve23 = tensor.empty() : tensor<2x72x72xf32>
  %vg22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%vbmm21 : tensor<2x72x72xf32>) outs(%ve23 : tensor<2x72x72xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2x72x72xf32>
  %ve26 = tensor.empty() : tensor<2x72xf32>
  %vf25 = linalg.fill ins(%lowest : f32) outs(%ve26 : tensor<2x72xf32>) -> tensor<2x72xf32>
  %vred24 = linalg.reduce ins(%vg22 : tensor<2x72x72xf32>) outs(%vf25 : tensor<2x72xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %c = arith.maximumf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve28 = tensor.empty() : tensor<2x72x72xf32>
  %vg27 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%vg22, %vred24 : tensor<2x72x72xf32>, tensor<2x72xf32>) outs(%ve28 : tensor<2x72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<2x72x72xf32>
  %ve31 = tensor.empty() : tensor<2x72xf32>
  %vf30 = linalg.fill ins(%zero : f32) outs(%ve31 : tensor<2x72xf32>) -> tensor<2x72xf32>
  %vred29 = linalg.reduce ins(%vg27 : tensor<2x72x72xf32>) outs(%vf30 : tensor<2x72xf32>) dimensions = [2]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve33 = tensor.empty() : tensor<2x72x72xf32>
  %vg32 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%vg27, %vred29 : tensor<2x72x72xf32>, tensor<2x72xf32>) outs(%ve33 : tensor<2x72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2x72x72xf32>
  %ve35 = tensor.empty() : tensor<2x72x48xf32>
  %vf34 = linalg.fill ins(%zero : f32) outs(%ve35 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %vbmm36 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg32, %vbmm18 : tensor<2x72x72xf32>, tensor<2x72x48xf32>) outs(%vf34 : tensor<2x72x48xf32>) -> tensor<2x72x48xf32>
  %ve38 = tensor.empty() : tensor<72x96xf32>
  %vf37 = linalg.fill ins(%zero : f32) outs(%ve38 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vctx39 = tensor.extract_slice %vbmm36[0, 0, 0] [1, 72, 48] [1, 1, 1] : tensor<2x72x48xf32> to tensor<72x48xf32>
  %vwo40 = tensor.extract_slice %wo[0, 0, 0] [1, 48, 96] [1, 1, 1] : tensor<2x48x96xf32> to tensor<48x96xf32>
  %vo41 = linalg.matmul ins(%vctx39, %vwo40 : tensor<72x48xf32>, tensor<48x96xf32>) outs(%vf37 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vctx42 = tensor.extract_slice %vbmm36[1, 0, 0] [1, 72, 48] [1, 1, 1] : tensor<2x72x48xf32> to tensor<72x48xf32>
  %vwo43 = tensor.extract_slice %wo[1, 0, 0] [1, 48, 96] [1, 1, 1] : tensor<2x48x96xf32> to tensor<48x96xf32>
  %vo44 = linalg.matmul ins(%vctx42, %vwo43 : tensor<72x48xf32>, tensor<48x96xf32>) outs(%vo41 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve46 = tensor.empty() : tensor<72x96xf32>
  %vg45 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vo44 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve46 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve48 = tensor.empty() : tensor<72x96xf32>
  %vg47 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg45 : tensor<72x96xf32>) outs(%ve48 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve51 = tensor.empty() : tensor<72xf32>
  %vf50 = linalg.fill ins(%zero : f32) outs(%ve51 : tensor<72xf32>) -> tensor<72xf32>
  %vred49 = linalg.reduce ins(%vg47 : tensor<72x96xf32>) outs(%vf50 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve53 = tensor.empty() : tensor<72xf32>
  %vg52 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred49 : tensor<72xf32>) outs(%ve53 : tensor<72xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<72xf32>
  %ve55 = tensor.empty() : tensor<72x96xf32>
  %vg54 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg45, %vg52, %g2 : tensor<72x96xf32>, tensor<72xf32>, tensor<96xf32>) outs(%ve55 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve57 = tensor.empty() : tensor<72x160xf32>
  %vf56 = linalg.fill ins(%zero : f32) outs(%ve57 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm58 = linalg.matmul ins(%vg54, %w1 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf56 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve60 = tensor.empty() : tensor<72x160xf32>
  %vf59 = linalg.fill ins(%zero : f32) outs(%ve60 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm61 = linalg.matmul ins(%vg54, %w3 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf59 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve63 = tensor.empty() : tensor<72x160xf32>
  %vg62 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm58, %vmm61 : tensor<72x160xf32>, tensor<72x160xf32>) outs(%ve63 : tensor<72x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x160xf32>
  %ve65 = tensor.empty() : tensor<72x96xf32>
  %vf64 = linalg.fill ins(%zero : f32) outs(%ve65 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm66 = linalg.matmul ins(%vg62, %w2 : tensor<72x160xf32>, tensor<160x96xf32>) outs(%vf64 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve68 = tensor.empty() : tensor<72x96xf32>
  %vg67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg45, %vmm66 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve68 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  return %vg67 : tensor<72x96xf32>
}

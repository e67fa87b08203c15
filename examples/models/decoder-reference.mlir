// python3 examples/models/gen_layers.py decoder --reference
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
  %ve30 = tensor.empty() : tensor<72xf32>
  %vf29 = linalg.fill ins(%lowest : f32) outs(%ve30 : tensor<72xf32>) -> tensor<72xf32>
  %vred28 = linalg.reduce ins(%vmm27 : tensor<72x72xf32>) outs(%vf29 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.maximumf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve32 = tensor.empty() : tensor<72x72xf32>
  %vg31 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm27, %vred28 : tensor<72x72xf32>, tensor<72xf32>) outs(%ve32 : tensor<72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<72x72xf32>
  %ve35 = tensor.empty() : tensor<72xf32>
  %vf34 = linalg.fill ins(%zero : f32) outs(%ve35 : tensor<72xf32>) -> tensor<72xf32>
  %vred33 = linalg.reduce ins(%vg31 : tensor<72x72xf32>) outs(%vf34 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve37 = tensor.empty() : tensor<72x72xf32>
  %vg36 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg31, %vred33 : tensor<72x72xf32>, tensor<72xf32>) outs(%ve37 : tensor<72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x72xf32>
  %ve39 = tensor.empty() : tensor<72x48xf32>
  %vf38 = linalg.fill ins(%zero : f32) outs(%ve39 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vmm40 = linalg.matmul ins(%vg36, %vh24 : tensor<72x72xf32>, tensor<72x48xf32>) outs(%vf38 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vctx41 = tensor.insert_slice %vmm40 into %ve21[0, 0] [72, 48] [1, 1] : tensor<72x48xf32> into tensor<72x96xf32>
  %vh42 = tensor.extract_slice %vg13[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh43 = tensor.extract_slice %vmm17[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %vh44 = tensor.extract_slice %vmm20[0, 48] [72, 48] [1, 1] : tensor<72x96xf32> to tensor<72x48xf32>
  %ve46 = tensor.empty() : tensor<72x72xf32>
  %vf45 = linalg.fill ins(%zero : f32) outs(%ve46 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %vmm47 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh42, %vh43 : tensor<72x48xf32>, tensor<72x48xf32>) outs(%vf45 : tensor<72x72xf32>) -> tensor<72x72xf32>
  %ve50 = tensor.empty() : tensor<72xf32>
  %vf49 = linalg.fill ins(%lowest : f32) outs(%ve50 : tensor<72xf32>) -> tensor<72xf32>
  %vred48 = linalg.reduce ins(%vmm47 : tensor<72x72xf32>) outs(%vf49 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.maximumf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve52 = tensor.empty() : tensor<72x72xf32>
  %vg51 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm47, %vred48 : tensor<72x72xf32>, tensor<72xf32>) outs(%ve52 : tensor<72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %s = arith.subf %a0, %a1 : f32
    %r = math.exp %s : f32
    linalg.yield %r : f32
  } -> tensor<72x72xf32>
  %ve55 = tensor.empty() : tensor<72xf32>
  %vf54 = linalg.fill ins(%zero : f32) outs(%ve55 : tensor<72xf32>) -> tensor<72xf32>
  %vred53 = linalg.reduce ins(%vg51 : tensor<72x72xf32>) outs(%vf54 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve57 = tensor.empty() : tensor<72x72xf32>
  %vg56 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg51, %vred53 : tensor<72x72xf32>, tensor<72xf32>) outs(%ve57 : tensor<72x72xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.divf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x72xf32>
  %ve59 = tensor.empty() : tensor<72x48xf32>
  %vf58 = linalg.fill ins(%zero : f32) outs(%ve59 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vmm60 = linalg.matmul ins(%vg56, %vh44 : tensor<72x72xf32>, tensor<72x48xf32>) outs(%vf58 : tensor<72x48xf32>) -> tensor<72x48xf32>
  %vctx61 = tensor.insert_slice %vmm60 into %vctx41[0, 48] [72, 48] [1, 1] : tensor<72x48xf32> into tensor<72x96xf32>
  %ve63 = tensor.empty() : tensor<72x96xf32>
  %vf62 = linalg.fill ins(%zero : f32) outs(%ve63 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm64 = linalg.matmul ins(%vctx61, %wo : tensor<72x96xf32>, tensor<96x96xf32>) outs(%vf62 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve66 = tensor.empty() : tensor<72x96xf32>
  %vg65 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vmm64 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve66 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve68 = tensor.empty() : tensor<72x96xf32>
  %vg67 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg65 : tensor<72x96xf32>) outs(%ve68 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve71 = tensor.empty() : tensor<72xf32>
  %vf70 = linalg.fill ins(%zero : f32) outs(%ve71 : tensor<72xf32>) -> tensor<72xf32>
  %vred69 = linalg.reduce ins(%vg67 : tensor<72x96xf32>) outs(%vf70 : tensor<72xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve73 = tensor.empty() : tensor<72xf32>
  %vg72 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred69 : tensor<72xf32>) outs(%ve73 : tensor<72xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<72xf32>
  %ve75 = tensor.empty() : tensor<72x96xf32>
  %vg74 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg65, %vg72, %g2 : tensor<72x96xf32>, tensor<72xf32>, tensor<96xf32>) outs(%ve75 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  %ve77 = tensor.empty() : tensor<72x160xf32>
  %vf76 = linalg.fill ins(%zero : f32) outs(%ve77 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm78 = linalg.matmul ins(%vg74, %w1 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf76 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve80 = tensor.empty() : tensor<72x160xf32>
  %vf79 = linalg.fill ins(%zero : f32) outs(%ve80 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %vmm81 = linalg.matmul ins(%vg74, %w3 : tensor<72x96xf32>, tensor<96x160xf32>) outs(%vf79 : tensor<72x160xf32>) -> tensor<72x160xf32>
  %ve83 = tensor.empty() : tensor<72x160xf32>
  %vg82 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm78, %vmm81 : tensor<72x160xf32>, tensor<72x160xf32>) outs(%ve83 : tensor<72x160xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x160xf32>
  %ve85 = tensor.empty() : tensor<72x96xf32>
  %vf84 = linalg.fill ins(%zero : f32) outs(%ve85 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %vmm86 = linalg.matmul ins(%vg82, %w2 : tensor<72x160xf32>, tensor<160x96xf32>) outs(%vf84 : tensor<72x96xf32>) -> tensor<72x96xf32>
  %ve88 = tensor.empty() : tensor<72x96xf32>
  %vg87 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg65, %vmm86 : tensor<72x96xf32>, tensor<72x96xf32>) outs(%ve88 : tensor<72x96xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<72x96xf32>
  return %vg87 : tensor<72x96xf32>
}

// python3 examples/models/gen_layers.py decoder --seq 2048 --hidden 4096 --heads 32 --ffn 11008
func.func @decoder(%x: tensor<2048x4096xf32>, %g1: tensor<4096xf32>, %wq: tensor<4096x4096xf32>, %wk: tensor<4096x4096xf32>, %wv: tensor<4096x4096xf32>, %wo: tensor<4096x4096xf32>, %g2: tensor<4096xf32>, %w1: tensor<4096x11008xf32>, %w3: tensor<4096x11008xf32>, %w2: tensor<11008x4096xf32>) -> tensor<2048x4096xf32> {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %lowest = arith.constant -3.0e38 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv_hidden = arith.constant 0.000244140625 : f32
  %scale = arith.constant 0.08838834764831845 : f32
  %ve2 = tensor.empty() : tensor<2048x4096xf32>
  %vg1 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<2048x4096xf32>) outs(%ve2 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve5 = tensor.empty() : tensor<2048xf32>
  %vf4 = linalg.fill ins(%zero : f32) outs(%ve5 : tensor<2048xf32>) -> tensor<2048xf32>
  %vred3 = linalg.reduce ins(%vg1 : tensor<2048x4096xf32>) outs(%vf4 : tensor<2048xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve7 = tensor.empty() : tensor<2048xf32>
  %vg6 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred3 : tensor<2048xf32>) outs(%ve7 : tensor<2048xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<2048xf32>
  %ve9 = tensor.empty() : tensor<2048x4096xf32>
  %vg8 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vg6, %g1 : tensor<2048x4096xf32>, tensor<2048xf32>, tensor<4096xf32>) outs(%ve9 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve11 = tensor.empty() : tensor<2048x4096xf32>
  %vf10 = linalg.fill ins(%zero : f32) outs(%ve11 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm12 = linalg.matmul ins(%vg8, %wq : tensor<2048x4096xf32>, tensor<4096x4096xf32>) outs(%vf10 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve14 = tensor.empty() : tensor<2048x4096xf32>
  %vg13 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm12 : tensor<2048x4096xf32>) outs(%ve14 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %scale : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve16 = tensor.empty() : tensor<2048x4096xf32>
  %vf15 = linalg.fill ins(%zero : f32) outs(%ve16 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm17 = linalg.matmul ins(%vg8, %wk : tensor<2048x4096xf32>, tensor<4096x4096xf32>) outs(%vf15 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve19 = tensor.empty() : tensor<2048x4096xf32>
  %vf18 = linalg.fill ins(%zero : f32) outs(%ve19 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm20 = linalg.matmul ins(%vg8, %wv : tensor<2048x4096xf32>, tensor<4096x4096xf32>) outs(%vf18 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve21 = tensor.empty() : tensor<2048x4096xf32>
  %vh22 = tensor.extract_slice %vg13[0, 0] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh23 = tensor.extract_slice %vmm17[0, 0] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh24 = tensor.extract_slice %vmm20[0, 0] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve26 = tensor.empty() : tensor<2048x2048xf32>
  %vf25 = linalg.fill ins(%zero : f32) outs(%ve26 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm27 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh22, %vh23 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf25 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve29 = tensor.empty() : tensor<2048x2048xf32>
  %vsm28 = linalg.softmax dimension(1) ins(%vmm27 : tensor<2048x2048xf32>) outs(%ve29 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve31 = tensor.empty() : tensor<2048x128xf32>
  %vf30 = linalg.fill ins(%zero : f32) outs(%ve31 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm32 = linalg.matmul ins(%vsm28, %vh24 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf30 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx33 = tensor.insert_slice %vmm32 into %ve21[0, 0] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh34 = tensor.extract_slice %vg13[0, 128] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh35 = tensor.extract_slice %vmm17[0, 128] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh36 = tensor.extract_slice %vmm20[0, 128] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve38 = tensor.empty() : tensor<2048x2048xf32>
  %vf37 = linalg.fill ins(%zero : f32) outs(%ve38 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm39 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh34, %vh35 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf37 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve41 = tensor.empty() : tensor<2048x2048xf32>
  %vsm40 = linalg.softmax dimension(1) ins(%vmm39 : tensor<2048x2048xf32>) outs(%ve41 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve43 = tensor.empty() : tensor<2048x128xf32>
  %vf42 = linalg.fill ins(%zero : f32) outs(%ve43 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm44 = linalg.matmul ins(%vsm40, %vh36 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf42 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx45 = tensor.insert_slice %vmm44 into %vctx33[0, 128] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh46 = tensor.extract_slice %vg13[0, 256] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh47 = tensor.extract_slice %vmm17[0, 256] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh48 = tensor.extract_slice %vmm20[0, 256] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve50 = tensor.empty() : tensor<2048x2048xf32>
  %vf49 = linalg.fill ins(%zero : f32) outs(%ve50 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm51 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh46, %vh47 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf49 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve53 = tensor.empty() : tensor<2048x2048xf32>
  %vsm52 = linalg.softmax dimension(1) ins(%vmm51 : tensor<2048x2048xf32>) outs(%ve53 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve55 = tensor.empty() : tensor<2048x128xf32>
  %vf54 = linalg.fill ins(%zero : f32) outs(%ve55 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm56 = linalg.matmul ins(%vsm52, %vh48 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf54 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx57 = tensor.insert_slice %vmm56 into %vctx45[0, 256] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh58 = tensor.extract_slice %vg13[0, 384] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh59 = tensor.extract_slice %vmm17[0, 384] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh60 = tensor.extract_slice %vmm20[0, 384] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve62 = tensor.empty() : tensor<2048x2048xf32>
  %vf61 = linalg.fill ins(%zero : f32) outs(%ve62 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm63 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh58, %vh59 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf61 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve65 = tensor.empty() : tensor<2048x2048xf32>
  %vsm64 = linalg.softmax dimension(1) ins(%vmm63 : tensor<2048x2048xf32>) outs(%ve65 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve67 = tensor.empty() : tensor<2048x128xf32>
  %vf66 = linalg.fill ins(%zero : f32) outs(%ve67 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm68 = linalg.matmul ins(%vsm64, %vh60 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf66 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx69 = tensor.insert_slice %vmm68 into %vctx57[0, 384] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh70 = tensor.extract_slice %vg13[0, 512] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh71 = tensor.extract_slice %vmm17[0, 512] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh72 = tensor.extract_slice %vmm20[0, 512] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve74 = tensor.empty() : tensor<2048x2048xf32>
  %vf73 = linalg.fill ins(%zero : f32) outs(%ve74 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm75 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh70, %vh71 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf73 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve77 = tensor.empty() : tensor<2048x2048xf32>
  %vsm76 = linalg.softmax dimension(1) ins(%vmm75 : tensor<2048x2048xf32>) outs(%ve77 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve79 = tensor.empty() : tensor<2048x128xf32>
  %vf78 = linalg.fill ins(%zero : f32) outs(%ve79 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm80 = linalg.matmul ins(%vsm76, %vh72 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf78 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx81 = tensor.insert_slice %vmm80 into %vctx69[0, 512] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh82 = tensor.extract_slice %vg13[0, 640] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh83 = tensor.extract_slice %vmm17[0, 640] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh84 = tensor.extract_slice %vmm20[0, 640] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve86 = tensor.empty() : tensor<2048x2048xf32>
  %vf85 = linalg.fill ins(%zero : f32) outs(%ve86 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm87 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh82, %vh83 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf85 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve89 = tensor.empty() : tensor<2048x2048xf32>
  %vsm88 = linalg.softmax dimension(1) ins(%vmm87 : tensor<2048x2048xf32>) outs(%ve89 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve91 = tensor.empty() : tensor<2048x128xf32>
  %vf90 = linalg.fill ins(%zero : f32) outs(%ve91 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm92 = linalg.matmul ins(%vsm88, %vh84 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf90 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx93 = tensor.insert_slice %vmm92 into %vctx81[0, 640] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh94 = tensor.extract_slice %vg13[0, 768] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh95 = tensor.extract_slice %vmm17[0, 768] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh96 = tensor.extract_slice %vmm20[0, 768] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve98 = tensor.empty() : tensor<2048x2048xf32>
  %vf97 = linalg.fill ins(%zero : f32) outs(%ve98 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm99 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh94, %vh95 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf97 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve101 = tensor.empty() : tensor<2048x2048xf32>
  %vsm100 = linalg.softmax dimension(1) ins(%vmm99 : tensor<2048x2048xf32>) outs(%ve101 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve103 = tensor.empty() : tensor<2048x128xf32>
  %vf102 = linalg.fill ins(%zero : f32) outs(%ve103 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm104 = linalg.matmul ins(%vsm100, %vh96 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf102 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx105 = tensor.insert_slice %vmm104 into %vctx93[0, 768] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh106 = tensor.extract_slice %vg13[0, 896] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh107 = tensor.extract_slice %vmm17[0, 896] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh108 = tensor.extract_slice %vmm20[0, 896] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve110 = tensor.empty() : tensor<2048x2048xf32>
  %vf109 = linalg.fill ins(%zero : f32) outs(%ve110 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm111 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh106, %vh107 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf109 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve113 = tensor.empty() : tensor<2048x2048xf32>
  %vsm112 = linalg.softmax dimension(1) ins(%vmm111 : tensor<2048x2048xf32>) outs(%ve113 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve115 = tensor.empty() : tensor<2048x128xf32>
  %vf114 = linalg.fill ins(%zero : f32) outs(%ve115 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm116 = linalg.matmul ins(%vsm112, %vh108 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf114 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx117 = tensor.insert_slice %vmm116 into %vctx105[0, 896] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh118 = tensor.extract_slice %vg13[0, 1024] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh119 = tensor.extract_slice %vmm17[0, 1024] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh120 = tensor.extract_slice %vmm20[0, 1024] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve122 = tensor.empty() : tensor<2048x2048xf32>
  %vf121 = linalg.fill ins(%zero : f32) outs(%ve122 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm123 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh118, %vh119 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf121 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve125 = tensor.empty() : tensor<2048x2048xf32>
  %vsm124 = linalg.softmax dimension(1) ins(%vmm123 : tensor<2048x2048xf32>) outs(%ve125 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve127 = tensor.empty() : tensor<2048x128xf32>
  %vf126 = linalg.fill ins(%zero : f32) outs(%ve127 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm128 = linalg.matmul ins(%vsm124, %vh120 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf126 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx129 = tensor.insert_slice %vmm128 into %vctx117[0, 1024] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh130 = tensor.extract_slice %vg13[0, 1152] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh131 = tensor.extract_slice %vmm17[0, 1152] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh132 = tensor.extract_slice %vmm20[0, 1152] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve134 = tensor.empty() : tensor<2048x2048xf32>
  %vf133 = linalg.fill ins(%zero : f32) outs(%ve134 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm135 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh130, %vh131 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf133 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve137 = tensor.empty() : tensor<2048x2048xf32>
  %vsm136 = linalg.softmax dimension(1) ins(%vmm135 : tensor<2048x2048xf32>) outs(%ve137 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve139 = tensor.empty() : tensor<2048x128xf32>
  %vf138 = linalg.fill ins(%zero : f32) outs(%ve139 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm140 = linalg.matmul ins(%vsm136, %vh132 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf138 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx141 = tensor.insert_slice %vmm140 into %vctx129[0, 1152] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh142 = tensor.extract_slice %vg13[0, 1280] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh143 = tensor.extract_slice %vmm17[0, 1280] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh144 = tensor.extract_slice %vmm20[0, 1280] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve146 = tensor.empty() : tensor<2048x2048xf32>
  %vf145 = linalg.fill ins(%zero : f32) outs(%ve146 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm147 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh142, %vh143 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf145 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve149 = tensor.empty() : tensor<2048x2048xf32>
  %vsm148 = linalg.softmax dimension(1) ins(%vmm147 : tensor<2048x2048xf32>) outs(%ve149 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve151 = tensor.empty() : tensor<2048x128xf32>
  %vf150 = linalg.fill ins(%zero : f32) outs(%ve151 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm152 = linalg.matmul ins(%vsm148, %vh144 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf150 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx153 = tensor.insert_slice %vmm152 into %vctx141[0, 1280] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh154 = tensor.extract_slice %vg13[0, 1408] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh155 = tensor.extract_slice %vmm17[0, 1408] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh156 = tensor.extract_slice %vmm20[0, 1408] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve158 = tensor.empty() : tensor<2048x2048xf32>
  %vf157 = linalg.fill ins(%zero : f32) outs(%ve158 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm159 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh154, %vh155 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf157 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve161 = tensor.empty() : tensor<2048x2048xf32>
  %vsm160 = linalg.softmax dimension(1) ins(%vmm159 : tensor<2048x2048xf32>) outs(%ve161 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve163 = tensor.empty() : tensor<2048x128xf32>
  %vf162 = linalg.fill ins(%zero : f32) outs(%ve163 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm164 = linalg.matmul ins(%vsm160, %vh156 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf162 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx165 = tensor.insert_slice %vmm164 into %vctx153[0, 1408] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh166 = tensor.extract_slice %vg13[0, 1536] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh167 = tensor.extract_slice %vmm17[0, 1536] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh168 = tensor.extract_slice %vmm20[0, 1536] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve170 = tensor.empty() : tensor<2048x2048xf32>
  %vf169 = linalg.fill ins(%zero : f32) outs(%ve170 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm171 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh166, %vh167 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf169 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve173 = tensor.empty() : tensor<2048x2048xf32>
  %vsm172 = linalg.softmax dimension(1) ins(%vmm171 : tensor<2048x2048xf32>) outs(%ve173 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve175 = tensor.empty() : tensor<2048x128xf32>
  %vf174 = linalg.fill ins(%zero : f32) outs(%ve175 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm176 = linalg.matmul ins(%vsm172, %vh168 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf174 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx177 = tensor.insert_slice %vmm176 into %vctx165[0, 1536] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh178 = tensor.extract_slice %vg13[0, 1664] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh179 = tensor.extract_slice %vmm17[0, 1664] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh180 = tensor.extract_slice %vmm20[0, 1664] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve182 = tensor.empty() : tensor<2048x2048xf32>
  %vf181 = linalg.fill ins(%zero : f32) outs(%ve182 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm183 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh178, %vh179 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf181 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve185 = tensor.empty() : tensor<2048x2048xf32>
  %vsm184 = linalg.softmax dimension(1) ins(%vmm183 : tensor<2048x2048xf32>) outs(%ve185 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve187 = tensor.empty() : tensor<2048x128xf32>
  %vf186 = linalg.fill ins(%zero : f32) outs(%ve187 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm188 = linalg.matmul ins(%vsm184, %vh180 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf186 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx189 = tensor.insert_slice %vmm188 into %vctx177[0, 1664] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh190 = tensor.extract_slice %vg13[0, 1792] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh191 = tensor.extract_slice %vmm17[0, 1792] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh192 = tensor.extract_slice %vmm20[0, 1792] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve194 = tensor.empty() : tensor<2048x2048xf32>
  %vf193 = linalg.fill ins(%zero : f32) outs(%ve194 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm195 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh190, %vh191 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf193 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve197 = tensor.empty() : tensor<2048x2048xf32>
  %vsm196 = linalg.softmax dimension(1) ins(%vmm195 : tensor<2048x2048xf32>) outs(%ve197 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve199 = tensor.empty() : tensor<2048x128xf32>
  %vf198 = linalg.fill ins(%zero : f32) outs(%ve199 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm200 = linalg.matmul ins(%vsm196, %vh192 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf198 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx201 = tensor.insert_slice %vmm200 into %vctx189[0, 1792] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh202 = tensor.extract_slice %vg13[0, 1920] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh203 = tensor.extract_slice %vmm17[0, 1920] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh204 = tensor.extract_slice %vmm20[0, 1920] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve206 = tensor.empty() : tensor<2048x2048xf32>
  %vf205 = linalg.fill ins(%zero : f32) outs(%ve206 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm207 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh202, %vh203 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf205 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve209 = tensor.empty() : tensor<2048x2048xf32>
  %vsm208 = linalg.softmax dimension(1) ins(%vmm207 : tensor<2048x2048xf32>) outs(%ve209 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve211 = tensor.empty() : tensor<2048x128xf32>
  %vf210 = linalg.fill ins(%zero : f32) outs(%ve211 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm212 = linalg.matmul ins(%vsm208, %vh204 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf210 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx213 = tensor.insert_slice %vmm212 into %vctx201[0, 1920] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh214 = tensor.extract_slice %vg13[0, 2048] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh215 = tensor.extract_slice %vmm17[0, 2048] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh216 = tensor.extract_slice %vmm20[0, 2048] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve218 = tensor.empty() : tensor<2048x2048xf32>
  %vf217 = linalg.fill ins(%zero : f32) outs(%ve218 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm219 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh214, %vh215 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf217 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve221 = tensor.empty() : tensor<2048x2048xf32>
  %vsm220 = linalg.softmax dimension(1) ins(%vmm219 : tensor<2048x2048xf32>) outs(%ve221 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve223 = tensor.empty() : tensor<2048x128xf32>
  %vf222 = linalg.fill ins(%zero : f32) outs(%ve223 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm224 = linalg.matmul ins(%vsm220, %vh216 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf222 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx225 = tensor.insert_slice %vmm224 into %vctx213[0, 2048] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh226 = tensor.extract_slice %vg13[0, 2176] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh227 = tensor.extract_slice %vmm17[0, 2176] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh228 = tensor.extract_slice %vmm20[0, 2176] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve230 = tensor.empty() : tensor<2048x2048xf32>
  %vf229 = linalg.fill ins(%zero : f32) outs(%ve230 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm231 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh226, %vh227 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf229 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve233 = tensor.empty() : tensor<2048x2048xf32>
  %vsm232 = linalg.softmax dimension(1) ins(%vmm231 : tensor<2048x2048xf32>) outs(%ve233 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve235 = tensor.empty() : tensor<2048x128xf32>
  %vf234 = linalg.fill ins(%zero : f32) outs(%ve235 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm236 = linalg.matmul ins(%vsm232, %vh228 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf234 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx237 = tensor.insert_slice %vmm236 into %vctx225[0, 2176] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh238 = tensor.extract_slice %vg13[0, 2304] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh239 = tensor.extract_slice %vmm17[0, 2304] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh240 = tensor.extract_slice %vmm20[0, 2304] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve242 = tensor.empty() : tensor<2048x2048xf32>
  %vf241 = linalg.fill ins(%zero : f32) outs(%ve242 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm243 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh238, %vh239 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf241 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve245 = tensor.empty() : tensor<2048x2048xf32>
  %vsm244 = linalg.softmax dimension(1) ins(%vmm243 : tensor<2048x2048xf32>) outs(%ve245 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve247 = tensor.empty() : tensor<2048x128xf32>
  %vf246 = linalg.fill ins(%zero : f32) outs(%ve247 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm248 = linalg.matmul ins(%vsm244, %vh240 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf246 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx249 = tensor.insert_slice %vmm248 into %vctx237[0, 2304] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh250 = tensor.extract_slice %vg13[0, 2432] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh251 = tensor.extract_slice %vmm17[0, 2432] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh252 = tensor.extract_slice %vmm20[0, 2432] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve254 = tensor.empty() : tensor<2048x2048xf32>
  %vf253 = linalg.fill ins(%zero : f32) outs(%ve254 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm255 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh250, %vh251 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf253 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve257 = tensor.empty() : tensor<2048x2048xf32>
  %vsm256 = linalg.softmax dimension(1) ins(%vmm255 : tensor<2048x2048xf32>) outs(%ve257 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve259 = tensor.empty() : tensor<2048x128xf32>
  %vf258 = linalg.fill ins(%zero : f32) outs(%ve259 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm260 = linalg.matmul ins(%vsm256, %vh252 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf258 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx261 = tensor.insert_slice %vmm260 into %vctx249[0, 2432] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh262 = tensor.extract_slice %vg13[0, 2560] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh263 = tensor.extract_slice %vmm17[0, 2560] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh264 = tensor.extract_slice %vmm20[0, 2560] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve266 = tensor.empty() : tensor<2048x2048xf32>
  %vf265 = linalg.fill ins(%zero : f32) outs(%ve266 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm267 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh262, %vh263 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf265 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve269 = tensor.empty() : tensor<2048x2048xf32>
  %vsm268 = linalg.softmax dimension(1) ins(%vmm267 : tensor<2048x2048xf32>) outs(%ve269 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve271 = tensor.empty() : tensor<2048x128xf32>
  %vf270 = linalg.fill ins(%zero : f32) outs(%ve271 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm272 = linalg.matmul ins(%vsm268, %vh264 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf270 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx273 = tensor.insert_slice %vmm272 into %vctx261[0, 2560] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh274 = tensor.extract_slice %vg13[0, 2688] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh275 = tensor.extract_slice %vmm17[0, 2688] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh276 = tensor.extract_slice %vmm20[0, 2688] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve278 = tensor.empty() : tensor<2048x2048xf32>
  %vf277 = linalg.fill ins(%zero : f32) outs(%ve278 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm279 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh274, %vh275 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf277 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve281 = tensor.empty() : tensor<2048x2048xf32>
  %vsm280 = linalg.softmax dimension(1) ins(%vmm279 : tensor<2048x2048xf32>) outs(%ve281 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve283 = tensor.empty() : tensor<2048x128xf32>
  %vf282 = linalg.fill ins(%zero : f32) outs(%ve283 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm284 = linalg.matmul ins(%vsm280, %vh276 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf282 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx285 = tensor.insert_slice %vmm284 into %vctx273[0, 2688] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh286 = tensor.extract_slice %vg13[0, 2816] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh287 = tensor.extract_slice %vmm17[0, 2816] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh288 = tensor.extract_slice %vmm20[0, 2816] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve290 = tensor.empty() : tensor<2048x2048xf32>
  %vf289 = linalg.fill ins(%zero : f32) outs(%ve290 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm291 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh286, %vh287 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf289 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve293 = tensor.empty() : tensor<2048x2048xf32>
  %vsm292 = linalg.softmax dimension(1) ins(%vmm291 : tensor<2048x2048xf32>) outs(%ve293 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve295 = tensor.empty() : tensor<2048x128xf32>
  %vf294 = linalg.fill ins(%zero : f32) outs(%ve295 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm296 = linalg.matmul ins(%vsm292, %vh288 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf294 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx297 = tensor.insert_slice %vmm296 into %vctx285[0, 2816] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh298 = tensor.extract_slice %vg13[0, 2944] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh299 = tensor.extract_slice %vmm17[0, 2944] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh300 = tensor.extract_slice %vmm20[0, 2944] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve302 = tensor.empty() : tensor<2048x2048xf32>
  %vf301 = linalg.fill ins(%zero : f32) outs(%ve302 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm303 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh298, %vh299 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf301 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve305 = tensor.empty() : tensor<2048x2048xf32>
  %vsm304 = linalg.softmax dimension(1) ins(%vmm303 : tensor<2048x2048xf32>) outs(%ve305 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve307 = tensor.empty() : tensor<2048x128xf32>
  %vf306 = linalg.fill ins(%zero : f32) outs(%ve307 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm308 = linalg.matmul ins(%vsm304, %vh300 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf306 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx309 = tensor.insert_slice %vmm308 into %vctx297[0, 2944] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh310 = tensor.extract_slice %vg13[0, 3072] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh311 = tensor.extract_slice %vmm17[0, 3072] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh312 = tensor.extract_slice %vmm20[0, 3072] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve314 = tensor.empty() : tensor<2048x2048xf32>
  %vf313 = linalg.fill ins(%zero : f32) outs(%ve314 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm315 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh310, %vh311 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf313 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve317 = tensor.empty() : tensor<2048x2048xf32>
  %vsm316 = linalg.softmax dimension(1) ins(%vmm315 : tensor<2048x2048xf32>) outs(%ve317 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve319 = tensor.empty() : tensor<2048x128xf32>
  %vf318 = linalg.fill ins(%zero : f32) outs(%ve319 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm320 = linalg.matmul ins(%vsm316, %vh312 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf318 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx321 = tensor.insert_slice %vmm320 into %vctx309[0, 3072] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh322 = tensor.extract_slice %vg13[0, 3200] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh323 = tensor.extract_slice %vmm17[0, 3200] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh324 = tensor.extract_slice %vmm20[0, 3200] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve326 = tensor.empty() : tensor<2048x2048xf32>
  %vf325 = linalg.fill ins(%zero : f32) outs(%ve326 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm327 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh322, %vh323 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf325 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve329 = tensor.empty() : tensor<2048x2048xf32>
  %vsm328 = linalg.softmax dimension(1) ins(%vmm327 : tensor<2048x2048xf32>) outs(%ve329 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve331 = tensor.empty() : tensor<2048x128xf32>
  %vf330 = linalg.fill ins(%zero : f32) outs(%ve331 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm332 = linalg.matmul ins(%vsm328, %vh324 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf330 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx333 = tensor.insert_slice %vmm332 into %vctx321[0, 3200] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh334 = tensor.extract_slice %vg13[0, 3328] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh335 = tensor.extract_slice %vmm17[0, 3328] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh336 = tensor.extract_slice %vmm20[0, 3328] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve338 = tensor.empty() : tensor<2048x2048xf32>
  %vf337 = linalg.fill ins(%zero : f32) outs(%ve338 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm339 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh334, %vh335 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf337 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve341 = tensor.empty() : tensor<2048x2048xf32>
  %vsm340 = linalg.softmax dimension(1) ins(%vmm339 : tensor<2048x2048xf32>) outs(%ve341 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve343 = tensor.empty() : tensor<2048x128xf32>
  %vf342 = linalg.fill ins(%zero : f32) outs(%ve343 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm344 = linalg.matmul ins(%vsm340, %vh336 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf342 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx345 = tensor.insert_slice %vmm344 into %vctx333[0, 3328] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh346 = tensor.extract_slice %vg13[0, 3456] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh347 = tensor.extract_slice %vmm17[0, 3456] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh348 = tensor.extract_slice %vmm20[0, 3456] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve350 = tensor.empty() : tensor<2048x2048xf32>
  %vf349 = linalg.fill ins(%zero : f32) outs(%ve350 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm351 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh346, %vh347 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf349 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve353 = tensor.empty() : tensor<2048x2048xf32>
  %vsm352 = linalg.softmax dimension(1) ins(%vmm351 : tensor<2048x2048xf32>) outs(%ve353 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve355 = tensor.empty() : tensor<2048x128xf32>
  %vf354 = linalg.fill ins(%zero : f32) outs(%ve355 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm356 = linalg.matmul ins(%vsm352, %vh348 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf354 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx357 = tensor.insert_slice %vmm356 into %vctx345[0, 3456] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh358 = tensor.extract_slice %vg13[0, 3584] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh359 = tensor.extract_slice %vmm17[0, 3584] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh360 = tensor.extract_slice %vmm20[0, 3584] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve362 = tensor.empty() : tensor<2048x2048xf32>
  %vf361 = linalg.fill ins(%zero : f32) outs(%ve362 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm363 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh358, %vh359 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf361 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve365 = tensor.empty() : tensor<2048x2048xf32>
  %vsm364 = linalg.softmax dimension(1) ins(%vmm363 : tensor<2048x2048xf32>) outs(%ve365 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve367 = tensor.empty() : tensor<2048x128xf32>
  %vf366 = linalg.fill ins(%zero : f32) outs(%ve367 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm368 = linalg.matmul ins(%vsm364, %vh360 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf366 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx369 = tensor.insert_slice %vmm368 into %vctx357[0, 3584] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh370 = tensor.extract_slice %vg13[0, 3712] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh371 = tensor.extract_slice %vmm17[0, 3712] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh372 = tensor.extract_slice %vmm20[0, 3712] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve374 = tensor.empty() : tensor<2048x2048xf32>
  %vf373 = linalg.fill ins(%zero : f32) outs(%ve374 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm375 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh370, %vh371 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf373 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve377 = tensor.empty() : tensor<2048x2048xf32>
  %vsm376 = linalg.softmax dimension(1) ins(%vmm375 : tensor<2048x2048xf32>) outs(%ve377 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve379 = tensor.empty() : tensor<2048x128xf32>
  %vf378 = linalg.fill ins(%zero : f32) outs(%ve379 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm380 = linalg.matmul ins(%vsm376, %vh372 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf378 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx381 = tensor.insert_slice %vmm380 into %vctx369[0, 3712] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh382 = tensor.extract_slice %vg13[0, 3840] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh383 = tensor.extract_slice %vmm17[0, 3840] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh384 = tensor.extract_slice %vmm20[0, 3840] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve386 = tensor.empty() : tensor<2048x2048xf32>
  %vf385 = linalg.fill ins(%zero : f32) outs(%ve386 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm387 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh382, %vh383 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf385 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve389 = tensor.empty() : tensor<2048x2048xf32>
  %vsm388 = linalg.softmax dimension(1) ins(%vmm387 : tensor<2048x2048xf32>) outs(%ve389 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve391 = tensor.empty() : tensor<2048x128xf32>
  %vf390 = linalg.fill ins(%zero : f32) outs(%ve391 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm392 = linalg.matmul ins(%vsm388, %vh384 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf390 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx393 = tensor.insert_slice %vmm392 into %vctx381[0, 3840] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %vh394 = tensor.extract_slice %vg13[0, 3968] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh395 = tensor.extract_slice %vmm17[0, 3968] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %vh396 = tensor.extract_slice %vmm20[0, 3968] [2048, 128] [1, 1] : tensor<2048x4096xf32> to tensor<2048x128xf32>
  %ve398 = tensor.empty() : tensor<2048x2048xf32>
  %vf397 = linalg.fill ins(%zero : f32) outs(%ve398 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %vmm399 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] ins(%vh394, %vh395 : tensor<2048x128xf32>, tensor<2048x128xf32>) outs(%vf397 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve401 = tensor.empty() : tensor<2048x2048xf32>
  %vsm400 = linalg.softmax dimension(1) ins(%vmm399 : tensor<2048x2048xf32>) outs(%ve401 : tensor<2048x2048xf32>) -> tensor<2048x2048xf32>
  %ve403 = tensor.empty() : tensor<2048x128xf32>
  %vf402 = linalg.fill ins(%zero : f32) outs(%ve403 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vmm404 = linalg.matmul ins(%vsm400, %vh396 : tensor<2048x2048xf32>, tensor<2048x128xf32>) outs(%vf402 : tensor<2048x128xf32>) -> tensor<2048x128xf32>
  %vctx405 = tensor.insert_slice %vmm404 into %vctx393[0, 3968] [2048, 128] [1, 1] : tensor<2048x128xf32> into tensor<2048x4096xf32>
  %ve407 = tensor.empty() : tensor<2048x4096xf32>
  %vf406 = linalg.fill ins(%zero : f32) outs(%ve407 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm408 = linalg.matmul ins(%vctx405, %wo : tensor<2048x4096xf32>, tensor<4096x4096xf32>) outs(%vf406 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve410 = tensor.empty() : tensor<2048x4096xf32>
  %vg409 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vmm408 : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%ve410 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve412 = tensor.empty() : tensor<2048x4096xf32>
  %vg411 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg409 : tensor<2048x4096xf32>) outs(%ve412 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve415 = tensor.empty() : tensor<2048xf32>
  %vf414 = linalg.fill ins(%zero : f32) outs(%ve415 : tensor<2048xf32>) -> tensor<2048xf32>
  %vred413 = linalg.reduce ins(%vg411 : tensor<2048x4096xf32>) outs(%vf414 : tensor<2048xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve417 = tensor.empty() : tensor<2048xf32>
  %vg416 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred413 : tensor<2048xf32>) outs(%ve417 : tensor<2048xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<2048xf32>
  %ve419 = tensor.empty() : tensor<2048x4096xf32>
  %vg418 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg409, %vg416, %g2 : tensor<2048x4096xf32>, tensor<2048xf32>, tensor<4096xf32>) outs(%ve419 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve421 = tensor.empty() : tensor<2048x11008xf32>
  %vf420 = linalg.fill ins(%zero : f32) outs(%ve421 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %vmm422 = linalg.matmul ins(%vg418, %w1 : tensor<2048x4096xf32>, tensor<4096x11008xf32>) outs(%vf420 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %ve424 = tensor.empty() : tensor<2048x11008xf32>
  %vf423 = linalg.fill ins(%zero : f32) outs(%ve424 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %vmm425 = linalg.matmul ins(%vg418, %w3 : tensor<2048x4096xf32>, tensor<4096x11008xf32>) outs(%vf423 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %ve427 = tensor.empty() : tensor<2048x11008xf32>
  %vg426 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm422, %vmm425 : tensor<2048x11008xf32>, tensor<2048x11008xf32>) outs(%ve427 : tensor<2048x11008xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x11008xf32>
  %ve429 = tensor.empty() : tensor<2048x4096xf32>
  %vf428 = linalg.fill ins(%zero : f32) outs(%ve429 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm430 = linalg.matmul ins(%vg426, %w2 : tensor<2048x11008xf32>, tensor<11008x4096xf32>) outs(%vf428 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve432 = tensor.empty() : tensor<2048x4096xf32>
  %vg431 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg409, %vmm430 : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%ve432 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  return %vg431 : tensor<2048x4096xf32>
}

// python3 examples/models/gen_layers.py decoder --seq 2048 --hidden 4096 --heads 32 --ffn 11008
func.func @decoder(%x: tensor<2048x4096xf32>, %g1: tensor<4096xf32>, %wq: tensor<32x4096x128xf32>, %wk: tensor<32x4096x128xf32>, %wv: tensor<32x4096x128xf32>, %wo: tensor<32x128x4096xf32>, %g2: tensor<4096xf32>, %w1: tensor<4096x11008xf32>, %w3: tensor<4096x11008xf32>, %w2: tensor<11008x4096xf32>) -> tensor<2048x4096xf32> {
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
  %ve11 = tensor.empty() : tensor<32x2048x128xf32>
  %vf10 = linalg.fill ins(%zero : f32) outs(%ve11 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %vbmm12 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wq : tensor<2048x4096xf32>, tensor<32x4096x128xf32>) outs(%vf10 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %ve14 = tensor.empty() : tensor<32x2048x128xf32>
  %vf13 = linalg.fill ins(%zero : f32) outs(%ve14 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %vbmm15 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wk : tensor<2048x4096xf32>, tensor<32x4096x128xf32>) outs(%vf13 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %ve17 = tensor.empty() : tensor<32x2048x128xf32>
  %vf16 = linalg.fill ins(%zero : f32) outs(%ve17 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %vbmm18 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vg8, %wv : tensor<2048x4096xf32>, tensor<32x4096x128xf32>) outs(%vf16 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %ve20 = tensor.empty() : tensor<32x2048x2048xf32>
  %vf19 = linalg.fill ins(%zero : f32) outs(%ve20 : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %vbmm21 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vbmm12, %vbmm15 : tensor<32x2048x128xf32>, tensor<32x2048x128xf32>) outs(%vf19 : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %ve23 = tensor.empty() : tensor<32x2048x2048xf32>
  %vg22 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%vbmm21 : tensor<32x2048x2048xf32>) outs(%ve23 : tensor<32x2048x2048xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %scale : f32
    linalg.yield %r : f32
  } -> tensor<32x2048x2048xf32>
  %ve25 = tensor.empty() : tensor<32x2048x2048xf32>
  %vsm24 = linalg.softmax dimension(2) ins(%vg22 : tensor<32x2048x2048xf32>) outs(%ve25 : tensor<32x2048x2048xf32>) -> tensor<32x2048x2048xf32>
  %ve27 = tensor.empty() : tensor<32x2048x128xf32>
  %vf26 = linalg.fill ins(%zero : f32) outs(%ve27 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %vbmm28 = linalg.batch_matmul indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, k, n)>, affine_map<(b, m, n, k) -> (b, m, n)>] ins(%vsm24, %vbmm18 : tensor<32x2048x2048xf32>, tensor<32x2048x128xf32>) outs(%vf26 : tensor<32x2048x128xf32>) -> tensor<32x2048x128xf32>
  %ve30 = tensor.empty() : tensor<2048x4096xf32>
  %vf29 = linalg.fill ins(%zero : f32) outs(%ve30 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx31 = tensor.extract_slice %vbmm28[0, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo32 = tensor.extract_slice %wo[0, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo33 = linalg.matmul ins(%vctx31, %vwo32 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vf29 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx34 = tensor.extract_slice %vbmm28[1, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo35 = tensor.extract_slice %wo[1, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo36 = linalg.matmul ins(%vctx34, %vwo35 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo33 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx37 = tensor.extract_slice %vbmm28[2, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo38 = tensor.extract_slice %wo[2, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo39 = linalg.matmul ins(%vctx37, %vwo38 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo36 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx40 = tensor.extract_slice %vbmm28[3, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo41 = tensor.extract_slice %wo[3, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo42 = linalg.matmul ins(%vctx40, %vwo41 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo39 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx43 = tensor.extract_slice %vbmm28[4, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo44 = tensor.extract_slice %wo[4, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo45 = linalg.matmul ins(%vctx43, %vwo44 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo42 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx46 = tensor.extract_slice %vbmm28[5, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo47 = tensor.extract_slice %wo[5, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo48 = linalg.matmul ins(%vctx46, %vwo47 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo45 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx49 = tensor.extract_slice %vbmm28[6, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo50 = tensor.extract_slice %wo[6, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo51 = linalg.matmul ins(%vctx49, %vwo50 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo48 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx52 = tensor.extract_slice %vbmm28[7, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo53 = tensor.extract_slice %wo[7, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo54 = linalg.matmul ins(%vctx52, %vwo53 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo51 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx55 = tensor.extract_slice %vbmm28[8, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo56 = tensor.extract_slice %wo[8, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo57 = linalg.matmul ins(%vctx55, %vwo56 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo54 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx58 = tensor.extract_slice %vbmm28[9, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo59 = tensor.extract_slice %wo[9, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo60 = linalg.matmul ins(%vctx58, %vwo59 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo57 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx61 = tensor.extract_slice %vbmm28[10, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo62 = tensor.extract_slice %wo[10, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo63 = linalg.matmul ins(%vctx61, %vwo62 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo60 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx64 = tensor.extract_slice %vbmm28[11, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo65 = tensor.extract_slice %wo[11, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo66 = linalg.matmul ins(%vctx64, %vwo65 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo63 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx67 = tensor.extract_slice %vbmm28[12, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo68 = tensor.extract_slice %wo[12, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo69 = linalg.matmul ins(%vctx67, %vwo68 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo66 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx70 = tensor.extract_slice %vbmm28[13, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo71 = tensor.extract_slice %wo[13, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo72 = linalg.matmul ins(%vctx70, %vwo71 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo69 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx73 = tensor.extract_slice %vbmm28[14, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo74 = tensor.extract_slice %wo[14, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo75 = linalg.matmul ins(%vctx73, %vwo74 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo72 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx76 = tensor.extract_slice %vbmm28[15, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo77 = tensor.extract_slice %wo[15, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo78 = linalg.matmul ins(%vctx76, %vwo77 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo75 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx79 = tensor.extract_slice %vbmm28[16, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo80 = tensor.extract_slice %wo[16, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo81 = linalg.matmul ins(%vctx79, %vwo80 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo78 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx82 = tensor.extract_slice %vbmm28[17, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo83 = tensor.extract_slice %wo[17, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo84 = linalg.matmul ins(%vctx82, %vwo83 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo81 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx85 = tensor.extract_slice %vbmm28[18, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo86 = tensor.extract_slice %wo[18, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo87 = linalg.matmul ins(%vctx85, %vwo86 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo84 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx88 = tensor.extract_slice %vbmm28[19, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo89 = tensor.extract_slice %wo[19, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo90 = linalg.matmul ins(%vctx88, %vwo89 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo87 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx91 = tensor.extract_slice %vbmm28[20, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo92 = tensor.extract_slice %wo[20, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo93 = linalg.matmul ins(%vctx91, %vwo92 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo90 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx94 = tensor.extract_slice %vbmm28[21, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo95 = tensor.extract_slice %wo[21, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo96 = linalg.matmul ins(%vctx94, %vwo95 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo93 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx97 = tensor.extract_slice %vbmm28[22, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo98 = tensor.extract_slice %wo[22, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo99 = linalg.matmul ins(%vctx97, %vwo98 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo96 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx100 = tensor.extract_slice %vbmm28[23, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo101 = tensor.extract_slice %wo[23, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo102 = linalg.matmul ins(%vctx100, %vwo101 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo99 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx103 = tensor.extract_slice %vbmm28[24, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo104 = tensor.extract_slice %wo[24, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo105 = linalg.matmul ins(%vctx103, %vwo104 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo102 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx106 = tensor.extract_slice %vbmm28[25, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo107 = tensor.extract_slice %wo[25, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo108 = linalg.matmul ins(%vctx106, %vwo107 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo105 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx109 = tensor.extract_slice %vbmm28[26, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo110 = tensor.extract_slice %wo[26, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo111 = linalg.matmul ins(%vctx109, %vwo110 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo108 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx112 = tensor.extract_slice %vbmm28[27, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo113 = tensor.extract_slice %wo[27, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo114 = linalg.matmul ins(%vctx112, %vwo113 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo111 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx115 = tensor.extract_slice %vbmm28[28, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo116 = tensor.extract_slice %wo[28, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo117 = linalg.matmul ins(%vctx115, %vwo116 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo114 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx118 = tensor.extract_slice %vbmm28[29, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo119 = tensor.extract_slice %wo[29, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo120 = linalg.matmul ins(%vctx118, %vwo119 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo117 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx121 = tensor.extract_slice %vbmm28[30, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo122 = tensor.extract_slice %wo[30, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo123 = linalg.matmul ins(%vctx121, %vwo122 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo120 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vctx124 = tensor.extract_slice %vbmm28[31, 0, 0] [1, 2048, 128] [1, 1, 1] : tensor<32x2048x128xf32> to tensor<2048x128xf32>
  %vwo125 = tensor.extract_slice %wo[31, 0, 0] [1, 128, 4096] [1, 1, 1] : tensor<32x128x4096xf32> to tensor<128x4096xf32>
  %vo126 = linalg.matmul ins(%vctx124, %vwo125 : tensor<2048x128xf32>, tensor<128x4096xf32>) outs(%vo123 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve128 = tensor.empty() : tensor<2048x4096xf32>
  %vg127 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %vo126 : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%ve128 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve130 = tensor.empty() : tensor<2048x4096xf32>
  %vg129 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg127 : tensor<2048x4096xf32>) outs(%ve130 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %r = arith.mulf %a0, %a0 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve133 = tensor.empty() : tensor<2048xf32>
  %vf132 = linalg.fill ins(%zero : f32) outs(%ve133 : tensor<2048xf32>) -> tensor<2048xf32>
  %vred131 = linalg.reduce ins(%vg129 : tensor<2048x4096xf32>) outs(%vf132 : tensor<2048xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %ve135 = tensor.empty() : tensor<2048xf32>
  %vg134 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%vred131 : tensor<2048xf32>) outs(%ve135 : tensor<2048xf32>) {
  ^bb0(%a0: f32, %out: f32):
    %m = arith.mulf %a0, %inv_hidden : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<2048xf32>
  %ve137 = tensor.empty() : tensor<2048x4096xf32>
  %vg136 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg127, %vg134, %g2 : tensor<2048x4096xf32>, tensor<2048xf32>, tensor<4096xf32>) outs(%ve137 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %a2: f32, %out: f32):
    %s = arith.mulf %a0, %a1 : f32
    %r = arith.mulf %s, %a2 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  %ve139 = tensor.empty() : tensor<2048x11008xf32>
  %vf138 = linalg.fill ins(%zero : f32) outs(%ve139 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %vmm140 = linalg.matmul ins(%vg136, %w1 : tensor<2048x4096xf32>, tensor<4096x11008xf32>) outs(%vf138 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %ve142 = tensor.empty() : tensor<2048x11008xf32>
  %vf141 = linalg.fill ins(%zero : f32) outs(%ve142 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %vmm143 = linalg.matmul ins(%vg136, %w3 : tensor<2048x4096xf32>, tensor<4096x11008xf32>) outs(%vf141 : tensor<2048x11008xf32>) -> tensor<2048x11008xf32>
  %ve145 = tensor.empty() : tensor<2048x11008xf32>
  %vg144 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vmm140, %vmm143 : tensor<2048x11008xf32>, tensor<2048x11008xf32>) outs(%ve145 : tensor<2048x11008xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %n = arith.negf %a0 : f32
    %e = math.exp %n : f32
    %d = arith.addf %one, %e : f32
    %s = arith.divf %one, %d : f32
    %silu = arith.mulf %a0, %s : f32
    %r = arith.mulf %silu, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x11008xf32>
  %ve147 = tensor.empty() : tensor<2048x4096xf32>
  %vf146 = linalg.fill ins(%zero : f32) outs(%ve147 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %vmm148 = linalg.matmul ins(%vg144, %w2 : tensor<2048x11008xf32>, tensor<11008x4096xf32>) outs(%vf146 : tensor<2048x4096xf32>) -> tensor<2048x4096xf32>
  %ve150 = tensor.empty() : tensor<2048x4096xf32>
  %vg149 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%vg127, %vmm148 : tensor<2048x4096xf32>, tensor<2048x4096xf32>) outs(%ve150 : tensor<2048x4096xf32>) {
  ^bb0(%a0: f32, %a1: f32, %out: f32):
    %r = arith.addf %a0, %a1 : f32
    linalg.yield %r : f32
  } -> tensor<2048x4096xf32>
  return %vg149 : tensor<2048x4096xf32>
}

// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func wide_add --lowering-options column-tile=64 --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func wide_add --lowering-options column-tile=64 --lnc-size 3 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func channel_affine --lnc-size 4 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func channel_affine --lnc-size 3 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func patchify --lnc-size 2 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func patchify --lnc-size 3 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %S/oracle-contractions.mlir --bin %walrus_tools --func conv_nchw --lnc-size 3 --pipeline --atol 1e-5 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func narrow_matmul --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func narrow_matmul --lowering-options auto-cast=none --lnc-size 3 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func matmul_bias --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func heads --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func few_heads --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func few_heads --lowering-options auto-cast=none --lnc-size 3 --pipeline --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=4 auto-cast=none" | FileCheck %s --check-prefix=MATMUL
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2 column-tile=64" | FileCheck %s
// RUN: walrus-opt %S/oracle-contractions.mlir -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2" | FileCheck %s --check-prefix=CONV

// Shapes whose row tiles do not divide among the cores: the lowering deals
// the tiles of another parallel dimension (columns, a loop around the
// tile, a batch, a batch_matmul's batch or the output channels of a
// convolution) when they divide
// better (docs/LinalgToBir.md, "Tiles and cores"). Identical to MLIR's CPU
// execution (the convolutions within f32 summation order).

// ORACLE: oracle: {{identical|within tolerance}}

// Few rows, many columns: one row tile of 4 rows, so the cores share the
// six column tiles (64 columns each, the last 20): two rounds, each core's
// tiles taking turns between two sets of tiles (one loop iteration of two
// rounds, emitted straight), the fifth tile on core 0, the partial one on
// core 1. Before, core 0 ran all six.
// CHECK-LABEL: bir.kernel @wide_add_kernel
// CHECK-DAG:   %[[IN:.*]] = bir.memloc "in" internal {bir.rotating = 0 : i64}
// CHECK-DAG:   %[[IN2:.*]] = bir.memloc "in_2" internal {bir.rotating = 1 : i64}
// CHECK:       bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 4], [1, 64]]>], %wide_add_arg0[#bir.sap<()[s0] -> (s0 * 64), {{\[\[}}340, 4], [1, 64]]>] :
// CHECK:       bir.dma %wide_add_result0[#bir.sap<()[s0] -> (s0 * 64), {{\[\[}}340, 4], [1, 64]]>]
// CHECK-NEXT:  bir.dma %[[IN2]][#bir.ap<0, {{\[\[}}64, 4], [1, 64]]>], %wide_add_arg0[#bir.sap<()[s0] -> (s0 * 64 + 128), {{\[\[}}340, 4], [1, 64]]>] :
// CHECK:       bir.dma %wide_add_result0[#bir.sap<()[s0] -> (s0 * 64 + 128), {{\[\[}}340, 4], [1, 64]]>]
// CHECK-NEXT:  bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 4], [1, 64]]>], %wide_add_arg0[#bir.sap<()[s0] -> (s0 * 64 + 256), {{\[\[}}340, 4], [1, 64]]>] {mask = #set}
// CHECK:       bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 4], [1, 20]]>], %wide_add_arg0[#bir.ap<320, {{\[\[}}340, 4], [1, 20]]>] {mask = #set1}
func.func @wide_add(%a: tensor<4x340xf32>, %b: tensor<4x340xf32>) -> tensor<4x340xf32> {
  %empty = tensor.empty() : tensor<4x340xf32>
  %y = linalg.add ins(%a, %b : tensor<4x340xf32>, tensor<4x340xf32>) outs(%empty : tensor<4x340xf32>) -> tensor<4x340xf32>
  return %y : tensor<4x340xf32>
}

// A per-channel scale and shift of an NCHW activation (a MobileNet
// block's batch norm, in the general lowering): the 7 image rows of a
// channel are the partitions, one tile, so the cores share the 6 channels
// (the loop around the tile): channel d0 * 2 + s0.
// CHECK-LABEL: bir.kernel @channel_affine_kernel
// CHECK:       bir.loop 0 to 3 step 1 {
// CHECK-NEXT:    bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}10, 7], [1, 10]]>], %channel_affine_arg0[#bir.sap<(d0)[s0] -> (d0 * 140 + s0 * 70), {{\[\[}}10, 7], [1, 10]]>] :
// CHECK-NEXT:    bir.dma %{{.*}}, %channel_affine_arg1[#bir.sap<(d0)[s0] -> (d0 * 2 + s0), {{\[\[}}0, 7], [0, 10]]>] :
func.func @channel_affine(%x: tensor<1x6x7x10xf32>, %s: tensor<6xf32>, %b: tensor<6xf32>) -> tensor<1x6x7x10xf32> {
  %empty = tensor.empty() : tensor<1x6x7x10xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d1)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %s, %b : tensor<1x6x7x10xf32>, tensor<6xf32>, tensor<6xf32>) outs(%empty : tensor<1x6x7x10xf32>) {
  ^bb0(%in: f32, %scale: f32, %shift: f32, %out: f32):
    %m = arith.mulf %in, %scale : f32
    %a = arith.addf %m, %shift : f32
    linalg.yield %a : f32
  } -> tensor<1x6x7x10xf32>
  return %y : tensor<1x6x7x10xf32>
}

// A patch embedding (a 4x4 convolution of stride 4, 160 filters, in the
// general lowering): the filters are the partitions, tiles of 128 and 32
// that two cores would share unevenly, so the cores share the two output
// rows instead: row s0, both filter tiles on each core.
// CHECK-LABEL: bir.kernel @patchify_kernel
// CHECK:       bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}2, 128], [1, 2]]>], %patchify_result0[#bir.sap<()[s0] -> (s0 * 2), {{\[\[}}4, 128], [1, 2]]>] :
// CHECK:       bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}2, 32], [1, 2]]>], %patchify_result0[#bir.sap<()[s0] -> (s0 * 2 + 512), {{\[\[}}4, 32], [1, 2]]>] :
func.func @patchify(%x: tensor<1x3x8x8xf32>, %w: tensor<160x3x4x4xf32>) -> tensor<1x160x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x160x2x2xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<1x160x2x2xf32>) -> tensor<1x160x2x2xf32>
  %y = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<4> : vector<2xi64>} ins(%x, %w : tensor<1x3x8x8xf32>, tensor<160x3x4x4xf32>) outs(%fill : tensor<1x160x2x2xf32>) -> tensor<1x160x2x2xf32>
  return %y : tensor<1x160x2x2xf32>
}

// oracle-contractions.mlir's NCHW convolution (2 images, 5 output rows in
// one group): the row group would leave a core idle, so at 2 cores the
// images (a batch loop of the nest) go one to each core, unmasked. Before,
// core 0 ran both.
// CONV-LABEL: bir.kernel @conv_nchw_kernel
// CONV:       bir.func @main {
// CONV-NOT:     bir.loop
// CONV:         bir.dma %conv_wrows[#bir.ap<0, {{\[\[}}72, 16], [1, 72]]>], %conv_nchw_arg1[#bir.ap<0, {{\[\[}}72, 16], [1, 72]]>] :
// CONV-NEXT:    bir.dma %conv_x[#bir.ap<0, {{\[\[}}143, 8], [1, 143]]>], %conv_nchw_arg0[#bir.sap<()[s0] -> (s0 * 1248), {{\[\[}}156, 8], [1, 143]]>] :

// A matmul of 72 rows (one row tile) by 1100 columns: the cores share the
// columns in blocks of 275, one per core, each loading its columns of B.
// Before, core 0 ran it all.
// MATMUL-LABEL: bir.kernel @narrow_matmul_kernel
// MATMUL:       bir.dma %mm_b[#bir.ap<0, {{\[\[}}825, 128], [275, 2], [1, 275]]>], %narrow_matmul_arg1[#bir.sap<()[s0] -> (s0 * 275), {{\[\[}}1100, 128], [140800, 2], [1, 275]]>] :
// MATMUL:       bir.dma %narrow_matmul_result0[#bir.sap<()[s0] -> (s0 * 275), {{\[\[}}1100, 72], [1, 275]]>], %mm_c[#bir.ap<0, {{\[\[}}275, 72], [1, 275]]>] :
func.func @narrow_matmul(%a: tensor<72x300xf32>, %b: tensor<300x1100xf32>) -> tensor<72x1100xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<72x1100xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<72x1100xf32>) -> tensor<72x1100xf32>
  %y = linalg.matmul ins(%a, %b : tensor<72x300xf32>, tensor<300x1100xf32>) outs(%fill : tensor<72x1100xf32>) -> tensor<72x1100xf32>
  return %y : tensor<72x1100xf32>
}

// Three row tiles on four cores, with a bias epilogue: the cores share the
// 1500 columns in blocks of 375, all three row tiles on each.
// MATMUL-LABEL: bir.kernel @matmul_bias_kernel
// MATMUL:       bir.dma %matmul_bias_result0[#bir.sap<()[s0] -> (s0 * 375), {{\[\[}}1500, 128], [1, 375]]>]
// MATMUL:       bir.dma %matmul_bias_result0[#bir.sap<()[s0] -> (s0 * 375 + 192000), {{\[\[}}1500, 128], [1, 375]]>]
// MATMUL:       bir.dma %matmul_bias_result0[#bir.sap<()[s0] -> (s0 * 375 + 384000), {{\[\[}}1500, 44], [1, 375]]>]
func.func @matmul_bias(%a: tensor<300x200xf32>, %b: tensor<200x1500xf32>, %bias: tensor<1500xf32>) -> tensor<300x1500xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<300x1500xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<300x1500xf32>) -> tensor<300x1500xf32>
  %y = linalg.matmul ins(%a, %b : tensor<300x200xf32>, tensor<200x1500xf32>) outs(%fill : tensor<300x1500xf32>) -> tensor<300x1500xf32>
  %out = tensor.empty() : tensor<300x1500xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %bias : tensor<300x1500xf32>, tensor<1500xf32>) outs(%out : tensor<300x1500xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %s = arith.addf %x, %c : f32
    linalg.yield %s : f32
  } -> tensor<300x1500xf32>
  return %z : tensor<300x1500xf32>
}

// Attention scores per head as torch-mlir writes them, a batch_matmul with
// the heads as its batch: one row tile per head, so the cores share the 12
// heads, three rounds of four (head d0 * 4 + s0). Before, core 0 ran all
// of them.
// MATMUL-LABEL: bir.kernel @heads_kernel
// MATMUL:       bir.loop 0 to 3 step 1 {
// MATMUL-NEXT:    bir.dma %mm_b[{{.*}}], %heads_arg1[#bir.sap<(d0)[s0] -> (d0 * 32768 + s0 * 8192), {{\[\[}}128, 64], [1, 128]]>]
// MATMUL-NEXT:    bir.dma %mm_a[{{.*}}], %heads_arg0[#bir.sap<(d0)[s0] -> (d0 * 32768 + s0 * 8192), {{\[\[}}64, 128], [1, 64]]>]
// MATMUL:         bir.dma %heads_result0[#bir.sap<(d0)[s0] -> (d0 * 65536 + s0 * 16384), {{\[\[}}128, 128], [1, 128]]>]
// MATMUL-NEXT:  }
func.func @heads(%q: tensor<12x128x64xf32>, %k: tensor<12x64x128xf32>) -> tensor<12x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<12x128x128xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<12x128x64xf32>, tensor<12x64x128xf32>) outs(%fill : tensor<12x128x128xf32>) -> tensor<12x128x128xf32>
  return %s : tensor<12x128x128xf32>
}

// Six heads of 100 rows on four cores: heads 0 to 3 in one round, heads 4
// and 5 masked to cores 0 and 1.
// MATMUL-LABEL: bir.kernel @few_heads_kernel
// MATMUL:       bir.dma %few_heads_result0[#bir.sap<()[s0] -> (s0 * 10000), {{\[\[}}100, 100], [1, 100]]>], %mm_c[{{.*}}] :
// MATMUL:       bir.dma %few_heads_result0[#bir.sap<()[s0] -> (s0 * 10000 + 40000), {{\[\[}}100, 100], [1, 100]]>], %mm_c[{{.*}}] {mask = #{{set[0-9]*}}}
func.func @few_heads(%q: tensor<6x100x64xf32>, %k: tensor<6x64x100xf32>) -> tensor<6x100x100xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<6x100x100xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<6x100x100xf32>) -> tensor<6x100x100xf32>
  %s = linalg.batch_matmul ins(%q, %k : tensor<6x100x64xf32>, tensor<6x64x100xf32>) outs(%fill : tensor<6x100x100xf32>) -> tensor<6x100x100xf32>
  return %s : tensor<6x100x100xf32>
}

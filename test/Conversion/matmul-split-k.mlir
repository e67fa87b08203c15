// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2" | FileCheck %s
// RUN: walrus-opt %s -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=4" | FileCheck %s --check-prefix=FOUR
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func head --lnc-size 2 --pipeline --bf16-exact-inputs --atol 1e-4 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func head --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func uneven --lowering-options auto-cast=none --lnc-size 2 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func uneven --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func three --lowering-options auto-cast=none --lnc-size 3 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func tall --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func tall --lowering-options auto-cast=none --lnc-size 4 --pipeline --schedule-options keep-slower --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func linear --lowering-options auto-cast=none --lnc-size 2 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --bin %walrus_tools --func linear --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: walrus-opt %examples/models/router-real.mlir -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=2" | FileCheck %s --check-prefix=ROUTER
// RUN: %python %utils/linalg_oracle.py %examples/models/router-real.mlir --bin %walrus_tools --func router --lowering-options auto-cast=none --lnc-size 4 --pipeline --atol 1e-3 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE

// Matmuls whose rows and columns leave cores idle and whose K is long:
// each core sums the products of its own range of k tiles into its block,
// a reduce_scatter adds the blocks and leaves each core its share of the
// rows, which it stores (docs/LinalgToBir.md, "Tiles and cores"). The
// timing model chose this over dealing rows or columns. Against MLIR's
// CPU execution at 2, 3 and 4 cores, with an even and an uneven split of
// the k tiles, a partial last tile, two row tiles and an epilogue, and
// scheduled (-bir-schedule keeping every new order: nothing moves across
// the collective).

// ORACLE: oracle: {{identical|within tolerance}}

// The bundled MoE router (examples/models/router-real.mlir, torch-mlir's
// nn.Linear without bias): 128 tokens by 8 experts over K = 4096, half of
// K on each core, 64 tokens' logits stored by each.
// ROUTER:      bir.core_barrier
// ROUTER:      bir.dma %mm_a[#bir.ap<0, {{\[\[}}1024, 128], [1, 1024]]>], %router_arg0[#bir.sap<()[s0] -> (s0 * 2048), {{\[\[}}4096, 128], [1, 1024]]>]
// ROUTER:      bir.collective reduce_scatter %mm_c_share[#bir.ap<0, {{\[\[}}8, 64], [1, 8]]>], %mm_c[#bir.ap<0, {{\[\[}}8, 128], [1, 8]]>] reduce add
// ROUTER-NEXT: bir.dma %router_result0[#bir.sap<()[s0] -> (s0 * 512), {{\[\[}}8, 64], [1, 8]]>], %mm_c_share

// One row tile of 128 rows by 64 columns (a core's share of the columns
// would be thinner than a matmult's fixed cost), 32 k tiles: 16 to each
// core, rows s0 * 2048 .. of k, so A's columns and B's rows from there.
// The first products initialise the block on every core; the sum leaves
// each core 64 rows, stored from row s0 * 64. Before, core 1 was idle.
// The staging tiles every buffer loads through are marked as rotations of
// one: -sb-alloc gives each its own bytes across the unrolled groups, so a
// load never waits for the reader of a tensor placed in between.
// CHECK-LABEL: bir.kernel @head_kernel
// CHECK:       bir.memloc "mm_a" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x1024xf32>
// CHECK:       bir.memloc "mm_b_f32" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x512xf32>
// CHECK:       %[[C:.*]] = bir.memloc "mm_c" internal : !bir.sbuf<128x64xf32>
// CHECK:       %[[SHARE:.*]] = bir.memloc "mm_c_share" internal : !bir.sbuf<64x64xf32>
// CHECK:       bir.dma %mm_b_f32[#bir.ap<0, {{\[\[}}512, 128], [64, 8], [1, 64]]>], %head_arg1[#bir.sap<()[s0] -> (s0 * 131072), {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK:       bir.dma %mm_a[#bir.ap<0, {{\[\[}}1024, 128], [1, 1024]]>], %head_arg0[#bir.sap<()[s0] -> (s0 * 2048), {{\[\[}}4096, 128], [1, 1024]]>]
// CHECK:       bir.dma %mm_b_f32[#bir.ap<0, {{\[\[}}512, 128], [64, 8], [1, 64]]>], %head_arg1[#bir.sap<()[s0] -> (s0 * 131072 + 65536), {{\[\[}}64, 128], [8192, 8], [1, 64]]>]
// CHECK:       bir.tensor_copy %[[C]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %mm_acc
// CHECK-NOT:   bir.dma %head_result0
// CHECK:       bir.collective reduce_scatter %[[SHARE]][#bir.ap<0, {{\[\[}}64, 64], [1, 64]]>], %[[C]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>] reduce add shard_offset #{{map[0-9]*}} :
// CHECK-NEXT:  bir.dma %head_result0[#bir.sap<()[s0] -> (s0 * 4096), {{\[\[}}64, 64], [1, 64]]>], %[[SHARE]][#bir.ap<0, {{\[\[}}64, 64], [1, 64]]>]
// CHECK-NOT:   mask
// CHECK:       }
func.func @head(%x: tensor<128x4096xf32>, %w: tensor<4096x64xf32>) -> tensor<128x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x64xf32>) -> tensor<128x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<128x4096xf32>, tensor<4096x64xf32>) outs(%fill : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y : tensor<128x64xf32>
}

// 78 k tiles, the last of 94 rows, on 4 cores: cores 0 and 1 take 20
// tiles each (rows s0 * 2560, masked to them), core 2 19 tiles from row
// 5120, core 3 18 full tiles and the partial one from row 7552. Each core
// gets 16 of the 64 rows.
// FOUR-DAG:    #[[OFFSET:map[0-9]*]] = affine_map<()[s0] -> (s0 * 512)>
// FOUR-DAG:    #[[FIRST:set[0-9]*]] = affine_set<()[s0] : (s0 >= 0, -s0 + 1 >= 0)>
// FOUR-DAG:    #[[THIRD:set[0-9]*]] = affine_set<()[s0] : (s0 - 2 == 0)>
// FOUR-DAG:    #[[LAST:set[0-9]*]] = affine_set<()[s0] : (s0 - 3 == 0)>
// FOUR-LABEL:  bir.kernel @uneven_kernel
// FOUR:        bir.dma %mm_b_f32[{{.*}}], %uneven_arg1[#bir.sap<()[s0] -> (s0 * 81920), {{\[\[}}32, 128], [4096, 8], [1, 32]]>] {mask = #[[FIRST]]}
// FOUR:        bir.dma %mm_a[{{.*}}], %uneven_arg0[#bir.sap<()[s0] -> (s0 * 2560), {{\[\[}}9950, 64], [1, 1024]]>] {mask = #[[FIRST]]}
// FOUR:        bir.dma %mm_a[{{.*}}], %uneven_arg0[#bir.sap<()[s0] -> (s0 * 2560 + 2048), {{\[\[}}9950, 64], [1, 512]]>] {mask = #[[FIRST]]}
// FOUR:        bir.dma %mm_a[{{.*}}], %uneven_arg0[#bir.sap<()[s0] -> (s0 * 2432 + 256), {{\[\[}}9950, 64], [1, 1024]]>] {mask = #[[THIRD]]}
// FOUR:        bir.dma %mm_a[{{.*}}], %uneven_arg0[#bir.sap<()[s0] -> (s0 * 2432 + 2304), {{\[\[}}9950, 64], [1, 384]]>] {mask = #[[THIRD]]}
// FOUR:        bir.dma %mm_a[{{.*}}], %uneven_arg0[#bir.ap<7552, {{\[\[}}9950, 64], [1, 1024]]>] {mask = #[[LAST]]}
// FOUR:        bir.dma %mm_b_f32[#bir.ap<64, {{\[\[}}256, 94], [1, 32]]>], %uneven_arg1[#bir.ap<315392, {{\[\[}}32, 94], [1, 32]]>] {mask = #[[LAST]]}
// FOUR:        bir.dma %mm_a[#bir.ap<0, {{\[\[}}1024, 64], [1, 350]]>], %uneven_arg0[#bir.ap<9600, {{\[\[}}9950, 64], [1, 350]]>] {mask = #[[LAST]]}
// FOUR:        bir.collective reduce_scatter %mm_c_share[#bir.ap<0, {{\[\[}}32, 16], [1, 32]]>], %mm_c[#bir.ap<0, {{\[\[}}32, 64], [1, 32]]>] reduce add shard_offset #[[OFFSET]] :
// FOUR-NEXT:   bir.dma %uneven_result0[#bir.sap<()[s0] -> (s0 * 512), {{\[\[}}32, 16], [1, 32]]>], %mm_c_share[#bir.ap<0, {{\[\[}}32, 16], [1, 32]]>]
func.func @uneven(%x: tensor<64x9950xf32>, %w: tensor<9950x32xf32>) -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64x32xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<64x32xf32>) -> tensor<64x32xf32>
  %y = linalg.matmul ins(%x, %w : tensor<64x9950xf32>, tensor<9950x32xf32>) outs(%fill : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}

// 96 rows at 3 cores: 32 each after the sum (47 k tiles: 16, 16 and 15).
func.func @three(%x: tensor<96x6000xf32>, %w: tensor<6000x48xf32>) -> tensor<96x48xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<96x48xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<96x48xf32>) -> tensor<96x48xf32>
  %y = linalg.matmul ins(%x, %w : tensor<96x6000xf32>, tensor<6000x48xf32>) outs(%fill : tensor<96x48xf32>) -> tensor<96x48xf32>
  return %y : tensor<96x48xf32>
}

// Two row tiles on four cores: every core runs both over its quarter of
// k, and one reduce_scatter sums both (partitions outermost, so core s0
// gets partitions s0 * 32 .. of each), then each core stores its 32 rows
// of each tile.
// FOUR-LABEL:  bir.kernel @tall_kernel
// FOUR:        %mm_c_share = bir.memloc "mm_c_share" internal : !bir.sbuf<32x128xf32>
// FOUR:        bir.collective reduce_scatter %mm_c_share[#bir.ap<0, {{\[\[}}128, 32], [64, 2], [1, 64]]>], %mm_c[#bir.ap<0, {{\[\[}}128, 128], [64, 2], [1, 64]]>] reduce add shard_offset #{{map[0-9]*}} :
// FOUR-NEXT:   bir.dma %tall_result0[#bir.sap<()[s0] -> (s0 * 2048), {{\[\[}}64, 32], [1, 64]]>], %mm_c_share[#bir.ap<0, {{\[\[}}128, 32], [1, 64]]>]
// FOUR-NEXT:   bir.dma %tall_result0[#bir.sap<()[s0] -> (s0 * 2048 + 8192), {{\[\[}}64, 32], [1, 64]]>], %mm_c_share[#bir.ap<64, {{\[\[}}128, 32], [1, 64]]>]
func.func @tall(%x: tensor<256x4096xf32>, %w: tensor<4096x64xf32>) -> tensor<256x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x64xf32>) -> tensor<256x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<256x4096xf32>, tensor<4096x64xf32>) outs(%fill : tensor<256x64xf32>) -> tensor<256x64xf32>
  return %y : tensor<256x64xf32>
}

// A linear layer as IREE and torch-mlir write it (weights [out, in], read
// transposed through the matmul's indexing maps) with a bias and ReLU:
// the epilogue runs on each core's 16 rows after the sum.
// CHECK-LABEL: bir.kernel @linear_kernel
// CHECK:       bir.memloc "mm_bt" internal {bir.rotating = 0 : i64}
// CHECK:       bir.memloc "mm_bt_bf16" internal {bir.rotating = 0 : i64}
// CHECK:       bir.dma %mm_bt[{{.*}}], %linear_arg1[#bir.sap<()[s0] -> (s0 * 2048), {{\[\[}}4096, 100], [1, 1024]]>]
// CHECK:       bir.collective reduce_scatter %mm_c_share[#bir.ap<0, {{\[\[}}100, 16], [1, 100]]>], %mm_c[#bir.ap<0, {{\[\[}}100, 32], [1, 100]]>] reduce add
// CHECK-NEXT:  bir.dma %[[BIAS:.*]][#bir.ap<0, {{\[\[}}100, 16], [1, 100]]>], %linear_arg2[#bir.ap<0, {{\[\[}}0, 16], [1, 100]]>]
// CHECK-NEXT:  bir.tensor_tensor add %[[SUM:.*]][#bir.ap<0, {{\[\[}}100, 16], [1, 100]]>], %mm_c_share[#bir.ap<0, {{\[\[}}100, 16], [1, 100]]>], %[[BIAS]]
// CHECK-NEXT:  bir.tensor_scalar max %[[OUT:.*]][#bir.ap<0, {{\[\[}}100, 16], [1, 100]]>], %[[SUM]]
// CHECK-NEXT:  bir.dma %linear_result0[#bir.sap<()[s0] -> (s0 * 1600), {{\[\[}}100, 16], [1, 100]]>], %[[OUT]]
func.func @linear(%x: tensor<32x4096xf32>, %w: tensor<100x4096xf32>, %b: tensor<100xf32>) -> tensor<32x100xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<32x100xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<32x100xf32>) -> tensor<32x100xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1)>] ins(%x, %w : tensor<32x4096xf32>, tensor<100x4096xf32>) outs(%fill : tensor<32x100xf32>) -> tensor<32x100xf32>
  %z = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%y, %b : tensor<32x100xf32>, tensor<100xf32>) outs(%empty : tensor<32x100xf32>) {
  ^bb0(%in: f32, %bias: f32, %out: f32):
    %s = arith.addf %in, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<32x100xf32>
  return %z : tensor<32x100xf32>
}

// Where the model prefers another split, or the split does not apply, no
// collective: 512 columns go 256 to each core; a C that holds values (an
// accumulation into an argument) is not summed across cores; 99 rows do
// not divide between two cores.
// CHECK-LABEL: bir.kernel @wide_kernel
// CHECK-NOT:   bir.collective
// CHECK:       bir.dma %wide_result0[#bir.sap<()[s0] -> (s0 * 256), {{\[\[}}512, 128], [1, 256]]>]
// CHECK-LABEL: bir.kernel @accumulate_kernel
// CHECK-NOT:   bir.collective
// CHECK-LABEL: bir.kernel @odd_rows_kernel
// CHECK-NOT:   bir.collective
func.func @wide(%x: tensor<128x2048xf32>, %w: tensor<2048x512xf32>) -> tensor<128x512xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<128x512xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<128x512xf32>) -> tensor<128x512xf32>
  %y = linalg.matmul ins(%x, %w : tensor<128x2048xf32>, tensor<2048x512xf32>) outs(%fill : tensor<128x512xf32>) -> tensor<128x512xf32>
  return %y : tensor<128x512xf32>
}
func.func @accumulate(%x: tensor<128x4096xf32>, %w: tensor<4096x64xf32>, %c: tensor<128x64xf32>) -> tensor<128x64xf32> {
  %y = linalg.matmul ins(%x, %w : tensor<128x4096xf32>, tensor<4096x64xf32>) outs(%c : tensor<128x64xf32>) -> tensor<128x64xf32>
  return %y : tensor<128x64xf32>
}
func.func @odd_rows(%x: tensor<99x4096xf32>, %w: tensor<4096x64xf32>) -> tensor<99x64xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<99x64xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<99x64xf32>) -> tensor<99x64xf32>
  %y = linalg.matmul ins(%x, %w : tensor<99x4096xf32>, tensor<4096x64xf32>) outs(%fill : tensor<99x64xf32>) -> tensor<99x64xf32>
  return %y : tensor<99x64xf32>
}

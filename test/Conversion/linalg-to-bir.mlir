// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir="lnc-size=2 auto-cast=none column-tile=512" | FileCheck %s
// RUN: walrus-opt %s -split-input-file -convert-linalg-to-bir="lnc-size=2 auto-cast=none" | FileCheck %s --check-prefix=WIDE

// 700 rows: 5 full tiles of 128 and 60 more. Tiles 0-3 are two rounds on
// both cores (core s0 takes rows (2 * d0 + s0) * 128), tile 4 is core 0's
// alone and the partial tile core 1's. The function launches the kernel.

// CHECK-LABEL: func.func @rows
// CHECK-NEXT:    bir.launch @rows_kernel(%arg0, %arg1)
// CHECK-NEXT:    return
// CHECK:       bir.kernel @rows_kernel {
// CHECK-NEXT:    module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">}
// CHECK:         %[[X:.*]] = bir.memloc "rows_arg0" input : !bir.dram<700x64xf32>
// CHECK-NEXT:    %[[Y:.*]] = bir.memloc "rows_arg1" output : !bir.dram<700x64xf32>
// CHECK-NEXT:    %[[IN:.*]] = bir.memloc "in" internal : !bir.sbuf<128x64xf32>
// CHECK-NEXT:    %[[T:.*]] = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
// CHECK-NEXT:    bir.loop 0 to 2 step 1 {
// CHECK-NEXT:      bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[X]][#bir.sap<(d0)[s0] -> (d0 * 16384 + s0 * 8192), {{\[\[}}64, 128], [1, 64]]>]
// CHECK-NEXT:      bir.tensor_scalar multiply %[[T]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[IN]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], 2.000000e+00
// CHECK-NEXT:      bir.dma %[[Y]][#bir.sap<(d0)[s0] -> (d0 * 16384 + s0 * 8192), {{\[\[}}64, 128], [1, 64]]>], %[[T]]
// CHECK-NEXT:    }
// CHECK-NEXT:    bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[X]][#bir.sap<()[s0] -> (s0 * 8192 + 32768), {{\[\[}}64, 128], [1, 64]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:    bir.tensor_scalar multiply {{.*}} {mask = #[[CORE0]]}
// CHECK-NEXT:    bir.dma %[[Y]][#bir.sap<()[s0] -> (s0 * 8192 + 32768), {{\[\[}}64, 128], [1, 64]]>], %[[T]]{{.*}} {mask = #[[CORE0]]}
// CHECK-NEXT:    bir.dma %[[IN]][#bir.ap<0, {{\[\[}}64, 60], [1, 64]]>], %[[X]][#bir.ap<40960, {{\[\[}}64, 60], [1, 64]]>] {mask = #[[CORE1:.*]]}
// CHECK-NEXT:    bir.tensor_scalar multiply {{.*}}[#bir.ap<0, {{\[\[}}64, 60], [1, 64]]>]{{.*}} {mask = #[[CORE1]]}
// CHECK-NEXT:    bir.dma %[[Y]][#bir.ap<40960, {{\[\[}}64, 60], [1, 64]]>], %[[T]]{{.*}} {mask = #[[CORE1]]}
// CHECK-NEXT:  }
func.func @rows(%x: memref<700x64xf32>, %y: memref<700x64xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<700x64xf32>) outs(%y : memref<700x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 2.0 : f32
    %m = arith.mulf %a, %c : f32
    linalg.yield %m : f32
  }
  return
}

// -----

// A bias, the same for every row, loads once per column tile (on every
// core, before the row tiles), not once per tile: the column tiles are the
// outer loop. The partial last column tile reuses the bias tile. The row
// tiles dealt to a core take turns between two sets of tiles (core 0's
// 44-row tile the second), so a tile's load need not wait for the last
// tile's compute.

// CHECK-LABEL: bir.kernel @bias_kernel
// CHECK:       bir.dma %[[BIAS:.*]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %bias_arg1[#bir.ap<0, {{\[\[}}0, 128], [1, 512]]>] : !bir.sbuf
// CHECK-NEXT:  bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %bias_arg0[#bir.sap<()[s0] -> (s0 * 76800), {{\[\[}}600, 128], [1, 512]]>]
// CHECK-NEXT:  bir.tensor_tensor add %[[T:.*]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %[[IN]][{{.*}}], %[[BIAS]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:  bir.dma %bias_arg2
// CHECK-NEXT:  bir.dma %[[IN2:.*]][#bir.ap<0, {{\[\[}}512, 44], [1, 512]]>], %bias_arg0[#bir.ap<153600, {{\[\[}}600, 44], [1, 512]]>] {mask
// CHECK-NEXT:  bir.tensor_tensor add %[[T2:.*]][{{.*}}], %[[IN2]][{{.*}}], %[[BIAS]][#bir.ap<0, {{\[\[}}512, 44], [1, 512]]>] {mask
// CHECK-NEXT:  bir.dma %bias_arg2
// CHECK-NEXT:  bir.dma %[[BIAS]][#bir.ap<0, {{\[\[}}512, 128], [1, 88]]>], %bias_arg1[#bir.ap<512, {{\[\[}}0, 128], [1, 88]]>] : !bir.sbuf
// CHECK-NOT:   bir.dma %[[BIAS]][
// CHECK:       }
// By default (column-tile=0) an elementwise op's tiles are up to 2048
// columns wide, as SBUF holds its sets of tiles: the 600 columns are one
// tile, and each transfer moves runs of 600 elements.
// WIDE-LABEL:  bir.kernel @bias_kernel
// WIDE:        bir.dma %[[BIAS:.*]][#bir.ap<0, {{\[\[}}600, 128], [1, 600]]>], %bias_arg1[#bir.ap<0, {{\[\[}}0, 128], [1, 600]]>] : !bir.sbuf
// WIDE-NEXT:   bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}600, 128], [1, 600]]>], %bias_arg0[#bir.sap<()[s0] -> (s0 * 76800), {{\[\[}}600, 128], [1, 600]]>]
// WIDE-NOT:    bir.dma %[[BIAS]][
// WIDE:        }
func.func @bias(%x: memref<300x600xf32>, %b: memref<600xf32>, %y: memref<300x600xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : memref<300x600xf32>, memref<600xf32>) outs(%y : memref<300x600xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %s = arith.addf %a, %c : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Softmax keeps each row in SBUF: max, its negation, exp with that as the
// scalar engine's bias, sum, reciprocal, multiply. 130 rows: core 0 the
// first 128, core 1 the last 2.

// CHECK-LABEL: func.func @softmax
// CHECK:       bir.dma %[[X:.*]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %{{.*}}[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.tensor_reduce max %[[STAT:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[X]]
// CHECK-NEXT:  bir.tensor_scalar multiply %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], -1.000000e+00
// CHECK-NEXT:  bir.activation exp %[[EXP:.*]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[X]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>] bias %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [0, 64]]>]
// CHECK-NEXT:  bir.tensor_reduce add %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[EXP]]
// CHECK-NEXT:  bir.activation reciprocal %[[STAT]]
// CHECK-NEXT:  bir.tensor_tensor multiply %[[OUT:.*]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[EXP]][#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %[[STAT]][#bir.ap<0, {{\[\[}}1, 128], [0, 64]]>]
// CHECK-NEXT:  bir.dma %{{.*}}[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>], %[[OUT]]
// CHECK-NEXT:  bir.dma %[[X]][#bir.ap<0, {{\[\[}}64, 2], [1, 64]]>], %{{.*}}[#bir.ap<8192, {{\[\[}}64, 2], [1, 64]]>] {mask = #[[CORE1:.*]]}
func.func @softmax(%x: memref<130x64xf32>, %y: memref<130x64xf32>) {
  linalg.softmax dimension(1) ins(%x : memref<130x64xf32>) outs(%y : memref<130x64xf32>)
  return
}

// -----

// A matmul: a block of C (here all of it) stays in SBUF while k runs over
// groups of k tiles of 128 (here one group: a full tile and 44 rows).
// B's rows for the group load in one transfer per full run of tiles and
// one for the partial tile, A's rows for the whole group in one transfer,
// each k tile turned on the tensor engine into its slot of the stationary
// operand; the products accumulate in PSUM (start on the first k tile,
// stop on the last) and go into the block once. The zero fill before it
// is absorbed: the group's sum is copied into the block, C is never read.
// The row tile leaves with the last group. A returned buffer stays with
// the host.

// CHECK-LABEL: func.func @matmul
// CHECK-NEXT:    %[[C:.*]] = memref.alloc() : memref<128x96xf32>
// CHECK-NEXT:    bir.launch @matmul_kernel(%arg0, %arg1, %[[C]])
// CHECK-NEXT:    return %[[C]]
// CHECK:       bir.memloc "matmul_result0" output : !bir.dram<128x96xf32>
// CHECK-NEXT:  %[[A:.*]] = bir.memloc "mm_a" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT:  %[[S:.*]] = bir.memloc "mm_stationary" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT:  %[[B:.*]] = bir.memloc "mm_b" internal : !bir.sbuf<128x192xf32>
// CHECK-NEXT:  %[[ACC:.*]] = bir.memloc "mm_acc" internal : !bir.psum<128x96xf32>
// CHECK-NEXT:  %[[BLOCK:.*]] = bir.memloc "mm_c" internal : !bir.sbuf<128x96xf32>
// CHECK-NOT:   bir.core_barrier
// CHECK:       bir.dma %[[B]][#bir.ap<0, {{\[\[}}192, 128], [1, 96]]>], %{{.*}}[#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.dma %[[B]][#bir.ap<96, {{\[\[}}192, 44], [1, 96]]>], %{{.*}}[#bir.ap<12288, {{\[\[}}96, 44], [1, 96]]>]
// CHECK-NEXT:  bir.dma %[[A]][#bir.ap<0, {{\[\[}}256, 128], [1, 172]]>], %{{.*}}[#bir.sap<()[s0] -> (s0 * 22016), {{\[\[}}172, 128], [1, 172]]>]
// CHECK-NEXT:  bir.transpose %[[S]][#bir.ap<0, {{\[\[}}256, 128], [1, 128]]>], %[[A]][#bir.ap<0, {{\[\[}}256, 128], [1, 128]]>]
// CHECK-NEXT:  bir.transpose %[[S]][#bir.ap<128, {{\[\[}}256, 44], [1, 128]]>], %[[A]][#bir.ap<128, {{\[\[}}256, 128], [1, 44]]>]
// CHECK-NEXT:  bir.matmult %[[ACC]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[S]][#bir.ap<0, {{\[\[}}256, 128], [1, 128]]>], %[[B]][#bir.ap<0, {{\[\[}}192, 128], [1, 96]]>] start {mask
// CHECK-NEXT:  bir.matmult %[[ACC]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[S]][#bir.ap<128, {{\[\[}}256, 44], [1, 128]]>], %[[B]][#bir.ap<96, {{\[\[}}192, 44], [1, 96]]>] stop {mask
// CHECK-NEXT:  bir.tensor_copy %[[BLOCK]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>], %[[ACC]]
// CHECK-NEXT:  bir.dma %{{.*}}[#bir.sap<()[s0] -> (s0 * 12288), {{\[\[}}96, 128], [1, 96]]>], %[[BLOCK]]
func.func @matmul(%a: memref<128x172xf32>, %b: memref<172x96xf32>) -> memref<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<128x96xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<128x96xf32>)
  linalg.matmul ins(%a, %b : memref<128x172xf32>, memref<172x96xf32>) outs(%c : memref<128x96xf32>)
  return %c : memref<128x96xf32>
}

// -----

// Without a zero fill, the block starts from C's tile; B stored transposed
// ((n, k)) loads its 64 rows of B^T with k contiguous and turns them on the
// tensor engine. 16 rows: one partial tile, core 0's.

// CHECK-LABEL: func.func @accumulate
// CHECK:       bir.dma %[[BLOCK:.*]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>], %[[C:.*]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.dma %[[BT:.*]][#bir.ap<0, {{\[\[}}128, 64], [1, 32]]>], %{{.*}}[#bir.ap<0, {{\[\[}}32, 64], [1, 32]]>]
// CHECK-NEXT:  bir.transpose %[[B:.*]][#bir.ap<0, {{\[\[}}64, 32], [1, 64]]>], %[[BT]][#bir.ap<0, {{\[\[}}128, 64], [1, 32]]>]
// CHECK:       bir.matmult %[[ACC:.*]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>], %{{.*}}, %[[B]][#bir.ap<0, {{\[\[}}64, 32], [1, 64]]>] start stop
// CHECK-NEXT:  bir.tensor_tensor add %[[BLOCK]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>], %[[BLOCK]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>], %[[ACC]]
// CHECK-NEXT:  bir.dma %[[C]][#bir.ap<0, {{\[\[}}64, 16], [1, 64]]>], %[[BLOCK]]
func.func @accumulate(%a: memref<16x32xf32>, %bt: memref<64x32xf32>, %c: memref<16x64xf32>) {
  linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                 affine_map<(m, n, k) -> (n, k)>,
                                 affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : memref<16x32xf32>, memref<64x32xf32>) outs(%c : memref<16x64xf32>)
  return
}


// -----

// A row sum: the accumulator starts from the output's value; each column
// tile (512, then 188) is reduced and added to it. Core 0 has rows 0-127,
// core 1 the last 2.

// CHECK-LABEL: func.func @row_sum
// CHECK:       bir.dma %[[ACC:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[OUT:.*]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %[[X:.*]][#bir.sap<()[s0] -> (s0 * 89600), {{\[\[}}700, 128], [1, 512]]>]
// CHECK-NEXT:  bir.tensor_reduce add %[[PART:.*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[IN]][#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:  bir.tensor_tensor add %[[ACC]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[ACC]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[PART]]
// CHECK-NEXT:  bir.dma %[[IN]][#bir.ap<0, {{\[\[}}512, 128], [1, 188]]>], %[[X]][#bir.sap<()[s0] -> (s0 * 89600 + 512), {{\[\[}}700, 128], [1, 188]]>]
// CHECK:       bir.dma %[[OUT]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>], %[[ACC]]
// CHECK-NEXT:  bir.dma %[[ACC]][#bir.ap<0, {{\[\[}}1, 2], [1, 1]]>], %[[OUT]][#bir.ap<128, {{\[\[}}1, 2], [1, 1]]>] {mask = #[[CORE1:.*]]}
func.func @row_sum(%x: memref<130x700xf32>, %s: memref<130xf32>) {
  linalg.reduce ins(%x : memref<130x700xf32>) outs(%s : memref<130xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %a = arith.addf %in, %acc : f32
      linalg.yield %a : f32
    }
  return
}

// -----

// A transpose in tiles of 128 x 128: the input's rows load as partitions
// (output columns), the tensor engine turns the tile, the output's rows
// are stored. Output rows 0-127 are core 0's, the other 72 core 1's.

// CHECK-LABEL: func.func @turn
// CHECK:       bir.dma %[[IN:.*]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %[[X:.*]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}200, 128], [1, 128]]>] {mask = #[[CORE0:.*]]}
// CHECK-NEXT:  bir.transpose %[[T:.*]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %[[IN]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>]
// CHECK-NEXT:  bir.dma %[[Y:.*]][#bir.sap<()[s0] -> (s0 * 16640), {{\[\[}}130, 128], [1, 128]]>], %[[T]]
// CHECK-NEXT:  bir.dma %[[IN]][#bir.ap<0, {{\[\[}}128, 2], [1, 128]]>], %[[X]][#bir.sap<()[s0] -> (s0 * 128 + 25600), {{\[\[}}200, 2], [1, 128]]>]
// CHECK-NEXT:  bir.transpose %[[T]][#bir.ap<0, {{\[\[}}128, 128], [1, 2]]>], %[[IN]][#bir.ap<0, {{\[\[}}128, 2], [1, 128]]>]
// CHECK-NEXT:  bir.dma %[[Y]][#bir.sap<()[s0] -> (s0 * 16640 + 128), {{\[\[}}130, 128], [1, 2]]>], %[[T]]
// CHECK-NEXT:  bir.dma %[[IN]][#bir.ap<0, {{\[\[}}128, 128], [1, 72]]>], %[[X]][#bir.ap<128, {{\[\[}}200, 128], [1, 72]]>] {mask = #[[CORE1:.*]]}
func.func @turn(%x: memref<130x200xf32>, %y: memref<200x130xf32>) {
  linalg.transpose ins(%x : memref<130x200xf32>) outs(%y : memref<200x130xf32>) permutation = [1, 0]
  return
}

// -----

// The constant on the left of a subtraction or division is a reversed
// tensor_scalar (one rounding, as arith's divf); maximumf / maxnumf keep
// their NaN semantics; integer constants are exact i64 immediates.

// CHECK-LABEL: bir.kernel @scalars_kernel
// CHECK:         bir.tensor_scalar divide %[[Q:[a-z0-9_]+]][{{.*}}], %in[{{.*}}], 0.69999998807907104 reverse {mask
// CHECK-NEXT:    bir.tensor_scalar subtract %{{.*}}[{{.*}}], %[[Q]][{{.*}}], 3.000000e+00 reverse {mask
// CHECK-NEXT:    bir.tensor_tensor max %{{.*}}
// CHECK-NEXT:    bir.tensor_tensor maxnum %{{.*}}
// CHECK-NEXT:    bir.tensor_tensor minnum %{{.*}}
// CHECK-NEXT:    bir.tensor_tensor min %{{.*}}
// CHECK-LABEL: bir.kernel @wide_kernel
// CHECK:         bir.tensor_scalar add %{{.*}}, 9007199254740993 {mask
func.func @scalars(%x: memref<64x32xf32>, %y: memref<64x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<64x32xf32>) outs(%y : memref<64x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 0.7 : f32
    %d = arith.constant 3.0 : f32
    %q = arith.divf %c, %a : f32
    %s = arith.subf %d, %q : f32
    %m = arith.maximumf %s, %a : f32
    %n = arith.maxnumf %m, %a : f32
    %k = arith.minnumf %n, %a : f32
    %l = arith.minimumf %k, %a : f32
    linalg.yield %l : f32
  }
  return
}

func.func @wide(%x: memref<64x32xi64>, %y: memref<64x32xi64>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
    ins(%x : memref<64x32xi64>) outs(%y : memref<64x32xi64>) {
  ^bb0(%a: i64, %o: i64):
    %c = arith.constant 9007199254740993 : i64
    %s = arith.addi %a, %c : i64
    linalg.yield %s : i64
  }
  return
}

// -----

// A strided argument is the buffer its layout reaches (255 * 128 + 64
// elements), as the launch binds it; rows are read 128 apart. The kernel's
// name is unique next to a user's @copy_kernel.

// CHECK-LABEL: func.func @copy(
// CHECK:         bir.launch @copy_kernel_1(%arg0, %arg1) : memref<256x64xf32, strided<[128, 1]>>, memref<256x64xf32>
// CHECK:       bir.kernel @copy_kernel_1
// CHECK:         bir.memloc "copy_arg0" input : !bir.dram<32704xf32>
// CHECK:         bir.memloc "copy_arg1" output : !bir.dram<256x64xf32>
// CHECK:         bir.dma %{{.*}}, %copy_arg0[#bir.sap<()[s0] -> (s0 * 16384), {{\[\[}}128, 128], [1, 64]]>]
// CHECK-NEXT:    bir.dma %copy_arg1[#bir.sap<()[s0] -> (s0 * 8192), {{\[\[}}64, 128], [1, 64]]>]
// CHECK-LABEL: func.func @copy_kernel()
func.func @copy(%x: memref<256x64xf32, strided<[128, 1]>>, %y: memref<256x64xf32>) {
  linalg.copy ins(%x : memref<256x64xf32, strided<[128, 1]>>) outs(%y : memref<256x64xf32>)
  return
}

func.func @copy_kernel() {
  return
}

// -----

// GELU's constants are matched to the body's own precision: in bf16,
// 0.70703125 is 1 / sqrt(2).

// CHECK-LABEL: bir.kernel @gelu_bf16_kernel
// CHECK:         bir.activation gelu
func.func @gelu_bf16(%x: memref<8x8xbf16>, %y: memref<8x8xbf16>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xbf16>) outs(%y : memref<8x8xbf16>) {
  ^bb0(%a: bf16, %o: bf16):
    %half = arith.constant 0.5 : bf16
    %one = arith.constant 1.0 : bf16
    %r = arith.constant 0.70703125 : bf16
    %s = arith.mulf %a, %r : bf16
    %e = math.erf %s : bf16
    %p = arith.addf %one, %e : bf16
    %h = arith.mulf %a, %half : bf16
    %g = arith.mulf %h, %p : bf16
    linalg.yield %g : bf16
  }
  return
}

// -----

// A body of 24 ops: its tiles (two sets of 27: the input, 24 values, the
// output's) in half of an SBUF partition (114688 bytes on trn2) are at
// most 114688 / (27 * 2 * 4) = 530 columns wide, so the 1024 columns go
// in tiles of 530 and 494 (the cores take one each).
// WIDE-LABEL:  bir.kernel @long_body_kernel
// WIDE:        bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}530, 128], [1, 530]]>], %long_body_arg0[#bir.sap<()[s0] -> (s0 * 530), {{\[\[}}1024, 128], [1, 530]]>] {mask
// WIDE:        bir.dma %{{.*}}[#bir.ap<0, {{\[\[}}530, 128], [1, 494]]>], %long_body_arg0[#bir.ap<530, {{\[\[}}1024, 128], [1, 494]]>] {mask
func.func @long_body(%x: memref<128x1024xf32>, %y: memref<128x1024xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<128x1024xf32>) outs(%y : memref<128x1024xf32>) {
  ^bb0(%a: f32, %o: f32):
    %v0 = arith.mulf %a, %a : f32
    %v1 = arith.addf %v0, %a : f32
    %v2 = arith.mulf %v1, %a : f32
    %v3 = arith.addf %v2, %a : f32
    %v4 = arith.mulf %v3, %a : f32
    %v5 = arith.addf %v4, %a : f32
    %v6 = arith.mulf %v5, %a : f32
    %v7 = arith.addf %v6, %a : f32
    %v8 = arith.mulf %v7, %a : f32
    %v9 = arith.addf %v8, %a : f32
    %v10 = arith.mulf %v9, %a : f32
    %v11 = arith.addf %v10, %a : f32
    %v12 = arith.mulf %v11, %a : f32
    %v13 = arith.addf %v12, %a : f32
    %v14 = arith.mulf %v13, %a : f32
    %v15 = arith.addf %v14, %a : f32
    %v16 = arith.mulf %v15, %a : f32
    %v17 = arith.addf %v16, %a : f32
    %v18 = arith.mulf %v17, %a : f32
    %v19 = arith.addf %v18, %a : f32
    %v20 = arith.mulf %v19, %a : f32
    %v21 = arith.addf %v20, %a : f32
    %v22 = arith.mulf %v21, %a : f32
    %v23 = arith.addf %v22, %a : f32
    linalg.yield %v23 : f32
  }
  return
}

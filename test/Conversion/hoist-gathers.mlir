// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func embedding_bag --ids-below 16 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func interaction_pairs --ids-below 16 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func upsample_nearest --ids-below 16 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func upsample_bilinear --ids-below 16 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func flip --ids-below 16 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func reverse_map --ids-below 16 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func adaptive_pool_7_to_5 --ids-below 16 --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// ORACLE: oracle: identical
// The oracle seeds integer inputs below 16 and below the fewest rows of
// any table a tensor.extract reads (the bag's 4), and lowers the function
// it checks alone: every id is in range on both sides.

// Reads at rows a body computes become gathers (HoistGathers.cpp): a
// generic of Gather.cpp's form over the loops the row reads, read by the
// body as an input.

// torch-mlir's EmbeddingBag(mode="sum"), as DLRM emits it: the row of the
// table is ids[j], summed where the bag's offset is at most j. The gather
// reads the ids as they are; the mask's index of j is a table.

// CHECK-LABEL: func.func @embedding_bag
// CHECK-DAG:     %[[J:.*]] = arith.constant dense<[0, 1, 2]> : tensor<3xi64>
// CHECK:         %[[ROWS:.*]] = linalg.generic {indexing_maps = [#[[ROW:.*]], #[[ID:.*]]], iterator_types = ["parallel", "parallel"]} ins(%arg0 : tensor<3xi64>) outs(%{{.*}} : tensor<3x2xf32>)
// CHECK-NEXT:    ^bb0(%[[IN:.*]]: i64, %{{.*}}: f32):
// CHECK-NEXT:      %[[R:.*]] = arith.index_cast %[[IN]] : i64 to index
// CHECK-NEXT:      %[[C:.*]] = linalg.index 1 : index
// CHECK-NEXT:      %[[X:.*]] = tensor.extract %arg2[%[[R]], %[[C]]] : tensor<4x2xf32>
// CHECK-NEXT:      linalg.yield %[[X]] : f32
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg1, %[[J]], %[[ROWS]] : tensor<1xi64>, tensor<3xi64>, tensor<3x2xf32>)
// CHECK-NOT:     tensor.extract
// CHECK:         arith.select

// BIR-LABEL: bir.kernel @embedding_bag_kernel
// BIR:         bir.dma_gather %{{.*}}, %embedding_bag_arg2[#bir.ap<0, {{\[\[}}2, 4], [1, 2]]>], %{{.*}} : !bir.sbuf<3x2xf32>, !bir.dram<4x2xf32>, !bir.sbuf<3x1xi64>
// BIR:         bir.tensor_copy_predicated

func.func @embedding_bag(%ids: tensor<3xi64>, %offsets: tensor<1xi64>, %table: tensor<4x2xf32>) -> tensor<1x2xf32> {
  %c3_i64 = arith.constant 3 : i64
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x2xf32>) -> tensor<1x2xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d1)>, affine_map<(d0, d1, d2) -> (d0)>, affine_map<(d0, d1, d2) -> (d0, d2)>], iterator_types = ["parallel", "reduction", "parallel"]} ins(%ids, %offsets : tensor<3xi64>, tensor<1xi64>) outs(%init : tensor<1x2xf32>) {
  ^bb0(%in: i64, %off: i64, %out: f32):
    %39 = linalg.index 1 : index
    %40 = arith.index_cast %39 : index to i64
    %41 = arith.cmpi slt, %off, %40 : i64
    %42 = arith.cmpi eq, %off, %40 : i64
    %43 = arith.ori %41, %42 : i1
    %44 = arith.cmpi slt, %40, %c3_i64 : i64
    %45 = arith.andi %43, %44 : i1
    %46 = arith.index_cast %in : i64 to index
    %47 = linalg.index 2 : index
    %x = tensor.extract %table[%46, %47] : tensor<4x2xf32>
    %48 = arith.addf %x, %out : f32
    %49 = arith.select %45, %48, %out : f32
    linalg.yield %49 : f32
  } -> tensor<1x2xf32>
  return %r : tensor<1x2xf32>
}

// -----

// DLRM's feature interaction: z[0, rows[k], cols[k]] at constant index
// lists (a negative column wraps). The rows of the table flattened to one
// element each are computed at compile time: 4 * row + col.

// CHECK-LABEL: func.func @interaction_pairs
// CHECK-DAG:     %[[IDS:.*]] = arith.constant dense<[4, 8, 9, 12, 13, 14]> : tensor<6xi64>
// CHECK:         %[[FLAT:.*]] = tensor.collapse_shape %arg0 {{\[\[}}0, 1, 2]] : tensor<1x4x4xf32> into tensor<16xf32>
// CHECK:         %[[TABLE:.*]] = tensor.expand_shape %[[FLAT]] {{\[\[}}0, 1]] output_shape [16, 1] : tensor<16xf32> into tensor<16x1xf32>
// CHECK:         %[[ROWS:.*]] = linalg.generic {{.*}} ins(%[[IDS]] : tensor<6xi64>) outs(%{{.*}} : tensor<6x1xf32>)
// CHECK:           tensor.extract %[[TABLE]]
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #{{.*}}], iterator_types = ["parallel", "parallel"]} ins(%[[ROWS]] : tensor<6x1xf32>) outs(%{{.*}} : tensor<1x6xf32>)

func.func @interaction_pairs(%z: tensor<1x4x4xf32>) -> tensor<1x6xf32> {
  %rows = arith.constant dense<[1, 2, 2, 3, 3, 3]> : tensor<6xi64>
  %cols = arith.constant dense<[0, 0, 1, 0, 1, -2]> : tensor<6xi64>
  %c0_i64 = arith.constant 0 : i64
  %c4_i64 = arith.constant 4 : i64
  %c0 = arith.constant 0 : index
  %e = tensor.empty() : tensor<1x6xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%rows, %cols : tensor<6xi64>, tensor<6xi64>) outs(%e : tensor<1x6xf32>) {
  ^bb0(%row: i64, %col: i64, %out: f32):
    %47 = arith.cmpi slt, %col, %c0_i64 : i64
    %48 = arith.addi %col, %c4_i64 : i64
    %49 = arith.select %47, %48, %col : i64
    %i = arith.index_cast %row : i64 to index
    %j = arith.index_cast %49 : i64 to index
    %v = tensor.extract %z[%c0, %i, %j] : tensor<1x4x4xf32>
    linalg.yield %v : f32
  } -> tensor<1x6xf32>
  return %r : tensor<1x6xf32>
}

// -----

// torch's upsample_nearest2d by 2: the source row and column are
// floor(index * 0.5), which no affine map reads. Their rows in the
// flattened input are a table; each output element is gathered.

// CHECK-LABEL: func.func @upsample_nearest
// CHECK:         %[[IDS:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<1x4x16x16xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<1x4x16x16xi64>) outs(%{{.*}} : tensor<1x4x16x16x1xf32>)
// CHECK:           tensor.extract %{{.*}} : tensor<256x1xf32>

#nearest = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @upsample_nearest(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x16x16xf32> {
  %scale = arith.constant 5.000000e-01 : f32
  %e = tensor.empty() : tensor<1x4x16x16xf32>
  %r = linalg.generic {indexing_maps = [#nearest], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x4x16x16xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %hi = arith.index_cast %h : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %hs = arith.mulf %hf, %scale : f32
    %hfl = math.floor %hs : f32
    %hh = arith.fptosi %hfl : f32 to i64
    %ih = arith.index_cast %hh : i64 to index
    %wi = arith.index_cast %w : index to i64
    %wf = arith.sitofp %wi : i64 to f32
    %ws = arith.mulf %wf, %scale : f32
    %wfl = math.floor %ws : f32
    %ww = arith.fptosi %wfl : f32 to i64
    %iw = arith.index_cast %ww : i64 to index
    %v = tensor.extract %x[%n, %c, %ih, %iw] : tensor<1x4x8x8xf32>
    linalg.yield %v : f32
  } -> tensor<1x4x16x16xf32>
  return %r : tensor<1x4x16x16xf32>
}

// -----

// upsample_bilinear2d (align_corners=False): four reads at clamped rows
// and columns, four gathers; the weights are tables.

// CHECK-LABEL: func.func @upsample_bilinear
// CHECK-COUNT-4: tensor.extract %{{.*}} : tensor<32x1xf32>

#nchw = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @upsample_bilinear(%x: tensor<1x2x4x4xf32>) -> tensor<1x2x8x8xf32> {
  %half = arith.constant 5.000000e-01 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %one = arith.constant 1 : i64
  %last = arith.constant 3 : i64
  %e = tensor.empty() : tensor<1x2x8x8xf32>
  %r = linalg.generic {indexing_maps = [#nchw], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%e : tensor<1x2x8x8xf32>) {
  ^bb0(%out: f32):
    %n = linalg.index 0 : index
    %c = linalg.index 1 : index
    %h = linalg.index 2 : index
    %w = linalg.index 3 : index
    %hi = arith.index_cast %h : index to i64
    %hf = arith.sitofp %hi : i64 to f32
    %hp = arith.addf %hf, %half : f32
    %hs = arith.mulf %hp, %half : f32
    %hm = arith.subf %hs, %half : f32
    %hc = arith.maximumf %hm, %zero : f32
    %hfl = math.floor %hc : f32
    %h0 = arith.fptosi %hfl : f32 to i64
    %h1a = arith.addi %h0, %one : i64
    %h1 = arith.minsi %h1a, %last : i64
    %lh = arith.subf %hc, %hfl : f32
    %wi = arith.index_cast %w : index to i64
    %wf = arith.sitofp %wi : i64 to f32
    %wp = arith.addf %wf, %half : f32
    %ws = arith.mulf %wp, %half : f32
    %wm = arith.subf %ws, %half : f32
    %wc = arith.maximumf %wm, %zero : f32
    %wfl = math.floor %wc : f32
    %w0 = arith.fptosi %wfl : f32 to i64
    %w1a = arith.addi %w0, %one : i64
    %w1 = arith.minsi %w1a, %last : i64
    %lw = arith.subf %wc, %wfl : f32
    %ih0 = arith.index_cast %h0 : i64 to index
    %ih1 = arith.index_cast %h1 : i64 to index
    %iw0 = arith.index_cast %w0 : i64 to index
    %iw1 = arith.index_cast %w1 : i64 to index
    %v00 = tensor.extract %x[%n, %c, %ih0, %iw0] : tensor<1x2x4x4xf32>
    %v01 = tensor.extract %x[%n, %c, %ih0, %iw1] : tensor<1x2x4x4xf32>
    %v10 = tensor.extract %x[%n, %c, %ih1, %iw0] : tensor<1x2x4x4xf32>
    %v11 = tensor.extract %x[%n, %c, %ih1, %iw1] : tensor<1x2x4x4xf32>
    %top = arith.subf %v01, %v00 : f32
    %topw = arith.mulf %top, %lw : f32
    %t = arith.addf %v00, %topw : f32
    %bot = arith.subf %v11, %v10 : f32
    %botw = arith.mulf %bot, %lw : f32
    %b = arith.addf %v10, %botw : f32
    %d = arith.subf %b, %t : f32
    %dw = arith.mulf %d, %lh : f32
    %res = arith.addf %t, %dw : f32
    linalg.yield %res : f32
  } -> tensor<1x2x8x8xf32>
  return %r : tensor<1x2x8x8xf32>
}

// -----

// AdaptiveAvgPool2d from 7x7 to 5x5 in torch-mlir's form: the windows
// start at 0, 1, 2, 4, 5, which no affine map of the loops reads; the
// window's rows are gathered and summed under the window's mask.

// CHECK-LABEL: func.func @adaptive_pool_7_to_5
// CHECK:         linalg.generic {{.*}} outs(%{{.*}} : tensor<4x5x5x3x3x1xf32>)
// CHECK:           tensor.extract %{{.*}} : tensor<256x1xf32>

func.func @adaptive_pool_7_to_5(%x: tensor<1x4x7x7xf32>) -> tensor<1x4x5x5xf32> {
  %c1 = arith.constant 1 : index
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cH = arith.constant 7 : index
  %cO = arith.constant 5 : index
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst_0 : f32
  } : tensor<1x4x7x7xf32> to tensor<1x4x8x8xf32>
  %51 = tensor.empty() : tensor<3x3xi1>
  %e = tensor.empty() : tensor<1x4x5x5xf32>
  %53 = linalg.fill ins(%cst_0 : f32) outs(%e : tensor<1x4x5x5xf32>) -> tensor<1x4x5x5xf32>
  %e2 = tensor.empty() : tensor<5x5xf32>
  %52 = linalg.fill ins(%cst_0 : f32) outs(%e2 : tensor<5x5xf32>) -> tensor<5x5xf32>
  %54:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%51 : tensor<3x3xi1>) outs(%53, %52 : tensor<1x4x5x5xf32>, tensor<5x5xf32>) {
  ^bb0(%in: i1, %out: f32, %out_31: f32):
    %74 = linalg.index 0 : index
    %75 = linalg.index 1 : index
    %76 = linalg.index 2 : index
    %77 = linalg.index 3 : index
    %78 = linalg.index 4 : index
    %79 = linalg.index 5 : index
    %80 = arith.muli %76, %cH : index
    %81 = arith.floordivsi %80, %cO : index
    %82 = arith.addi %76, %c1 : index
    %83 = arith.muli %82, %cH : index
    %84 = arith.subi %83, %c1 : index
    %85 = arith.floordivsi %84, %cO : index
    %86 = arith.addi %85, %c1 : index
    %87 = arith.muli %77, %cH : index
    %88 = arith.floordivsi %87, %cO : index
    %89 = arith.addi %77, %c1 : index
    %90 = arith.muli %89, %cH : index
    %91 = arith.subi %90, %c1 : index
    %92 = arith.floordivsi %91, %cO : index
    %93 = arith.addi %92, %c1 : index
    %94 = arith.addi %81, %78 : index
    %95 = arith.addi %88, %79 : index
    %extracted = tensor.extract %padded[%74, %75, %94, %95] : tensor<1x4x8x8xf32>
    %96 = arith.cmpi ult, %94, %86 : index
    %97 = arith.select %96, %extracted, %cst_0 : f32
    %98 = arith.cmpi ult, %95, %93 : index
    %99 = arith.select %98, %97, %cst_0 : f32
    %100 = arith.addf %99, %out : f32
    %101 = arith.subi %86, %81 : index
    %102 = arith.subi %93, %88 : index
    %103 = arith.muli %101, %102 : index
    %104 = arith.index_cast %103 : index to i64
    %105 = arith.sitofp %104 : i64 to f32
    linalg.yield %100, %105 : f32, f32
  } -> (tensor<1x4x5x5xf32>, tensor<5x5xf32>)
  %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54#1 : tensor<5x5xf32>) outs(%54#0 : tensor<1x4x5x5xf32>) {
  ^bb0(%in: f32, %out: f32):
    %74 = arith.divf %out, %in : f32
    linalg.yield %74 : f32
  } -> tensor<1x4x5x5xf32>
  return %55 : tensor<1x4x5x5xf32>
}

// -----

// torch.flip as torch-mlir writes it: a read at `15 - j`, an affine
// function of the loops that walks backwards, which the lowering does not
// read through a map: its rows are gathered.

// CHECK-LABEL: func.func @flip
// CHECK:         %[[IDS:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<8x16xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<8x16xi64>) outs(%{{.*}} : tensor<8x16x1xf32>)
// CHECK:           tensor.extract %{{.*}} : tensor<128x1xf32>
func.func @flip(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %c15 = arith.constant 15 : index
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<8x16xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %jj = arith.subi %c15, %j : index
    %v = tensor.extract %x[%i, %jj] : tensor<8x16xf32>
    linalg.yield %v : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// -----

// StableHLO's reverse: the input read at a map that walks backwards. The
// read moves into the body at those indices, and is gathered as above.

// CHECK-LABEL: func.func @reverse_map
// CHECK:         %[[IDS:.*]] = arith.constant dense<"0x{{.*}}"> : tensor<8x16xi64>
// CHECK:         linalg.generic {{.*}} ins(%[[IDS]] : tensor<8x16xi64>) outs(%{{.*}} : tensor<8x16x1xf32>)
// CHECK:           tensor.extract %{{.*}} : tensor<128x1xf32>
func.func @reverse_map(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %e = tensor.empty() : tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, 15 - d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e : tensor<8x16xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg=lnc-size=2 | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func adaptive_pool --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func adaptive_pool_8_to_4 --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func tril --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func weighted_rows --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rope --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE

// Values a body computes from linalg.index and constants alone are
// tabulated at compile time over the loops they vary along and read as
// inputs; a tensor.extract at affine indices becomes an input read at
// that map; a generic whose results are computed apart is split.

// ORACLE: oracle: identical

// torch-mlir's AdaptiveAvgPool2d as VGG-16 emits it (7x7 to 7x7): one
// generic with two results and two reduction loops over the largest
// window; its body computes each window's bounds from linalg.index, reads
// the padded input with tensor.extract and counts the window's elements.
// The window's element is read at (d0, d1, d2 + d4, d3 + d5); the bound
// checks become two tables over d4 and d5 alone (only the window's first
// row and column are inside it); the count (1 everywhere) is a constant
// and the divide by it folds away.

// CHECK-DAG:   #[[WINDOW:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 + d4, d3 + d5)>
// CHECK-DAG:   #[[ROWS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d4)>
// CHECK-DAG:   #[[COLUMNS:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d5)>
// CHECK-LABEL: func.func @adaptive_pool
// CHECK:         %[[INSIDE:.*]] = arith.constant dense<[true, false]> : tensor<2xi1>
// CHECK:         %[[PADDED:.*]] = tensor.pad
// CHECK:         %[[SUM:.*]] = linalg.generic {indexing_maps = [#[[WINDOW]], #[[ROWS]], #[[COLUMNS]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%[[PADDED]], %[[INSIDE]], %[[INSIDE]] : tensor<1x8x8x8xf32>, tensor<2xi1>, tensor<2xi1>) outs(%{{.*}} : tensor<1x8x7x7xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[ROW:.*]]: i1, %[[COLUMN:.*]]: i1, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[A:.*]] = arith.select %[[ROW]], %[[X]], %{{.*}} : f32
// CHECK-NEXT:      %[[B:.*]] = arith.select %[[COLUMN]], %[[A]], %{{.*}} : f32
// CHECK-NEXT:      %[[C:.*]] = arith.addf %[[B]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[C]] : f32
// CHECK-NOT:     linalg.index
// CHECK-NOT:     tensor.extract
// CHECK-NOT:     arith.divf

// BIR-LABEL: bir.kernel @adaptive_pool_kernel
// BIR:         bir.memloc "adaptive_pool___constant_2xi1{{.*}}" input : !bir.dram<2xi8>
// BIR:         bir.tensor_copy_predicated

func.func @adaptive_pool(%x: tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32> {
  %c1 = arith.constant 1 : index
  %cst_0 = arith.constant 0.000000e+00 : f32
  %c7 = arith.constant 7 : index
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst_0 : f32
  } : tensor<1x8x7x7xf32> to tensor<1x8x8x8xf32>
  %51 = tensor.empty() : tensor<2x2xi1>
  %e = tensor.empty() : tensor<1x8x7x7xf32>
  %53 = linalg.fill ins(%cst_0 : f32) outs(%e : tensor<1x8x7x7xf32>) -> tensor<1x8x7x7xf32>
  %e2 = tensor.empty() : tensor<7x7xf32>
  %52 = linalg.fill ins(%cst_0 : f32) outs(%e2 : tensor<7x7xf32>) -> tensor<7x7xf32>
  %54:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%51 : tensor<2x2xi1>) outs(%53, %52 : tensor<1x8x7x7xf32>, tensor<7x7xf32>) {
  ^bb0(%in: i1, %out: f32, %out_31: f32):
    %74 = linalg.index 0 : index
    %75 = linalg.index 1 : index
    %76 = linalg.index 2 : index
    %77 = linalg.index 3 : index
    %78 = linalg.index 4 : index
    %79 = linalg.index 5 : index
    %80 = arith.muli %76, %c7 : index
    %81 = arith.floordivsi %80, %c7 : index
    %82 = arith.addi %76, %c1 : index
    %83 = arith.muli %82, %c7 : index
    %84 = arith.subi %83, %c1 : index
    %85 = arith.floordivsi %84, %c7 : index
    %86 = arith.addi %85, %c1 : index
    %87 = arith.muli %77, %c7 : index
    %88 = arith.floordivsi %87, %c7 : index
    %89 = arith.addi %77, %c1 : index
    %90 = arith.muli %89, %c7 : index
    %91 = arith.subi %90, %c1 : index
    %92 = arith.floordivsi %91, %c7 : index
    %93 = arith.addi %92, %c1 : index
    %94 = arith.addi %81, %78 : index
    %95 = arith.addi %88, %79 : index
    %extracted = tensor.extract %padded[%74, %75, %94, %95] : tensor<1x8x8x8xf32>
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
  } -> (tensor<1x8x7x7xf32>, tensor<7x7xf32>)
  %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54#1 : tensor<7x7xf32>) outs(%54#0 : tensor<1x8x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    %74 = arith.divf %out, %in : f32
    linalg.yield %74 : f32
  } -> tensor<1x8x7x7xf32>
  return %55 : tensor<1x8x7x7xf32>
}

// -----

// The same form from 8x8 to 4x4: windows of 2 at stride 2, every bound
// check true (the selects fold away).

// CHECK-DAG:   #[[STRIDED:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2 * 2 + d4, d3 * 2 + d5)>
// CHECK-LABEL: func.func @adaptive_pool_8_to_4
// CHECK:         linalg.generic {indexing_maps = [#{{.*}}, #[[STRIDED]], #{{.*}}]
// CHECK-NEXT:    ^bb0(%{{.*}}: i1, %[[X:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[S:.*]] = arith.addf %[[X]], %[[ACC]] : f32
// CHECK-NEXT:      linalg.yield %[[S]] : f32
// CHECK:         arith.divf %{{.*}}, %cst : f32

func.func @adaptive_pool_8_to_4(%x: tensor<1x4x8x8xf32>) -> tensor<1x4x4x4xf32> {
  %c1 = arith.constant 1 : index
  %cst_0 = arith.constant 0.000000e+00 : f32
  %cH = arith.constant 8 : index
  %cO = arith.constant 4 : index
  %padded = tensor.pad %x low[0, 0, 0, 0] high[0, 0, 1, 1] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %cst_0 : f32
  } : tensor<1x4x8x8xf32> to tensor<1x4x9x9xf32>
  %51 = tensor.empty() : tensor<2x2xi1>
  %e = tensor.empty() : tensor<1x4x4x4xf32>
  %53 = linalg.fill ins(%cst_0 : f32) outs(%e : tensor<1x4x4x4xf32>) -> tensor<1x4x4x4xf32>
  %e2 = tensor.empty() : tensor<4x4xf32>
  %52 = linalg.fill ins(%cst_0 : f32) outs(%e2 : tensor<4x4xf32>) -> tensor<4x4xf32>
  %54:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d4, d5)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>, affine_map<(d0, d1, d2, d3, d4, d5) -> (d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]} ins(%51 : tensor<2x2xi1>) outs(%53, %52 : tensor<1x4x4x4xf32>, tensor<4x4xf32>) {
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
    %extracted = tensor.extract %padded[%74, %75, %94, %95] : tensor<1x4x9x9xf32>
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
  } -> (tensor<1x4x4x4xf32>, tensor<4x4xf32>)
  %55 = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d2, d3)>, affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%54#1 : tensor<4x4xf32>) outs(%54#0 : tensor<1x4x4x4xf32>) {
  ^bb0(%in: f32, %out: f32):
    %74 = arith.divf %out, %in : f32
    linalg.yield %74 : f32
  } -> tensor<1x4x4x4xf32>
  return %55 : tensor<1x4x4x4xf32>
}

// -----

// torch.tril on data as torch-mlir lowers it: the kept triangle is an i1
// table over the two inner loops, read by a predicated copy.

// CHECK-LABEL: func.func @tril
// CHECK:         %[[KEEP:.*]] = arith.constant dense<{{\[\[}}true, false, false, false, false, false, false, false], [true, true, false,
// CHECK-SAME:      tensor<8x8xi1>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[KEEP]] : tensor<2x8x8xf32>, tensor<8x8xi1>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[K:.*]]: i1, %{{.*}}: f32):
// CHECK-NEXT:      arith.select %[[K]], %[[X]], %{{.*}} : f32

// BIR-LABEL: bir.kernel @tril_kernel
// BIR:         %[[MASK:.*]] = bir.memloc "tril___constant_8x8xi1" input : !bir.dram<8x8xi8>
// BIR:         bir.tensor_copy_predicated %{{.*}}, %{{.*}} if %{{.*}} : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xi8>

func.func @tril(%scores: tensor<2x8x8xf32>) -> tensor<2x8x8xf32> {
  %c0_i64 = arith.constant 0 : i64
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<2x8x8xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%scores : tensor<2x8x8xf32>) outs(%e : tensor<2x8x8xf32>) {
  ^bb0(%in: f32, %out: f32):
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %ii = arith.index_cast %i : index to i64
    %jj = arith.index_cast %j : index to i64
    %diff = arith.subi %jj, %ii : i64
    %keep = arith.cmpi sle, %diff, %c0_i64 : i64
    %v = arith.select %keep, %in, %cst : f32
    linalg.yield %v : f32
  } -> tensor<2x8x8xf32>
  return %r : tensor<2x8x8xf32>
}

// -----

// A weight of the column index (sitofp of index_cast): an f32 table of 32.

// CHECK-LABEL: func.func @weighted_rows
// CHECK:         %[[W:.*]] = arith.constant dense<[0.000000e+00, 1.000000e+00, 2.000000e+00,
// CHECK-SAME:      3.100000e+01]> : tensor<32xf32>
// CHECK:         linalg.generic {{.*}} ins(%{{.*}}, %[[W]] : tensor<16x32xf32>, tensor<32xf32>)
// CHECK-NEXT:    ^bb0(%[[X:.*]]: f32, %[[WJ:.*]]: f32, %[[ACC:.*]]: f32):
// CHECK-NEXT:      %[[P:.*]] = arith.mulf %[[X]], %[[WJ]] : f32
// CHECK-NEXT:      arith.addf %[[P]], %[[ACC]] : f32

func.func @weighted_rows(%x: tensor<16x32xf32>) -> tensor<16xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %e = tensor.empty() : tensor<16xf32>
  %f = linalg.fill ins(%cst : f32) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<16x32xf32>) outs(%f : tensor<16xf32>) {
  ^bb0(%in: f32, %out: f32):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %w = arith.sitofp %jj : i64 to f32
    %p = arith.mulf %in, %w : f32
    %s = arith.addf %p, %out : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %r : tensor<16xf32>
}

// -----

// Rotary embeddings' tables as torch-mlir builds them: positions from
// torch.arange, times the inverse frequencies (a dense constant), then cos
// and sin. Generics that read only constants and their indices fold to
// the tables they compute (upstream's folders, math.cos and math.sin as
// the CPU computes them); only the rotation of the data is left.

// CHECK-LABEL: func.func @rope
// The first row (position 0): cos 1.0 (0x3F800000), sin 0.
// CHECK-DAG:     %[[COS:.*]] = arith.constant dense<"0x0000803F0000803F0000803F0000803F0000803F0000803F0000803F0000803F{{.*}}"> : tensor<16x8xf32>
// CHECK-DAG:     %[[SIN:.*]] = arith.constant dense<"0x0000000000000000000000000000000000000000000000000000000000000000{{.*}}"> : tensor<16x8xf32>
// CHECK-NOT:     math.
// CHECK:         %[[R:.*]] = linalg.generic {{.*}} ins(%arg0, %[[COS]], %arg1, %[[SIN]] :
// CHECK-NOT:     linalg.generic
// CHECK:         return %[[R]]
#p1 = affine_map<(d0) -> (d0)>
#o2 = affine_map<(d0, d1) -> (d0, d1)>
#r2 = affine_map<(d0, d1) -> (d0)>
#c2 = affine_map<(d0, d1) -> (d1)>
func.func @rope(%x: tensor<16x8xf32>, %y: tensor<16x8xf32>) -> tensor<16x8xf32> {
  %inv = arith.constant dense<[1.0, 0.316227764, 0.1, 0.0316227764, 0.01, 0.00316227764, 0.001, 0.000316227764]> : tensor<8xf32>
  %e0 = tensor.empty() : tensor<16xi64>
  %pos = linalg.generic {indexing_maps = [#p1], iterator_types = ["parallel"]} outs(%e0 : tensor<16xi64>) {
  ^bb0(%out: i64):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    linalg.yield %c : i64
  } -> tensor<16xi64>
  %e1 = tensor.empty() : tensor<16x8xf32>
  %ang = linalg.generic {indexing_maps = [#r2, #c2, #o2], iterator_types = ["parallel", "parallel"]} ins(%pos, %inv : tensor<16xi64>, tensor<8xf32>) outs(%e1 : tensor<16x8xf32>) {
  ^bb0(%p: i64, %f: f32, %out: f32):
    %pf = arith.sitofp %p : i64 to f32
    %a = arith.mulf %pf, %f : f32
    linalg.yield %a : f32
  } -> tensor<16x8xf32>
  %cos = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]} ins(%ang : tensor<16x8xf32>) outs(%e1 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %c = math.cos %a : f32
    linalg.yield %c : f32
  } -> tensor<16x8xf32>
  %sin = linalg.generic {indexing_maps = [#o2, #o2], iterator_types = ["parallel", "parallel"]} ins(%ang : tensor<16x8xf32>) outs(%e1 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = math.sin %a : f32
    linalg.yield %s : f32
  } -> tensor<16x8xf32>
  %r = linalg.generic {indexing_maps = [#o2, #o2, #o2, #o2, #o2], iterator_types = ["parallel", "parallel"]} ins(%x, %cos, %y, %sin : tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>, tensor<16x8xf32>) outs(%e1 : tensor<16x8xf32>) {
  ^bb0(%a: f32, %c: f32, %b: f32, %s: f32, %out: f32):
    %m = arith.mulf %a, %c : f32
    %n = arith.mulf %b, %s : f32
    %t = arith.subf %m, %n : f32
    linalg.yield %t : f32
  } -> tensor<16x8xf32>
  return %r : tensor<16x8xf32>
}

// -----

// A lookup of a dense constant table at constant ids (a relative-position
// bias table indexed by a constant index tensor) folds to the rows it reads.

// CHECK-LABEL: func.func @lookup
// CHECK-NEXT:    %[[ROWS:.*]] = arith.constant dense<{{\[\[}}8.000000e+00, 9.000000e+00, 1.000000e+01, 1.100000e+01], [0.000000e+00, 1.000000e+00, 2.000000e+00, 3.000000e+00], [4.000000e+00, 5.000000e+00, 6.000000e+00, 7.000000e+00]]> : tensor<3x4xf32>
// CHECK-NEXT:    return %[[ROWS]]
func.func @lookup() -> tensor<3x4xf32> {
  %table = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0]]> : tensor<3x4xf32>
  %ids = arith.constant dense<[2, 0, 1]> : tensor<3xi64>
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<3xi64>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%id: i64, %o: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<3x4xf32>
    linalg.yield %v : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

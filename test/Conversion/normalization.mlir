// RUN: walrus-opt %s -split-input-file -eliminate-empty-tensors -one-shot-bufferize="bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map" -convert-linalg-to-bir="lnc-size=1" | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func rms_norm --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rms_norm --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rms_norm --bin %walrus_tools --lnc-size 3 --pipeline --lowering-options elementwise-buffers=3 --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rms_norm_keepdim --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func row_share --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func accumulate --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func between --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func too_wide --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-5 --rtol 1e-4 | FileCheck %s --check-prefix=ORACLE

// A row reduction and the ops that normalize by it lower as one nest: per
// row tile the rows are loaded once, reduced (computing the producer from
// them), the per-row ops run on one column, and the normalization reads
// the rows from SBUF, its product by the per-row value on the scalar
// engine (the value its per-partition scale) (docs/LinalgToBir.md, "Normalizations"). Against
// MLIR: the sums are taken in another order.
// ORACLE: oracle: {{identical|within tolerance}}

// RMSNorm as a hand-written layer has it: x * x, a linalg.reduce, the
// per-row rsqrt(mean + eps) as an op of its own, then x * r * g. The sum
// starts from the fill's 0 set in SBUF (the fill is not emitted). 300 rows:
// two full row tiles and 44 rows, each with its own set of tiles
// (normalization-buffers, default 4).
// CHECK-LABEL: bir.kernel @rms_norm_kernel
// CHECK-DAG:   %[[X:.*]] = bir.memloc "rms_norm_arg0" input
// CHECK-DAG:   %[[SUM:.*]] = bir.memloc "rms_norm_buf1" internal : !bir.dram<300xf32>
// CHECK-DAG:   %[[R:.*]] = bir.memloc "rms_norm_buf2" internal : !bir.dram<300xf32>
// CHECK-DAG:   %[[Y:.*]] = bir.memloc "rms_norm_result0" output
// CHECK-DAG:   %[[ROW0:.*]] = bir.memloc "norm_row" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x700xf32>
// CHECK-DAG:   %[[ROW1:.*]] = bir.memloc "norm_row_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x700xf32>
// CHECK-DAG:   %[[ROW2:.*]] = bir.memloc "norm_row_2" internal {bir.rotating = 2 : i64} : !bir.sbuf<128x700xf32>
// CHECK-NOT:   bir.dma %[[SUM]][{{.*}}], %{{.*}}[#bir.ap<0, {{\[\[}}300, 1], [1, 300]]>]
// CHECK:       bir.dma %[[G:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %rms_norm_arg1[#bir.ap<0, {{\[\[}}0, 128], [1, 700]]>]
// CHECK-NEXT:  bir.dma %[[ROW0]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %[[X]][#bir.sap<()[s0] -> (s0 * 89600), {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.memset %[[ACC:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], 0.000000e+00
// CHECK-NEXT:  bir.activation square %[[SQ:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %[[ROW0]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.tensor_reduce add %[[PART:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[SQ]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.tensor_tensor add %[[ACC]][{{.*}}], %[[ACC]][{{.*}}], %[[PART]]
// CHECK-NEXT:  bir.dma %[[SUM]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>], %[[ACC]]
// CHECK-NEXT:  bir.tensor_scalar multiply %[[MEAN:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[ACC]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:  bir.tensor_scalar add %[[SHIFTED:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[MEAN]]
// CHECK-NEXT:  bir.activation rsqrt %[[RS:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[SHIFTED]]
// CHECK-NEXT:  bir.dma %[[R]][#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>], %[[RS]]
// CHECK-NEXT:  bir.activation identity %[[XR:[a-z0-9_]+]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %[[ROW0]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>] scales %[[RS]][#bir.ap<0, {{\[\[}}1, 128], [0, 700]]>]
// CHECK-NEXT:  bir.tensor_tensor multiply %[[OUT:[a-z0-9_]+]][{{.*}}], %[[XR]][{{.*}}], %[[G]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NEXT:  bir.dma %[[Y]][#bir.sap<()[s0] -> (s0 * 89600), {{\[\[}}700, 128], [1, 700]]>], %[[OUT]]
// The next row tile loads its rows into the other set; x is read once.
// CHECK-NEXT:  bir.dma %[[ROW1]][#bir.ap<0, {{\[\[}}700, 128], [1, 700]]>], %[[X]][#bir.sap<()[s0] -> (s0 * 89600 + 89600), {{\[\[}}700, 128], [1, 700]]>]
// CHECK-NOT:   %[[X]]
// CHECK:       bir.dma %[[ROW2]][#bir.ap<0, {{\[\[}}700, 44], [1, 700]]>], %[[X]][#bir.ap<179200, {{\[\[}}700, 44], [1, 700]]>]
// CHECK-NOT:   %[[X]]
// CHECK:       bir.dma %[[Y]][#bir.ap<179200, {{\[\[}}700, 44], [1, 700]]>]
func.func @rms_norm(%x: tensor<300x700xf32>, %g: tensor<700xf32>) -> tensor<300x700xf32> {
  %zero = arith.constant 0.0 : f32
  %eps = arith.constant 1.0e-5 : f32
  %inv = arith.constant 0.00142857142 : f32
  %e0 = tensor.empty() : tensor<300x700xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<300x700xf32>) outs(%e0 : tensor<300x700xf32>) {
  ^bb0(%a: f32, %out: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<300x700xf32>
  %e1 = tensor.empty() : tensor<300xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<300xf32>) -> tensor<300xf32>
  %sum = linalg.reduce ins(%sq : tensor<300x700xf32>) outs(%f : tensor<300xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e2 = tensor.empty() : tensor<300xf32>
  %rs = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%sum : tensor<300xf32>) outs(%e2 : tensor<300xf32>) {
  ^bb0(%a: f32, %out: f32):
    %m = arith.mulf %a, %inv : f32
    %s = arith.addf %m, %eps : f32
    %r = math.rsqrt %s : f32
    linalg.yield %r : f32
  } -> tensor<300xf32>
  %e3 = tensor.empty() : tensor<300x700xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %rs, %g : tensor<300x700xf32>, tensor<300xf32>, tensor<700xf32>) outs(%e3 : tensor<300x700xf32>) {
  ^bb0(%a: f32, %r: f32, %w: f32, %out: f32):
    %s = arith.mulf %a, %r : f32
    %o = arith.mulf %s, %w : f32
    linalg.yield %o : f32
  } -> tensor<300x700xf32>
  return %y : tensor<300x700xf32>
}

// -----

// RMSNorm as torch-mlir writes it (the zoo's llama layer): the sum kept as
// a column (keepdim), and the per-row rsqrt inside the normalization's own
// body. Those per-row values are computed once per row, on one column.
// CHECK-LABEL: bir.kernel @rms_norm_keepdim_kernel
// CHECK:       bir.activation square %[[SQ:[a-z0-9_]+]][{{.*}}], %[[ROW:norm_row[_0-9]*]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>]
// CHECK-NEXT:  bir.tensor_reduce add %[[PART:[a-z0-9_]+]][{{.*}}], %[[SQ]]
// CHECK-NEXT:  bir.tensor_tensor add %[[ACC:[a-z0-9_]+]][{{.*}}], %[[ACC]][{{.*}}], %[[PART]]
// CHECK-NEXT:  bir.dma %{{.*}}, %[[ACC]]
// CHECK-NEXT:  bir.tensor_scalar divide %[[MEAN:t_row[_0-9]*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[ACC]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], 9.600000e+01
// CHECK-NEXT:  bir.tensor_scalar add %[[SHIFTED:t_row[_0-9]*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[MEAN]]
// CHECK-NEXT:  bir.activation rsqrt %[[RS:t_row[_0-9]*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %[[SHIFTED]]
// CHECK-NEXT:  bir.activation identity %{{.*}}, %[[ROW]][#bir.ap<0, {{\[\[}}96, 128], [1, 96]]>] scales %[[RS]][#bir.ap<0, {{\[\[}}1, 128], [0, 96]]>]
func.func @rms_norm_keepdim(%x: tensor<2x150x96xf32>, %w: tensor<96xf32>) -> tensor<2x150x96xf32> {
  %zero = arith.constant 0.0 : f32
  %n = arith.constant 96.0 : f32
  %eps = arith.constant 1.0e-6 : f32
  %e0 = tensor.empty() : tensor<2x150x96xf32>
  %sq = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x : tensor<2x150x96xf32>) outs(%e0 : tensor<2x150x96xf32>) {
  ^bb0(%a: f32, %out: f32):
    %q = arith.mulf %a, %a : f32
    linalg.yield %q : f32
  } -> tensor<2x150x96xf32>
  %e1 = tensor.empty() : tensor<2x150x1xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2x150x1xf32>) -> tensor<2x150x1xf32>
  %sum = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>], iterator_types = ["parallel", "parallel", "reduction"]} ins(%sq : tensor<2x150x96xf32>) outs(%f : tensor<2x150x1xf32>) {
  ^bb0(%a: f32, %out: f32):
    %s = arith.addf %a, %out : f32
    linalg.yield %s : f32
  } -> tensor<2x150x1xf32>
  %e2 = tensor.empty() : tensor<2x150x96xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, 0)>, affine_map<(d0, d1, d2) -> (d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>], iterator_types = ["parallel", "parallel", "parallel"]} ins(%x, %sum, %w : tensor<2x150x96xf32>, tensor<2x150x1xf32>, tensor<96xf32>) outs(%e2 : tensor<2x150x96xf32>) {
  ^bb0(%a: f32, %s: f32, %g: f32, %out: f32):
    %m = arith.divf %s, %n : f32
    %me = arith.addf %m, %eps : f32
    %r = math.rsqrt %me : f32
    %xr = arith.mulf %a, %r : f32
    %o = arith.mulf %xr, %g : f32
    linalg.yield %o : f32
  } -> tensor<2x150x96xf32>
  return %y : tensor<2x150x96xf32>
}

// -----

// No producer: the rows themselves are summed, and each element divided by
// its row's sum; the reduction reads the rows in SBUF.
// CHECK-LABEL: bir.kernel @row_share_kernel
// CHECK:       bir.dma %[[ROW:norm_row[_0-9]*]][#bir.ap<0, {{\[\[}}300, 128], [1, 300]]>], %row_share_arg0
// CHECK:       bir.tensor_reduce add %{{.*}}, %[[ROW]][#bir.ap<0, {{\[\[}}300, 128], [1, 300]]>]
// CHECK:       bir.tensor_tensor divide %{{.*}}, %[[ROW]][#bir.ap<0, {{\[\[}}300, 128], [1, 300]]>], %{{.*}}[#bir.ap<0, {{\[\[}}1, 128], [0, 300]]>]
func.func @row_share(%x: tensor<200x300xf32>) -> tensor<200x300xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<200xf32>) -> tensor<200xf32>
  %sum = linalg.reduce ins(%x : tensor<200x300xf32>) outs(%f : tensor<200xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e2 = tensor.empty() : tensor<200x300xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<200x300xf32>, tensor<200xf32>) outs(%e2 : tensor<200x300xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %o = arith.divf %a, %s : f32
    linalg.yield %o : f32
  } -> tensor<200x300xf32>
  return %y : tensor<200x300xf32>
}

// -----

// A reduction into a buffer that holds values already: each row tile's sum
// starts from the buffer's rows, loaded.
// CHECK-LABEL: bir.kernel @accumulate_kernel
// CHECK:       bir.dma %[[ROW:norm_row[_0-9]*]][#bir.ap<0, {{\[\[}}300, 128], [1, 300]]>], %accumulate_arg0
// CHECK-NEXT:  bir.dma %[[ACC:red_acc[_0-9]*]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], %accumulate_arg1[#bir.sap<()[s0] -> (s0 * 128), {{\[\[}}1, 128], [1, 1]]>]
// CHECK-NEXT:  bir.tensor_reduce add %{{.*}}, %[[ROW]]
func.func @accumulate(%x: tensor<200x300xf32>, %start: tensor<200xf32>) -> tensor<200x300xf32> {
  %sum = linalg.reduce ins(%x : tensor<200x300xf32>) outs(%start : tensor<200xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e2 = tensor.empty() : tensor<200x300xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<200x300xf32>, tensor<200xf32>) outs(%e2 : tensor<200x300xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %o = arith.subf %a, %s : f32
    linalg.yield %o : f32
  } -> tensor<200x300xf32>
  return %y : tensor<200x300xf32>
}

// -----

// Rows of 16000 f32 (62.5 KiB): three sets of rows do not fit beside the
// tiles, two do.
// CHECK-LABEL: bir.kernel @wide_rows_kernel
// CHECK:       bir.memloc "norm_row" internal {bir.rotating = 0 : i64} : !bir.sbuf<128x16000xf32>
// CHECK:       bir.memloc "norm_row_1" internal {bir.rotating = 1 : i64} : !bir.sbuf<128x16000xf32>
// CHECK-NOT:   norm_row_2
func.func @wide_rows(%x: tensor<400x16000xf32>) -> tensor<400x16000xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<400xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<400xf32>) -> tensor<400xf32>
  %sum = linalg.reduce ins(%x : tensor<400x16000xf32>) outs(%f : tensor<400xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e2 = tensor.empty() : tensor<400x16000xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<400x16000xf32>, tensor<400xf32>) outs(%e2 : tensor<400x16000xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %o = arith.divf %a, %s : f32
    linalg.yield %o : f32
  } -> tensor<400x16000xf32>
  return %y : tensor<400x16000xf32>
}

// -----

// Not one nest: another op lowers between the reduction and the
// normalization, and rows of 50000 f32 (195 KiB) do not fit beside the
// tiles. Each op lowers on its own: the reduction loads its input.
// CHECK-LABEL: bir.kernel @between_kernel
// CHECK-NOT:   norm_row
// CHECK:       bir.memloc "red_in"
// CHECK-NOT:   norm_row
// CHECK-LABEL: bir.kernel @too_wide_kernel
// CHECK-NOT:   norm_row
// CHECK:       bir.memloc "red_in"
// CHECK-NOT:   norm_row
func.func @between(%x: tensor<200x300xf32>, %z: tensor<200x300xf32>) -> (tensor<200x300xf32>, tensor<200x300xf32>) {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<200xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<200xf32>) -> tensor<200xf32>
  %sum = linalg.reduce ins(%x : tensor<200x300xf32>) outs(%f : tensor<200xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e3 = tensor.empty() : tensor<200x300xf32>
  %neg = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%z : tensor<200x300xf32>) outs(%e3 : tensor<200x300xf32>) {
  ^bb0(%a: f32, %out: f32):
    %o = arith.negf %a : f32
    linalg.yield %o : f32
  } -> tensor<200x300xf32>
  %e2 = tensor.empty() : tensor<200x300xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<200x300xf32>, tensor<200xf32>) outs(%e2 : tensor<200x300xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %o = arith.divf %a, %s : f32
    linalg.yield %o : f32
  } -> tensor<200x300xf32>
  return %y, %neg : tensor<200x300xf32>, tensor<200x300xf32>
}

// -----

func.func @too_wide(%x: tensor<2x50000xf32>) -> tensor<2x50000xf32> {
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e1 : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.reduce ins(%x : tensor<2x50000xf32>) outs(%f : tensor<2xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %c = arith.addf %in, %acc : f32
      linalg.yield %c : f32
    }
  %e2 = tensor.empty() : tensor<2x50000xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%x, %sum : tensor<2x50000xf32>, tensor<2xf32>) outs(%e2 : tensor<2x50000xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %o = arith.subf %a, %s : f32
    linalg.yield %o : f32
  } -> tensor<2x50000xf32>
  return %y : tensor<2x50000xf32>
}

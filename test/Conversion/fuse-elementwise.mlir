// RUN: walrus-opt %s -fuse-elementwise | FileCheck %s
// RUN: walrus-opt %s -fuse-elementwise=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXPLAIN
// RUN: walrus-opt %s -fuse-elementwise=max-body-ops=4 | FileCheck %s --check-prefix=LIMIT
// RUN: %python %utils/linalg_oracle.py %s --func silu --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func shared --bin %walrus_tools --lnc-size 2 --pipeline --atol 1e-6 --rtol 1e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func softmax_rows --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func rms_rows --bin %walrus_tools --lnc-size 1 --pipeline --atol 1e-6 --rtol 1e-5 | FileCheck %s --check-prefix=ORACLE

// ORACLE: oracle: {{identical|within tolerance}}

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0, 0)>
#keep = affine_map<(d0, d1) -> (d0, 0)>

// silu as torch-mlir writes it (neg, exp, add 1, divide): one generic that
// reads x once.
// CHECK-LABEL: func.func @silu
// CHECK-COUNT-1: linalg.generic
// CHECK-SAME:      ins(%{{.*}} : tensor<200x300xf32>)
// CHECK:           arith.negf
// CHECK-NEXT:      math.exp
// CHECK-NEXT:      arith.addf
// CHECK-NEXT:      arith.divf
// CHECK-NOT:     linalg.generic
// CHECK:         return
// Each fusion is a remark at the op fused into, noting the op fused in:
// the divide takes the add, then the exp, then the negate.
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+30]]:8: remark: fuse-elementwise: fused an elementwise op into this one
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+24]]:10: note: the op fused in
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+28]]:8: remark: fuse-elementwise: fused an elementwise op into this one
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+17]]:10: note: the op fused in
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+26]]:8: remark: fuse-elementwise: fused an elementwise op into this one
// EXPLAIN: fuse-elementwise.mlir:[[#@LINE+10]]:10: note: the op fused in
// At most 4 body ops (a yield counts): the add fuses into the divide and
// the negate into the exp, but those two (3 ops each) stay apart.
// LIMIT-LABEL: func.func @silu
// LIMIT-COUNT-2: linalg.generic
// LIMIT-NOT:     linalg.generic
// LIMIT:         return
func.func @silu(%x: tensor<200x300xf32>) -> tensor<200x300xf32> {
  %one = arith.constant 1.0 : f32
  %e0 = tensor.empty() : tensor<200x300xf32>
  %neg = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<200x300xf32>) outs(%e0 : tensor<200x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.negf %in : f32
    linalg.yield %r : f32
  } -> tensor<200x300xf32>
  %exp = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%neg : tensor<200x300xf32>) outs(%e0 : tensor<200x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.exp %in : f32
    linalg.yield %r : f32
  } -> tensor<200x300xf32>
  %den = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%exp : tensor<200x300xf32>) outs(%e0 : tensor<200x300xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %one, %in : f32
    linalg.yield %r : f32
  } -> tensor<200x300xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %den : tensor<200x300xf32>, tensor<200x300xf32>) outs(%e0 : tensor<200x300xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<200x300xf32>
  return %y : tensor<200x300xf32>
}

// A result two elementwise ops read is computed in each; it goes.
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @shared(%x: tensor<256x64xf32>, %y: tensor<256x64xf32>) -> (tensor<256x64xf32>, tensor<256x64xf32>) {
  %e0 = tensor.empty() : tensor<256x64xf32>
  %sum = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<256x64xf32>, tensor<256x64xf32>) outs(%e0 : tensor<256x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<256x64xf32>
  %twice = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<256x64xf32>) outs(%e0 : tensor<256x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<256x64xf32>
  %square = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<256x64xf32>) outs(%e0 : tensor<256x64xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<256x64xf32>
  return %twice, %square : tensor<256x64xf32>, tensor<256x64xf32>
}

// softmax as torch-mlir decomposes it: exp(x - max) is read by the sum (a
// reduction) and by the division, so it stays; nothing fuses.
// CHECK-LABEL: func.func @softmax_rows
// CHECK-COUNT-4: linalg.generic
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @softmax_rows(%x: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<128x1xf32>
  %minit = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<128x1xf32>) -> tensor<128x1xf32>
  %max = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%x : tensor<128x96xf32>) outs(%minit : tensor<128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.maximumf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  %e0 = tensor.empty() : tensor<128x96xf32>
  %exp = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %max : tensor<128x96xf32>, tensor<128x1xf32>) outs(%e0 : tensor<128x96xf32>) {
  ^bb0(%a: f32, %m: f32, %out: f32):
    %d = arith.subf %a, %m : f32
    %r = math.exp %d : f32
    linalg.yield %r : f32
  } -> tensor<128x96xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x1xf32>) -> tensor<128x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%exp : tensor<128x96xf32>) outs(%sinit : tensor<128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%exp, %sum : tensor<128x96xf32>, tensor<128x1xf32>) outs(%e0 : tensor<128x96xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<128x96xf32>
  return %y : tensor<128x96xf32>
}

// RMS normalisation: the square and the division by the width fuse (the
// sum reads only their product); the square root, read by the division
// through a broadcast (d0, 0), stays.
// CHECK-LABEL: func.func @rms_rows
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "parallel"]
// CHECK:           arith.mulf
// CHECK-NEXT:      arith.divf
// CHECK:         linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:         math.sqrt
// CHECK:         linalg.generic
// CHECK:           arith.divf
// CHECK-NOT:     linalg.generic
// CHECK:         return
func.func @rms_rows(%x: tensor<128x96xf32>) -> tensor<128x96xf32> {
  %zero = arith.constant 0.0 : f32
  %width = arith.constant 96.0 : f32
  %e0 = tensor.empty() : tensor<128x96xf32>
  %sq = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<128x96xf32>) outs(%e0 : tensor<128x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.mulf %in, %in : f32
    linalg.yield %r : f32
  } -> tensor<128x96xf32>
  %scaled = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sq : tensor<128x96xf32>) outs(%e0 : tensor<128x96xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.divf %in, %width : f32
    linalg.yield %r : f32
  } -> tensor<128x96xf32>
  %e1 = tensor.empty() : tensor<128x1xf32>
  %sinit = linalg.fill ins(%zero : f32) outs(%e1 : tensor<128x1xf32>) -> tensor<128x1xf32>
  %sum = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]} ins(%scaled : tensor<128x96xf32>) outs(%sinit : tensor<128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = arith.addf %in, %out : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  %rms = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%sum : tensor<128x1xf32>) outs(%e1 : tensor<128x1xf32>) {
  ^bb0(%in: f32, %out: f32):
    %r = math.sqrt %in : f32
    linalg.yield %r : f32
  } -> tensor<128x1xf32>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %rms : tensor<128x96xf32>, tensor<128x1xf32>) outs(%e0 : tensor<128x96xf32>) {
  ^bb0(%a: f32, %s: f32, %out: f32):
    %r = arith.divf %a, %s : f32
    linalg.yield %r : f32
  } -> tensor<128x96xf32>
  return %y : tensor<128x96xf32>
}

// A gather (an embedding row read with tensor.extract) stays as it is: the
// lowering reads that form; the add of the position table is not fused in.
// CHECK-LABEL: func.func @embedding_plus_position
// CHECK:         linalg.generic
// CHECK:           tensor.extract
// CHECK:         linalg.generic
// CHECK:           arith.addf
// CHECK:         return
func.func @embedding_plus_position(%ids: tensor<4xi64>, %table: tensor<10x8xf32>, %pos: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %e0 = tensor.empty() : tensor<4x8xf32>
  %rows = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, #id], iterator_types = ["parallel", "parallel"]} ins(%ids : tensor<4xi64>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%id: i64, %out: f32):
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<10x8xf32>
    linalg.yield %v : f32
  } -> tensor<4x8xf32>
  %y = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]} ins(%rows, %pos : tensor<4x8xf32>, tensor<4x8xf32>) outs(%e0 : tensor<4x8xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x8xf32>
  return %y : tensor<4x8xf32>
}

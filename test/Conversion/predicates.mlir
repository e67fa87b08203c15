// RUN: walrus-opt %s -split-input-file -walrus-from-linalg | FileCheck %s
// RUN: %python %utils/linalg_oracle.py %s --func attention_mask --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func pick_larger --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func band --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func folded_batchnorm --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func keep_signed_zero --bin %walrus_tools | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func constants_only --bin %walrus_tools | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func causal_buffer --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func nan_to_zero --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func bool_to_float --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func nan_aware_compares --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=ORACLE

// Comparisons and selects as frontends write them, each against MLIR
// running it as written (docs/LinalgToBir.md, "Predicates").
// ORACLE: oracle: identical

// torch-mlir's BERT attention mask: one generic compares into a
// tensor<...xi1>, another selects by it. The compare is fused into the
// select (the mask never goes to memory), written as bytes 1 / 0 by the
// vector engine; the select sets the constant side and copies the scores
// where the mask is 0 (reverse).
// CHECK-LABEL: bir.kernel @attention_mask_kernel
// CHECK:         bir.tensor_scalar is_equal %[[MASK:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %[[IN:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], 0.000000e+00 : !bir.sbuf<128x128xi8>, !bir.sbuf<128x128xf32>
// CHECK:         bir.memset %[[OUT:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], -3.4028234663852886E+38 : !bir.sbuf<128x128xf32>
// CHECK-NEXT:    bir.tensor_copy_predicated %[[OUT]][{{.*}}], %[[SCORES:[a-z_0-9]+]][{{.*}}] if %[[MASK]][{{.*}}] reverse : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xi8>
#m0 = affine_map<(d0, d1) -> (d0, d1)>
func.func @attention_mask(%scores: tensor<128x128xf32>, %mask: tensor<128x128xf32>) -> tensor<128x128xf32> {
  %cst = arith.constant 0.000000e+00 : f32
  %min = arith.constant -3.40282347E+38 : f32
  %0 = tensor.empty() : tensor<128x128xi1>
  %1 = linalg.generic {indexing_maps = [#m0, #m0], iterator_types = ["parallel", "parallel"]} ins(%mask : tensor<128x128xf32>) outs(%0 : tensor<128x128xi1>) {
  ^bb0(%in: f32, %out: i1):
    %5 = arith.cmpf oeq, %in, %cst : f32
    linalg.yield %5 : i1
  } -> tensor<128x128xi1>
  %2 = tensor.empty() : tensor<128x128xf32>
  %3 = linalg.generic {indexing_maps = [#m0, #m0, #m0], iterator_types = ["parallel", "parallel"]} ins(%1, %scores : tensor<128x128xi1>, tensor<128x128xf32>) outs(%2 : tensor<128x128xf32>) {
  ^bb0(%in: i1, %in_0: f32, %out: f32):
    %5 = arith.select %in, %min, %in_0 : f32
    linalg.yield %5 : f32
  } -> tensor<128x128xf32>
  return %3 : tensor<128x128xf32>
}

// -----

// select(x ugt y, x, y) of two tensors: ugt is "not ole", so the vector
// engine's is_le is negated (1 - p); y is copied, then x where p.
// CHECK-LABEL: bir.kernel @pick_larger_kernel
// CHECK:         bir.tensor_tensor is_le %[[P:[a-z_0-9]+]][{{.*}}], %[[X:[a-z_0-9]+]][{{.*}}], %[[Y:[a-z_0-9]+]][{{.*}}] : !bir.sbuf<100x64xi8>, !bir.sbuf<100x64xf32>, !bir.sbuf<100x64xf32>
// CHECK-NEXT:    bir.tensor_scalar subtract %[[P]][{{.*}}], %[[P]][{{.*}}], 1 reverse : !bir.sbuf<100x64xi8>, !bir.sbuf<100x64xi8>
// CHECK-NEXT:    bir.tensor_copy %[[OUT:[a-z_0-9]+]][{{.*}}], %[[Y]][{{.*}}] :
// CHECK-NEXT:    bir.tensor_copy_predicated %[[OUT]][{{.*}}], %[[X]][{{.*}}] if %[[P]][{{.*}}] : !bir.sbuf<100x64xf32>, !bir.sbuf<100x64xf32>, !bir.sbuf<100x64xi8>
#m1 = affine_map<(d0, d1) -> (d0, d1)>
func.func @pick_larger(%x: tensor<100x64xf32>, %y: tensor<100x64xf32>) -> tensor<100x64xf32> {
  %0 = tensor.empty() : tensor<100x64xf32>
  %1 = linalg.generic {indexing_maps = [#m1, #m1, #m1], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<100x64xf32>, tensor<100x64xf32>) outs(%0 : tensor<100x64xf32>) {
  ^bb0(%a: f32, %b: f32, %out: f32):
    %c = arith.cmpf ugt, %a, %b : f32
    %5 = arith.select %c, %a, %b : f32
    linalg.yield %5 : f32
  } -> tensor<100x64xf32>
  return %1 : tensor<100x64xf32>
}

// -----

// A band of integers, lo < x (upstream's folders write x > lo) or
// x == lo, and x < hi: or and and of bytes 1 / 0 are max and min; a
// select of two constants sets both (the true side in a tile of its own).
// CHECK-LABEL: bir.kernel @band_kernel
// CHECK:         bir.tensor_scalar is_gt %[[BELOW:[a-z_0-9]+]][{{.*}}], %[[X:[a-z_0-9]+]][{{.*}}], 2 : !bir.sbuf<64x32xi8>, !bir.sbuf<64x32xi32>
// CHECK-NEXT:    bir.tensor_scalar is_equal %[[AT:[a-z_0-9]+]][{{.*}}], %[[X]][{{.*}}], 2 : !bir.sbuf<64x32xi8>, !bir.sbuf<64x32xi32>
// CHECK-NEXT:    bir.tensor_tensor max %[[FROM:[a-z_0-9]+]][{{.*}}], %[[BELOW]][{{.*}}], %[[AT]][{{.*}}] : !bir.sbuf<64x32xi8>
// CHECK-NEXT:    bir.tensor_scalar is_lt %[[UNDER:[a-z_0-9]+]][{{.*}}], %[[X]][{{.*}}], 9 : !bir.sbuf<64x32xi8>
// CHECK-NEXT:    bir.tensor_tensor min %[[IN:[a-z_0-9]+]][{{.*}}], %[[FROM]][{{.*}}], %[[UNDER]][{{.*}}] : !bir.sbuf<64x32xi8>
// CHECK-NEXT:    bir.memset %[[OUT:[a-z_0-9]+]][{{.*}}], 0.000000e+00 : !bir.sbuf<64x32xf32>
// CHECK-NEXT:    bir.memset %[[ONE:[a-z_0-9]+]][{{.*}}], 1.000000e+00 : !bir.sbuf<64x32xf32>
// CHECK-NEXT:    bir.tensor_copy_predicated %[[OUT]][{{.*}}], %[[ONE]][{{.*}}] if %[[IN]][{{.*}}] :
#m2 = affine_map<(d0, d1) -> (d0, d1)>
func.func @band(%x: tensor<64x32xi32>) -> tensor<64x32xf32> {
  %lo = arith.constant 2 : i32
  %hi = arith.constant 9 : i32
  %one = arith.constant 1.000000e+00 : f32
  %zero = arith.constant 0.000000e+00 : f32
  %0 = tensor.empty() : tensor<64x32xf32>
  %1 = linalg.generic {indexing_maps = [#m2, #m2], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<64x32xi32>) outs(%0 : tensor<64x32xf32>) {
  ^bb0(%in: i32, %out: f32):
    %below = arith.cmpi slt, %lo, %in : i32
    %at = arith.cmpi eq, %in, %lo : i32
    %from = arith.ori %below, %at : i1
    %under = arith.cmpi slt, %in, %hi : i32
    %inside = arith.andi %from, %under : i1
    %5 = arith.select %inside, %one, %zero : f32
    linalg.yield %5 : f32
  } -> tensor<64x32xf32>
  return %1 : tensor<64x32xf32>
}

// -----

// torch-mlir's BatchNorm with running statistics that are splat constants
// (a freshly initialised model: mean 0, variance 1): once they are read
// as constants, 1 + eps folds (in f32, as the CPU adds) and rsqrt of it
// has no tensor operand: it is computed on the engines as any other value
// is, from a one-column tile set to 1 + eps.
// CHECK-LABEL: bir.kernel @folded_batchnorm_kernel
// CHECK:         bir.memset %[[VAR:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}1, 128], [1, 1]]>], 1.0000100135803223 : !bir.sbuf<128x1xf32>
// CHECK-NEXT:    bir.activation rsqrt %[[R:[a-z_0-9]+]][{{.*}}], %[[VAR]][{{.*}}] : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
// CHECK-NEXT:    bir.activation identity %{{.*}}, %{{.*}} scales %[[R]][#bir.ap<0, {{\[\[}}1, 128], [0, 8]]>]
#m3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#m3c = affine_map<(d0, d1, d2, d3) -> (d1)>
func.func @folded_batchnorm(%x: tensor<1x16x8x8xf32>) -> tensor<1x16x8x8xf32> {
  %eps = arith.constant 1.000000e-05 : f64
  %zeros = arith.constant dense<0.000000e+00> : tensor<16xf32>
  %ones = arith.constant dense<1.000000e+00> : tensor<16xf32>
  %0 = linalg.generic {indexing_maps = [#m3, #m3c, #m3c, #m3c, #m3c, #m3], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%x, %ones, %zeros, %zeros, %ones : tensor<1x16x8x8xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>, tensor<16xf32>) outs(%x : tensor<1x16x8x8xf32>) {
  ^bb0(%in: f32, %in_w: f32, %in_b: f32, %in_m: f32, %in_v: f32, %out: f32):
    %1 = arith.truncf %eps : f64 to f32
    %2 = arith.addf %in_v, %1 : f32
    %3 = math.rsqrt %2 : f32
    %4 = arith.subf %in, %in_m : f32
    %5 = arith.mulf %4, %3 : f32
    %6 = arith.mulf %5, %in_w : f32
    %7 = arith.addf %6, %in_b : f32
    linalg.yield %7 : f32
  } -> tensor<1x16x8x8xf32>
  return %0 : tensor<1x16x8x8xf32>
}

// -----

// select(x < 0, 0, x) keeps x = -0 where max(x, 0) gives +0: not a max,
// but a select as written (the oracle's inputs hold -0).
// CHECK-LABEL: bir.kernel @keep_signed_zero_kernel
// CHECK:         bir.tensor_scalar is_lt %[[NEG:[a-z_0-9]+]][{{.*}}], %[[X:[a-z_0-9]+]][{{.*}}], 0.000000e+00 :
// CHECK-NEXT:    bir.memset %[[OUT:[a-z_0-9]+]][{{.*}}], 0.000000e+00 :
// CHECK-NEXT:    bir.tensor_copy_predicated %[[OUT]][{{.*}}], %[[X]][{{.*}}] if %[[NEG]][{{.*}}] reverse :
func.func @keep_signed_zero(%x: memref<8x8xf32>, %y: memref<8x8xf32>) {
  %zero = arith.constant 0.000000e+00 : f32
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<8x8xf32>) outs(%y : memref<8x8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = arith.cmpf olt, %a, %zero : f32
    %s = arith.select %p, %zero, %a : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A value of constants alone folds (normalize-linalg): the output is set.
// CHECK-LABEL: bir.kernel @constants_only_kernel
// CHECK:         bir.memset %[[OUT:[a-z_0-9]+]][#bir.ap<0, {{\[\[}}8, 8], [1, 8]]>], 4.000000e+00 : !bir.sbuf<8x8xf32>
// CHECK-NEXT:    bir.dma %{{.*}}, %[[OUT]]
func.func @constants_only(%y: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%y : memref<8x8xf32>) {
  ^bb0(%o: f32):
    %c = arith.constant 2.0 : f32
    %d = arith.addf %c, %c : f32
    linalg.yield %d : f32
  }
  return
}

// -----

// GPT-2's causal-mask buffer: a boolean weight. It is a DRAM tensor of
// bytes 0 / 1 (as LLVM stores a memref of i1; MLIR's constant packs bits,
// walrus-run unpacks them), loaded and read as the select's predicate.
// CHECK-LABEL: func.func @causal_buffer
// CHECK:         %[[MASK:.*]] = memref.get_global @{{.*}} : memref<8x8xi1>
// CHECK:         bir.launch @causal_buffer_kernel(%{{.*}}, %[[MASK]], %{{.*}}) : memref<8x8xf32>, memref<8x8xi1>, memref<8x8xf32>
// CHECK:         bir.memloc "causal_buffer___constant_8x8xi1{{.*}}" input : !bir.dram<8x8xi8>
// CHECK:         bir.tensor_copy_predicated %{{.*}} if %{{.*}} : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xi8>
func.func @causal_buffer(%scores: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %mask = arith.constant dense<[[true, false, false, false, false, false, false, false], [true, true, false, false, false, false, false, false], [true, true, true, false, false, false, false, false], [true, true, true, true, false, false, false, false], [true, true, true, true, true, false, false, false], [true, true, true, true, true, true, false, false], [true, true, true, true, true, true, true, false], [true, true, true, true, true, true, true, true]]> : tensor<8x8xi1>
  %min = arith.constant -3.40282347E+38 : f32
  %e = tensor.empty() : tensor<8x8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%mask, %scores : tensor<8x8xi1>, tensor<8x8xf32>) outs(%e : tensor<8x8xf32>) {
  ^bb0(%m: i1, %s: f32, %o: f32):
    %r = arith.select %m, %s, %min : f32
    linalg.yield %r : f32
  } -> tensor<8x8xf32>
  return %y : tensor<8x8xf32>
}

// -----

// torch.nan_to_num as torch-mlir writes it: `cmpf uno` of a value with
// itself (is it NaN), then select. sqrt of the inputs in [-1, 1) is NaN for
// half of them; each becomes 0. uno is 1 - (x == x).
// CHECK-LABEL: func.func @nan_to_zero
// CHECK:         bir.activation sqrt
// CHECK:         bir.tensor_tensor is_equal %[[T:[a-z_0-9]*]][{{.*}}], %[[X:[a-z_0-9]*]][{{.*}}], %[[X]][
// CHECK:         bir.tensor_scalar subtract %[[T]][{{.*}}], %[[T]][{{.*}}], 1 reverse
func.func @nan_to_zero(%x: tensor<16x32xf32>) -> tensor<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x32xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<16x32xf32>) outs(%e : tensor<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %l = math.sqrt %a : f32
    %nan = arith.cmpf uno, %l, %l : f32
    %r = arith.select %nan, %zero, %l : f32
    linalg.yield %r : f32
  } -> tensor<16x32xf32>
  return %y : tensor<16x32xf32>
}

// -----

// A boolean as a number: torch's mask.to(float) is `uitofp` (0 or 1, the
// byte as stored); `sitofp` of i1 is 0 or -1 (a true i1 is -1 signed), so
// its byte is negated: 0 - b. Before, sitofp of i1 read the byte as is.
// CHECK-LABEL: bir.kernel @bool_to_float_kernel
// CHECK:         bir.activation identity %{{.*}} : !bir.sbuf<8x16xf32>, !bir.sbuf<8x16xi8>
// CHECK:         bir.activation identity %[[S:[a-z_0-9]+]][{{.*}}], %{{.*}} : !bir.sbuf<8x16xf32>, !bir.sbuf<8x16xi8>
// CHECK-NEXT:    bir.tensor_scalar subtract %[[S]][{{.*}}], %[[S]][{{.*}}], 0 reverse
func.func @bool_to_float(%m: tensor<8x16xi1>, %x: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %e = tensor.empty() : tensor<8x16xf32>
  %r:2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%m, %x : tensor<8x16xi1>, tensor<8x16xf32>) outs(%e, %e : tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%b: i1, %a: f32, %o: f32, %p: f32):
    %u = arith.uitofp %b : i1 to f32
    %s = arith.sitofp %b : i1 to f32
    %mu = arith.mulf %a, %u : f32
    %ms = arith.mulf %a, %s : f32
    linalg.yield %mu, %ms : f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>)
  return %r#0, %r#1 : tensor<8x16xf32>, tensor<8x16xf32>
}

// -----

// The predicates the vector engine has no comparison for, of two values
// half of which are NaN (sqrt of inputs in [-1, 1)): `one` is olt or ogt,
// `ueq` is uge and ule, `ord` and `uno` of two values join each value's
// with itself (-normalize-linalg's ExpandCmpF).
// CHECK-LABEL: bir.kernel @nan_aware_compares_kernel
// CHECK-DAG:     bir.tensor_tensor is_lt
// CHECK-DAG:     bir.tensor_tensor is_gt
// CHECK-DAG:     bir.tensor_tensor is_equal %{{.*}}, %[[A:[a-z_0-9]+]][{{.*}}], %[[A]][
func.func @nan_aware_compares(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %one = arith.constant 1.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x16xf32>
  %r:4 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%x, %y : tensor<8x16xf32>, tensor<8x16xf32>) outs(%e, %e, %e, %e : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  ^bb0(%u: f32, %v: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32):
    %a = math.sqrt %u : f32
    %b = math.sqrt %v : f32
    %c0 = arith.cmpf one, %a, %b : f32
    %c1 = arith.cmpf ueq, %a, %b : f32
    %c2 = arith.cmpf ord, %a, %b : f32
    %c3 = arith.cmpf uno, %a, %b : f32
    %f0 = arith.select %c0, %one, %zero : f32
    %f1 = arith.select %c1, %one, %zero : f32
    %f2 = arith.select %c2, %one, %zero : f32
    %f3 = arith.select %c3, %one, %zero : f32
    linalg.yield %f0, %f1, %f2, %f3 : f32, f32, f32, f32
  } -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>)
  return %r#0, %r#1, %r#2, %r#3 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}

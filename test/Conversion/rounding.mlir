// RUN: walrus-opt %s -split-input-file -normalize-linalg | FileCheck %s
// RUN: walrus-opt %s -split-input-file -walrus-from-linalg | FileCheck %s --check-prefix=BIR
// RUN: %python %utils/linalg_oracle.py %s --func floor_divide --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func div_trunc --bin %walrus_tools --lnc-size 2 --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func remainder --bin %walrus_tools --pipeline --atol 5e-7 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func remainder_int --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func int_divisions --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func quantize --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func ties --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func shifts --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func power_of_tensors --bin %walrus_tools --pipeline --atol 1e-6 --rtol 5e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func integer_powers --bin %walrus_tools --pipeline --atol 1e-6 --rtol 5e-6 | FileCheck %s --check-prefix=ORACLE
// RUN: %python %utils/linalg_oracle.py %s --func half_away --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func floor_divide_int --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// RUN: %python %utils/linalg_oracle.py %s --func huge --bin %walrus_tools --pipeline | FileCheck %s --check-prefix=EXACT
// EXACT: oracle: identical
// ORACLE: oracle: {{identical|within tolerance}}

// torch's floor, ceil, trunc, `//`, `%`, fmod and quantize as torch-mlir
// writes them (TorchToLinalg, Uncategorized.cpp). -normalize-linalg writes
// each rounding with `math.roundeven`, which lowers as a conversion to i32
// and back (the engine converts to nearest even), and integer remainders
// and floor / ceil divisions with `divsi` (the engine divides toward
// zero). Inputs are scaled past [-1, 1) so that quotients span integers.

// torch.floor_divide on floats: divf, then floor.
// CHECK-LABEL: func.func @floor_divide
// CHECK:         %[[Q:.*]] = arith.divf
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[R]], %[[Q]] : f32
// CHECK-NEXT:    %[[ONE:.*]] = arith.uitofp %[[ABOVE]] : i1 to f32
// CHECK-NEXT:    %[[F:.*]] = arith.subf %[[R]], %[[ONE]] : f32
// CHECK-NEXT:    linalg.yield %[[F]] : f32
func.func @floor_divide(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %c8 = arith.constant 8.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %c8 : f32
    %q = arith.divf %s, %y : f32
    %f = math.floor %q : f32
    linalg.yield %f : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// torch.div(a, b, rounding_mode="trunc") on floats.
// CHECK-LABEL: func.func @div_trunc
// CHECK:         %[[Q:.*]] = arith.divf
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[Q]] : f32
// CHECK-NEXT:    %[[BELOW:.*]] = arith.cmpf olt, %[[R]], %[[Q]] : f32
// CHECK-NEXT:    %[[UP:.*]] = arith.uitofp %[[BELOW]] : i1 to f32
// CHECK-NEXT:    %[[CEIL:.*]] = arith.addf %[[R]], %[[UP]] : f32
// CHECK-NEXT:    %[[ABOVE:.*]] = arith.cmpf ogt, %[[R]], %[[Q]] : f32
// CHECK-NEXT:    %[[DOWN:.*]] = arith.uitofp %[[ABOVE]] : i1 to f32
// CHECK-NEXT:    %[[FLOOR:.*]] = arith.subf %[[R]], %[[DOWN]] : f32
// CHECK-NEXT:    %[[NEG:.*]] = arith.cmpf ult, %[[Q]], %{{.*}} : f32
// CHECK-NEXT:    %[[T:.*]] = arith.select %[[NEG]], %[[CEIL]], %[[FLOOR]] : f32
// CHECK-NEXT:    linalg.yield %[[T]] : f32
func.func @div_trunc(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %c8 = arith.constant 8.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %c8 : f32
    %q = arith.divf %s, %y : f32
    %c = math.ceil %q : f32
    %f = math.floor %q : f32
    %n = arith.cmpf ult, %q, %zero : f32
    %t = arith.select %n, %c, %f : f32
    linalg.yield %t : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// torch.remainder on floats: remf, then the divisor's sign.
// fmod is x - trunc(x / y) * y, and |y| toward x where the rounded
// quotient overshot (the remainder's sign is not x's). Where the product
// rounds, the result is off by that rounding: within 5e-7 of MLIR here.
// CHECK-LABEL: func.func @remainder
// CHECK:         %[[X:.*]] = arith.mulf
// CHECK-NEXT:    %[[Q:.*]] = arith.divf %[[X]], %[[Y:.*]] : f32
// CHECK:         math.roundeven %[[Q]] : f32
// CHECK:         %[[T:.*]] = arith.select %{{.*}} : f32
// CHECK-NEXT:    %[[P:.*]] = arith.mulf %[[T]], %[[Y]] : f32
// CHECK-NEXT:    %[[REM:.*]] = arith.subf %[[X]], %[[P]] : f32
// CHECK-NEXT:    %[[XNEG:.*]] = arith.cmpf olt, %[[X]], %{{.*}} : f32
// CHECK-NEXT:    %[[RNEG:.*]] = arith.cmpf olt, %[[REM]], %{{.*}} : f32
// CHECK-NEXT:    %[[FLIP:.*]] = arith.xori %[[RNEG]], %[[XNEG]] : i1
// CHECK-NEXT:    %[[NZ:.*]] = arith.cmpf une, %[[REM]], %{{.*}} : f32
// CHECK-NEXT:    %[[OVER:.*]] = arith.andi %[[FLIP]], %[[NZ]] : i1
// CHECK-NEXT:    %[[ABS:.*]] = math.absf %[[Y]] : f32
// CHECK-NEXT:    %[[NABS:.*]] = arith.negf %[[ABS]] : f32
// CHECK-NEXT:    %[[TOWARD:.*]] = arith.select %[[XNEG]], %[[NABS]], %[[ABS]] : f32
// CHECK-NEXT:    %[[FIXED:.*]] = arith.addf %[[REM]], %[[TOWARD]] : f32
// CHECK-NEXT:    %[[FMOD:.*]] = arith.select %[[OVER]], %[[FIXED]], %[[REM]] : f32
// CHECK-NOT:     arith.remf
func.func @remainder(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %c8 = arith.constant 8.0 : f32
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.mulf %x, %c8 : f32
    %rem = arith.remf %s, %y : f32
    %nz = arith.cmpf one, %rem, %zero : f32
    %yn = arith.cmpf olt, %y, %zero : f32
    %rn = arith.cmpf olt, %rem, %zero : f32
    %xor = arith.xori %yn, %rn : i1
    %fix = arith.andi %nz, %xor : i1
    %sum = arith.addf %rem, %y : f32
    %v = arith.select %fix, %sum, %rem : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// torch.remainder on integers (divisor 2b + 1: odd, never 0).
// CHECK-LABEL: func.func @remainder_int
// CHECK:         %[[Y:.*]] = arith.addi
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %[[X:.*]], %[[Y]] : i32
// CHECK-NEXT:    %[[P:.*]] = arith.muli %[[Q]], %[[Y]] : i32
// CHECK-NEXT:    %[[REM:.*]] = arith.subi %[[X]], %[[P]] : i32
// CHECK-NOT:     arith.remsi
func.func @remainder_int(%a: tensor<16x64xi32>, %b: tensor<16x64xi32>) -> tensor<16x64xi32> {
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %e = tensor.empty() : tensor<16x64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xi32>, tensor<16x64xi32>) outs(%e : tensor<16x64xi32>) {
  ^bb0(%x: i32, %b0: i32, %o: i32):
    %b2 = arith.muli %b0, %two : i32
    %y = arith.addi %b2, %one : i32
    %rem = arith.remsi %x, %y : i32
    %nz = arith.cmpi ne, %rem, %zero : i32
    %yn = arith.cmpi slt, %y, %zero : i32
    %rn = arith.cmpi slt, %rem, %zero : i32
    %xor = arith.xori %yn, %rn : i1
    %fix = arith.andi %nz, %xor : i1
    %sum = arith.addi %rem, %y : i32
    %v = arith.select %fix, %sum, %rem : i32
    linalg.yield %v : i32
  } -> tensor<16x64xi32>
  return %r : tensor<16x64xi32>
}

// -----

// Integer division: toward zero, toward -inf and toward +inf.
// floordivsi and ceildivsi by upstream's expansion; the three share one
// quotient.
// CHECK-LABEL: func.func @int_divisions
// CHECK:         %[[Y:.*]] = arith.addi
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %[[X:.*]], %[[Y]] : i32
// CHECK-NOT:     arith.divsi
// CHECK-NOT:     arith.floordivsi
// CHECK-NOT:     arith.ceildivsi
// CHECK:         linalg.yield
func.func @int_divisions(%a: tensor<16x64xi32>, %b: tensor<16x64xi32>) -> tensor<16x64xi32> {
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %e = tensor.empty() : tensor<16x64xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xi32>, tensor<16x64xi32>) outs(%e : tensor<16x64xi32>) {
  ^bb0(%x: i32, %b0: i32, %o: i32):
    %b2 = arith.muli %b0, %two : i32
    %y = arith.addi %b2, %one : i32
    %q = arith.divsi %x, %y : i32
    %f = arith.floordivsi %x, %y : i32
    %c = arith.ceildivsi %x, %y : i32
    %qf = arith.muli %q, %two : i32
    %s = arith.addi %qf, %f : i32
    %c3 = arith.muli %c, %two : i32
    %c9 = arith.muli %c3, %two : i32
    %v = arith.addi %s, %c9 : i32
    linalg.yield %v : i32
  } -> tensor<16x64xi32>
  return %r : tensor<16x64xi32>
}

// -----

// torch.quantize_per_tensor (scale 0.05, zero point 3) into i8.
// The quantized value is an integer already: fptosi stays a conversion.
// CHECK-LABEL: func.func @quantize
// CHECK:         %[[N:.*]] = math.roundeven
// CHECK:         %[[C:.*]] = arith.minimumf
// CHECK-NEXT:    %[[Q:.*]] = arith.fptosi %[[C]] : f32 to i8
// BIR-LABEL: bir.func @main
// BIR:         bir.tensor_scalar divide %[[D:[a-z_0-9]+]]
// BIR-NEXT:    bir.activation identity %[[I:[a-z_0-9]+]][{{.*}}], %[[D]][{{.*}}] : !bir.sbuf<16x64xi32>, !bir.sbuf<16x64xf32>
// BIR-NEXT:    bir.activation identity %[[N:[a-z_0-9]+]][{{.*}}], %[[I]][{{.*}}] : !bir.sbuf<16x64xf32>, !bir.sbuf<16x64xi32>
// BIR-NEXT:    bir.activation abs %[[ABS:[a-z_0-9]+]][{{.*}}], %[[D]][{{.*}}]
// BIR-NEXT:    bir.tensor_scalar is_lt %[[SMALL:[a-zA-Z_0-9]+]][{{.*}}], %[[ABS]][{{.*}}], 0x41E0000000000000
// BIR-NEXT:    bir.tensor_copy_predicated %[[N]][{{.*}}], %[[D]][{{.*}}] if %[[SMALL]][{{.*}}] reverse
// BIR-NEXT:    bir.tensor_scalar add %{{.*}}, %[[N]]
// BIR:         bir.tensor_scalar min %[[C:[a-z_0-9]+]]
// BIR-NEXT:    bir.activation identity %{{.*}}, %[[C]][{{.*}}] : !bir.sbuf<16x64xi8>, !bir.sbuf<16x64xf32>
func.func @quantize(%a: tensor<16x64xf32>) -> tensor<16x64xi8> {
  %scale = arith.constant 0.05 : f32
  %zp = arith.constant 3.0 : f32
  %lo = arith.constant -128.0 : f32
  %hi = arith.constant 127.0 : f32
  %e = tensor.empty() : tensor<16x64xi8>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x64xf32>) outs(%e : tensor<16x64xi8>) {
  ^bb0(%x: f32, %o: i8):
    %d = arith.divf %x, %scale : f32
    %n = math.roundeven %d : f32
    %z = arith.addf %n, %zp : f32
    %m = arith.maximumf %z, %lo : f32
    %c = arith.minimumf %m, %hi : f32
    %q = arith.fptosi %c : f32 to i8
    linalg.yield %q : i8
  } -> tensor<16x64xi8>
  return %r : tensor<16x64xi8>
}

// -----

// Ties: halves from integers, rounded to even; trunc and fptosi of them.
// fptosi of a value not known integral is truncated first.
// CHECK-LABEL: func.func @ties
// CHECK:         %[[X:.*]] = arith.mulf
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[X]] : f32
// CHECK:         %[[T:.*]] = arith.select
// CHECK-NEXT:    %{{.*}} = arith.fptosi %[[T]] : f32 to i32
func.func @ties(%a: tensor<16x64xi32>) -> tensor<16x64xf32> {
  %half = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x64xi32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%i: i32, %o: f32):
    %f = arith.sitofp %i : i32 to f32
    %x = arith.mulf %f, %half : f32
    %n = math.roundeven %x : f32
    %t = math.trunc %x : f32
    %k = arith.fptosi %x : f32 to i32
    %kf = arith.sitofp %k : i32 to f32
    %s = arith.addf %n, %t : f32
    %s2 = arith.mulf %s, %half : f32
    %v = arith.addf %s2, %kf : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Past 2^31 the conversion saturates: those floats are integers already.
// CHECK-LABEL: func.func @huge
func.func @huge(%a: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %big = arith.constant 3.0e+10 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = arith.mulf %x, %big : f32
    %f = math.floor %s : f32
    %c = math.ceil %x : f32
    %v = arith.addf %f, %c : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Shifts by constants (torch's << and >> by a scalar, a quantized
// rescale's >> shift): a product and a floor quotient by the power of 2;
// the clamped sum then narrows to i16 as it is (the range analysis bounds
// it).
// CHECK-LABEL: func.func @shifts
// CHECK:         %[[L:.*]] = arith.muli %[[X:.*]], %c8_i32 : i32
// CHECK-NEXT:    %[[Q:.*]] = arith.divsi %[[X]], %c4_i32 : i32
// CHECK-NOT:     arith.shli
// CHECK-NOT:     arith.shrsi
// CHECK:         arith.trunci %{{.*}} : i32 to i16
func.func @shifts(%a: tensor<16x64xi32>) -> tensor<16x64xi16> {
  %c3 = arith.constant 3 : i32
  %c2 = arith.constant 2 : i32
  %lo = arith.constant -100 : i32
  %hi = arith.constant 100 : i32
  %e = tensor.empty() : tensor<16x64xi16>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<16x64xi32>) outs(%e : tensor<16x64xi16>) {
  ^bb0(%x: i32, %o: i16):
    %l = arith.shli %x, %c3 : i32
    %q = arith.shrsi %x, %c2 : i32
    %s = arith.addi %l, %q : i32
    %m = arith.maxsi %s, %lo : i32
    %c = arith.minsi %m, %hi : i32
    %t = arith.trunci %c : i32 to i16
    linalg.yield %t : i16
  } -> tensor<16x64xi16>
  return %r : tensor<16x64xi16>
}

// -----

// torch.pow of two tensors: exp(y * log|x|), and powf's signs where x < 0
// (NaN unless y is an integer, negative for odd y), 1 where y is 0 or x is
// 1. The rounded product y * log|x| costs about |y log x| * 2^-24
// relative: within 5e-6 of libm's powf here (x^-8 of x near 0: y log x = 27).
// CHECK-LABEL: func.func @power_of_tensors
// CHECK:         %[[M:.*]] = math.absf %[[X:.*]] : f32
// CHECK-NEXT:    %[[L:.*]] = math.log %[[M]] : f32
// CHECK-NEXT:    %[[YL:.*]] = arith.mulf %[[Y:.*]], %[[L]] : f32
// CHECK-NEXT:    %[[P:.*]] = math.exp %[[YL]] : f32
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[Y]] : f32
// CHECK-NEXT:    %[[INT:.*]] = arith.cmpf oeq, %[[R]], %[[Y]] : f32
// CHECK-NOT:     math.powf
func.func @power_of_tensors(%a: tensor<16x64xf32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %shift = arith.constant 1.5 : f32
  %c3 = arith.constant 3.0 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xf32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x0: f32, %y0: f32, %o: f32):
    %x = arith.addf %x0, %shift : f32
    %y = arith.mulf %y0, %c3 : f32
    %p = math.powf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// Integer exponents in [-8, 8) of x in [-2, 2): odd ones keep x's sign, 0
// gives 1; a constant exponent the lowering has no instruction for (2.5)
// takes the same form, its integer tests folded.
// CHECK-LABEL: func.func @integer_powers
// CHECK-NOT:     math.powf
func.func @integer_powers(%a: tensor<16x64xf32>, %n: tensor<16x64xi32>) -> tensor<16x64xf32> {
  %c2 = arith.constant 2.0 : f32
  %c25 = arith.constant 2.5 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %n : tensor<16x64xf32>, tensor<16x64xi32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%x0: f32, %k: i32, %o: f32):
    %x = arith.mulf %x0, %c2 : f32
    %y = arith.sitofp %k : i32 to f32
    %p = math.powf %x, %y : f32
    %m = math.absf %x : f32
    %q = math.powf %m, %c25 : f32
    %s = arith.addf %p, %q : f32
    linalg.yield %s : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// math.round (half away from zero: StableHLO's round_nearest_afz) on
// halves and on other fractions: the truncation, one further from zero
// where the exact fraction left is at least a half.
// CHECK-LABEL: func.func @half_away
// CHECK:         %[[T:.*]] = arith.select
// CHECK-NEXT:    %[[D:.*]] = arith.subf %[[X:.*]], %[[T]] : f32
// CHECK-NEXT:    %[[F:.*]] = math.absf %[[D]] : f32
// CHECK-NOT:     math.round %
func.func @half_away(%a: tensor<16x64xi32>, %b: tensor<16x64xf32>) -> tensor<16x64xf32> {
  %half = arith.constant 0.5 : f32
  %scale = arith.constant 3.7 : f32
  %e = tensor.empty() : tensor<16x64xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xi32>, tensor<16x64xf32>) outs(%e : tensor<16x64xf32>) {
  ^bb0(%i: i32, %y: f32, %o: f32):
    %f = arith.sitofp %i : i32 to f32
    %x = arith.mulf %f, %half : f32
    %rx = math.round %x : f32
    %z = arith.mulf %y, %scale : f32
    %rz = math.round %z : f32
    %s = arith.mulf %rx, %scale : f32
    %v = arith.addf %s, %rz : f32
    linalg.yield %v : f32
  } -> tensor<16x64xf32>
  return %r : tensor<16x64xf32>
}

// -----

// torch.floor_divide on integers as torch-mlir writes it: both sides to
// f64, divided, floored, back to i64 (the engines compute the f64 in f32:
// exact for these quotients). fptosi of the floor converts as it is.
// CHECK-LABEL: func.func @floor_divide_int
// CHECK:         %[[Q:.*]] = arith.divf %{{.*}} : f64
// CHECK-NEXT:    %[[R:.*]] = math.roundeven %[[Q]] : f64
// CHECK:         %[[F:.*]] = arith.subf %[[R]], %{{.*}} : f64
// CHECK-NEXT:    arith.fptosi %[[F]] : f64 to i64
func.func @floor_divide_int(%a: tensor<16x64xi64>, %b: tensor<16x64xi64>) -> tensor<16x64xi64> {
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %e = tensor.empty() : tensor<16x64xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%a, %b : tensor<16x64xi64>, tensor<16x64xi64>) outs(%e : tensor<16x64xi64>) {
  ^bb0(%x: i64, %b0: i64, %o: i64):
    %b2 = arith.muli %b0, %two : i64
    %y = arith.addi %b2, %one : i64
    %xf = arith.sitofp %x : i64 to f64
    %yf = arith.sitofp %y : i64 to f64
    %q = arith.divf %xf, %yf : f64
    %f = math.floor %q : f64
    %i = arith.fptosi %f : f64 to i64
    linalg.yield %i : i64
  } -> tensor<16x64xi64>
  return %r : tensor<16x64xi64>
}

// One program per instruction family, exact output values.
//
// RUN: split-file %s %t
// RUN: walrus-run %t/copy.mlir --print-outputs | FileCheck %s --check-prefix=COPY
// RUN: printf '\001\002\003\004\005\006' > %t/x.bin
// RUN: walrus-run %t/integers.mlir --input x=%t/x.bin --print-outputs | FileCheck %s --check-prefix=INTEGERS
// RUN: printf '\001\002\003\004' > %t/w.bin
// RUN: printf '\001\002\003\004\005\006' > %t/y.bin
// RUN: walrus-run %t/matmult.mlir --input w=%t/w.bin --input y=%t/y.bin --print-outputs | FileCheck %s --check-prefix=MATMULT
// RUN: walrus-run %t/scalar-engine.mlir --print-outputs | FileCheck %s --check-prefix=SCALAR
// RUN: walrus-run %t/scalar-functions.mlir --print-outputs | FileCheck %s --check-prefix=FUNCTIONS
// RUN: walrus-run %t/scalar-bias.mlir --print-outputs | FileCheck %s --check-prefix=BIAS
// RUN: walrus-run %t/view.mlir --print-outputs | FileCheck %s --check-prefix=VIEW
// RUN: walrus-run %t/wrapping.mlir --input x=%t/x.bin --print-outputs | FileCheck %s --check-prefix=WRAPPING
// RUN: walrus-run %t/nan.mlir --print-outputs | FileCheck %s --check-prefix=NAN
// RUN: walrus-run %t/predicates.mlir --print-outputs | FileCheck %s --check-prefix=PREDICATES
// RUN: walrus-run %t/scan.mlir --print-outputs | FileCheck %s --check-prefix=SCAN

// h = a * h + b along each row from h = 1, a = 2 in row 0 and 0.5 in
// row 1, b = 1; with reverse0 and subtract, h = (h - a) + b.
// SCAN:      h: !bir.dram<2x4xf32>
// SCAN-NEXT:   3 7 15 31
// SCAN-NEXT:   1.5 1.75 1.875 1.9375
// SCAN-NEXT: g: !bir.dram<2x4xf32>
// SCAN-NEXT:   0 -1 -2 -3
// SCAN-NEXT:   1.5 2 2.5 3

// BIAS:      o: !bir.dram<2x3xf32>
// BIAS-NEXT:   1 1 0.367879
// BIAS-NEXT:   5 5 1

// f32 -> bf16 rounds to nearest even; bf16 -> f32 is exact.
// COPY:      o: !bir.dram<2x4xf32>
// COPY-NEXT:   1.5 3.140625 1.5 1.5
// COPY-NEXT:   1.5 3.140625 1.5 1.5

// x = [1 2 3; 4 5 6] (i8). doubled: x * 2 transposed; saturated: x * 100
// clamps to 127; the reduction sums each row.
// INTEGERS:      doubled: !bir.dram<3x2xi8>
// INTEGERS-NEXT:   2 8
// INTEGERS-NEXT:   4 10
// INTEGERS-NEXT:   6 12
// INTEGERS-NEXT: saturated: !bir.dram<2x3xi8>
// INTEGERS-NEXT:   100 127 127
// INTEGERS-NEXT:   127 127 127
// INTEGERS-NEXT: sums: !bir.dram<2x1xi32>
// INTEGERS-NEXT:   6
// INTEGERS-NEXT:   15

// Integer immediates on integers are exact two's complement: x * 100
// wraps in i8, 10 - x (`reverse`) is the constant minus x, and i64
// arithmetic keeps the low bit above 2^53.
// WRAPPING:      wrapped: !bir.dram<2x3xi8>
// WRAPPING-NEXT:   100 -56 44
// WRAPPING-NEXT:   -112 -12 88
// WRAPPING-NEXT: reversed: !bir.dram<2x3xi8>
// WRAPPING-NEXT:   9 8 7
// WRAPPING-NEXT:   6 5 4
// WRAPPING-NEXT: wide: !bir.dram<1x2xi64>
// WRAPPING-NEXT:   9007199254740994 9007199254740994

// max / min propagate a NaN operand, maxnum / minnum ignore it; -0 orders
// below +0.
// x = [1 nan -0 3]. Comparisons write 1 or 0: IEEE 754, so a NaN compares
// false but for not_equal, and -0 equals 0. The predicated copies take x
// where x > 0 into fives, and where not (reverse) into sevens.
// PREDICATES:      flags: !bir.dram<3x4xi8>
// PREDICATES-NEXT:   1 0 0 1
// PREDICATES-NEXT:   0 1 0 0
// PREDICATES-NEXT:   0 0 1 0
// PREDICATES-NEXT: picked: !bir.dram<2x4xf32>
// PREDICATES-NEXT:   1 5 5 3
// PREDICATES-NEXT:   7 nan -0 7

// NAN:      o: !bir.dram<1x4xf32>
// NAN-NEXT:   nan 2 nan 2
// NAN-NEXT: zeros: !bir.dram<1x2xf32>
// NAN-NEXT:   0 -0

// w = [1 2; 3 4] (k x m), y = [1 2 3; 4 5 6] (k x n): w^T y, then again
// without `start`, which accumulates.
// MATMULT:      once: !bir.dram<2x3xf32>
// MATMULT-NEXT:   13 17 21
// MATMULT-NEXT:   18 24 30
// MATMULT-NEXT: twice: !bir.dram<2x3xf32>
// MATMULT-NEXT:   26 34 42
// MATMULT-NEXT:   36 48 60

// sqrt(6.25), log(1), erf(0.5) = 0.520499878 in f32, abs(-6.25).
// FUNCTIONS:      o: !bir.dram<1x4xf32>
// FUNCTIONS-NEXT:   2.5 0 0.520499885 6.25
// SCALAR:      o: !bir.dram<2x4xf32>
// SCALAR-NEXT:   0 0.25 0.5 4
// SCALAR-NEXT:   3 0.25 0.5 4

// Writing an i32 through a view stores its little-endian bytes.
// VIEW:      o: !bir.dram<2x4xi8>
// VIEW-NEXT:   4 3 2 1
// VIEW-NEXT:   4 3 2 1

//--- copy.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<2x4xbf16>
  bir.memset %t[#bir.ap<0, [[4, 2], [1, 4]]>], 1.5 : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<1, [[4, 2], [1, 1]]>], 3.14159274 : !bir.sbuf<2x4xf32>
  bir.tensor_copy %b[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>]
    : !bir.sbuf<2x4xbf16>, !bir.sbuf<2x4xf32>
  bir.tensor_copy %t[#bir.ap<0, [[4, 2], [1, 4]]>], %b[#bir.ap<0, [[4, 2], [1, 4]]>]
    : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xbf16>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>]
    : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
//--- integers.mlir
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<2x3xi8>
  %doubled = bir.memloc "doubled" output : !bir.dram<3x2xi8>
  %saturated = bir.memloc "saturated" output : !bir.dram<2x3xi8>
  %sums = bir.memloc "sums" output : !bir.dram<2x1xi32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x3xi8>
  %u = bir.memloc "u" internal : !bir.sbuf<2x3xi8>
  %v = bir.memloc "v" internal : !bir.sbuf<3x2xi8>
  %s = bir.memloc "s" internal : !bir.sbuf<2x1xi32>
  bir.dma %t[#bir.ap<0, [[3, 2], [1, 3]]>], %x[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.sbuf<2x3xi8>, !bir.dram<2x3xi8>
  bir.tensor_scalar multiply %u[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>], 2.0
    : !bir.sbuf<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.transpose %v[#bir.ap<0, [[2, 3], [1, 2]]>], %u[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.sbuf<3x2xi8>, !bir.sbuf<2x3xi8>
  bir.dma %doubled[#bir.ap<0, [[2, 3], [1, 2]]>], %v[#bir.ap<0, [[2, 3], [1, 2]]>]
    : !bir.dram<3x2xi8>, !bir.sbuf<3x2xi8>
  bir.tensor_scalar multiply %u[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>], 100.0
    : !bir.sbuf<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.dma %saturated[#bir.ap<0, [[3, 2], [1, 3]]>], %u[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.dram<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.tensor_reduce add %s[#bir.ap<0, [[1, 2], [1, 1]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.sbuf<2x1xi32>, !bir.sbuf<2x3xi8>
  bir.dma %sums[#bir.ap<0, [[1, 2], [1, 1]]>], %s[#bir.ap<0, [[1, 2], [1, 1]]>]
    : !bir.dram<2x1xi32>, !bir.sbuf<2x1xi32>
}
//--- matmult.mlir
bir.func @main {
  %w = bir.memloc "w" input : !bir.dram<2x2xi8>
  %y = bir.memloc "y" input : !bir.dram<2x3xi8>
  %once = bir.memloc "once" output : !bir.dram<2x3xf32>
  %twice = bir.memloc "twice" output : !bir.dram<2x3xf32>
  %w8 = bir.memloc "w8" internal : !bir.sbuf<2x2xi8>
  %y8 = bir.memloc "y8" internal : !bir.sbuf<2x3xi8>
  %wb = bir.memloc "wb" internal : !bir.sbuf<2x2xbf16>
  %yb = bir.memloc "yb" internal : !bir.sbuf<2x3xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<2x3xf32>
  %r = bir.memloc "r" internal : !bir.sbuf<2x3xf32>
  bir.dma %w8[#bir.ap<0, [[2, 2], [1, 2]]>], %w[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.sbuf<2x2xi8>, !bir.dram<2x2xi8>
  bir.dma %y8[#bir.ap<0, [[3, 2], [1, 3]]>], %y[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.sbuf<2x3xi8>, !bir.dram<2x3xi8>
  bir.tensor_copy %wb[#bir.ap<0, [[2, 2], [1, 2]]>], %w8[#bir.ap<0, [[2, 2], [1, 2]]>] : !bir.sbuf<2x2xbf16>, !bir.sbuf<2x2xi8>
  bir.tensor_copy %yb[#bir.ap<0, [[3, 2], [1, 3]]>], %y8[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.sbuf<2x3xbf16>, !bir.sbuf<2x3xi8>
  bir.matmult %acc[#bir.ap<0, [[3, 2], [1, 3]]>], %wb[#bir.ap<0, [[2, 2], [1, 2]]>], %yb[#bir.ap<0, [[3, 2], [1, 3]]>] start
    : !bir.psum<2x3xf32>, !bir.sbuf<2x2xbf16>, !bir.sbuf<2x3xbf16>
  bir.tensor_copy %r[#bir.ap<0, [[3, 2], [1, 3]]>], %acc[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.sbuf<2x3xf32>, !bir.psum<2x3xf32>
  bir.dma %once[#bir.ap<0, [[3, 2], [1, 3]]>], %r[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.dram<2x3xf32>, !bir.sbuf<2x3xf32>
  bir.matmult %acc[#bir.ap<0, [[3, 2], [1, 3]]>], %wb[#bir.ap<0, [[2, 2], [1, 2]]>], %yb[#bir.ap<0, [[3, 2], [1, 3]]>] stop
    : !bir.psum<2x3xf32>, !bir.sbuf<2x2xbf16>, !bir.sbuf<2x3xbf16>
  bir.tensor_copy %r[#bir.ap<0, [[3, 2], [1, 3]]>], %acc[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.sbuf<2x3xf32>, !bir.psum<2x3xf32>
  bir.dma %twice[#bir.ap<0, [[3, 2], [1, 3]]>], %r[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.dram<2x3xf32>, !bir.sbuf<2x3xf32>
}
//--- scalar-engine.mlir
// Row 0 of column 0: relu(-2) = 0; row 1: 3 (identity, scale 1.5 of 2).
// Column 1: 1/4; column 2: rsqrt(4); column 3: square(2).
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 2], [1, 4]]>], 4.0 : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 1], [1, 1]]>], -2.0 : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<4, [[4, 1], [1, 1]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<3, [[4, 2], [1, 1]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.activation relu %t[#bir.ap<0, [[4, 1], [1, 1]]>], %t[#bir.ap<0, [[4, 1], [1, 1]]>] : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.activation identity %t[#bir.ap<4, [[4, 1], [1, 1]]>], %t[#bir.ap<4, [[4, 1], [1, 1]]>] scale 1.5 : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.activation reciprocal %t[#bir.ap<1, [[4, 2], [1, 1]]>], %t[#bir.ap<1, [[4, 2], [1, 1]]>] : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.activation rsqrt %t[#bir.ap<2, [[4, 2], [1, 1]]>], %t[#bir.ap<2, [[4, 2], [1, 1]]>] : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.activation square %t[#bir.ap<3, [[4, 2], [1, 1]]>], %t[#bir.ap<3, [[4, 2], [1, 1]]>] : !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
//--- scalar-bias.mlir
// func(src * scale + bias), one bias per partition: row 0 adds -1, row 1
// adds 3, after scaling by 2 (the last column: in place, exp(2 * 0 - 1)).
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x3xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x3xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<2x1xf32>
  bir.memset %t[#bir.ap<0, [[3, 2], [1, 3]]>], 1.0 : !bir.sbuf<2x3xf32>
  bir.memset %t[#bir.ap<2, [[3, 1], [1, 1]]>], 0.0 : !bir.sbuf<2x3xf32>
  bir.memset %b[#bir.ap<0, [[1, 1], [1, 1]]>], -1.0 : !bir.sbuf<2x1xf32>
  bir.memset %b[#bir.ap<1, [[1, 1], [1, 1]]>], 3.0 : !bir.sbuf<2x1xf32>
  bir.activation identity %t[#bir.ap<0, [[3, 2], [1, 2]]>], %t[#bir.ap<0, [[3, 2], [1, 2]]>] bias %b[#bir.ap<0, [[1, 2], [0, 2]]>] scale 2.0 : !bir.sbuf<2x3xf32>, !bir.sbuf<2x3xf32>, !bir.sbuf<2x1xf32>
  bir.activation exp %t[#bir.ap<2, [[3, 1], [1, 1]]>], %t[#bir.ap<2, [[3, 1], [1, 1]]>] bias %b[#bir.ap<0, [[1, 1], [0, 1]]>] scale 2.0 : !bir.sbuf<2x3xf32>, !bir.sbuf<2x3xf32>, !bir.sbuf<2x1xf32>
  bir.dma %o[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.dram<2x3xf32>, !bir.sbuf<2x3xf32>
}
//--- scalar-functions.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<1x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<1x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 1], [1, 1]]>], 6.25 : !bir.sbuf<1x4xf32>
  bir.memset %t[#bir.ap<1, [[4, 1], [1, 1]]>], 1.0 : !bir.sbuf<1x4xf32>
  bir.memset %t[#bir.ap<2, [[4, 1], [1, 1]]>], 0.5 : !bir.sbuf<1x4xf32>
  bir.memset %t[#bir.ap<3, [[4, 1], [1, 1]]>], -6.25 : !bir.sbuf<1x4xf32>
  bir.activation sqrt %t[#bir.ap<0, [[4, 1], [1, 1]]>], %t[#bir.ap<0, [[4, 1], [1, 1]]>] : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.activation log %t[#bir.ap<1, [[4, 1], [1, 1]]>], %t[#bir.ap<1, [[4, 1], [1, 1]]>] : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.activation erf %t[#bir.ap<2, [[4, 1], [1, 1]]>], %t[#bir.ap<2, [[4, 1], [1, 1]]>] : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.activation abs %t[#bir.ap<3, [[4, 1], [1, 1]]>], %t[#bir.ap<3, [[4, 1], [1, 1]]>] : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 1], [1, 4]]>], %t[#bir.ap<0, [[4, 1], [1, 4]]>] : !bir.dram<1x4xf32>, !bir.sbuf<1x4xf32>
}
//--- view.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xi8>
  %t = bir.memloc "t" internal : !bir.sbuf<2x4xi8>
  %v = bir.view %t : !bir.sbuf<2x4xi8> to !bir.sbuf<2x1xi32>
  bir.memset %v[#bir.ap<0, [[1, 2], [1, 1]]>], 16909060.0 : !bir.sbuf<2x1xi32>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xi8>, !bir.sbuf<2x4xi8>
}
//--- wrapping.mlir
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<2x3xi8>
  %wrapped = bir.memloc "wrapped" output : !bir.dram<2x3xi8>
  %reversed = bir.memloc "reversed" output : !bir.dram<2x3xi8>
  %wide = bir.memloc "wide" output : !bir.dram<1x2xi64>
  %t = bir.memloc "t" internal : !bir.sbuf<2x3xi8>
  %u = bir.memloc "u" internal : !bir.sbuf<2x3xi8>
  %l = bir.memloc "l" internal : !bir.sbuf<1x2xi64>
  bir.dma %t[#bir.ap<0, [[3, 2], [1, 3]]>], %x[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.sbuf<2x3xi8>, !bir.dram<2x3xi8>
  bir.tensor_scalar multiply %u[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>], 100
    : !bir.sbuf<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.dma %wrapped[#bir.ap<0, [[3, 2], [1, 3]]>], %u[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.dram<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.tensor_scalar subtract %u[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>], 10 reverse
    : !bir.sbuf<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.dma %reversed[#bir.ap<0, [[3, 2], [1, 3]]>], %u[#bir.ap<0, [[3, 2], [1, 3]]>]
    : !bir.dram<2x3xi8>, !bir.sbuf<2x3xi8>
  bir.memset %l[#bir.ap<0, [[2, 1], [1, 2]]>], 9007199254740993 : !bir.sbuf<1x2xi64>
  bir.tensor_scalar add %l[#bir.ap<0, [[2, 1], [1, 2]]>], %l[#bir.ap<0, [[2, 1], [1, 2]]>], 1
    : !bir.sbuf<1x2xi64>, !bir.sbuf<1x2xi64>
  bir.dma %wide[#bir.ap<0, [[2, 1], [1, 2]]>], %l[#bir.ap<0, [[2, 1], [1, 2]]>]
    : !bir.dram<1x2xi64>, !bir.sbuf<1x2xi64>
}
//--- nan.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<1x4xf32>
  %zeros = bir.memloc "zeros" output : !bir.dram<1x2xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<1x4xf32>
  %n = bir.memloc "n" internal : !bir.sbuf<1x4xf32>
  %r = bir.memloc "r" internal : !bir.sbuf<1x4xf32>
  %p = bir.memloc "p" internal : !bir.sbuf<1x2xf32>
  %m = bir.memloc "m" internal : !bir.sbuf<1x2xf32>
  %z = bir.memloc "z" internal : !bir.sbuf<1x2xf32>
  bir.memset %a[#bir.ap<0, [[4, 1], [1, 4]]>], 2.0 : !bir.sbuf<1x4xf32>
  bir.memset %n[#bir.ap<0, [[4, 1], [1, 4]]>], 0x7FF8000000000000 : !bir.sbuf<1x4xf32>
  bir.tensor_tensor max %r[#bir.ap<0, [[4, 1], [1, 1]]>], %a[#bir.ap<0, [[4, 1], [1, 1]]>], %n[#bir.ap<0, [[4, 1], [1, 1]]>]
    : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.tensor_tensor maxnum %r[#bir.ap<1, [[4, 1], [1, 1]]>], %n[#bir.ap<0, [[4, 1], [1, 1]]>], %a[#bir.ap<0, [[4, 1], [1, 1]]>]
    : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.tensor_scalar min %r[#bir.ap<2, [[4, 1], [1, 1]]>], %a[#bir.ap<0, [[4, 1], [1, 1]]>], 0x7FF8000000000000
    : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.tensor_scalar minnum %r[#bir.ap<3, [[4, 1], [1, 1]]>], %a[#bir.ap<0, [[4, 1], [1, 1]]>], 0x7FF8000000000000
    : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 1], [1, 4]]>], %r[#bir.ap<0, [[4, 1], [1, 4]]>]
    : !bir.dram<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.memset %p[#bir.ap<0, [[2, 1], [1, 2]]>], 0.0 : !bir.sbuf<1x2xf32>
  bir.memset %m[#bir.ap<0, [[2, 1], [1, 2]]>], -0.0 : !bir.sbuf<1x2xf32>
  bir.tensor_tensor max %z[#bir.ap<0, [[2, 1], [1, 1]]>], %m[#bir.ap<0, [[2, 1], [1, 1]]>], %p[#bir.ap<0, [[2, 1], [1, 1]]>]
    : !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>
  bir.tensor_tensor min %z[#bir.ap<1, [[2, 1], [1, 1]]>], %p[#bir.ap<0, [[2, 1], [1, 1]]>], %m[#bir.ap<0, [[2, 1], [1, 1]]>]
    : !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>
  bir.dma %zeros[#bir.ap<0, [[2, 1], [1, 2]]>], %z[#bir.ap<0, [[2, 1], [1, 2]]>]
    : !bir.dram<1x2xf32>, !bir.sbuf<1x2xf32>
}

//--- predicates.mlir
bir.func @main {
  %flags = bir.memloc "flags" output : !bir.dram<3x4xi8>
  %picked = bir.memloc "picked" output : !bir.dram<2x4xf32>
  %x = bir.memloc "x" internal : !bir.sbuf<1x4xf32>
  %f = bir.memloc "f" internal : !bir.sbuf<3x4xi8>
  %y = bir.memloc "y" internal : !bir.sbuf<2x4xf32>
  bir.memset %x[#bir.ap<0, [[4, 1], [1, 1]]>], 1.0 : !bir.sbuf<1x4xf32>
  bir.memset %x[#bir.ap<1, [[4, 1], [1, 1]]>], 0x7FF8000000000000 : !bir.sbuf<1x4xf32>
  bir.memset %x[#bir.ap<2, [[4, 1], [1, 1]]>], -0.0 : !bir.sbuf<1x4xf32>
  bir.memset %x[#bir.ap<3, [[4, 1], [1, 1]]>], 3.0 : !bir.sbuf<1x4xf32>
  bir.tensor_scalar is_gt %f[#bir.ap<0, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>], 0.0
    : !bir.sbuf<3x4xi8>, !bir.sbuf<1x4xf32>
  bir.tensor_tensor not_equal %f[#bir.ap<4, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>]
    : !bir.sbuf<3x4xi8>, !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
  bir.tensor_scalar is_equal %f[#bir.ap<8, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>], 0.0
    : !bir.sbuf<3x4xi8>, !bir.sbuf<1x4xf32>
  bir.memset %y[#bir.ap<0, [[4, 1], [1, 4]]>], 5.0 : !bir.sbuf<2x4xf32>
  bir.memset %y[#bir.ap<4, [[4, 1], [1, 4]]>], 7.0 : !bir.sbuf<2x4xf32>
  bir.tensor_copy_predicated %y[#bir.ap<0, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>]
    if %f[#bir.ap<0, [[4, 1], [1, 4]]>] : !bir.sbuf<2x4xf32>, !bir.sbuf<1x4xf32>, !bir.sbuf<3x4xi8>
  bir.tensor_copy_predicated %y[#bir.ap<4, [[4, 1], [1, 4]]>], %x[#bir.ap<0, [[4, 1], [1, 4]]>]
    if %f[#bir.ap<0, [[4, 1], [1, 4]]>] reverse : !bir.sbuf<2x4xf32>, !bir.sbuf<1x4xf32>, !bir.sbuf<3x4xi8>
  bir.dma %flags[#bir.ap<0, [[4, 3], [1, 4]]>], %f[#bir.ap<0, [[4, 1], [1, 12]]>]
    : !bir.dram<3x4xi8>, !bir.sbuf<3x4xi8>
  bir.dma %picked[#bir.ap<0, [[4, 2], [1, 4]]>], %y[#bir.ap<0, [[4, 1], [1, 8]]>]
    : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
//--- scan.mlir
bir.func @main {
  %h = bir.memloc "h" output : !bir.dram<2x4xf32>
  %g = bir.memloc "g" output : !bir.dram<2x4xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<2x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<2x4xf32>
  %r = bir.memloc "r" internal : !bir.sbuf<2x8xf32>
  bir.memset %a[#bir.ap<0, [[4, 1], [1, 4]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.memset %a[#bir.ap<4, [[4, 1], [1, 4]]>], 0.5 : !bir.sbuf<2x4xf32>
  bir.memset %b[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.tensor_tensor_scan multiply, add %r[#bir.ap<0, [[8, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 2], [1, 4]]>], %b[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0
    : !bir.sbuf<2x8xf32>, !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.tensor_tensor_scan subtract, add %r[#bir.ap<4, [[8, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 2], [1, 4]]>], %b[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 reverse0
    : !bir.sbuf<2x8xf32>, !bir.sbuf<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.dma %h[#bir.ap<0, [[4, 2], [1, 4]]>], %r[#bir.ap<0, [[8, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x8xf32>
  bir.dma %g[#bir.ap<0, [[4, 2], [1, 4]]>], %r[#bir.ap<4, [[8, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x8xf32>
}

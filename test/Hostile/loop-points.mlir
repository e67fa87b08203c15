// RUN: walrus-opt %s -vn-split=explain -shrink-dn -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: walrus-opt %s -sb-alloc=explain -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALLOC

// Three nested loops of 2^21 iterations: 2^63 points. The footprints
// (vn-split, shrink-dn) and the matmult rows (sb-alloc) count the points
// in checked arithmetic; the count used to wrap to a negative number, no
// start was enumerated, vn-split cut 's' to a tensor of no partitions
// (invalid IR) and sb-alloc read an empty list (a garbage partition).

// SPLIT: remark: vn-split: not splitting 's' due to too many loop iterations to analyze in 'bir.matmult'
// SPLIT: remark: vn-split: not splitting 'm' due to too many loop iterations to analyze in 'bir.matmult'
// SPLIT-NOT: error
// ALLOC: remark: sb-alloc: matmult rows not followed (a replicated operand, rows not whole partitions in order, or too many iterations): its operands get no band from it
// ALLOC-NOT: error
bir.func @main {
  %s = bir.memloc "s" internal : !bir.sbuf<16x32xf32>
  %m = bir.memloc "m" internal : !bir.sbuf<16x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %s[#bir.ap<0, [[32, 16], [1, 32]]>], 1.0 : !bir.sbuf<16x32xf32>
  bir.memset %m[#bir.ap<0, [[32, 16], [1, 32]]>], 1.0 : !bir.sbuf<16x32xf32>
  bir.loop 0 to 2097152 step 1 {
    bir.loop 0 to 2097152 step 1 {
      bir.loop 0 to 2097152 step 1 {
        bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %s[#bir.sap<(d0, d1, d2) -> (0), [[32, 8], [1, 32]]>], %m[#bir.sap<(d0, d1, d2) -> (32), [[32, 8], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<16x32xf32>, !bir.sbuf<16x32xf32>
      }
    }
  }
}

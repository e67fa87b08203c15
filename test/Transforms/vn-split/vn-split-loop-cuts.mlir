// RUN: walrus-opt %s -split-input-file -vn-split=explain -verify-diagnostics | FileCheck %s
// RUN: split-file %s %t
// RUN: walrus-run %t/two.mlir --after='vn-split,shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-TWO
// RUN: walrus-run %t/four.mlir --after='vn-split,shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-FOUR
// RUN: walrus-run %t/inner.mlir --after='vn-split,shrink-dn,sb-alloc' | FileCheck %s --check-prefix=INTERP-INNER
// RUN: walrus-opt %t/two.mlir -walrus-pipeline | FileCheck %s --check-prefix=PIPELINE
// RUN: not walrus-opt %t/two.mlir -vn-split=cut-loops=0 -shrink-dn -sb-alloc -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// A tensor with more bytes per partition than SB holds cannot be placed.
// When loops walk it, each iteration on its own columns, its accesses
// form one group over all iterations; cutting the loops into parts of
// consecutive iterations (the same iterations, in the same order) gives
// groups that fit, and the split makes them pieces.

//--- two.mlir
// 2048 B per partition, SB 1024 B: each loop in two, two pieces.
// CHECK-LABEL: bir.func @main
// CHECK:      %[[P0:.*]] = bir.memloc "big_VN_0" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: %[[P1:.*]] = bir.memloc "big_VN_1" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: bir.loop 0 to 2 step 1 {
// CHECK-NEXT:   bir.dma %[[P0]][#bir.sap<(d0)[s0] -> (d0 * 128), {{\[\[}}256, 128], [1, 128]]>], %{{.*}}[#bir.sap<(d0)[s0] -> (d0 * 128), {{\[\[}}512, 128], [1, 128]]>]
// CHECK-NEXT: }
// CHECK-NEXT: bir.loop 2 to 4 step 1 {
// CHECK-NEXT:   bir.dma %[[P1]][#bir.sap<(d0)[s0] -> (d0 * 128 - 256), {{\[\[}}256, 128], [1, 128]]>], %{{.*}}[#bir.sap<(d0)[s0] -> (d0 * 128), {{\[\[}}512, 128], [1, 128]]>]
// CHECK-NEXT: }
// CHECK-NEXT: bir.loop 0 to 2 step 1 {
// CHECK-NEXT:   bir.dma %{{.*}}, %[[P0]][#bir.sap<(d0)[s0] -> (d0 * 128), {{\[\[}}256, 128], [1, 128]]>]
// CHECK-NEXT: }
// CHECK-NEXT: bir.loop 2 to 4 step 1 {
// CHECK-NEXT:   bir.dma %{{.*}}, %[[P1]][#bir.sap<(d0)[s0] -> (d0 * 128 - 256), {{\[\[}}256, 128], [1, 128]]>]
// CHECK-NEXT: }
// Both pieces live between the loops: one is spilled, and the program
// compiles (without the cut, sb-alloc cannot place the tensor at all).
// PIPELINE: bir.memloc "big_VN_0_home" internal {bir.spill_home} : !bir.dram<128x256xf32>
// OFF: error: 'big' is too big for SB, requires 2048 bytes with SB size 1024
// INTERP-TWO: identical: 1 output(s), 262144 bytes
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<128x512xf32>
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<128x512xf32>
  // expected-remark @+3 {{vn-split: cut 2 loop(s) walking 'big' into at most 2 parts each (2 loop(s) added) so that its pieces fit SB}}
  // expected-remark @+2 {{vn-split: 'big' is splittable, shape=(128 partitions, 2048 bytes)}}
  // expected-remark @+1 {{vn-split: split 'big' into 2 pieces: big_VN_0 (128 x 1024 B), big_VN_1 (128 x 1024 B)}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.loop 0 to 4 step 1 {
    bir.dma %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  }
  bir.loop 0 to 4 step 1 {
    bir.dma %y[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>], %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  }
}
}

// -----
//--- four.mlir
// 4096 B per partition: loops of 8 iterations in four parts of two.
// CHECK-LABEL: bir.func @main
// CHECK:      bir.memloc "big_VN_0" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: bir.memloc "big_VN_1" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: bir.memloc "big_VN_2" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: bir.memloc "big_VN_3" internal : !bir.sbuf<128x256xf32>
// CHECK-NEXT: bir.loop 0 to 2 step 1 {
// CHECK:      bir.loop 2 to 4 step 1 {
// CHECK:      bir.loop 4 to 6 step 1 {
// CHECK:      bir.loop 6 to 8 step 1 {
// CHECK-NEXT:   bir.memset %{{.*}}[#bir.sap<(d0)[s0] -> (d0 * 128 - 768), {{\[\[}}256, 128], [1, 128]]>], 2.000000e+00
// CHECK-NEXT: }
// CHECK-NEXT: bir.loop 0 to 2 step 1 {
// INTERP-FOUR: identical: 1 output(s), 524288 bytes
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<128x1024xf32>
  // expected-remark @+3 {{vn-split: cut 2 loop(s) walking 'big' into at most 4 parts each (6 loop(s) added) so that its pieces fit SB}}
  // expected-remark @+2 {{vn-split: 'big' is splittable, shape=(128 partitions, 4096 bytes)}}
  // expected-remark @+1 {{vn-split: split 'big' into 4 pieces: big_VN_0 (128 x 1024 B), big_VN_1 (128 x 1024 B), big_VN_2 (128 x 1024 B), big_VN_3 (128 x 1024 B)}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x1024xf32>
  bir.loop 0 to 8 step 1 {
    bir.memset %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[1024, 128], [1, 128]]>], 2.0 : !bir.sbuf<128x1024xf32>
  }
  bir.loop 0 to 8 step 1 {
    bir.dma %y[#bir.sap<(d0)[s0] -> (d0 * 128), [[1024, 128], [1, 128]]>], %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[1024, 128], [1, 128]]>] : !bir.dram<128x1024xf32>, !bir.sbuf<128x1024xf32>
  }
}
}

// -----
//--- inner.mlir
// The loops walking the tensor are inside another: they are cut there,
// the outer loop stays whole.
// CHECK-LABEL: bir.func @main
// CHECK:      bir.loop 0 to 2 step 1 {
// CHECK-NEXT:   bir.loop 0 to 2 step 1 {
// CHECK-NEXT:     bir.dma %{{.*}}[#bir.sap<(d0, d1)[s0] -> (d1 * 128), {{\[\[}}256, 128], [1, 128]]>]
// CHECK-NEXT:   }
// CHECK-NEXT:   bir.loop 2 to 4 step 1 {
// CHECK-NEXT:     bir.dma %{{.*}}[#bir.sap<(d0, d1)[s0] -> (d1 * 128 - 256), {{\[\[}}256, 128], [1, 128]]>]
// CHECK-NEXT:   }
// CHECK-NEXT:   bir.loop 0 to 2 step 1 {
// CHECK:        bir.loop 2 to 4 step 1 {
// INTERP-INNER: identical: 1 output(s), 524288 bytes
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<256x512xf32>
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<256x512xf32>
  // expected-remark @+3 {{vn-split: cut 2 loop(s) walking 'big' into at most 2 parts each (2 loop(s) added) so that its pieces fit SB}}
  // expected-remark @+2 {{vn-split: 'big' is splittable, shape=(128 partitions, 2048 bytes)}}
  // expected-remark @+1 {{vn-split: split 'big' into 2 pieces: big_VN_0 (128 x 1024 B), big_VN_1 (128 x 1024 B)}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.loop 0 to 2 step 1 {
    bir.loop 0 to 4 step 1 {
      bir.dma %big[#bir.sap<(d0, d1)[s0] -> (d1 * 128), [[512, 128], [1, 128]]>], %x[#bir.sap<(d0, d1)[s0] -> (d0 * 65536 + d1 * 128), [[512, 128], [1, 128]]>] : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    }
    bir.loop 0 to 4 step 1 {
      bir.dma %y[#bir.sap<(d0, d1)[s0] -> (d0 * 65536 + d1 * 128), [[512, 128], [1, 128]]>], %big[#bir.sap<(d0, d1)[s0] -> (d1 * 128), [[512, 128], [1, 128]]>] : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
    }
  }
}
}

// -----
//--- rejected.mlir
// A write of the whole tensor outside the loops joins every cut: the
// loops are put back as they were.
// CHECK-LABEL: bir.func @main
// CHECK:      bir.memloc "big" internal : !bir.sbuf<128x512xf32>
// CHECK-NEXT: bir.memset
// CHECK-NEXT: bir.loop 0 to 4 step 1 {
// CHECK-NEXT:   bir.dma
// CHECK-NEXT: }
// CHECK-NEXT: }
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<128x512xf32>
  // expected-remark @+2 {{vn-split: 'big' (2048 bytes/partition) does not fit SB and no cut of the loops walking it splits it into pieces that do}}
  // expected-remark @+1 {{vn-split: not splitting 'big': its accesses form one group}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.memset %big[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
  bir.loop 0 to 4 step 1 {
    bir.dma %x[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>], %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  }
}
}

// -----
// No loop moves its accesses.
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+2 {{vn-split: 'big' (2048 bytes/partition) does not fit SB and no loop walks it}}
  // expected-remark @+1 {{vn-split: not splitting 'big': its accesses form one group}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.memset %big[#bir.ap<0, [[512, 128], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
}
}

// -----
// One walking loop inside another: cutting the outer one would copy the
// inner one.
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<128x512xf32>
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<128x512xf32>
  // expected-remark @+2 {{vn-split: 'big' (2048 bytes/partition) does not fit SB and the loops walking it nest}}
  // expected-remark @+1 {{vn-split: not splitting 'big': its accesses form one group}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.loop 0 to 2 step 1 {
    bir.dma %big[#bir.sap<(d0)[s0] -> (d0 * 256), [[512, 128], [1, 256]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 256), [[512, 128], [1, 256]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
    bir.loop 0 to 2 step 1 {
      bir.dma %y[#bir.sap<(d0, d1)[s0] -> (d0 * 256 + d1 * 128), [[512, 128], [1, 128]]>], %big[#bir.sap<(d0, d1)[s0] -> (d1 * 128), [[512, 128], [1, 128]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
    }
  }
}
}

// -----
// Every core counts its barriers in its program's text: a loop holding
// one is not copied.
module attributes {bir.target = #bir.target<name = "small", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  // expected-remark @+1 {{vn-split: not splitting 'x': it is a program input}}
  %x = bir.memloc "x" input : !bir.dram<128x512xf32>
  // expected-remark @+1 {{vn-split: not splitting 'y': it is a program output}}
  %y = bir.memloc "y" output : !bir.dram<128x512xf32>
  // expected-remark @+2 {{vn-split: 'big' (2048 bytes/partition) does not fit SB and a loop walking it synchronises cores}}
  // expected-remark @+1 {{vn-split: not splitting 'big': its accesses form one group}}
  %big = bir.memloc "big" internal : !bir.sbuf<128x512xf32>
  bir.loop 0 to 4 step 1 {
    bir.dma %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
    bir.core_barrier "b"
  }
  bir.loop 0 to 4 step 1 {
    bir.dma %y[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>], %big[#bir.sap<(d0)[s0] -> (d0 * 128), [[512, 128], [1, 128]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  }
}
}

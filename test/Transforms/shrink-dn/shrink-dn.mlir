// RUN: walrus-opt %s -split-input-file -shrink-dn | FileCheck %s

// Window trim: rows 8..39 and columns 100..299 are all anyone touches. The
// partition step is re-packed (512 -> 200) and every offset rebased:
// partition p, column c -> (p - 8) * 200 + (c - 100).

// CHECK-LABEL: bir.func @trim
// CHECK:       %t = bir.memloc "t" internal : !bir.sbuf<32x200xf32>
// CHECK:       bir.memset %t[#bir.ap<0, {{\[\[}}200, 32], [1, 200]]>], 0.000000e+00
// CHECK-NEXT:  bir.loop 0 to 4 step 1 {
// CHECK-NEXT:    bir.tensor_scalar add %t[#bir.sap<(d0)[s0] -> (d0 * 50), {{\[\[}}200, 32], [1, 50]]>], %t[#bir.sap<(d0)[s0] -> (d0 * 50), {{\[\[}}200, 32], [1, 50]]>], 1.000000e+00
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t[#bir.ap<2400, {{\[\[}}200, 16], [1, 100]]>]
bir.func @trim {
  %y = bir.memloc "y" output : !bir.dram<16x100xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<4196, [[512, 32], [1, 200]]>], 0.0 : !bir.sbuf<128x512xf32>
  bir.loop 0 to 4 step 1 {
    bir.tensor_scalar add %t[#bir.sap<(d0)[s0] -> (d0 * 50 + 4196), [[512, 32], [1, 50]]>],
                          %t[#bir.sap<(d0)[s0] -> (d0 * 50 + 4196), [[512, 32], [1, 50]]>], 1.0
      : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
  }
  bir.dma %y[#bir.ap<0, [[100, 16], [1, 100]]>], %t[#bir.ap<10340, [[512, 16], [1, 100]]>] : !bir.dram<16x100xf32>, !bir.sbuf<128x512xf32>
}

// -----

// A row-walking loop keeps a loop-dependent start: (d0 * 512 + 6) - 6.
// PSUM tensors shrink too. Tensors already tight are left as they are.

// CHECK-LABEL: bir.func @rows
// CHECK:       %p = bir.memloc "p" internal : !bir.psum<4x8xf32>
// CHECK-NEXT:  %tight = bir.memloc "tight" internal : !bir.sbuf<4x8xf32>
// CHECK:       bir.memset %p[#bir.sap<(d0)[s0] -> (d0 * 8), {{\[\[}}8, 1], [1, 8]]>]
bir.func @rows {
  %p = bir.memloc "p" internal : !bir.psum<128x512xf32>
  %tight = bir.memloc "tight" internal : !bir.sbuf<4x8xf32>
  bir.loop 0 to 4 step 1 {
    bir.memset %p[#bir.sap<(d0)[s0] -> (d0 * 512 + 6), [[512, 1], [1, 8]]>], 0.0 : !bir.psum<128x512xf32>
  }
  bir.memset %tight[#bir.ap<0, [[8, 4], [1, 8]]>], 0.0 : !bir.sbuf<4x8xf32>
}

// -----

// shrinkTensor: each loop iteration writes, then reads, one block of a
// 4-block tensor: one live block is enough (shrink factor 4). An access
// spanning two blocks keeps two (factor 2); the partition step is re-packed
// to the new row length.

// CHECK-LABEL: bir.func @blocks
// CHECK:       %one = bir.memloc "one" internal {bir.live_n = 1 : i64, bir.shrink_dim = 1 : i64} : !bir.sbuf<128x1x64xbf16>
// CHECK-NEXT:  %two = bir.memloc "two" internal {bir.live_n = 2 : i64, bir.shrink_dim = 1 : i64} : !bir.sbuf<128x2x64xbf16>
// CHECK:       bir.dma %one[#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 64), {{\[\[}}256, 128], [1, 64]]>]
// CHECK-NEXT:  bir.dma %y[#bir.sap<(d0)[s0] -> (d0 * 64), {{\[\[}}256, 128], [1, 64]]>], %one[#bir.ap<0, {{\[\[}}64, 128], [1, 64]]>]
// CHECK:       bir.memset %two[#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], 1.000000e+00
// CHECK-NEXT:  bir.dma %z[{{.*}}], %two[#bir.ap<64, {{\[\[}}128, 128], [1, 64]]>]
bir.func @blocks {
  %x = bir.memloc "x" input : !bir.dram<128x256xbf16>
  %y = bir.memloc "y" output : !bir.dram<128x256xbf16>
  %z = bir.memloc "z" output : !bir.dram<128x64xbf16>
  %one = bir.memloc "one" internal : !bir.sbuf<128x4x64xbf16>
  %two = bir.memloc "two" internal : !bir.sbuf<128x4x64xbf16>
  bir.loop 0 to 4 step 1 {
    bir.dma %one[#bir.sap<(d0)[s0] -> (0), [[256, 128], [1, 64]], block = (d0)[s0] -> (d0 * 64)>],
            %x[#bir.sap<(d0)[s0] -> (d0 * 64), [[256, 128], [1, 64]]>] : !bir.sbuf<128x4x64xbf16>, !bir.dram<128x256xbf16>
    bir.dma %y[#bir.sap<(d0)[s0] -> (d0 * 64), [[256, 128], [1, 64]]>],
            %one[#bir.sap<(d0)[s0] -> (0), [[256, 128], [1, 64]], block = (d0)[s0] -> (d0 * 64)>] : !bir.dram<128x256xbf16>, !bir.sbuf<128x4x64xbf16>
  }
  bir.loop 0 to 2 step 1 {
    bir.memset %two[#bir.sap<(d0)[s0] -> (0), [[256, 128], [1, 128]], block = (d0)[s0] -> (d0 * 128)>], 1.0 : !bir.sbuf<128x4x64xbf16>
    bir.dma %z[#bir.ap<0, [[64, 128], [1, 64]]>],
            %two[#bir.sap<(d0)[s0] -> (64), [[256, 128], [1, 64]], block = (d0)[s0] -> (d0 * 128)>] : !bir.dram<128x64xbf16>, !bir.sbuf<128x4x64xbf16>
  }
}

// -----

// Blocks that carry values across iterations stay: here each iteration
// reads the block the previous one wrote.

// CHECK-LABEL: bir.func @carried
// CHECK:       %t = bir.memloc "t" internal : !bir.sbuf<128x4x64xf32>
// CHECK-NOT:   bir.live_n
bir.func @carried {
  %t = bir.memloc "t" internal : !bir.sbuf<128x4x64xf32>
  bir.memset %t[#bir.ap<0, [[256, 128], [1, 256]]>], 0.0 : !bir.sbuf<128x4x64xf32>
  bir.loop 0 to 4 step 1 {
    bir.tensor_scalar add %t[#bir.sap<(d0)[s0] -> (0), [[256, 128], [1, 64]], block = (d0)[s0] -> (d0 * 64)>],
                          %t[#bir.sap<(d0)[s0] -> (0), [[256, 128], [1, 64]], block = (d0)[s0] -> (d0 * 64)>], 1.0
      : !bir.sbuf<128x4x64xf32>, !bir.sbuf<128x4x64xf32>
  }
}

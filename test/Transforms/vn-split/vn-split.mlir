// RUN: walrus-opt %s -split-input-file -vn-split | FileCheck %s

// Two halves of the partitions, never accessed together: two pieces, each
// shaped to its group's rectangle, every offset rebased; the original goes.

// CHECK-LABEL: bir.func @halves
// CHECK-NOT:   "t" internal
// CHECK:       %t_VN_0 = bir.memloc "t_VN_0" internal : !bir.sbuf<64x512xf32>
// CHECK-NEXT:  %t_VN_1 = bir.memloc "t_VN_1" internal : !bir.sbuf<64x256xf32>
// CHECK:       bir.dma %t_VN_0[#bir.ap<0, {{\[\[}}512, 64], [1, 512]]>], %x[#bir.ap<0, {{\[\[}}512, 64], [1, 512]]>]
// CHECK-NEXT:  bir.dma %t_VN_1[#bir.ap<0, {{\[\[}}256, 64], [1, 256]]>], %x[#bir.ap<32768, {{\[\[}}512, 64], [1, 256]]>]
// CHECK-NEXT:  bir.activation exp %t_VN_1[#bir.ap<0, {{\[\[}}256, 64], [1, 256]]>], %t_VN_1[#bir.ap<0, {{\[\[}}256, 64], [1, 256]]>]
// CHECK-NEXT:  bir.dma %y[#bir.ap<0, {{\[\[}}512, 64], [1, 512]]>], %t_VN_0[#bir.ap<0, {{\[\[}}512, 64], [1, 512]]>]
// CHECK-NEXT:  bir.dma %y[#bir.ap<32768, {{\[\[}}512, 64], [1, 256]]>], %t_VN_1[#bir.ap<0, {{\[\[}}256, 64], [1, 256]]>]
bir.func @halves {
  %x = bir.memloc "x" input : !bir.dram<128x512xf32>
  %y = bir.memloc "y" output : !bir.dram<128x512xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
  bir.dma %t[#bir.ap<0, [[512, 64], [1, 512]]>], %x[#bir.ap<0, [[512, 64], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  bir.dma %t[#bir.ap<32768, [[512, 64], [1, 256]]>], %x[#bir.ap<32768, [[512, 64], [1, 256]]>] : !bir.sbuf<128x512xf32>, !bir.dram<128x512xf32>
  bir.activation exp %t[#bir.ap<32768, [[512, 64], [1, 256]]>], %t[#bir.ap<32768, [[512, 64], [1, 256]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<0, [[512, 64], [1, 512]]>], %t[#bir.ap<0, [[512, 64], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<32768, [[512, 64], [1, 256]]>], %t[#bir.ap<32768, [[512, 64], [1, 256]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
}

// -----

// Column blocks of one partition range are pieces too; a loop that walks
// the blocks keeps one piece (its rectangles overlap through the loop);
// offsets inside a piece are rebased by its first column: (c - c0).

// CHECK-LABEL: bir.func @columns
// CHECK:       %t_VN_0 = bir.memloc "t_VN_0" internal : !bir.sbuf<128x100xbf16>
// CHECK-NEXT:  %t_VN_1 = bir.memloc "t_VN_1" internal : !bir.sbuf<128x200xbf16>
// CHECK:       bir.memset %t_VN_0[#bir.ap<0, {{\[\[}}100, 128], [1, 100]]>], 1.000000e+00
// CHECK-NEXT:  bir.loop 0 to 4 step 1 {
// CHECK-NEXT:    bir.memset %t_VN_1[#bir.sap<(d0)[s0] -> (d0 * 50), {{\[\[}}200, 128], [1, 50]]>], 2.000000e+00
// CHECK-NEXT:  }
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_0[#bir.ap<10, {{\[\[}}100, 128], [1, 90]]>]
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_1[#bir.ap<0, {{\[\[}}200, 128], [1, 200]]>]
bir.func @columns {
  %y = bir.memloc "y" output : !bir.dram<128x300xbf16>
  %t = bir.memloc "t" internal : !bir.sbuf<128x512xbf16>
  bir.memset %t[#bir.ap<0, [[512, 128], [1, 100]]>], 1.0 : !bir.sbuf<128x512xbf16>
  bir.loop 0 to 4 step 1 {
    bir.memset %t[#bir.sap<(d0)[s0] -> (d0 * 50 + 300), [[512, 128], [1, 50]]>], 2.0 : !bir.sbuf<128x512xbf16>
  }
  bir.dma %y[#bir.ap<0, [[300, 128], [1, 90]]>], %t[#bir.ap<10, [[512, 128], [1, 90]]>] : !bir.dram<128x300xbf16>, !bir.sbuf<128x512xbf16>
  bir.dma %y[#bir.ap<100, [[300, 128], [1, 200]]>], %t[#bir.ap<300, [[512, 128], [1, 200]]>] : !bir.dram<128x300xbf16>, !bir.sbuf<128x512xbf16>
}

// -----

// A piece nothing reads is dead: it and its writers go. Internal DRAM
// tensors split like SBUF ones.

// CHECK-LABEL: bir.func @dead
// CHECK:       %t_VN_0 = bir.memloc "t_VN_0" internal : !bir.sbuf<32x8xf32>
// CHECK-NOT:   t_VN_1
// CHECK:       %s_VN_0 = bir.memloc "s_VN_0" internal : !bir.dram<2x8xf32>
// CHECK-NEXT:  %s_VN_1 = bir.memloc "s_VN_1" internal : !bir.dram<2x8xf32>
// CHECK:       bir.memset %t_VN_0
// CHECK-NEXT:  bir.dma %s_VN_0[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>], %t_VN_0[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>]
// CHECK-NEXT:  bir.dma %s_VN_1[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>], %t_VN_0[#bir.ap<16, {{\[\[}}8, 2], [1, 8]]>]
// CHECK-NEXT:  bir.dma %t_VN_0[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>], %s_VN_0[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>]
// CHECK-NEXT:  bir.dma %t_VN_0[#bir.ap<16, {{\[\[}}8, 2], [1, 8]]>], %s_VN_1[#bir.ap<0, {{\[\[}}8, 2], [1, 8]]>]
// CHECK-NEXT:  bir.dma %y
// CHECK-NEXT: }
bir.func @dead {
  %y = bir.memloc "y" output : !bir.dram<32x8xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
  %s = bir.memloc "s" internal : !bir.dram<16x8xf32>
  bir.memset %t[#bir.ap<0, [[8, 32], [1, 8]]>], 3.0 : !bir.sbuf<128x8xf32>
  bir.memset %t[#bir.ap<512, [[8, 64], [1, 8]]>], 4.0 : !bir.sbuf<128x8xf32>
  bir.dma %s[#bir.ap<0, [[8, 2], [1, 8]]>], %t[#bir.ap<0, [[8, 2], [1, 8]]>] : !bir.dram<16x8xf32>, !bir.sbuf<128x8xf32>
  bir.dma %s[#bir.ap<64, [[8, 2], [1, 8]]>], %t[#bir.ap<16, [[8, 2], [1, 8]]>] : !bir.dram<16x8xf32>, !bir.sbuf<128x8xf32>
  bir.dma %t[#bir.ap<0, [[8, 2], [1, 8]]>], %s[#bir.ap<0, [[8, 2], [1, 8]]>] : !bir.sbuf<128x8xf32>, !bir.dram<16x8xf32>
  bir.dma %t[#bir.ap<16, [[8, 2], [1, 8]]>], %s[#bir.ap<64, [[8, 2], [1, 8]]>] : !bir.sbuf<128x8xf32>, !bir.dram<16x8xf32>
  bir.dma %y[#bir.ap<0, [[8, 32], [1, 8]]>], %t[#bir.ap<0, [[8, 32], [1, 8]]>] : !bir.dram<32x8xf32>, !bir.sbuf<128x8xf32>
}

// -----

// Rectangles accessed again and again (a tile streamed through a kernel):
// accesses of one rectangle are grouped together before the rest, and
// overlaps still chain through them: partitions 0-31, 16-47 and 40-71 are
// one piece of 72 partitions, 96-127 another; every access of a repeated
// rectangle goes to its piece.

// CHECK-LABEL: bir.func @repeated
// CHECK:       %t_VN_0 = bir.memloc "t_VN_0" internal : !bir.sbuf<72x512xf32>
// CHECK-NEXT:  %t_VN_1 = bir.memloc "t_VN_1" internal : !bir.sbuf<32x512xf32>
// CHECK-NEXT:  bir.memset %t_VN_0[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>], 1.0
// CHECK-NEXT:  bir.memset %t_VN_1[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>], 2.0
// CHECK-NEXT:  bir.memset %t_VN_0[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>], 3.0
// CHECK-NEXT:  bir.memset %t_VN_0[#bir.ap<8192, {{\[\[}}512, 32], [1, 512]]>], 4.0
// CHECK-NEXT:  bir.memset %t_VN_0[#bir.ap<20480, {{\[\[}}512, 32], [1, 512]]>], 5.0
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_0[#bir.ap<20480, {{\[\[}}512, 32], [1, 512]]>]
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_0[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>]
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_1[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>]
// CHECK-NEXT:  bir.memset %t_VN_1[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>], 6.0
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_VN_1[#bir.ap<0, {{\[\[}}512, 32], [1, 512]]>]
bir.func @repeated {
  %y = bir.memloc "y" output : !bir.dram<128x512xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<0, [[512, 32], [1, 512]]>], 1.0 : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<49152, [[512, 32], [1, 512]]>], 2.0 : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<0, [[512, 32], [1, 512]]>], 3.0 : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<8192, [[512, 32], [1, 512]]>], 4.0 : !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<20480, [[512, 32], [1, 512]]>], 5.0 : !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<20480, [[512, 32], [1, 512]]>], %t[#bir.ap<20480, [[512, 32], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<0, [[512, 32], [1, 512]]>], %t[#bir.ap<0, [[512, 32], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<49152, [[512, 32], [1, 512]]>], %t[#bir.ap<49152, [[512, 32], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
  bir.memset %t[#bir.ap<49152, [[512, 32], [1, 512]]>], 6.0 : !bir.sbuf<128x512xf32>
  bir.dma %y[#bir.ap<49152, [[512, 32], [1, 512]]>], %t[#bir.ap<49152, [[512, 32], [1, 512]]>] : !bir.dram<128x512xf32>, !bir.sbuf<128x512xf32>
}

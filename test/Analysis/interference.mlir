// RUN: walrus-opt %s -test-walrus-print-interference=sbuf-bytes=4096 -o /dev/null | FileCheck %s

// The 9 x 9 impact table, computed from the band geometry: row = the class
// of the node, column = the class of a neighbour, value = how many of the
// node's band choices one placement of the neighbour can overlap. Classes:
// 0 any quarter, 1-4 quarter 0-3, 5 any half, 6-7 half 0-1, 8 all.
// k = band choices x (4096 - bytes + 1); edges join co-live nodes; the lower
// bound is the largest live area / 128 (at points 5 and 6 here).

// CHECK:      interference of @bands: 6 nodes, 15 edges, lower bound 616 B/partition
// CHECK-NEXT:   impact[0]: 1 1 1 1 1 2 2 2 4
// CHECK-NEXT:   impact[1]: 1 1 0 0 0 1 1 0 1
// CHECK-NEXT:   impact[2]: 1 0 1 0 0 1 1 0 1
// CHECK-NEXT:   impact[3]: 1 0 0 1 0 1 0 1 1
// CHECK-NEXT:   impact[4]: 1 0 0 0 1 1 0 1 1
// CHECK-NEXT:   impact[5]: 1 1 1 1 1 1 1 1 2
// CHECK-NEXT:   impact[6]: 1 1 1 0 0 1 1 0 1
// CHECK-NEXT:   impact[7]: 1 0 0 1 1 1 0 1 1
// CHECK-NEXT:   impact[8]: 1 1 1 1 1 1 1 1 1
// CHECK-NEXT:   node 0 q0: 32 x 256 B, band class 0, k = 15364, live [0, 6], neighbours 1 2 3 4 5
// CHECK-NEXT:   node 1 q1: 32 x 256 B, band class 0, k = 15364, live [1, 7], neighbours 0 2 3 4 5
// CHECK-NEXT:   node 2 q2: 20 x 256 B, band class 0, k = 15364, live [2, 8], neighbours 0 1 3 4 5
// CHECK-NEXT:   node 3 q3: 32 x 256 B, band class 0, k = 15364, live [3, 10], neighbours 0 1 2 4 5
// CHECK-NEXT:   node 4 h: 64 x 256 B, band class 5, k = 7682, live [4, 9], neighbours 0 1 2 3 5
// CHECK-NEXT:   node 5 f: 128 x 256 B, band class 8, k = 3841, live [5, 10], neighbours 0 1 2 3 4
// CHECK-NEXT: interference of @apart: 2 nodes, 0 edges, lower bound 256 B/partition
bir.func @bands {
  %q0 = bir.memloc "q0" internal : !bir.sbuf<32x64xf32>
  %q1 = bir.memloc "q1" internal : !bir.sbuf<32x64xf32>
  %q2 = bir.memloc "q2" internal : !bir.sbuf<20x64xf32>
  %q3 = bir.memloc "q3" internal : !bir.sbuf<32x64xf32>
  %h = bir.memloc "h" internal : !bir.sbuf<64x64xf32>
  %f = bir.memloc "f" internal : !bir.sbuf<128x64xf32>
  bir.memset %q0[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %q1[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %q2[#bir.ap<0, [[64, 20], [1, 64]]>], 1.0 : !bir.sbuf<20x64xf32>
  bir.memset %q3[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %h[#bir.ap<0, [[64, 64], [1, 64]]>], 1.0 : !bir.sbuf<64x64xf32>
  bir.memset %f[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.tensor_tensor add %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q0[#bir.ap<0, [[64, 32], [1, 64]]>]
    : !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>
  bir.tensor_tensor add %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q1[#bir.ap<0, [[64, 32], [1, 64]]>]
    : !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>
  bir.tensor_tensor add %h[#bir.ap<0, [[64, 20], [1, 64]]>], %h[#bir.ap<0, [[64, 20], [1, 64]]>], %q2[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<20x64xf32>
  bir.tensor_tensor add %f[#bir.ap<0, [[64, 20], [1, 64]]>], %f[#bir.ap<0, [[64, 20], [1, 64]]>], %h[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>, !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %f[#bir.ap<0, [[64, 20], [1, 64]]>], %f[#bir.ap<0, [[64, 20], [1, 64]]>], %q3[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>, !bir.sbuf<32x64xf32>
}

bir.func @apart {
  %a = bir.memloc "a" internal : !bir.sbuf<128x64xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x64xf32>
  bir.memset %a[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.memset %b[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
}

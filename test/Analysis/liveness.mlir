// RUN: walrus-opt %s -split-input-file -test-walrus-print-liveness -o /dev/null | FileCheck %s

// Straight-line code: from the first access to the last; inputs from the
// start, outputs to the end (y here is only written at the end anyway);
// never-accessed internals are never live.
// Points: 0 dma, 1 memset, 2 tensor_copy, 3 dma.

// CHECK-LABEL: liveness of @straight: 4 points
// CHECK-NEXT:    x: [0, 0]
// CHECK-NEXT:    y: [3, 3]
// CHECK-NEXT:    a: [0, 2]
// CHECK-NEXT:    b: [1, 3]
// CHECK-NEXT:    unused: never live
bir.func @straight {
  %x = bir.memloc "x" input : !bir.dram<8x8xf32>
  %y = bir.memloc "y" output : !bir.dram<8x8xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<8x8xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<8x8xf32>
  %unused = bir.memloc "unused" internal : !bir.sbuf<8x8xf32>
  bir.dma %a[#bir.ap<0, [[8, 8], [1, 8]]>], %x[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.dram<8x8xf32>
  bir.memset %b[#bir.ap<0, [[8, 8], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.tensor_copy %b[#bir.ap<0, [[8, 8], [1, 8]]>], %a[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  bir.dma %y[#bir.ap<0, [[8, 8], [1, 8]]>], %b[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.dram<8x8xf32>, !bir.sbuf<8x8xf32>
}

// -----

// Loops. Points: 0 memset acc, 1 loop header, 2-9 the body, 10 loop end,
// 11 tensor_copy.
// - acc is written before the loop and read after it: a use inside the loop
//   counts from the loop header to its end.
// - t is written then read in each iteration: it stays inside [2, 3].
// - carried is read before it is written in the body: the whole loop.
// - partial is written on half its rows and read whole: the whole loop.
// - view is read through a view: the whole loop.

// CHECK-LABEL: liveness of @loops: 12 points
// CHECK-NEXT:    acc: [0, 11]
// CHECK-NEXT:    t: [2, 3]
// CHECK-NEXT:    carried: [1, 10] loop-carried
// CHECK-NEXT:    partial: [1, 10] loop-carried
// CHECK-NEXT:    viewed: [1, 10] loop-carried
bir.func @loops {
  %acc = bir.memloc "acc" internal : !bir.sbuf<8x8xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<8x8xf32>
  %carried = bir.memloc "carried" internal : !bir.sbuf<8x8xf32>
  %partial = bir.memloc "partial" internal : !bir.sbuf<8x8xf32>
  %viewed = bir.memloc "viewed" internal : !bir.sbuf<8x8xf32>
  %view = bir.view %viewed : !bir.sbuf<8x8xf32> to !bir.sbuf<8x8xf32>
  bir.memset %acc[#bir.ap<0, [[8, 8], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.loop 0 to 4 step 1 {
    bir.memset %t[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>
    bir.tensor_tensor add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %t[#bir.ap<0, [[8, 8], [1, 8]]>]
      : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.tensor_scalar add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %carried[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.memset %carried[#bir.ap<0, [[8, 8], [1, 8]]>], 2.0 : !bir.sbuf<8x8xf32>
    bir.memset %partial[#bir.ap<0, [[8, 4], [1, 8]]>], 2.0 : !bir.sbuf<8x8xf32>
    bir.tensor_scalar add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %partial[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.memset %viewed[#bir.ap<0, [[8, 8], [1, 8]]>], 2.0 : !bir.sbuf<8x8xf32>
    bir.tensor_scalar add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %view[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  }
  bir.tensor_copy %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
}

// -----

// Nested loops: accesses share the outer loop; the one in the inner loop
// counts from the inner header to its end.
// Points: 0 outer header, 1 memset, 2 inner header, 3 tensor_scalar,
// 4 inner end, 5 outer end.

// CHECK-LABEL: liveness of @nested: 6 points
// CHECK-NEXT:    a: [1, 4]
bir.func @nested {
  %a = bir.memloc "a" internal : !bir.sbuf<8x8xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %a[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>
    bir.loop 0 to 3 step 1 {
      bir.tensor_scalar add %a[#bir.ap<0, [[8, 8], [1, 4]]>], %a[#bir.ap<4, [[8, 8], [1, 4]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    }
  }
}

// -----

// The first access of the body reads and writes acc: it reads the value of
// the previous iteration (an instruction reads before it writes), so acc is
// carried over the whole loop though nothing writes it before the loop.
// Points: 0 header, 1 tensor_scalar, 2 dma, 3 memset, 4 dma, 5 end.

// CHECK-LABEL: liveness of @read_and_write_first: 6 points
// CHECK-NEXT:    y: [0, 5] loop-carried
// CHECK-NEXT:    acc: [0, 5] loop-carried
// CHECK-NEXT:    other: [3, 4]
bir.func @read_and_write_first {
  %y = bir.memloc "y" output : !bir.dram<8x8x8xf32>
  %acc = bir.memloc "acc" internal : !bir.sbuf<8x8xf32>
  %other = bir.memloc "other" internal : !bir.sbuf<8x8xf32>
  bir.loop 0 to 4 step 1 {
    bir.tensor_scalar add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 128), [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.dram<8x8x8xf32>, !bir.sbuf<8x8xf32>
    bir.memset %other[#bir.ap<0, [[8, 8], [1, 8]]>], 7.0 : !bir.sbuf<8x8xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 128 + 64), [[8, 8], [1, 8]]>], %other[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.dram<8x8x8xf32>, !bir.sbuf<8x8xf32>
  }
}

// -----

// Rows die apart: the first DMA reads rows 0-63 of t for the last time,
// the add reads rows 64-127 later. Each quarter of the partitions gets the
// range of the accesses touching it (-sb-alloc lets v take the bytes of
// the rows that died: test/Transforms/sb-alloc/sb-alloc-row-blocks.mlir). A tensor
// accessed only whole (v) has no blocks; rows nothing touches are never
// live.
// Points: 0 memset, 1 dma, 2 dma, 3 memset, 4 add, 5 dma.

// CHECK-LABEL: liveness of @rows_die_apart: 6 points
// CHECK-NEXT:    x: [0, 1]
// CHECK-NEXT:    y: [2, 5]
// CHECK-NEXT:    t: [1, 4]
// CHECK-NEXT:      rows [0, 32): [1, 2]
// CHECK-NEXT:      rows [32, 64): [1, 2]
// CHECK-NEXT:      rows [64, 96): [1, 4]
// CHECK-NEXT:      rows [96, 128): [1, 4]
// CHECK-NEXT:    v: [3, 5]
// CHECK-NEXT:    unread: [0, 0]
// CHECK-NEXT:      rows [0, 32): [0, 0]
// CHECK-NEXT:      rows [32, 64): never live
bir.func @rows_die_apart {
  %x = bir.memloc "x" input : !bir.dram<128x64xf32>
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  %v = bir.memloc "v" internal : !bir.sbuf<64x64xf32>
  %unread = bir.memloc "unread" internal : !bir.sbuf<64x8xf32>
  bir.memset %unread[#bir.ap<0, [[8, 32], [1, 8]]>], 0.0 : !bir.sbuf<64x8xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %x[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %v[#bir.ap<0, [[64, 64], [1, 64]]>], 2.0 : !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %v[#bir.ap<0, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<4096, [[64, 64], [1, 64]]>] : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<4096, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<64x64xf32>
}

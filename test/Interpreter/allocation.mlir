// Placed tensors live in one SBUF array: an allocation that overlaps two
// co-live tensors corrupts the outputs, and -sb-alloc-verify rejects it; a
// disjoint one keeps the outputs and passes.
//
// RUN: split-file %s %t
// RUN: walrus-run %t/unplaced.mlir %t/disjoint.mlir | FileCheck %s --check-prefix=DISJOINT
// RUN: walrus-opt %t/disjoint.mlir -sb-alloc-verify -o /dev/null
// RUN: not walrus-run %t/unplaced.mlir %t/overlapping.mlir | FileCheck %s --check-prefix=OVERLAPPING
// RUN: not walrus-opt %t/overlapping.mlir -sb-alloc-verify -o /dev/null 2>&1 | FileCheck %s --check-prefix=VERIFY

// DISJOINT: identical: 1 output(s), 32 bytes
// OVERLAPPING: mismatch: output 'o' differs at element 0 [0, 0]: before 1, after 2
// VERIFY: overlapping.mlir:4:8: error: sb-alloc-verify: 'b' and 'a' are live at the same time (points 1 to 1) and share partitions [1, 3) x bytes [8, 24)

//--- unplaced.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<2x4xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<2x4xf32>
  bir.memset %a[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.memset %b[#bir.ap<0, [[4, 2], [1, 4]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
//--- disjoint.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xf32>
  %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<2x4xf32>
  %b = bir.memloc "b" internal address 0 base_partition 2 : !bir.sbuf<2x4xf32>
  bir.memset %a[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.memset %b[#bir.ap<0, [[4, 2], [1, 4]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
//--- overlapping.mlir
bir.func @main {
  %o = bir.memloc "o" output : !bir.dram<2x4xf32>
  %a = bir.memloc "a" internal address 8 base_partition 1 : !bir.sbuf<2x4xf32>
  %b = bir.memloc "b" internal address 8 base_partition 1 : !bir.sbuf<2x4xf32>
  bir.memset %a[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.memset %b[#bir.ap<0, [[4, 2], [1, 4]]>], 2.0 : !bir.sbuf<2x4xf32>
  bir.dma %o[#bir.ap<0, [[4, 2], [1, 4]]>], %a[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}

// RUN: walrus-opt %s -sb-alloc -sb-alloc-verify | FileCheck %s
// RUN: walrus-run %s --after=sb-alloc | FileCheck %s --check-prefix=INTERP

// An accumulator whose first access in the loop reads and writes it, with
// nothing writing it before the loop: its value is carried from one
// iteration to the next, so `other` (live only after acc's last access of
// an iteration) must not take its bytes. Before the fix both got address
// 0, and the second iteration read 7 + 1 instead of 1 + 1.

// CHECK: %acc = bir.memloc "acc" internal address 0 base_partition 0
// CHECK: %other = bir.memloc "other" internal address 256 base_partition 0
// INTERP: identical: 1 output(s), 262144 bytes
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<8x128x64xf32>
  %acc = bir.memloc "acc" internal : !bir.sbuf<128x64xf32>
  %other = bir.memloc "other" internal : !bir.sbuf<128x64xf32>
  bir.loop 0 to 4 step 1 {
    bir.tensor_scalar add %acc[#bir.ap<0, [[64, 128], [1, 64]]>], %acc[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 16384), [[64, 128], [1, 64]]>], %acc[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<8x128x64xf32>, !bir.sbuf<128x64xf32>
    bir.memset %other[#bir.ap<0, [[64, 128], [1, 64]]>], 7.0 : !bir.sbuf<128x64xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 16384 + 8192), [[64, 128], [1, 64]]>], %other[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<8x128x64xf32>, !bir.sbuf<128x64xf32>
  }
}

// RUN: split-file --leading-lines %s %t
// RUN: walrus-opt %t/two-stages.mlir -sb-alloc -sb-alloc-verify | FileCheck %s --check-prefix=TWO
// RUN: walrus-opt %t/two-stages.mlir -sb-alloc=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: walrus-opt %t/two-stages.mlir -sb-alloc -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=PEAK-TWO
// RUN: walrus-run %t/two-stages.mlir --after=sb-alloc | FileCheck %s --check-prefix=INTERP-TWO
// RUN: walrus-opt %t/carried-in.mlir -sb-alloc -sb-alloc-verify | FileCheck %s --check-prefix=CARRIED
// RUN: walrus-opt %t/carried-in.mlir -sb-alloc=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=NO-REMARK --allow-empty
// RUN: walrus-opt %t/carried-in.mlir -sb-alloc -print-bir-summary -o /dev/null | FileCheck %s --check-prefix=PEAK-CARRIED
// RUN: walrus-run %t/carried-in.mlir --after=sb-alloc | FileCheck %s --check-prefix=INTERP-CARRIED

// memloc_split per loop region: each loop nest whose first access of t
// writes, in every iteration, all that the nest reads starts a value of its
// own; the second nest gets a clone. u, live only between the loops, then
// shares bytes with both (one 256 B tile per partition instead of two).

// REMARK:      two-stages.mlir:[[@LINE+17]]:8: remark: sb-alloc: split 't' into 2 independent segments
// REMARK-NOT:  split
// TWO:         %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// TWO:         %t_S1 = bir.memloc "t_S1" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// TWO:         %u = bir.memloc "u" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// TWO:         bir.loop 0 to 2 step 1 {
// TWO-NEXT:      bir.memset %t[
// TWO-NEXT:      bir.dma %y{{.*}}, %t[
// TWO:         bir.loop 0 to 2 step 1 {
// TWO-NEXT:      bir.memset %t_S1[
// TWO-NEXT:      bir.dma %y{{.*}}, %t_S1[
// PEAK-TWO:    placed: peak 256 B/partition
// INTERP-TWO:  identical: 1 output(s), 163840 bytes

//--- two-stages.mlir
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<5x128x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  %u = bir.memloc "u" internal : !bir.sbuf<128x64xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 8192), [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<5x128x64xf32>, !bir.sbuf<128x64xf32>
  }
  bir.memset %u[#bir.ap<0, [[64, 128], [1, 64]]>], 2.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<16384, [[64, 128], [1, 64]]>], %u[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<5x128x64xf32>, !bir.sbuf<128x64xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 3.0 : !bir.sbuf<128x64xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 8192 + 24576), [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<5x128x64xf32>, !bir.sbuf<128x64xf32>
  }
}

// The second nest reads t before it writes it (an accumulator carried in
// from the first): one value, no split, and u cannot share t's bytes.

// NO-REMARK-NOT: split
// CARRIED:     %t = bir.memloc "t" internal address 0 base_partition 0
// CARRIED:     %u = bir.memloc "u" internal address 256 base_partition 0
// PEAK-CARRIED: placed: peak 512 B/partition
// INTERP-CARRIED: identical: 1 output(s), 98304 bytes

//--- carried-in.mlir
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<3x128x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  %u = bir.memloc "u" internal : !bir.sbuf<128x64xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  }
  bir.memset %u[#bir.ap<0, [[64, 128], [1, 64]]>], 2.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %u[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<3x128x64xf32>, !bir.sbuf<128x64xf32>
  bir.loop 0 to 2 step 1 {
    bir.tensor_scalar add %t[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
    bir.dma %y[#bir.sap<(d0) -> (d0 * 8192 + 8192), [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<3x128x64xf32>, !bir.sbuf<128x64xf32>
  }
}

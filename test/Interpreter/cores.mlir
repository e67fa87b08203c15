// Several cores over one DRAM: shard-dependent addresses and masks, loops,
// collectives, barriers and cross-core copies; the same program split by
// -lnc-split computes the same bytes.
//
// RUN: split-file %s %t
// RUN: walrus-run %t/spmd.mlir --print-outputs | FileCheck %s --check-prefix=SPMD
// RUN: walrus-run %t/spmd.mlir --after=lnc-split | FileCheck %s --check-prefix=SAME
// RUN: walrus-run %t/collectives.mlir --print-outputs | FileCheck %s --check-prefix=COLLECTIVES
// RUN: walrus-run %t/collectives.mlir --after='builtin.module(lnc-split)' | FileCheck %s --check-prefix=SAME

// Core c writes row c: 1 + 2c, incremented once per loop iteration (4
// times), and only core 1 adds its masked extra 100 to column 1.
// SPMD:      o: !bir.dram<2x4xf32>
// SPMD-NEXT:   5 5 5 5
// SPMD-NEXT:   7 107 7 7

// SAME: identical: 1 output(s), 32 bytes

// all_reduce of 1 (core 0) and 10 (core 1); all_gather places core c's
// value at position c; core 0 sends its 1s to core 1 before the barrier,
// and core 1 stores what it received.
// COLLECTIVES:      o: !bir.dram<4x2xf32>
// COLLECTIVES-NEXT:   11 11
// COLLECTIVES-NEXT:   1 10
// COLLECTIVES-NEXT:   1 1
// COLLECTIVES-NEXT:   11 11

//--- spmd.mlir
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %o = bir.memloc "o" output : !bir.dram<2x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<1x4xf32>
    bir.memset %t[#bir.ap<0, [[4, 1], [1, 4]]>], 1.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<1x4xf32>
    bir.memset %t[#bir.ap<0, [[4, 1], [1, 4]]>], 3.0 {mask = affine_set<()[s0] : (s0 - 1 == 0)>} : !bir.sbuf<1x4xf32>
    bir.loop 0 to 4 step 1 {
      bir.tensor_scalar add %t[#bir.sap<(d0)[s0] -> (0), [[4, 1], [1, 4]]>], %t[#bir.ap<0, [[4, 1], [1, 4]]>], 1.0
        : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
    }
    bir.tensor_scalar add %t[#bir.ap<1, [[4, 1], [1, 1]]>], %t[#bir.ap<1, [[4, 1], [1, 1]]>], 100.0
      {mask = affine_set<()[s0] : (s0 - 1 >= 0)>} : !bir.sbuf<1x4xf32>, !bir.sbuf<1x4xf32>
    bir.dma %o[#bir.sap<()[s0] -> (s0 * 4), [[4, 1], [1, 4]]>], %t[#bir.ap<0, [[4, 1], [1, 4]]>]
      : !bir.dram<2x4xf32>, !bir.sbuf<1x4xf32>
  }
}
//--- collectives.mlir
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %o = bir.memloc "o" output : !bir.dram<4x2xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<1x2xf32>
    %sum = bir.memloc "sum" internal : !bir.sbuf<1x2xf32>
    %all = bir.memloc "all" internal : !bir.sbuf<1x2xf32>
    %recv = bir.memloc "recv" internal : !bir.sbuf<1x2xf32>
    bir.memset %t[#bir.ap<0, [[2, 1], [1, 2]]>], 1.0 {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<1x2xf32>
    bir.memset %t[#bir.ap<0, [[2, 1], [1, 2]]>], 10.0 {mask = affine_set<()[s0] : (s0 - 1 == 0)>} : !bir.sbuf<1x2xf32>
    bir.collective all_reduce %sum[#bir.ap<0, [[2, 1], [1, 2]]>], %t[#bir.ap<0, [[2, 1], [1, 2]]>] reduce add
      : !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>
    bir.collective all_gather %all[#bir.ap<0, [[2, 1], [1, 2]]>], %t[#bir.ap<0, [[2, 1], [1, 1]]>]
      shard_offset affine_map<()[s0] -> (s0)> : !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>
    bir.sb2sb %recv[#bir.ap<0, [[2, 1], [1, 2]]>], %t[#bir.ap<0, [[2, 1], [1, 2]]>] peer affine_map<()[s0] -> (1)>
      {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<1x2xf32>, !bir.sbuf<1x2xf32>
    bir.core_barrier "sent"
    bir.dma %o[#bir.ap<0, [[2, 1], [1, 2]]>], %sum[#bir.ap<0, [[2, 1], [1, 2]]>] {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.dram<4x2xf32>, !bir.sbuf<1x2xf32>
    bir.dma %o[#bir.ap<2, [[2, 1], [1, 2]]>], %all[#bir.ap<0, [[2, 1], [1, 2]]>] {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.dram<4x2xf32>, !bir.sbuf<1x2xf32>
    bir.dma %o[#bir.ap<4, [[2, 1], [1, 2]]>], %recv[#bir.ap<0, [[2, 1], [1, 2]]>] {mask = affine_set<()[s0] : (s0 - 1 == 0)>}
      : !bir.dram<4x2xf32>, !bir.sbuf<1x2xf32>
    bir.dma %o[#bir.ap<6, [[2, 1], [1, 2]]>], %sum[#bir.ap<0, [[2, 1], [1, 2]]>] {mask = affine_set<()[s0] : (s0 - 1 == 0)>}
      : !bir.dram<4x2xf32>, !bir.sbuf<1x2xf32>
  }
}

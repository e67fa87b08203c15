// RUN: walrus-opt %s -split-input-file -lnc-split | FileCheck %s
// RUN: walrus-opt %s -split-input-file -lnc-split=roundtrip-clones | FileCheck %s
// RUN: walrus-opt %s -split-input-file -lnc-split -lnc-verify | FileCheck %s

// Two cores: core 0 is a clone, core 1 the original; shard-dependent
// offsets are bound and folded, masks decide what each core keeps.

// CHECK-LABEL: module {
// CHECK-NEXT: module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64, bir.target = #bir.target<"trn1">} {
// CHECK-NEXT:   bir.func @main {
// CHECK:          bir.dma %t[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %x[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:     bir.memset %t[#bir.ap<0, {{\[\[}}512, 64], [1, 512]]>], 1.000000e+00 :
// CHECK-NEXT:     bir.loop 0 to 4 step 1 {
// CHECK-NEXT:       bir.dma %t[#bir.ap<0, {{\[\[}}512, 128], [1, 128]]>], %x[#bir.sap<(d0) -> (d0 * 128 + 7), {{\[\[}}512, 128], [1, 128]]>]
// CHECK-NEXT:     }
// CHECK-NEXT:     bir.core_barrier "done"
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64, bir.target = #bir.target<"trn1">} {
// CHECK-NEXT:   bir.func @main {
// CHECK:          bir.dma %t[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %x[#bir.ap<65536, {{\[\[}}512, 128], [1, 512]]>]
// CHECK-NEXT:     bir.memset %t[#bir.ap<32768, {{\[\[}}512, 64], [1, 512]]>], 2.000000e+00 :
// CHECK-NEXT:     bir.core_barrier "done"
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NOT: module
module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn1">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xbf16>
    %t = bir.memloc "t" internal : !bir.sbuf<128x512xbf16>
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>],
            %x[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
    // Each core fills its own half of the partitions with its own value.
    bir.memset %t[#bir.sap<()[s0] -> (s0 * 32768), [[512, 64], [1, 512]]>], 1.0
      {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x512xbf16>
    bir.memset %t[#bir.sap<()[s0] -> (s0 * 32768), [[512, 64], [1, 512]]>], 2.0
      {mask = affine_set<()[s0] : (s0 - 1 == 0)>} : !bir.sbuf<128x512xbf16>
    // A loop whose only instruction runs on core 0: core 1 loses the loop.
    bir.loop 0 to 4 step 1 {
      bir.dma %t[#bir.ap<0, [[512, 128], [1, 128]]>],
              %x[#bir.sap<(d0)[s0] -> (d0 * 128 + s0 * 3 + 7), [[512, 128], [1, 128]]>]
        {mask = affine_set<()[s0] : (-s0 >= 0)>} : !bir.sbuf<128x512xbf16>, !bir.dram<256x512xbf16>
    }
    bir.core_barrier "done"
  }
}

// -----

// Four cores from a nested symbolic module; the tile and block parts of a
// pattern are bound too, the shard-dependent geometry of collectives and
// cross-core copies is folded, and other modules stay where they are.

// CHECK-DAG: #[[ZERO:map[0-9]*]] = affine_map<() -> (0)>
// CHECK-DAG: #[[ONE:map[0-9]*]] = affine_map<() -> (1)>
// CHECK-DAG: #[[TWO:map[0-9]*]] = affine_map<() -> (2)>
// CHECK-DAG: #[[SIX:map[0-9]*]] = affine_map<() -> (6)>
// CHECK-LABEL: module @top {
// CHECK-NEXT: module @before {
// CHECK: module @sg0_nc00_x attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 0 : i64}
// CHECK:   bir.loop 0 to 2 step 1 {
// CHECK-NEXT:     bir.memset %t[#bir.sap<(d0) -> (0), {{\[\[}}8, 127], [1, 2]], tile = (d0) -> (0), block = (d0) -> (d0 * 4)>]
// CHECK:   bir.collective all_gather %t[{{.*}}], %t[{{.*}}] shard_offset #[[ZERO]] :
// CHECK:   bir.sb2sb %u[{{.*}}], %t[{{.*}}] peer #[[ONE]] :
// CHECK: module @sg0_nc01_x attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 1 : i64}
// CHECK:     bir.memset %t[#bir.sap<(d0) -> (1), {{\[\[}}8, 127], [1, 2]], tile = (d0) -> (0), block = (d0) -> (d0 * 4)>]
// CHECK:   bir.collective all_gather %t[{{.*}}], %t[{{.*}}] shard_offset #[[TWO]] :
// CHECK:   bir.sb2sb %u[{{.*}}], %t[{{.*}}] peer #[[TWO]] :
// CHECK: module @sg0_nc02_x attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 2 : i64}
// CHECK:     bir.memset %t[#bir.sap<(d0) -> (2), {{\[\[}}8, 127], [1, 2]], tile = (d0) -> (2), block = (d0) -> (d0 * 4)>]
// CHECK-NOT: bir.memset
// CHECK: module @sg0_nc03_x attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 3 : i64}
// CHECK:     bir.memset %t[#bir.sap<(d0) -> (3), {{\[\[}}8, 127], [1, 2]], tile = (d0) -> (2), block = (d0) -> (d0 * 4)>]
// CHECK:   bir.memset %t[#bir.ap<7, {{\[\[}}8, 128], [1, 1]]>]
// CHECK:   bir.collective all_gather %t[{{.*}}], %t[{{.*}}] shard_offset #[[SIX]] :
// CHECK:   bir.sb2sb %u[{{.*}}], %t[{{.*}}] peer #[[ZERO]] :
// CHECK: module @after {
module @top {
  module @before {
  }
  module @sg0_nc_symbolic_x attributes {bir.lnc_size = 4 : i64} {
    bir.func @main {
      %t = bir.memloc "t" internal : !bir.sbuf<128x8xf32>
      %u = bir.memloc "u" internal : !bir.sbuf<128x8xf32>
      bir.loop 0 to 2 step 1 {
        bir.memset %t[#bir.sap<(d0)[s0] -> (s0), [[8, 127], [1, 2]], tile = (d0)[s0] -> ((s0 floordiv 2) * 2), block = (d0)[s0] -> (d0 * 4)>], 0.0
          : !bir.sbuf<128x8xf32>
      }
      bir.memset %t[#bir.sap<()[s0] -> (s0 * 2 + 1), [[8, 128], [1, 1]]>], 0.0
        {mask = affine_set<()[s0] : (s0 - 3 == 0)>} : !bir.sbuf<128x8xf32>
      bir.collective all_gather %t[#bir.ap<0, [[8, 128], [1, 8]]>], %t[#bir.ap<0, [[8, 128], [1, 2]]>]
        shard_offset affine_map<()[s0] -> (s0 * 2)> : !bir.sbuf<128x8xf32>, !bir.sbuf<128x8xf32>
      bir.sb2sb %u[#bir.ap<0, [[8, 128], [1, 8]]>], %t[#bir.ap<0, [[8, 128], [1, 8]]>]
        peer affine_map<()[s0] -> ((s0 + 1) mod 4)> : !bir.sbuf<128x8xf32>, !bir.sbuf<128x8xf32>
    }
  }
  module @after {
  }
}

// -----

// lnc_size = 1 (the default): untouched, no core id, not renamed.
// CHECK-LABEL: module @nc_symbolic {
// CHECK-NOT: neuron_core_id
// CHECK:     bir.memset %t[#bir.sap<()[s0] -> (s0 * 4), {{\[\[}}4, 128], [1, 4]]>]
// CHECK-SAME: mask
module @nc_symbolic {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.memset %t[#bir.sap<()[s0] -> (s0 * 4), [[4, 128], [1, 4]]>], 0.0
      {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x4xf32>
  }
}

// -----

// An anonymous symbolic module gives modules named ncNN.
// CHECK-LABEL: module {
// CHECK-NEXT: module @nc00 attributes
// CHECK: module @nc01 attributes
module attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
  }
}

// -----

// Four cores of the usual nc_symbolic module: nc00 .. nc03, each stamped
// with its core id, each binding s0 to its own id.
// CHECK-LABEL: module {
// CHECK-NEXT: module @nc00 attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 0 : i64}
// CHECK:        bir.memset %t[#bir.ap<0, {{\[\[}}4, 32], [1, 4]]>]
// CHECK:      module @nc01 attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 1 : i64}
// CHECK:        bir.memset %t[#bir.ap<128, {{\[\[}}4, 32], [1, 4]]>]
// CHECK:      module @nc02 attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 2 : i64}
// CHECK:        bir.memset %t[#bir.ap<256, {{\[\[}}4, 32], [1, 4]]>]
// CHECK:      module @nc03 attributes {bir.lnc_size = 4 : i64, bir.neuron_core_id = 3 : i64}
// CHECK:        bir.memset %t[#bir.ap<384, {{\[\[}}4, 32], [1, 4]]>]
// CHECK-NOT:  module @nc04
module @nc_symbolic attributes {bir.lnc_size = 4 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.memset %t[#bir.sap<()[s0] -> (s0 * 128), [[4, 32], [1, 4]]>], 0.0 : !bir.sbuf<128x4xf32>
  }
}

// -----

// Pruning on both paths: core 0 is built by copying (it never copies the
// instructions masked off, nor the loops left empty, nested or not), core 1
// is the original, pruned in place.

// CHECK-LABEL: bir.func @pruning
// CHECK:         bir.loop 0 to 2 step 1 {
// CHECK-NEXT:      bir.loop 0 to 3 step 1 {
// CHECK-NEXT:        bir.memset %t[#bir.sap<(d0, d1) -> (d0 * 8 + d1)
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    bir.memset %t[#bir.ap<0,
// CHECK-NEXT:  }
// CHECK:       module @nc01
// CHECK:         bir.loop 0 to 4 step 1 {
// CHECK-NEXT:      bir.memset %t[#bir.sap<(d0) -> (d0 + 4)
// CHECK-NEXT:    }
// CHECK-NEXT:    bir.memset %t[#bir.ap<4,
// CHECK-NEXT:  }
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @pruning {
    %t = bir.memloc "t" internal : !bir.sbuf<128x32xf32>
    bir.loop 0 to 2 step 1 {
      bir.loop 0 to 3 step 1 {
        bir.memset %t[#bir.sap<(d0, d1)[s0] -> (d0 * 8 + d1 + s0 * 16), [[32, 128], [1, 1]]>], 0.0
          {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x32xf32>
      }
    }
    bir.loop 0 to 4 step 1 {
      bir.memset %t[#bir.sap<(d0)[s0] -> (d0 + s0 * 4), [[32, 128], [1, 1]]>], 1.0
        {mask = affine_set<()[s0] : (s0 - 1 == 0)>} : !bir.sbuf<128x32xf32>
    }
    bir.memset %t[#bir.sap<()[s0] -> (s0 * 4), [[32, 128], [1, 4]]>], 2.0 : !bir.sbuf<128x32xf32>
  }
}

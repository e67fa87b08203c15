// RUN: walrus-opt %s -lnc-verify | FileCheck %s --check-prefix=SYMBOLIC
// RUN: walrus-opt %s -lnc-verify=mode=symbolic | FileCheck %s --check-prefix=SYMBOLIC
// RUN: walrus-opt %s -lnc-verify=lnc-size=4 | FileCheck %s --check-prefix=SYMBOLIC
// RUN: walrus-opt %s -lnc-split -lnc-verify=mode=concretized | FileCheck %s --check-prefix=SPLIT
// RUN: walrus-opt %s -lnc-split -lnc-verify | FileCheck %s --check-prefix=SPLIT

// A program -lnc-verify accepts, before and after the split: it checks
// and changes nothing. Before: every shard-dependent access stays in
// bounds on every core (also at 4 cores), a masked instruction that is
// not a barrier is allowed. After: both cores have the same memory
// locations, the same barrier sequence and the same cross-core copy,
// whose target exists on the peer.

// SYMBOLIC:      module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
// SYMBOLIC-NEXT:   bir.func @main {
// SYMBOLIC:          bir.core_barrier "filled"
// SYMBOLIC-NEXT:     bir.sb2sb
// SYMBOLIC-NEXT:     bir.core_barrier "sent"

// Each core's peer, bound: core 0 sends to 1, core 1 to 0.
// SPLIT-DAG:  #[[TO1:map[0-9]*]] = affine_map<() -> (1)>
// SPLIT-DAG:  #[[TO0:map[0-9]*]] = affine_map<() -> (0)>
// SPLIT:      module @nc00 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 0 : i64} {
// SPLIT:        bir.core_barrier "filled"
// SPLIT-NEXT:   bir.sb2sb {{.*}} peer #[[TO1]] :
// SPLIT:      module @nc01 attributes {bir.lnc_size = 2 : i64, bir.neuron_core_id = 1 : i64} {
// SPLIT:        bir.core_barrier "filled"
// SPLIT-NEXT:   bir.sb2sb {{.*}} peer #[[TO0]] :
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<512x64xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
    bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>],
            %x[#bir.sap<()[s0] -> (s0 * 8192), [[64, 128], [1, 64]]>]
      : !bir.sbuf<128x64xf32>, !bir.dram<512x64xf32>
    bir.memset %t[#bir.ap<0, [[64, 64], [1, 64]]>], 1.0
      {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<128x64xf32>
    bir.core_barrier "filled"
    bir.sb2sb %t[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<0, [[64, 64], [1, 64]]>]
      peer affine_map<()[s0] -> ((s0 + 1) mod 2)> : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>
    bir.core_barrier "sent"
  }
}

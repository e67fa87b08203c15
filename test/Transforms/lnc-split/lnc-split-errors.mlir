// RUN: walrus-opt %s -split-input-file -lnc-split=lnc-size=4 -verify-diagnostics
// RUN: not walrus-opt %s -lnc-split=lnc-size=-2 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// NEGATIVE: error: lnc-split: lnc-size must be 0 (bir.lnc_size) to 128, got -2

module @top {
  module @nc00 {
  }
  // expected-error @+1 {{lnc-split: per-core module name 'nc00' is already taken}}
  module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
    bir.func @main {
    }
  }
}

// -----

// With lnc-size=4 the split checks the cores the op verifiers did not.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    %u = bir.memloc "u" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'src_ap' touches element 2047, outside the 1024 elements of 'x' at s0 = 3}}
    bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>], %x[#bir.sap<()[s0] -> (s0 * 512), [[4, 128], [1, 4]]>]
      : !bir.sbuf<128x4xf32>, !bir.dram<256x4xf32>
  }
}

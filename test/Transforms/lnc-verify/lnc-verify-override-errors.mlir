// RUN: walrus-opt %s -lnc-verify=lnc-size=4 -verify-diagnostics

// Checked for four cores, a program written for two goes out of bounds.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x4xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    // expected-error @+1 {{'src_ap' touches element 2047, outside the 1024 elements of 'x' at s0 = 3}}
    bir.dma %t[#bir.ap<0, [[4, 128], [1, 4]]>], %x[#bir.sap<()[s0] -> (s0 * 512), [[4, 128], [1, 4]]>]
      : !bir.sbuf<128x4xf32>, !bir.dram<256x4xf32>
    // expected-error @+1 {{peer of shard 2 is core -1, outside [0, 4)}}
    bir.sb2sb %t[#bir.ap<0, [[4, 128], [1, 4]]>], %t[#bir.ap<0, [[4, 128], [1, 4]]>]
      peer affine_map<()[s0] -> (1 - s0)> : !bir.sbuf<128x4xf32>, !bir.sbuf<128x4xf32>
  }
}

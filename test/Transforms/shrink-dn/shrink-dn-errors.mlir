// RUN: walrus-opt %s -shrink-dn -verify-diagnostics -o /dev/null

// Each iteration touches 2 of 3 blocks: 3 is no multiple of 2.
bir.func @uneven {
  // expected-error @+1 {{shrink-dn: number of blocks is not a multiple of shrink factor: 't' has 3 blocks and 2 live ones}}
  %t = bir.memloc "t" internal : !bir.sbuf<8x3x4xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %t[#bir.sap<(d0)[s0] -> (0), [[12, 8], [1, 8]], block = (d0)[s0] -> (d0 * 4)>], 0.0 : !bir.sbuf<8x3x4xf32>
  }
}

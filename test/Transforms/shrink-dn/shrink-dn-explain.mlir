// RUN: walrus-opt %s -shrink-dn=explain -verify-diagnostics -o /dev/null

// Every reason a tensor keeps its size, and what a shrink reports.
bir.func @reasons {
  // expected-remark @+1 {{shrink-dn: 'x' keeps its size: it is a program input}}
  %x = bir.memloc "x" input : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'y' keeps its size: it is a program output}}
  %y = bir.memloc "y" output : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'd' keeps its size: it is in DRAM}}
  %d = bir.memloc "d" internal : !bir.dram<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'placed' keeps its size: it is already placed}}
  %placed = bir.memloc "placed" internal address 0 base_partition 0 : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'member' keeps its size: it is in a memory-location set}}
  %member = bir.memloc "member" internal set "s" : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'cast' keeps its size: it has a reinterpret cast}}
  %cast = bir.memloc "cast" internal : !bir.sbuf<128x8xf32>
  %view = bir.view %cast : !bir.sbuf<128x8xf32> to !bir.sbuf<128x4xf32>
  // expected-remark @+1 {{shrink-dn: 'shifted' keeps its size: shifted partition access in 'bir.memset'}}
  %shifted = bir.memloc "shifted" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: 'straddling' keeps its size: non-partition-contiguous access in 'bir.memset'}}
  %straddling = bir.memloc "straddling" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: shrank 'small' from 128 x 32 B to 2 x 12 B (partition step 8 -> 3)}}
  %small = bir.memloc "small" internal : !bir.sbuf<128x8xf32>
  // expected-remark @+1 {{shrink-dn: collapsed the 2 blocks of 'blocked' to 1 live block(s) (shrink dim 1, factor 2)}}
  %blocked = bir.memloc "blocked" internal : !bir.sbuf<8x2x4xf32>
  bir.memset %shifted[#bir.ap<0, [[16, 4], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.memset %straddling[#bir.ap<4, [[8, 1], [1, 8]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.memset %small[#bir.ap<9, [[8, 2], [1, 3]]>], 0.0 : !bir.sbuf<128x8xf32>
  bir.loop 0 to 2 step 1 {
    bir.memset %blocked[#bir.sap<(d0)[s0] -> (0), [[8, 8], [1, 4]], block = (d0)[s0] -> (d0 * 4)>], 0.0 : !bir.sbuf<8x2x4xf32>
  }
}

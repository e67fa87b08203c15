// Tiled matmul, out = lhsT^T @ rhs, split over two logical cores.
//
// lhsT is K x M = 512 x 256 and rhs is K x N = 512 x 512 (bf16). Core s0
// computes the 128 output rows [s0 * 128, s0 * 128 + 128): it streams the
// four 128-row K tiles of its lhsT columns and of rhs into SBUF, one block
// per K tile, and accumulates the four matmults in one 128 x 512 fp32 PSUM
// tile (TILE_M = TILE_K = 128, TILE_N = 512).
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %lhsT = bir.memloc "lhsT" input : !bir.dram<512x256xbf16>
    %rhs = bir.memloc "rhs" input : !bir.dram<512x512xbf16>
    %out = bir.memloc "out" output : !bir.dram<256x512xbf16>
    %lhsT_tile = bir.memloc "lhsT_tile" internal : !bir.sbuf<128x4x128xbf16>
    %rhs_tile = bir.memloc "rhs_tile" internal : !bir.sbuf<128x4x512xbf16>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %res = bir.memloc "res" internal : !bir.sbuf<128x512xbf16>

    bir.memset %acc[#bir.ap<0, [[512, 128], [1, 512]]>], 0.0
      : !bir.psum<128x512xf32>
    bir.loop 0 to 4 step 1 {
      // K tile d0 of this core's 128 lhsT columns.
      bir.dma %lhsT_tile[#bir.sap<(d0)[s0] -> (0), [[512, 128], [1, 128]], block = (d0)[s0] -> (d0 * 128)>],
              %lhsT[#bir.sap<(d0)[s0] -> (d0 * 32768 + s0 * 128), [[256, 128], [1, 128]]>]
        : !bir.sbuf<128x4x128xbf16>, !bir.dram<512x256xbf16>
      // K tile d0 of rhs.
      bir.dma %rhs_tile[#bir.sap<(d0)[s0] -> (0), [[2048, 128], [1, 512]], block = (d0)[s0] -> (d0 * 512)>],
              %rhs[#bir.sap<(d0)[s0] -> (d0 * 65536), [[512, 128], [1, 512]]>]
        : !bir.sbuf<128x4x512xbf16>, !bir.dram<512x512xbf16>
      bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                  %lhsT_tile[#bir.sap<(d0)[s0] -> (0), [[512, 128], [1, 128]], block = (d0)[s0] -> (d0 * 128)>],
                  %rhs_tile[#bir.sap<(d0)[s0] -> (0), [[2048, 128], [1, 512]], block = (d0)[s0] -> (d0 * 512)>]
        : !bir.psum<128x512xf32>, !bir.sbuf<128x4x128xbf16>, !bir.sbuf<128x4x512xbf16>
    }
    bir.tensor_copy %res[#bir.ap<0, [[512, 128], [1, 512]]>],
                    %acc[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xbf16>, !bir.psum<128x512xf32>
    bir.dma %out[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>],
            %res[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.dram<256x512xbf16>, !bir.sbuf<128x512xbf16>
  }
}

// conv1d with filter-tap stacking, split over two logical cores:
// out[co][l] = sum_{t < 4, ci < 32} w[t][ci][co] * x[ci][l + t].
//
// 32 input channels fill only a quarter of the 128 partitions, so the four
// filter taps are stacked along the partitions: the stationary weights hold
// tap t at partitions [32 t, 32 t + 32) and the matmult reads its moving
// operand (the IFMAP) as four replicas, replica t shifted t columns. One
// matmult then contracts over all 128 partitions. -expand-replication makes
// the replicas explicit. Core s0 computes output columns
// [s0 * 512, s0 * 512 + 512) and loads the 515 input columns they need.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<32x1027xbf16>
    %w = bir.memloc "w" input : !bir.dram<128x128xbf16>
    %out = bir.memloc "out" output : !bir.dram<128x1024xbf16>
    %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<32x515xbf16>
    %w_sb = bir.memloc "w_sb" internal : !bir.sbuf<128x128xbf16>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    %res = bir.memloc "res" internal : !bir.sbuf<128x512xbf16>

    bir.dma %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
            %w[#bir.ap<0, [[128, 128], [1, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.dram<128x128xbf16>
    bir.dma %ifmap[#bir.ap<0, [[515, 32], [1, 515]]>],
            %x[#bir.sap<()[s0] -> (s0 * 512), [[1027, 32], [1, 515]]>]
      : !bir.sbuf<32x515xbf16>, !bir.dram<32x1027xbf16>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
                %ifmap[#bir.ap<0, [[515, 32], [1, 512]]>] start stop
                replication <factor = 4, partition_stride = 32, shift = 1>
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<32x515xbf16>
    bir.tensor_copy %res[#bir.ap<0, [[512, 128], [1, 512]]>],
                    %acc[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.sbuf<128x512xbf16>, !bir.psum<128x512xf32>
    bir.dma %out[#bir.sap<()[s0] -> (s0 * 512), [[1024, 128], [1, 512]]>],
            %res[#bir.ap<0, [[512, 128], [1, 512]]>]
      : !bir.dram<128x1024xbf16>, !bir.sbuf<128x512xbf16>
  }
}

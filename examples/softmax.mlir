// Row softmax of a 512 x 1024 bf16 matrix, split over two logical cores.
//
// The four 128-row tiles are shared out two per core: on iteration d0,
// core s0 handles tile 2 * s0 + d0, so DRAM addresses depend on both the
// loop induction variable and the shard id. Each tile keeps about five
// tiles live (input, shifted, exponentials, row statistics, output): short
// producer -> consumer chains for vertical fusion. The row maximum and the
// row sum share one 128 x 2 statistics tile, column 0 and column 1, which
// -vn-split separates. The cores meet at a barrier once every row is
// written.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<512x1024xbf16>
    %y = bir.memloc "y" output : !bir.dram<512x1024xbf16>
    %xt = bir.memloc "xt" internal : !bir.sbuf<128x1024xbf16>
    %stats = bir.memloc "stats" internal : !bir.sbuf<128x2xf32>
    %shifted = bir.memloc "shifted" internal : !bir.sbuf<128x1024xf32>
    %exps = bir.memloc "exps" internal : !bir.sbuf<128x1024xf32>
    %yt = bir.memloc "yt" internal : !bir.sbuf<128x1024xbf16>

    bir.loop 0 to 2 step 1 {
      bir.dma %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
              %x[#bir.sap<(d0)[s0] -> (s0 * 262144 + d0 * 131072), [[1024, 128], [1, 1024]]>]
        : !bir.sbuf<128x1024xbf16>, !bir.dram<512x1024xbf16>
      bir.tensor_reduce max %stats[#bir.ap<0, [[2, 128], [1, 1]]>],
                            %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>]
        : !bir.sbuf<128x2xf32>, !bir.sbuf<128x1024xbf16>
      bir.tensor_tensor subtract %shifted[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                                 %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                                 %stats[#bir.ap<0, [[2, 128], [0, 1024]]>]
        : !bir.sbuf<128x1024xf32>, !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x2xf32>
      bir.activation exp %exps[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                         %shifted[#bir.ap<0, [[1024, 128], [1, 1024]]>]
        : !bir.sbuf<128x1024xf32>, !bir.sbuf<128x1024xf32>
      bir.tensor_reduce add %stats[#bir.ap<1, [[2, 128], [1, 1]]>],
                            %exps[#bir.ap<0, [[1024, 128], [1, 1024]]>]
        : !bir.sbuf<128x2xf32>, !bir.sbuf<128x1024xf32>
      bir.activation reciprocal %stats[#bir.ap<1, [[2, 128], [1, 1]]>],
                                %stats[#bir.ap<1, [[2, 128], [1, 1]]>]
        : !bir.sbuf<128x2xf32>, !bir.sbuf<128x2xf32>
      bir.tensor_tensor multiply %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                                 %exps[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                                 %stats[#bir.ap<1, [[2, 128], [0, 1024]]>]
        : !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xf32>, !bir.sbuf<128x2xf32>
      bir.dma %y[#bir.sap<(d0)[s0] -> (s0 * 262144 + d0 * 131072), [[1024, 128], [1, 1024]]>],
              %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>]
        : !bir.dram<512x1024xbf16>, !bir.sbuf<128x1024xbf16>
    }
    bir.core_barrier "softmax_done"
  }
}

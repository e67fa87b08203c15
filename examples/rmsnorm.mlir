// RMSNorm over 300 rows of 1024 (bf16), y = x * rsqrt(mean(x^2) + eps) * gamma,
// split over two logical cores with a partial last tile.
//
// The 300 rows make two full 128-row tiles and a partial tile of 44 rows.
// Core s0 normalizes full tile s0 (shard-dependent DRAM addresses); core 0
// also normalizes the partial tile, whose instructions carry the mask
// s0 == 0 and walk only 44 partitions. gamma is broadcast to every
// partition by a DMA whose partition step is 0.
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<300x1024xbf16>
    %gamma = bir.memloc "gamma" input : !bir.dram<1x1024xbf16>
    %y = bir.memloc "y" output : !bir.dram<300x1024xbf16>
    %gamma_t = bir.memloc "gamma_t" internal : !bir.sbuf<128x1024xbf16>
    %xt = bir.memloc "xt" internal : !bir.sbuf<128x1024xbf16>
    %sq = bir.memloc "sq" internal : !bir.sbuf<128x1024xf32>
    %ss = bir.memloc "ss" internal : !bir.sbuf<128x1xf32>
    %yt = bir.memloc "yt" internal : !bir.sbuf<128x1024xbf16>

    bir.dma %gamma_t[#bir.ap<0, [[1024, 128], [1, 1024]]>],
            %gamma[#bir.ap<0, [[0, 128], [1, 1024]]>]
      : !bir.sbuf<128x1024xbf16>, !bir.dram<1x1024xbf16>

    // Full tile s0: rows [s0 * 128, s0 * 128 + 128).
    bir.dma %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
            %x[#bir.sap<()[s0] -> (s0 * 131072), [[1024, 128], [1, 1024]]>]
      : !bir.sbuf<128x1024xbf16>, !bir.dram<300x1024xbf16>
    bir.activation square %sq[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                          %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>]
      : !bir.sbuf<128x1024xf32>, !bir.sbuf<128x1024xbf16>
    bir.tensor_reduce add %ss[#bir.ap<0, [[1, 128], [1, 1]]>],
                          %sq[#bir.ap<0, [[1024, 128], [1, 1024]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1024xf32>
    bir.tensor_scalar multiply %ss[#bir.ap<0, [[1, 128], [1, 1]]>],
                               %ss[#bir.ap<0, [[1, 128], [1, 1]]>], 9.765625e-04
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.tensor_scalar add %ss[#bir.ap<0, [[1, 128], [1, 1]]>],
                          %ss[#bir.ap<0, [[1, 128], [1, 1]]>], 1.0e-06
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.activation rsqrt %ss[#bir.ap<0, [[1, 128], [1, 1]]>],
                         %ss[#bir.ap<0, [[1, 128], [1, 1]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.tensor_tensor multiply %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                               %xt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                               %ss[#bir.ap<0, [[1, 128], [0, 1024]]>]
      : !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1xf32>
    bir.tensor_tensor multiply %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                               %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>],
                               %gamma_t[#bir.ap<0, [[1024, 128], [1, 1024]]>]
      : !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>
    bir.dma %y[#bir.sap<()[s0] -> (s0 * 131072), [[1024, 128], [1, 1024]]>],
            %yt[#bir.ap<0, [[1024, 128], [1, 1024]]>]
      : !bir.dram<300x1024xbf16>, !bir.sbuf<128x1024xbf16>

    // Partial tile: rows [256, 300), on core 0 only.
    bir.dma %xt[#bir.ap<0, [[1024, 44], [1, 1024]]>],
            %x[#bir.ap<262144, [[1024, 44], [1, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1024xbf16>, !bir.dram<300x1024xbf16>
    bir.activation square %sq[#bir.ap<0, [[1024, 44], [1, 1024]]>],
                          %xt[#bir.ap<0, [[1024, 44], [1, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1024xf32>, !bir.sbuf<128x1024xbf16>
    bir.tensor_reduce add %ss[#bir.ap<0, [[1, 44], [1, 1]]>],
                          %sq[#bir.ap<0, [[1024, 44], [1, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1024xf32>
    bir.tensor_scalar multiply %ss[#bir.ap<0, [[1, 44], [1, 1]]>],
                               %ss[#bir.ap<0, [[1, 44], [1, 1]]>], 9.765625e-04
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.tensor_scalar add %ss[#bir.ap<0, [[1, 44], [1, 1]]>],
                          %ss[#bir.ap<0, [[1, 44], [1, 1]]>], 1.0e-06
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.activation rsqrt %ss[#bir.ap<0, [[1, 44], [1, 1]]>],
                         %ss[#bir.ap<0, [[1, 44], [1, 1]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.tensor_tensor multiply %yt[#bir.ap<0, [[1024, 44], [1, 1024]]>],
                               %xt[#bir.ap<0, [[1024, 44], [1, 1024]]>],
                               %ss[#bir.ap<0, [[1, 44], [0, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1xf32>
    bir.tensor_tensor multiply %yt[#bir.ap<0, [[1024, 44], [1, 1024]]>],
                               %yt[#bir.ap<0, [[1024, 44], [1, 1024]]>],
                               %gamma_t[#bir.ap<0, [[1024, 44], [1, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>, !bir.sbuf<128x1024xbf16>
    bir.dma %y[#bir.ap<262144, [[1024, 44], [1, 1024]]>],
            %yt[#bir.ap<0, [[1024, 44], [1, 1024]]>]
      {mask = affine_set<()[s0] : (s0 == 0)>}
      : !bir.dram<300x1024xbf16>, !bir.sbuf<128x1024xbf16>
  }
}

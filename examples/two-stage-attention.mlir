// Attention in two streaming stages per logical core, as a hand-written
// kernel stages its operands: o = softmax(q k^T / sqrt(d)) v for 128
// queries against 2048 keys, d = 128.
//
// One staging tile serves both stages: the QK loop streams 512-key blocks
// of k^T through it, the PV loop 128-key tiles of v. Each loop writes the
// stage before reading it, so its value never crosses from one loop to the
// next: -sb-alloc's memloc_split gives the PV loop a clone of its own
// (`stage_S1`), and the softmax between the loops (the peak: scores and
// probabilities) may use the stage's bytes. Core s0 takes query rows
// [s0 * 128, s0 * 128 + 128).
module @nc_symbolic attributes {bir.lnc_size = 2 : i64,
                                bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %q = bir.memloc "q" input : !bir.dram<256x128xbf16>
    %kT = bir.memloc "kT" input : !bir.dram<128x2048xbf16>
    %v = bir.memloc "v" input : !bir.dram<2048x128xbf16>
    %o = bir.memloc "o" output : !bir.dram<256x128xbf16>
    %qT_sb = bir.memloc "qT_sb" internal : !bir.sbuf<128x128xbf16>
    %stage = bir.memloc "stage" internal : !bir.sbuf<128x512xbf16>
    %scores_ps = bir.memloc "scores_ps" internal : !bir.psum<128x4x512xf32>
    %scores = bir.memloc "scores" internal : !bir.sbuf<128x2048xf32>
    %rowmax = bir.memloc "rowmax" internal : !bir.sbuf<128x1xf32>
    %probs = bir.memloc "probs" internal : !bir.sbuf<128x2048xbf16>
    %rowsum = bir.memloc "rowsum" internal : !bir.sbuf<128x1xf32>
    %pT = bir.memloc "pT" internal : !bir.sbuf<128x128xbf16>
    %o_ps = bir.memloc "o_ps" internal : !bir.psum<128x128xf32>
    %o_sb = bir.memloc "o_sb" internal : !bir.sbuf<128x128xbf16>

    // q^T for this core's queries: d on partitions, the DMA transposes.
    bir.dma %qT_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
            %q[#bir.sap<()[s0] -> (s0 * 16384), [[1, 128], [128, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.dram<256x128xbf16>

    // Stage 1 (QK): 512 keys of k^T per iteration through the stage.
    bir.loop 0 to 4 step 1 {
      bir.dma %stage[#bir.ap<0, [[512, 128], [1, 512]]>],
              %kT[#bir.sap<(d0)[s0] -> (d0 * 512), [[2048, 128], [1, 512]]>]
        : !bir.sbuf<128x512xbf16>, !bir.dram<128x2048xbf16>
      bir.matmult %scores_ps[#bir.sap<(d0)[s0] -> (0), [[2048, 128], [1, 512]], block = (d0)[s0] -> (d0 * 512)>],
                  %qT_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %stage[#bir.ap<0, [[512, 128], [1, 512]]>]
                  start stop
        : !bir.psum<128x4x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    }
    bir.tensor_copy %scores[#bir.ap<0, [[2048, 128], [1, 2048]]>],
                    %scores_ps[#bir.ap<0, [[2048, 128], [1, 2048]]>]
      : !bir.sbuf<128x2048xf32>, !bir.psum<128x4x512xf32>

    // Softmax numerator and row sums; 1/sqrt(128) folded into exp.
    bir.tensor_reduce max %rowmax[#bir.ap<0, [[1, 128], [1, 1]]>],
                          %scores[#bir.ap<0, [[2048, 128], [1, 2048]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x2048xf32>
    bir.tensor_tensor subtract %scores[#bir.ap<0, [[2048, 128], [1, 2048]]>],
                               %scores[#bir.ap<0, [[2048, 128], [1, 2048]]>],
                               %rowmax[#bir.ap<0, [[1, 128], [0, 2048]]>]
      : !bir.sbuf<128x2048xf32>, !bir.sbuf<128x2048xf32>, !bir.sbuf<128x1xf32>
    bir.activation exp %probs[#bir.ap<0, [[2048, 128], [1, 2048]]>],
                       %scores[#bir.ap<0, [[2048, 128], [1, 2048]]>]
                       scale 0.08838834764831845
      : !bir.sbuf<128x2048xbf16>, !bir.sbuf<128x2048xf32>
    bir.tensor_reduce add %rowsum[#bir.ap<0, [[1, 128], [1, 1]]>],
                          %probs[#bir.ap<0, [[2048, 128], [1, 2048]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x2048xbf16>

    // Stage 2 (PV): o = p v, a 128-key tile of v per iteration through the
    // stage.
    bir.memset %o_ps[#bir.ap<0, [[128, 128], [1, 128]]>], 0.0
      : !bir.psum<128x128xf32>
    bir.loop 0 to 16 step 1 {
      bir.dma %stage[#bir.ap<0, [[512, 128], [1, 128]]>],
              %v[#bir.sap<(d0)[s0] -> (d0 * 16384), [[128, 128], [1, 128]]>]
        : !bir.sbuf<128x512xbf16>, !bir.dram<2048x128xbf16>
      bir.transpose %pT[#bir.ap<0, [[128, 128], [1, 128]]>],
                    %probs[#bir.sap<(d0)[s0] -> (d0 * 128), [[2048, 128], [1, 128]]>]
        : !bir.sbuf<128x128xbf16>, !bir.sbuf<128x2048xbf16>
      bir.matmult %o_ps[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %pT[#bir.ap<0, [[128, 128], [1, 128]]>],
                  %stage[#bir.ap<0, [[512, 128], [1, 128]]>]
        : !bir.psum<128x128xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x512xbf16>
    }
    bir.activation reciprocal %rowsum[#bir.ap<0, [[1, 128], [1, 1]]>],
                              %rowsum[#bir.ap<0, [[1, 128], [1, 1]]>]
      : !bir.sbuf<128x1xf32>, !bir.sbuf<128x1xf32>
    bir.tensor_tensor multiply %o_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
                               %o_ps[#bir.ap<0, [[128, 128], [1, 128]]>],
                               %rowsum[#bir.ap<0, [[1, 128], [0, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.psum<128x128xf32>, !bir.sbuf<128x1xf32>
    bir.dma %o[#bir.sap<()[s0] -> (s0 * 16384), [[128, 128], [1, 128]]>],
            %o_sb[#bir.ap<0, [[128, 128], [1, 128]]>]
      : !bir.dram<256x128xbf16>, !bir.sbuf<128x128xbf16>
  }
}

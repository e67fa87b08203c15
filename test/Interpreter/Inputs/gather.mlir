module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %table = bir.memloc "table" input : !bir.dram<10x4xf32>
    %ids = bir.memloc "ids" input : !bir.dram<6x1xi32>
    %out = bir.memloc "out" output : !bir.dram<6x4xf32>
    %i = bir.memloc "i" internal : !bir.sbuf<128x1xi32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x4xf32>
    bir.dma %i[#bir.ap<0, [[1, 3], [1, 1]]>], %ids[#bir.sap<()[s0] -> (s0 * 3), [[1, 3], [1, 1]]>] : !bir.sbuf<128x1xi32>, !bir.dram<6x1xi32>
    bir.dma_gather %t[#bir.ap<0, [[4, 3], [1, 4]]>], %table[#bir.ap<0, [[4, 10], [1, 4]]>], %i[#bir.ap<0, [[1, 3], [1, 1]]>] : !bir.sbuf<128x4xf32>, !bir.dram<10x4xf32>, !bir.sbuf<128x1xi32>
    bir.dma %out[#bir.sap<()[s0] -> (s0 * 12), [[4, 3], [1, 4]]>], %t[#bir.ap<0, [[4, 3], [1, 4]]>] : !bir.dram<6x4xf32>, !bir.sbuf<128x4xf32>
  }
}

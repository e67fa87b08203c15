module @nc_symbolic attributes {bir.lnc_size = 2 : i64, bir.target = #bir.target<"trn2">} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<256x512xf32>
    %y = bir.memloc "y" output : !bir.dram<256x512xf32>
    %t = bir.memloc "t" internal : !bir.sbuf<128x512xf32>
    bir.dma %t[#bir.ap<0, [[512, 128], [1, 512]]>], %x[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.dram<256x512xf32>
    bir.activation exp %t[#bir.ap<0, [[512, 128], [1, 512]]>], %t[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.sbuf<128x512xf32>, !bir.sbuf<128x512xf32>
    bir.dma %y[#bir.sap<()[s0] -> (s0 * 65536), [[512, 128], [1, 512]]>], %t[#bir.ap<0, [[512, 128], [1, 512]]>] : !bir.dram<256x512xf32>, !bir.sbuf<128x512xf32>
  }
}

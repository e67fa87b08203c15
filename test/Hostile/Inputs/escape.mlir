// An output named to leave the output directory, and a plain one.
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<2x4xf32>
  %x = bir.memloc "../escaped" output : !bir.dram<2x4xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.dma %y[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
  bir.dma %x[#bir.ap<0, [[4, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}

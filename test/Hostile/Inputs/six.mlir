// A program with one input of 6 elements.
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<2x3xf32>
  %y = bir.memloc "y" output : !bir.dram<2x3xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x3xf32>
  bir.dma %t[#bir.ap<0, [[3, 2], [1, 3]]>], %x[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.sbuf<2x3xf32>, !bir.dram<2x3xf32>
  bir.dma %y[#bir.ap<0, [[3, 2], [1, 3]]>], %t[#bir.ap<0, [[3, 2], [1, 3]]>] : !bir.dram<2x3xf32>, !bir.sbuf<2x3xf32>
}

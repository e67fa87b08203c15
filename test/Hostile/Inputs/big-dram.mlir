// A DRAM output of 256 GiB and an SBUF-heavy target: valid programs the
// interpreter must refuse to materialise rather than abort on.
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<65536x1048576xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<2x4xf32>
  bir.memset %t[#bir.ap<0, [[4, 2], [1, 4]]>], 1.0 : !bir.sbuf<2x4xf32>
  bir.dma %y[#bir.ap<0, [[1048576, 2], [1, 4]]>], %t[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<65536x1048576xf32>, !bir.sbuf<2x4xf32>
}

module @nc_symbolic attributes {bir.lnc_size = 1 : i64} {
  bir.func @main {
    %t = bir.memloc "t" internal : !bir.sbuf<128x100xf32>
    bir.loop 0 to 5000 step 1 {
      bir.tensor_scalar multiply %t[#bir.ap<0, [[100, 128], [1, 100]]>], %t[#bir.ap<0, [[100, 128], [1, 100]]>], 2.0 : !bir.sbuf<128x100xf32>, !bir.sbuf<128x100xf32>
    }
  }
}

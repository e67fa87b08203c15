// A host compiler's module around a Walrus kernel: the row softmax of
// examples/softmax.mlir in a bir.kernel, and the host function that
// launches it on its memrefs. Every Walrus pass finds the kernel where it
// sits; after -lnc-split the kernel holds the per-core modules and
// @softmax still names it, so the host's bir.launch stays valid.
//
//   walrus-opt examples/host-softmax.mlir -walrus-pipeline
module @host {
  func.func @forward(%x: memref<512x1024xbf16>) -> memref<512x1024xbf16> {
    %y = memref.alloc() : memref<512x1024xbf16>
    bir.launch @softmax(%x, %y) : memref<512x1024xbf16>, memref<512x1024xbf16>
    return %y : memref<512x1024xbf16>
  }

  bir.kernel @softmax {
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
  }
}

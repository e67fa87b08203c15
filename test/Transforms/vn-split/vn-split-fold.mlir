// RUN: walrus-opt %s -split-input-file -vn-split | FileCheck %s
// RUN: walrus-opt %s -split-input-file -vn-split=fold-into-predecessor=false | FileCheck %s --check-prefix=NO-FOLD

// producer -> tmp -> tensor_copy -> dst becomes producer -> dst.

// CHECK-LABEL: bir.func @fold
// CHECK-NOT:   "tmp"
// CHECK:       bir.activation exp %dst[#bir.ap<64, {{\[\[}}128, 64], [1, 64]]>], %src[#bir.ap<0, {{\[\[}}64, 64], [1, 64]]>]
// CHECK-NOT:   bir.tensor_copy
// CHECK:       bir.dma %y
// NO-FOLD-LABEL: bir.func @fold
// NO-FOLD:       %tmp = bir.memloc "tmp"
// NO-FOLD:       bir.tensor_copy %dst
bir.func @fold {
  %y = bir.memloc "y" output : !bir.dram<64x128xf32>
  %src = bir.memloc "src" internal : !bir.sbuf<64x64xf32>
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<64x64xf32>
  %dst = bir.memloc "dst" internal : !bir.sbuf<64x128xf32>
  bir.memset %src[#bir.ap<0, [[64, 64], [1, 64]]>], 1.0 : !bir.sbuf<64x64xf32>
  bir.memset %dst[#bir.ap<0, [[128, 64], [1, 64]]>], 0.0 : !bir.sbuf<64x128xf32>
  bir.activation exp %tmp[#bir.ap<0, [[64, 64], [1, 64]]>], %src[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>
  bir.tensor_copy %dst[#bir.ap<64, [[128, 64], [1, 64]]>], %tmp[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.sbuf<64x128xf32>, !bir.sbuf<64x64xf32>
  bir.dma %y[#bir.ap<0, [[128, 64], [1, 128]]>], %dst[#bir.ap<0, [[128, 64], [1, 128]]>] : !bir.dram<64x128xf32>, !bir.sbuf<64x128xf32>
}

// -----

// Inside a loop, a DMA producer into PSUM... and a chain: both temporaries fold.

// CHECK-LABEL: bir.func @chain
// CHECK:       bir.loop 0 to 2 step 1 {
// CHECK-NEXT:    bir.dma %c[#bir.sap<(d0)[s0] -> (d0 * 8), {{\[\[}}16, 8], [1, 8]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 64), {{\[\[}}8, 8], [1, 8]]>]
// CHECK-NEXT:  }
// CHECK-NOT:   bir.tensor_copy
bir.func @chain {
  %x = bir.memloc "x" input : !bir.dram<16x8xf32>
  %y = bir.memloc "y" output : !bir.dram<8x16xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<8x8xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<8x8xf32>
  %c = bir.memloc "c" internal : !bir.sbuf<8x16xf32>
  bir.loop 0 to 2 step 1 {
    bir.dma %a[#bir.ap<0, [[8, 8], [1, 8]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 64), [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.dram<16x8xf32>
    bir.tensor_copy %b[#bir.ap<0, [[8, 8], [1, 8]]>], %a[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
    bir.tensor_copy %c[#bir.sap<(d0)[s0] -> (d0 * 8), [[16, 8], [1, 8]]>], %b[#bir.ap<0, [[8, 8], [1, 8]]>] : !bir.sbuf<8x16xf32>, !bir.sbuf<8x8xf32>
  }
  bir.dma %y[#bir.ap<0, [[16, 8], [1, 16]]>], %c[#bir.ap<0, [[16, 8], [1, 16]]>] : !bir.dram<8x16xf32>, !bir.sbuf<8x16xf32>
}

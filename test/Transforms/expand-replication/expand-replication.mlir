// RUN: walrus-opt %s -split-input-file -expand-replication | FileCheck %s

// The conv1d filter-tap stacking of docs/ExpandReplication.md: 32 channels,
// 4 replicas every 32 partitions, replica r shifted r columns.

// CHECK-LABEL: bir.func @main
// CHECK:      %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<128x515xbf16>
// CHECK:      bir.dma %w_sb
// CHECK-NEXT: bir.memset %ifmap[#bir.ap<16480, {{\[\[}}515, 96], [1, 515]]>], 0.000000e+00 : !bir.sbuf<128x515xbf16>
// CHECK-NEXT: bir.dma %ifmap[#bir.ap<0, {{\[\[}}515, 32], [1, 515]]>], %x[#bir.sap<()[s0] -> (s0 * 512), {{\[\[}}1027, 32], [1, 515]]>]
// CHECK-NEXT: bir.tensor_copy %ifmap[#bir.ap<16480, {{\[\[}}515, 32], [1, 514]]>], %ifmap[#bir.ap<1, {{\[\[}}515, 32], [1, 514]]>]
// CHECK-NEXT: bir.tensor_copy %ifmap[#bir.ap<32960, {{\[\[}}515, 32], [1, 513]]>], %ifmap[#bir.ap<2, {{\[\[}}515, 32], [1, 513]]>]
// CHECK-NEXT: bir.tensor_copy %ifmap[#bir.ap<49440, {{\[\[}}515, 32], [1, 512]]>], %ifmap[#bir.ap<3, {{\[\[}}515, 32], [1, 512]]>]
// CHECK-NEXT: bir.matmult %acc[#bir.ap<0, {{\[\[}}512, 128], [1, 512]]>], %w_sb[#bir.ap<0, {{\[\[}}128, 128], [1, 128]]>], %ifmap[#bir.ap<0, {{\[\[}}515, 128], [1, 512]]>] start stop : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<128x515xbf16>
// CHECK-NOT: replication
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<32x1027xbf16>
    %w = bir.memloc "w" input : !bir.dram<128x128xbf16>
    %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<32x515xbf16>
    %w_sb = bir.memloc "w_sb" internal : !bir.sbuf<128x128xbf16>
    %acc = bir.memloc "acc" internal : !bir.psum<128x512xf32>
    bir.dma %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>], %w[#bir.ap<0, [[128, 128], [1, 128]]>]
      : !bir.sbuf<128x128xbf16>, !bir.dram<128x128xbf16>
    bir.dma %ifmap[#bir.ap<0, [[515, 32], [1, 515]]>],
            %x[#bir.sap<()[s0] -> (s0 * 512), [[1027, 32], [1, 515]]>]
      : !bir.sbuf<32x515xbf16>, !bir.dram<32x1027xbf16>
    bir.matmult %acc[#bir.ap<0, [[512, 128], [1, 512]]>],
                %w_sb[#bir.ap<0, [[128, 128], [1, 128]]>],
                %ifmap[#bir.ap<0, [[515, 32], [1, 512]]>] start stop
                replication <factor = 4, partition_stride = 32, shift = 1>
      : !bir.psum<128x512xf32>, !bir.sbuf<128x128xbf16>, !bir.sbuf<32x515xbf16>
  }
}

// -----

// 20 channels every 32 partitions: the zeroing covers the gaps; a masked
// writer inside a loop gets masked copies right after it, in the loop; a
// symbolic read is widened and keeps its maps; a plain read of the IFMAP
// (the DMA out) is left alone; a shift past the end leaves replica 3 zero.

// CHECK-LABEL: bir.func @main
// CHECK:      %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<116x8xf32>
// CHECK:      bir.memset %ifmap[#bir.ap<160, {{\[\[}}8, 96], [1, 8]]>], 0.000000e+00
// CHECK-NEXT: bir.loop 0 to 2 step 1 {
// CHECK-NEXT:   bir.dma %ifmap[#bir.ap<0, {{\[\[}}8, 20], [1, 8]]>], %x[#bir.sap<(d0)[s0] -> (d0 * 160), {{\[\[}}8, 20], [1, 8]]>] {mask = #[[SET:.*]]}
// CHECK-NEXT:   bir.tensor_copy %ifmap[#bir.ap<256, {{\[\[}}8, 20], [1, 5]]>], %ifmap[#bir.ap<3, {{\[\[}}8, 20], [1, 5]]>] {mask = #[[SET]]}
// CHECK-NEXT:   bir.tensor_copy %ifmap[#bir.ap<512, {{\[\[}}8, 20], [1, 2]]>], %ifmap[#bir.ap<6, {{\[\[}}8, 20], [1, 2]]>] {mask = #[[SET]]}
// CHECK-NOT:    bir.tensor_copy
// CHECK-NEXT:   bir.matmult %acc[{{.*}}], %w[{{.*}}], %ifmap[#bir.sap<(d0)[s0] -> (0), {{\[\[}}8, 116], [1, 2]], block = (d0)[s0] -> (d0 * 2)>] start stop :
// CHECK-NEXT: }
// CHECK-NEXT: bir.dma %y[{{.*}}], %ifmap[#bir.ap<0, {{\[\[}}8, 20], [1, 8]]>]
module @nc_symbolic attributes {bir.lnc_size = 2 : i64} {
  bir.func @main {
    %x = bir.memloc "x" input : !bir.dram<40x8xf32>
    %y = bir.memloc "y" output : !bir.dram<20x8xf32>
    %ifmap = bir.memloc "ifmap" internal : !bir.sbuf<20x8xf32>
    %w = bir.memloc "w" internal : !bir.sbuf<128x128xf32>
    %acc = bir.memloc "acc" internal : !bir.psum<128x2xf32>
    bir.loop 0 to 2 step 1 {
      bir.dma %ifmap[#bir.ap<0, [[8, 20], [1, 8]]>],
              %x[#bir.sap<(d0)[s0] -> (d0 * 160), [[8, 20], [1, 8]]>]
        {mask = affine_set<()[s0] : (s0 == 0)>} : !bir.sbuf<20x8xf32>, !bir.dram<40x8xf32>
      bir.matmult %acc[#bir.ap<0, [[2, 128], [1, 2]]>],
                  %w[#bir.ap<0, [[128, 116], [1, 128]]>],
                  %ifmap[#bir.sap<(d0)[s0] -> (0), [[8, 20], [1, 2]], block = (d0)[s0] -> (d0 * 2)>] start stop
                  replication <factor = 4, partition_stride = 32, shift = 3>
        : !bir.psum<128x2xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<20x8xf32>
    }
    bir.dma %y[#bir.ap<0, [[8, 20], [1, 8]]>], %ifmap[#bir.ap<0, [[8, 20], [1, 8]]>]
      : !bir.dram<20x8xf32>, !bir.sbuf<20x8xf32>
  }
}

// -----

// An IFMAP nobody writes comes from outside: it is replicated up front.
// Every function is expanded, not only `main`.

// CHECK-LABEL: bir.func @other
// CHECK:      %in = bir.memloc "in" input : !bir.sbuf<64x4xbf16>
// CHECK:      bir.memset %in[#bir.ap<128, {{\[\[}}4, 32], [1, 4]]>], 0.000000e+00
// CHECK-NEXT: bir.tensor_copy %in[#bir.ap<128, {{\[\[}}4, 32], [1, 4]]>], %in[#bir.ap<0, {{\[\[}}4, 32], [1, 4]]>]
// CHECK-NEXT: bir.matmult {{.*}} %in[#bir.ap<0, {{\[\[}}4, 64], [1, 4]]>] start stop :
// CHECK-LABEL: bir.func @main
// CHECK-NOT: bir.memset
module {
  bir.func @other {
    %in = bir.memloc "in" input : !bir.sbuf<32x4xbf16>
    %w = bir.memloc "w" internal : !bir.sbuf<64x4xbf16>
    %acc = bir.memloc "acc" internal : !bir.psum<4x4xf32>
    bir.matmult %acc[#bir.ap<0, [[4, 4], [1, 4]]>], %w[#bir.ap<0, [[4, 64], [1, 4]]>],
                %in[#bir.ap<0, [[4, 32], [1, 4]]>] start stop
                replication <factor = 2, partition_stride = 32, shift = 0>
      : !bir.psum<4x4xf32>, !bir.sbuf<64x4xbf16>, !bir.sbuf<32x4xbf16>
  }
  bir.func @main {
  }
}

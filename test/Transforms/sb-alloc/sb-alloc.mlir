// RUN: walrus-opt %s -split-input-file -sb-alloc -sb-alloc-verify | FileCheck %s

// A chain of 128-partition tiles: a tile whose life has ended gives its
// bytes to the next. a [0, 1], b [1, 2], c [2, 3]: a and c share address 0.

// CHECK-LABEL: bir.func @chain
// CHECK:       %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<128x256xf32>
// CHECK-NEXT:  %b = bir.memloc "b" internal address 1024 base_partition 0 : !bir.sbuf<128x256xf32>
// CHECK-NEXT:  %c = bir.memloc "c" internal address 0 base_partition 0 : !bir.sbuf<128x256xf32>
bir.func @chain {
  %y = bir.memloc "y" output : !bir.dram<128x256xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<128x256xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<128x256xf32>
  %c = bir.memloc "c" internal : !bir.sbuf<128x256xf32>
  bir.memset %a[#bir.ap<0, [[256, 128], [1, 256]]>], 1.0 : !bir.sbuf<128x256xf32>
  bir.activation exp %b[#bir.ap<0, [[256, 128], [1, 256]]>], %a[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
  bir.activation exp %c[#bir.ap<0, [[256, 128], [1, 256]]>], %b[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>
  bir.dma %y[#bir.ap<0, [[256, 128], [1, 256]]>], %c[#bir.ap<0, [[256, 128], [1, 256]]>] : !bir.dram<128x256xf32>, !bir.sbuf<128x256xf32>
}

// -----

// Small tensors take a quarter or a half of the partitions: four co-live
// 32-partition tiles sit side by side at address 0, a 64-partition tile
// takes a half, a 128-partition one all partitions.

// CHECK-LABEL: bir.func @bands
// CHECK:       %q0 = bir.memloc "q0" internal address 0 base_partition 0 : !bir.sbuf<32x64xf32>
// CHECK-NEXT:  %q1 = bir.memloc "q1" internal address 0 base_partition 32 : !bir.sbuf<32x64xf32>
// CHECK-NEXT:  %q2 = bir.memloc "q2" internal address 0 base_partition 64 : !bir.sbuf<20x64xf32>
// CHECK-NEXT:  %q3 = bir.memloc "q3" internal address 0 base_partition 96 : !bir.sbuf<32x64xf32>
// CHECK-NEXT:  %h = bir.memloc "h" internal address 256 base_partition 0 : !bir.sbuf<64x64xf32>
// CHECK-NEXT:  %f = bir.memloc "f" internal address 512 base_partition 0 : !bir.sbuf<128x64xf32>
bir.func @bands {
  %q0 = bir.memloc "q0" internal : !bir.sbuf<32x64xf32>
  %q1 = bir.memloc "q1" internal : !bir.sbuf<32x64xf32>
  %q2 = bir.memloc "q2" internal : !bir.sbuf<20x64xf32>
  %q3 = bir.memloc "q3" internal : !bir.sbuf<32x64xf32>
  %h = bir.memloc "h" internal : !bir.sbuf<64x64xf32>
  %f = bir.memloc "f" internal : !bir.sbuf<128x64xf32>
  bir.memset %q0[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %q1[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %q2[#bir.ap<0, [[64, 20], [1, 64]]>], 1.0 : !bir.sbuf<20x64xf32>
  bir.memset %q3[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xf32>
  bir.memset %h[#bir.ap<0, [[64, 64], [1, 64]]>], 1.0 : !bir.sbuf<64x64xf32>
  bir.memset %f[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.tensor_tensor add %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q0[#bir.ap<0, [[64, 32], [1, 64]]>]
    : !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>
  bir.tensor_tensor add %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q3[#bir.ap<0, [[64, 32], [1, 64]]>], %q1[#bir.ap<0, [[64, 32], [1, 64]]>]
    : !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>, !bir.sbuf<32x64xf32>
  bir.tensor_tensor add %h[#bir.ap<0, [[64, 20], [1, 64]]>], %h[#bir.ap<0, [[64, 20], [1, 64]]>], %q2[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<20x64xf32>
  bir.tensor_tensor add %f[#bir.ap<0, [[64, 20], [1, 64]]>], %f[#bir.ap<0, [[64, 20], [1, 64]]>], %h[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>, !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %f[#bir.ap<0, [[64, 20], [1, 64]]>], %f[#bir.ap<0, [[64, 20], [1, 64]]>], %q3[#bir.ap<0, [[64, 20], [1, 64]]>]
    : !bir.sbuf<128x64xf32>, !bir.sbuf<128x64xf32>, !bir.sbuf<32x64xf32>
}

// -----

// A loop-carried accumulator lives across the whole loop: the per-iteration
// temporary may not take its bytes, but the tile used after the loop may
// take the temporary's.

// CHECK-LABEL: bir.func @loop
// CHECK:       %acc = bir.memloc "acc" internal address 0 base_partition 0
// CHECK-NEXT:  %tmp = bir.memloc "tmp" internal address 512 base_partition 0
// CHECK-NEXT:  %after = bir.memloc "after" internal address 512 base_partition 0
bir.func @loop {
  %acc = bir.memloc "acc" internal : !bir.sbuf<128x128xf32>
  %tmp = bir.memloc "tmp" internal : !bir.sbuf<128x128xf32>
  %after = bir.memloc "after" internal : !bir.sbuf<128x128xf32>
  bir.memset %acc[#bir.ap<0, [[128, 128], [1, 128]]>], 0.0 : !bir.sbuf<128x128xf32>
  bir.loop 0 to 4 step 1 {
    bir.memset %tmp[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
    bir.tensor_tensor add %acc[#bir.ap<0, [[128, 128], [1, 128]]>], %acc[#bir.ap<0, [[128, 128], [1, 128]]>], %tmp[#bir.ap<0, [[128, 128], [1, 128]]>]
      : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
  }
  bir.activation exp %after[#bir.ap<0, [[128, 128], [1, 128]]>], %acc[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
}

// -----

// find_partners: an identity copy whose source dies and destination is born
// at it: both share one place, so the copy moves nothing. A tensor placed
// before keeps its place and the others avoid it.

// CHECK-LABEL: bir.func @partners
// CHECK:       %src = bir.memloc "src" internal address 1024 base_partition 0
// CHECK-NEXT:  %dst = bir.memloc "dst" internal address 1024 base_partition 0
// CHECK-NEXT:  %pinned = bir.memloc "pinned" internal address 0 base_partition 0
bir.func @partners {
  %src = bir.memloc "src" internal : !bir.sbuf<128x128xf32>
  %dst = bir.memloc "dst" internal : !bir.sbuf<128x128xf32>
  %pinned = bir.memloc "pinned" internal address 0 base_partition 0 : !bir.sbuf<128x256xf32>
  bir.memset %pinned[#bir.ap<0, [[256, 128], [1, 256]]>], 0.0 : !bir.sbuf<128x256xf32>
  bir.memset %src[#bir.ap<0, [[128, 128], [1, 128]]>], 1.0 : !bir.sbuf<128x128xf32>
  bir.tensor_copy %dst[#bir.ap<0, [[128, 128], [1, 128]]>], %src[#bir.ap<0, [[128, 128], [1, 128]]>] : !bir.sbuf<128x128xf32>, !bir.sbuf<128x128xf32>
  bir.tensor_tensor add %pinned[#bir.ap<0, [[256, 128], [1, 128]]>], %pinned[#bir.ap<0, [[256, 128], [1, 128]]>], %dst[#bir.ap<0, [[128, 128], [1, 128]]>]
    : !bir.sbuf<128x256xf32>, !bir.sbuf<128x256xf32>, !bir.sbuf<128x128xf32>
}

// -----

// memloc_split: a tile reused for an independent value (written whole
// before it is read again) becomes two tensors that may be placed apart.

// CHECK-LABEL: bir.func @segments
// CHECK:       %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// CHECK-NEXT:  %t_S1 = bir.memloc "t_S1" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// CHECK:       bir.memset %t[
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t[
// CHECK-NEXT:  bir.memset %t_S1[
// CHECK-NEXT:  bir.dma %y[{{.*}}], %t_S1[
bir.func @segments {
  %y = bir.memloc "y" output : !bir.dram<256x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 2.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
}

// -----

// memloc_split leaves a tile with a view whole: the view reads its bytes
// at any time.

// CHECK-LABEL: bir.func @viewed_segments
// CHECK:       %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// CHECK-NOT:   t_S1
bir.func @viewed_segments {
  %y = bir.memloc "y" output : !bir.dram<256x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  %v = bir.view %t : !bir.sbuf<128x64xf32> to !bir.sbuf<128x32xf64>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 1.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %t[#bir.ap<0, [[64, 128], [1, 64]]>], 2.0 : !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<8192, [[64, 128], [1, 64]]>], %t[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.dram<256x64xf32>, !bir.sbuf<128x64xf32>
}

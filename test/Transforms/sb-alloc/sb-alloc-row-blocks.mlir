// RUN: walrus-opt %s -sb-alloc=report -sb-alloc-verify 2>&1 | FileCheck %s
// RUN: walrus-opt %s -sb-alloc="report row-blocks=false" -sb-alloc-verify 2>&1 | FileCheck %s --check-prefix=WHOLE
// RUN: walrus-run %s --after=sb-alloc | FileCheck %s --check-prefix=INTERP
// RUN: walrus-run %s --after='sb-alloc{row-blocks=false}' | FileCheck %s --check-prefix=INTERP

// Row blocks (the reference's eInterval per partition block): rows 0-63
// of t are read for the last time at point 1, rows 64-127 at point 3, so
// v (64 rows, live from point 2) takes t's bytes on rows 0-63 and the
// peak halves. Without them, v must avoid all of t.
// CHECK: remark: sb-alloc: @main: 2 node(s), 1 edge(s), 1 round(s), 0 spill(s), peak 256 B/partition, lower bound 256 B/partition
// CHECK: %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
// CHECK: %v = bir.memloc "v" internal address 0 base_partition 0 : !bir.sbuf<64x64xf32>
// WHOLE: remark: sb-alloc: @main: 2 node(s), 1 edge(s), 1 round(s), 0 spill(s), peak 512 B/partition, lower bound 384 B/partition
// WHOLE: %v = bir.memloc "v" internal address 256 base_partition 0 : !bir.sbuf<64x64xf32>
// INTERP: identical: 1 output(s), 32768 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<128x64xf32>
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  %t = bir.memloc "t" internal : !bir.sbuf<128x64xf32>
  %v = bir.memloc "v" internal : !bir.sbuf<64x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %x[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %v[#bir.ap<0, [[64, 64], [1, 64]]>], 2.0 : !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %v[#bir.ap<0, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<4096, [[64, 64], [1, 64]]>] : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<4096, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<64x64xf32>
}

// RUN: walrus-opt %s -split-input-file -sb-alloc=explain -sb-alloc-verify 2>&1 | FileCheck %s
// RUN: split-file %s %t
// RUN: walrus-opt %t/heights.mlir -sb-alloc=report-file=%t/heights.json -o /dev/null
// RUN: FileCheck %s --check-prefix=JSON < %t/heights.json
// RUN: walrus-run %t/heights.mlir --after=sb-alloc | FileCheck %s --check-prefix=RUN-HEIGHTS
// RUN: walrus-run %t/spread.mlir --after=sb-alloc | FileCheck %s --check-prefix=RUN-SPREAD
// RUN: walrus-run %t/tiny.mlir --after=sb-alloc | FileCheck %s --check-prefix=RUN-TINY
// RUN: walrus-opt %t/view.mlir -sb-alloc=explain -o /dev/null 2>&1 | FileCheck %s --check-prefix=VIEW
// RUN: walrus-run %t/quarters.mlir --after=sb-alloc | FileCheck %s --check-prefix=RUN-QUARTERS
// RUN: walrus-run %t/nested.mlir --after=sb-alloc | FileCheck %s --check-prefix=RUN-NESTED
// RUN: walrus-opt %t/spill.mlir -sb-alloc=sbuf-bytes=256 -sb-alloc-verify | FileCheck %s --check-prefix=SPILL
// RUN: walrus-run %t/spill.mlir --after='sb-alloc{sbuf-bytes=256}' | FileCheck %s --check-prefix=RUN-SPILL

// find_partners' accumulation groups (../shared/spec/, the allocator page,
// "find_partners"): the tensor engine multiplies row k of both matmult
// operands in PE row k, which reads one partition, so the operands feeding
// a PSUM tensor sit on the same rows: each gets the partition band (the
// reference's Height) its rows fix.

//--- heights.mlir
// A 128-partition stationary 'w' starts at partition 0; the 32-row
// moving tiles it meets at rows 0, 32, 64, 96 get the quarters (Height
// 1-4), the 64-row ones at rows 0 and 64 the halves (6, 7). Tensors no
// matmult reads keep a free band: any quarter (0), any half (5).
// CHECK: remark: sb-alloc: found 2 accumulation group(s)
// CHECK: remark: sb-alloc: accumulation group of 'acc': largest = 'w', tensors = 5, requires 640 bytes/partition
// CHECK: remark: sb-alloc: accumulation group of 'acc2': largest = 'w', tensors = 3, requires 384 bytes/partition
// CHECK: remark: sb-alloc: 'q0' starts at partition 0 (Height 1)
// CHECK: remark: sb-alloc: 'q1' starts at partition 32 (Height 2)
// CHECK: remark: sb-alloc: 'q2' starts at partition 64 (Height 3)
// CHECK: remark: sb-alloc: 'q3' starts at partition 96 (Height 4)
// CHECK: remark: sb-alloc: 'h0' starts at partition 0 (Height 6)
// CHECK: remark: sb-alloc: 'h1' starts at partition 64 (Height 7)
// CHECK: %w = bir.memloc "w" internal address 0 base_partition 0 : !bir.sbuf<128x32xf32>
// CHECK: %q0 = bir.memloc "q0" internal address 128 base_partition 0 : !bir.sbuf<32x32xf32>
// CHECK: %q1 = bir.memloc "q1" internal address 128 base_partition 32 : !bir.sbuf<32x32xf32>
// CHECK: %q2 = bir.memloc "q2" internal address 128 base_partition 64 : !bir.sbuf<32x32xf32>
// CHECK: %q3 = bir.memloc "q3" internal address 128 base_partition 96 : !bir.sbuf<32x32xf32>
// CHECK: %h0 = bir.memloc "h0" internal address 128 base_partition 0 : !bir.sbuf<64x32xf32>
// CHECK: %h1 = bir.memloc "h1" internal address 128 base_partition 64 : !bir.sbuf<64x32xf32>
// CHECK: %out = bir.memloc "out" internal address 0 base_partition 0 : !bir.sbuf<32x32xf32>
// CHECK: %out2 = bir.memloc "out2" internal address 0 base_partition 32 : !bir.sbuf<32x32xf32>
// CHECK: %wide = bir.memloc "wide" internal address 0 base_partition 0 : !bir.sbuf<48x32xf32>
// JSON-COUNT-1: "band_class": 8,
// JSON-COUNT-1: "band_class": 1,
// JSON-COUNT-1: "band_class": 2,
// JSON-COUNT-1: "band_class": 3,
// JSON-COUNT-1: "band_class": 4,
// JSON-COUNT-1: "band_class": 6,
// JSON-COUNT-1: "band_class": 7,
// JSON-COUNT-2: "band_class": 0,
// JSON-COUNT-1: "band_class": 5,
// RUN-HEIGHTS: identical: 3 output(s), 14336 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<128x32xf32>
  %y = bir.memloc "y" output : !bir.dram<32x32xf32>
  %z = bir.memloc "z" output : !bir.dram<32x32xf32>
  %v = bir.memloc "v" output : !bir.dram<48x32xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x32xf32>
  %q0 = bir.memloc "q0" internal : !bir.sbuf<32x32xf32>
  %q1 = bir.memloc "q1" internal : !bir.sbuf<32x32xf32>
  %q2 = bir.memloc "q2" internal : !bir.sbuf<32x32xf32>
  %q3 = bir.memloc "q3" internal : !bir.sbuf<32x32xf32>
  %h0 = bir.memloc "h0" internal : !bir.sbuf<64x32xf32>
  %h1 = bir.memloc "h1" internal : !bir.sbuf<64x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  %acc2 = bir.memloc "acc2" internal : !bir.psum<32x32xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<32x32xf32>
  %out2 = bir.memloc "out2" internal : !bir.sbuf<32x32xf32>
  %wide = bir.memloc "wide" internal : !bir.sbuf<48x32xf32>
  bir.dma %w[#bir.ap<0, [[32, 128], [1, 32]]>], %x[#bir.ap<0, [[32, 128], [1, 32]]>] : !bir.sbuf<128x32xf32>, !bir.dram<128x32xf32>
  bir.dma %q0[#bir.ap<0, [[32, 32], [1, 32]]>], %x[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.dram<128x32xf32>
  bir.dma %q1[#bir.ap<0, [[32, 32], [1, 32]]>], %x[#bir.ap<1024, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.dram<128x32xf32>
  bir.dma %q2[#bir.ap<0, [[32, 32], [1, 32]]>], %x[#bir.ap<2048, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.dram<128x32xf32>
  bir.dma %q3[#bir.ap<0, [[32, 32], [1, 32]]>], %x[#bir.ap<3072, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.dram<128x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[32, 32], [1, 32]]>], %q0[#bir.ap<0, [[32, 32], [1, 32]]>] start : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<1024, [[32, 32], [1, 32]]>], %q1[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<2048, [[32, 32], [1, 32]]>], %q2[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<3072, [[32, 32], [1, 32]]>], %q3[#bir.ap<0, [[32, 32], [1, 32]]>] stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.dma %h0[#bir.ap<0, [[32, 64], [1, 32]]>], %x[#bir.ap<0, [[32, 64], [1, 32]]>] : !bir.sbuf<64x32xf32>, !bir.dram<128x32xf32>
  bir.dma %h1[#bir.ap<0, [[32, 64], [1, 32]]>], %x[#bir.ap<2048, [[32, 64], [1, 32]]>] : !bir.sbuf<64x32xf32>, !bir.dram<128x32xf32>
  bir.matmult %acc2[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[32, 64], [1, 32]]>], %h0[#bir.ap<0, [[32, 64], [1, 32]]>] start : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<64x32xf32>
  bir.matmult %acc2[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<2048, [[32, 64], [1, 32]]>], %h1[#bir.ap<0, [[32, 64], [1, 32]]>] stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<64x32xf32>
  bir.tensor_copy %out[#bir.ap<0, [[32, 32], [1, 32]]>], %acc[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.psum<32x32xf32>
  bir.tensor_copy %out2[#bir.ap<0, [[32, 32], [1, 32]]>], %acc2[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.psum<32x32xf32>
  bir.dma %y[#bir.ap<0, [[32, 32], [1, 32]]>], %out[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.dram<32x32xf32>, !bir.sbuf<32x32xf32>
  bir.dma %z[#bir.ap<0, [[32, 32], [1, 32]]>], %out2[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.dram<32x32xf32>, !bir.sbuf<32x32xf32>
  bir.dma %wide[#bir.ap<0, [[32, 48], [1, 32]]>], %x[#bir.ap<0, [[32, 48], [1, 32]]>] : !bir.sbuf<48x32xf32>, !bir.dram<128x32xf32>
  bir.dma %v[#bir.ap<0, [[32, 48], [1, 32]]>], %wide[#bir.ap<0, [[32, 48], [1, 32]]>] : !bir.dram<48x32xf32>, !bir.sbuf<48x32xf32>
}

// -----
//--- spread.mlir
// Operands no wide or placed tensor fixes: each tied set starts in the
// next quarter (the row tiles in turn), its members on the same rows, in
// a loop too when their rows move together.
// CHECK: remark: sb-alloc: found 1 accumulation group(s)
// CHECK: remark: sb-alloc: accumulation group of 'acc': largest = 's1', tensors = 4, requires 512 bytes/partition
// CHECK: %s1 = bir.memloc "s1" internal address 0 base_partition 0 : !bir.sbuf<16x32xf32>
// CHECK: %m1 = bir.memloc "m1" internal address 128 base_partition 0 : !bir.sbuf<16x32xf32>
// CHECK: %s2 = bir.memloc "s2" internal address 0 base_partition 32 : !bir.sbuf<24x32xf32>
// CHECK: %m2 = bir.memloc "m2" internal address 128 base_partition 32 : !bir.sbuf<24x32xf32>
// RUN-SPREAD: identical: 1 output(s), 8192 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<64x32xf32>
  %y = bir.memloc "y" output : !bir.dram<32x64xf32>
  %s1 = bir.memloc "s1" internal : !bir.sbuf<16x32xf32>
  %m1 = bir.memloc "m1" internal : !bir.sbuf<16x32xf32>
  %s2 = bir.memloc "s2" internal : !bir.sbuf<24x32xf32>
  %m2 = bir.memloc "m2" internal : !bir.sbuf<24x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x64xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<32x64xf32>
  bir.dma %s1[#bir.ap<0, [[32, 16], [1, 32]]>], %x[#bir.ap<0, [[32, 16], [1, 32]]>] : !bir.sbuf<16x32xf32>, !bir.dram<64x32xf32>
  bir.dma %m1[#bir.ap<0, [[32, 16], [1, 32]]>], %x[#bir.ap<512, [[32, 16], [1, 32]]>] : !bir.sbuf<16x32xf32>, !bir.dram<64x32xf32>
  bir.dma %s2[#bir.ap<0, [[32, 24], [1, 32]]>], %x[#bir.ap<1024, [[32, 24], [1, 32]]>] : !bir.sbuf<24x32xf32>, !bir.dram<64x32xf32>
  bir.dma %m2[#bir.ap<0, [[32, 24], [1, 32]]>], %x[#bir.ap<1280, [[32, 24], [1, 32]]>] : !bir.sbuf<24x32xf32>, !bir.dram<64x32xf32>
  bir.loop 0 to 4 step 1 {
    bir.matmult %acc[#bir.ap<0, [[64, 32], [1, 32]]>], %s1[#bir.sap<(d0) -> (d0 * 32), [[32, 8], [1, 32]]>], %m1[#bir.sap<(d0) -> (d0 * 32), [[32, 8], [1, 32]]>] : !bir.psum<32x64xf32>, !bir.sbuf<16x32xf32>, !bir.sbuf<16x32xf32>
  }
  bir.matmult %acc[#bir.ap<32, [[64, 32], [1, 32]]>], %s2[#bir.ap<32, [[32, 20], [1, 32]]>], %m2[#bir.ap<32, [[32, 20], [1, 32]]>] start stop : !bir.psum<32x64xf32>, !bir.sbuf<24x32xf32>, !bir.sbuf<24x32xf32>
  bir.tensor_copy %out[#bir.ap<0, [[64, 32], [1, 64]]>], %acc[#bir.ap<0, [[64, 32], [1, 64]]>] : !bir.sbuf<32x64xf32>, !bir.psum<32x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 32], [1, 64]]>], %out[#bir.ap<0, [[64, 32], [1, 64]]>] : !bir.dram<32x64xf32>, !bir.sbuf<32x64xf32>
}

// -----
//--- tiny.mlir
// A target of two partitions has halves of one partition and no quarters:
// 'm' meets row 1 of 'w' and takes the second half.
// CHECK: %m = bir.memloc "m" internal address 8 base_partition 1 : !bir.sbuf<1x4xf32>
module attributes {bir.target = #bir.target<name = "tiny", sbuf_partitions = 2, sbuf_bytes_per_partition = 1024, psum_partitions = 2, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
bir.func @main {
  %y = bir.memloc "y" output : !bir.dram<2x4xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<2x2xf32>
  %m = bir.memloc "m" internal : !bir.sbuf<1x4xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<2x4xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<2x4xf32>
  bir.memset %w[#bir.ap<0, [[2, 2], [1, 2]]>], 1.0 : !bir.sbuf<2x2xf32>
  bir.memset %m[#bir.ap<0, [[4, 1], [1, 4]]>], 2.0 : !bir.sbuf<1x4xf32>
  bir.matmult %acc[#bir.ap<0, [[4, 2], [1, 4]]>], %w[#bir.ap<2, [[2, 1], [1, 2]]>], %m[#bir.ap<0, [[4, 1], [1, 4]]>] start stop : !bir.psum<2x4xf32>, !bir.sbuf<2x2xf32>, !bir.sbuf<1x4xf32>
  bir.tensor_copy %out[#bir.ap<0, [[4, 2], [1, 4]]>], %acc[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.sbuf<2x4xf32>, !bir.psum<2x4xf32>
  bir.dma %y[#bir.ap<0, [[4, 2], [1, 4]]>], %out[#bir.ap<0, [[4, 2], [1, 4]]>] : !bir.dram<2x4xf32>, !bir.sbuf<2x4xf32>
}
}
// RUN-TINY: identical: 1 output(s), 32 bytes

// -----
//--- view.mlir
// Rows read through a view are the source's (an on-chip view keeps its
// partitions): 'm' meets 'w' on rows 0-31. Rows that are not whole
// partitions in order are not followed: the remark says so.
// CHECK: %m = bir.memloc "m" internal address 128 base_partition 0 : !bir.sbuf<32x32xf32>
// VIEW: remark: sb-alloc: matmult rows not followed (a replicated operand, rows not whole partitions in order, or too many iterations): its operands get no band from it
bir.func @main {
  %w = bir.memloc "w" internal : !bir.sbuf<32x64xbf16>
  %m = bir.memloc "m" internal : !bir.sbuf<32x32xf32>
  %o = bir.memloc "o" internal : !bir.sbuf<32x64xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  %mv = bir.view %m : !bir.sbuf<32x32xf32> to !bir.sbuf<32x64xbf16>
  bir.memset %w[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xbf16>
  bir.memset %m[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.memset %o[#bir.ap<0, [[64, 32], [1, 64]]>], 1.0 : !bir.sbuf<32x64xbf16>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[64, 32], [1, 32]]>], %mv[#bir.ap<0, [[64, 32], [1, 32]]>] start : !bir.psum<32x32xf32>, !bir.sbuf<32x64xbf16>, !bir.sbuf<32x64xbf16>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[64, 16], [1, 32]]>], %o[#bir.ap<0, [[128, 16], [1, 32]]>] stop : !bir.psum<32x32xf32>, !bir.sbuf<32x64xbf16>, !bir.sbuf<32x64xbf16>
}

// -----
//--- quarters.mlir
// The tied pair 'st' and 'b' would start in the first quarter in turn,
// beside 'c' (64 rows at 0): 224 B per partition. Trying the other
// quarters, the third lets 'a' share the first half with 'c': 160 B.
// CHECK: remark: sb-alloc: 'st' starts at partition 64 (Height 3)
// CHECK: %a = bir.memloc "a" internal address 64 base_partition 0 : !bir.sbuf<64x32xbf16>
// CHECK: %st = bir.memloc "st" internal address 32 base_partition 64 : !bir.sbuf<32x64xbf16>
// CHECK: %b = bir.memloc "b" internal address 0 base_partition 64 : !bir.sbuf<32x16xbf16>
// CHECK: %c = bir.memloc "c" internal address 0 base_partition 0 : !bir.sbuf<64x16xf32>
// RUN-QUARTERS: identical: 1 output(s), 4096 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<64x32xbf16>
  %w = bir.memloc "w" input : !bir.dram<32x16xbf16>
  %c0 = bir.memloc "c0" input : !bir.dram<64x16xf32>
  %y = bir.memloc "y" output : !bir.dram<64x16xf32>
  %a = bir.memloc "a" internal : !bir.sbuf<64x32xbf16>
  %st = bir.memloc "st" internal : !bir.sbuf<32x64xbf16>
  %b = bir.memloc "b" internal : !bir.sbuf<32x16xbf16>
  %acc = bir.memloc "acc" internal : !bir.psum<64x16xf32>
  %c = bir.memloc "c" internal : !bir.sbuf<64x16xf32>
  bir.dma %c[#bir.ap<0, [[16, 64], [1, 16]]>], %c0[#bir.ap<0, [[16, 64], [1, 16]]>] : !bir.sbuf<64x16xf32>, !bir.dram<64x16xf32>
  bir.dma %b[#bir.ap<0, [[16, 32], [1, 16]]>], %w[#bir.ap<0, [[16, 32], [1, 16]]>] : !bir.sbuf<32x16xbf16>, !bir.dram<32x16xbf16>
  bir.dma %a[#bir.ap<0, [[32, 64], [1, 32]]>], %x[#bir.ap<0, [[32, 64], [1, 32]]>] : !bir.sbuf<64x32xbf16>, !bir.dram<64x32xbf16>
  bir.transpose %st[#bir.ap<0, [[64, 32], [1, 64]]>], %a[#bir.ap<0, [[32, 64], [1, 32]]>] : !bir.sbuf<32x64xbf16>, !bir.sbuf<64x32xbf16>
  bir.matmult %acc[#bir.ap<0, [[16, 64], [1, 16]]>], %st[#bir.ap<0, [[64, 32], [1, 64]]>], %b[#bir.ap<0, [[16, 32], [1, 16]]>] start stop : !bir.psum<64x16xf32>, !bir.sbuf<32x64xbf16>, !bir.sbuf<32x16xbf16>
  bir.tensor_tensor add %c[#bir.ap<0, [[16, 64], [1, 16]]>], %c[#bir.ap<0, [[16, 64], [1, 16]]>], %acc[#bir.ap<0, [[16, 64], [1, 16]]>] : !bir.sbuf<64x16xf32>, !bir.sbuf<64x16xf32>, !bir.psum<64x16xf32>
  bir.dma %y[#bir.ap<0, [[16, 64], [1, 16]]>], %c[#bir.ap<0, [[16, 64], [1, 16]]>] : !bir.dram<64x16xf32>, !bir.sbuf<64x16xf32>
}

// -----
//--- nested.mlir
// Starts over different loops: the stationary start names the outer loop
// only, the moving one both. Both are followed over both loops, so their
// points line up (they used not to: the stationary rows were read past
// their end and the matmult was wrongly said to move apart).
// CHECK: %s = bir.memloc "s" internal address 0 base_partition 0 : !bir.sbuf<16x32xf32>
// CHECK: %m = bir.memloc "m" internal address 128 base_partition 0 : !bir.sbuf<16x32xf32>
// RUN-NESTED: identical: 1 output(s), 4096 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<16x32xf32>
  %y = bir.memloc "y" output : !bir.dram<32x32xf32>
  %s = bir.memloc "s" internal : !bir.sbuf<16x32xf32>
  %m = bir.memloc "m" internal : !bir.sbuf<16x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<32x32xf32>
  bir.dma %s[#bir.ap<0, [[32, 16], [1, 32]]>], %x[#bir.ap<0, [[32, 16], [1, 32]]>] : !bir.sbuf<16x32xf32>, !bir.dram<16x32xf32>
  bir.dma %m[#bir.ap<0, [[32, 16], [1, 32]]>], %x[#bir.ap<0, [[32, 16], [1, 32]]>] : !bir.sbuf<16x32xf32>, !bir.dram<16x32xf32>
  bir.memset %acc[#bir.ap<0, [[32, 32], [1, 32]]>], 0.0 : !bir.psum<32x32xf32>
  bir.loop 0 to 2 step 1 {
    bir.loop 0 to 3 step 1 {
      bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %s[#bir.sap<(d0) -> (d0 * 32), [[32, 8], [1, 32]]>], %m[#bir.sap<(d0, d1) -> (d0 * 32), [[32, 8], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<16x32xf32>, !bir.sbuf<16x32xf32>
    }
  }
  bir.tensor_copy %out[#bir.ap<0, [[32, 32], [1, 32]]>], %acc[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.psum<32x32xf32>
  bir.dma %y[#bir.ap<0, [[32, 32], [1, 32]]>], %out[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.dram<32x32xf32>, !bir.sbuf<32x32xf32>
}

// -----
//--- spill.mlir
// In 256 bytes 'q' spills around 'big'; the tensor the matmult reads
// instead is stamped in the next round and meets rows 32-63 of 'w'.
// SPILL: %q_spill1 = bir.memloc "q_spill1" internal address 128 base_partition 32 : !bir.sbuf<32x32xf32>
// RUN-SPILL: identical: 2 output(s), 29696 bytes
bir.func @main {
  %x = bir.memloc "x" input : !bir.dram<128x32xf32>
  %y = bir.memloc "y" output : !bir.dram<32x32xf32>
  %z = bir.memloc "z" output : !bir.dram<128x50xf32>
  %w = bir.memloc "w" internal : !bir.sbuf<128x32xf32>
  %q = bir.memloc "q" internal : !bir.sbuf<32x32xf32>
  %big = bir.memloc "big" internal : !bir.sbuf<128x50xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  %out = bir.memloc "out" internal : !bir.sbuf<32x32xf32>
  bir.dma %q[#bir.ap<0, [[32, 32], [1, 32]]>], %x[#bir.ap<1024, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.dram<128x32xf32>
  bir.memset %big[#bir.ap<0, [[50, 128], [1, 50]]>], 3.0 : !bir.sbuf<128x50xf32>
  bir.dma %z[#bir.ap<0, [[50, 128], [1, 50]]>], %big[#bir.ap<0, [[50, 128], [1, 50]]>] : !bir.dram<128x50xf32>, !bir.sbuf<128x50xf32>
  bir.dma %w[#bir.ap<0, [[32, 128], [1, 32]]>], %x[#bir.ap<0, [[32, 128], [1, 32]]>] : !bir.sbuf<128x32xf32>, !bir.dram<128x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<1024, [[32, 32], [1, 32]]>], %q[#bir.ap<0, [[32, 32], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<32x32xf32>
  bir.tensor_copy %out[#bir.ap<0, [[32, 32], [1, 32]]>], %acc[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.sbuf<32x32xf32>, !bir.psum<32x32xf32>
  bir.dma %y[#bir.ap<0, [[32, 32], [1, 32]]>], %out[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.dram<32x32xf32>, !bir.sbuf<32x32xf32>
}

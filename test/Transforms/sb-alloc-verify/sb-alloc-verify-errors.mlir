// RUN: walrus-opt %s -split-input-file -sb-alloc-verify -verify-diagnostics -o /dev/null

bir.func @unplaced {
  // expected-error @+1 {{sb-alloc-verify: 't' is not placed}}
  %t = bir.memloc "t" internal : !bir.sbuf<64x8xf32>
}

// -----

// Two co-live tensors that share bytes: a hand-made overlap.
bir.func @overlap {
  %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<64x8xf32>
  // expected-error @+1 {{sb-alloc-verify: 'b' and 'a' are live at the same time (points 1 to 2) and share partitions [32, 64) x bytes [16, 32)}}
  %b = bir.memloc "b" internal address 16 base_partition 32 : !bir.sbuf<64x8xf32>
  bir.memset %a[#bir.ap<0, [[8, 64], [1, 8]]>], 1.0 : !bir.sbuf<64x8xf32>
  bir.memset %b[#bir.ap<0, [[8, 64], [1, 8]]>], 2.0 : !bir.sbuf<64x8xf32>
  bir.tensor_tensor add %a[#bir.ap<0, [[8, 64], [1, 8]]>], %a[#bir.ap<0, [[8, 64], [1, 8]]>], %b[#bir.ap<0, [[8, 64], [1, 8]]>]
    : !bir.sbuf<64x8xf32>, !bir.sbuf<64x8xf32>, !bir.sbuf<64x8xf32>
}

// -----

// A loop-carried tensor is live across the whole loop: reusing its bytes
// inside the loop is an overlap.
bir.func @carried {
  %acc = bir.memloc "acc" internal address 0 base_partition 0 : !bir.sbuf<8x8xf32>
  // expected-error @+1 {{sb-alloc-verify: 'tmp' and 'acc' are live at the same time (points 2 to 3) and share partitions [0, 8) x bytes [0, 32)}}
  %tmp = bir.memloc "tmp" internal address 0 base_partition 0 : !bir.sbuf<8x8xf32>
  bir.memset %acc[#bir.ap<0, [[8, 8], [1, 8]]>], 0.0 : !bir.sbuf<8x8xf32>
  bir.loop 0 to 4 step 1 {
    bir.memset %tmp[#bir.ap<0, [[8, 8], [1, 8]]>], 1.0 : !bir.sbuf<8x8xf32>
    bir.tensor_tensor add %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %acc[#bir.ap<0, [[8, 8], [1, 8]]>], %tmp[#bir.ap<0, [[8, 8], [1, 8]]>]
      : !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>, !bir.sbuf<8x8xf32>
  }
}

// -----

// Outside the target: a target with 1 KiB per partition.
module attributes {bir.target = #bir.target<name = "tiny", sbuf_partitions = 128, sbuf_bytes_per_partition = 1024, psum_partitions = 128, psum_bytes_per_partition = 16384, psum_banks = 8, max_stationary_free = 128, max_moving_free = 512>} {
  bir.func @outside {
    // expected-error @+1 {{'bir.memloc' op bytes [1000, 1032) do not fit the target's 1024 bytes per partition}}
    %t = bir.memloc "t" internal address 1000 base_partition 0 : !bir.sbuf<8x8xf32>
  }
}

// -----

// The tensor engine reads row k of both operands in PE row k: placed 32
// partitions apart, 'w' and 'v' cannot meet there.
bir.func @rows_apart {
  %w = bir.memloc "w" internal address 0 base_partition 0 : !bir.sbuf<32x32xf32>
  %v = bir.memloc "v" internal address 0 base_partition 32 : !bir.sbuf<32x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.memset %v[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  // expected-error @+1 {{sb-alloc-verify: matmult reads 'stationary' rows from partition 0 and 'moving' rows from partition 32: the tensor engine needs them on the same partitions}}
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[32, 32], [1, 32]]>], %v[#bir.ap<0, [[32, 32], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<32x32xf32>, !bir.sbuf<32x32xf32>
}

// -----

bir.func @rows_move_apart {
  %w = bir.memloc "w" internal address 0 base_partition 0 : !bir.sbuf<64x32xf32>
  %m = bir.memloc "m" internal address 128 base_partition 0 : !bir.sbuf<64x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 64], [1, 32]]>], 1.0 : !bir.sbuf<64x32xf32>
  bir.memset %m[#bir.ap<0, [[32, 64], [1, 32]]>], 1.0 : !bir.sbuf<64x32xf32>
  bir.loop 0 to 2 step 1 {
    // expected-error @+1 {{sb-alloc-verify: matmult reads 'stationary' and 'moving' rows that move apart across iterations}}
    bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.sap<(d0) -> (d0 * 1024), [[32, 32], [1, 32]]>], %m[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<64x32xf32>, !bir.sbuf<64x32xf32>
  }
}

// -----

// Rows 0-63 of t die at point 1 (v may take them: sb-alloc-verify.mlir),
// rows 64-127 live until point 3: v placed there meets them.
bir.func @rows_still_live {
  %x = bir.memloc "x" input : !bir.dram<128x64xf32>
  %y = bir.memloc "y" output : !bir.dram<128x64xf32>
  %t = bir.memloc "t" internal address 0 base_partition 0 : !bir.sbuf<128x64xf32>
  // expected-error @+1 {{sb-alloc-verify: 'v' and 't' are live at the same time (points 2 to 3) and share partitions [64, 128) x bytes [0, 256)}}
  %v = bir.memloc "v" internal address 0 base_partition 64 : !bir.sbuf<64x64xf32>
  bir.dma %t[#bir.ap<0, [[64, 128], [1, 64]]>], %x[#bir.ap<0, [[64, 128], [1, 64]]>] : !bir.sbuf<128x64xf32>, !bir.dram<128x64xf32>
  bir.dma %y[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<128x64xf32>
  bir.memset %v[#bir.ap<0, [[64, 64], [1, 64]]>], 2.0 : !bir.sbuf<64x64xf32>
  bir.tensor_tensor add %v[#bir.ap<0, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>], %t[#bir.ap<4096, [[64, 64], [1, 64]]>] : !bir.sbuf<64x64xf32>, !bir.sbuf<64x64xf32>, !bir.sbuf<128x64xf32>
  bir.dma %y[#bir.ap<4096, [[64, 64], [1, 64]]>], %v[#bir.ap<0, [[64, 64], [1, 64]]>] : !bir.dram<128x64xf32>, !bir.sbuf<64x64xf32>
}

// -----

// 'a' is read for the last time by the copy that writes 'b': both are live
// there. At the same place, only an identity copy may share the bytes (it
// moves nothing); this one moves columns 8-15 to 0-7.
bir.func @copy_moves_bytes {
  %y = bir.memloc "y" output : !bir.dram<8x8xf32>
  %a = bir.memloc "a" internal address 0 base_partition 0 : !bir.sbuf<8x16xf32>
  // expected-error @+1 {{sb-alloc-verify: 'b' and 'a' are live at the same time (points 1 to 1) and share partitions [0, 8) x bytes [0, 64)}}
  %b = bir.memloc "b" internal address 0 base_partition 0 : !bir.sbuf<8x16xf32>
  bir.memset %a[#bir.ap<0, [[16, 8], [1, 16]]>], 1.0 : !bir.sbuf<8x16xf32>
  bir.tensor_copy %b[#bir.ap<0, [[16, 8], [1, 8]]>], %a[#bir.ap<8, [[16, 8], [1, 8]]>] : !bir.sbuf<8x16xf32>, !bir.sbuf<8x16xf32>
  bir.dma %y[#bir.ap<0, [[8, 8], [1, 8]]>], %b[#bir.ap<0, [[16, 8], [1, 8]]>] : !bir.dram<8x8xf32>, !bir.sbuf<8x16xf32>
}

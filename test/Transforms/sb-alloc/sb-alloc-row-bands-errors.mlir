// RUN: walrus-opt %s -split-input-file -sb-alloc -verify-diagnostics

// Matmults whose operands no placement puts on the same tensor-engine
// rows (lib/Analysis/RowAlignment.cpp): -sb-alloc says where and fails.

// One tensor read as both operands from different rows.
bir.func @main {
  %t = bir.memloc "t" internal : !bir.sbuf<64x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %t[#bir.ap<0, [[32, 64], [1, 32]]>], 1.0 : !bir.sbuf<64x32xf32>
  // expected-error @+1 {{sb-alloc: matmult reads rows from partition 0 of 't' and from partition 1 of 't': no placement puts both on the same tensor-engine rows (with the other matmults reading them)}}
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %t[#bir.ap<0, [[32, 8], [1, 32]]>], %t[#bir.ap<32, [[32, 8], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<64x32xf32>, !bir.sbuf<64x32xf32>
}

// -----

// Two matmults tie 'a' and 'b' at different distances.
bir.func @main {
  %a = bir.memloc "a" internal : !bir.sbuf<32x32xf32>
  %b = bir.memloc "b" internal : !bir.sbuf<32x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %a[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.memset %b[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %a[#bir.ap<0, [[32, 8], [1, 32]]>], %b[#bir.ap<0, [[32, 8], [1, 32]]>] start : !bir.psum<32x32xf32>, !bir.sbuf<32x32xf32>, !bir.sbuf<32x32xf32>
  // expected-error @+1 {{sb-alloc: matmult reads rows from partition 8 of 'a' and from partition 0 of 'b'}}
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %a[#bir.ap<256, [[32, 8], [1, 32]]>], %b[#bir.ap<0, [[32, 8], [1, 32]]>] stop : !bir.psum<32x32xf32>, !bir.sbuf<32x32xf32>, !bir.sbuf<32x32xf32>
}

// -----

// Both operands span more than half the partitions, so both start at 0,
// but the matmult reads them 32 rows apart.
bir.func @main {
  %w = bir.memloc "w" internal : !bir.sbuf<128x32xf32>
  // expected-error @+1 {{sb-alloc: 'x' must start at partition 0 (it spans more than half the partitions), but the matmults reading it need it at partition 32}}
  %x = bir.memloc "x" internal : !bir.sbuf<128x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 128], [1, 32]]>], 1.0 : !bir.sbuf<128x32xf32>
  bir.memset %x[#bir.ap<0, [[32, 128], [1, 32]]>], 1.0 : !bir.sbuf<128x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<1024, [[32, 32], [1, 32]]>], %x[#bir.ap<0, [[32, 32], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<128x32xf32>
}

// -----

// 'q' must start at partition 1, where no band starts.
bir.func @main {
  %w = bir.memloc "w" internal : !bir.sbuf<128x32xf32>
  // expected-error @+1 {{sb-alloc: 'q' must start at partition 1 for the matmults reading it, where no partition band of 8 partitions starts}}
  %q = bir.memloc "q" internal : !bir.sbuf<8x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 128], [1, 32]]>], 1.0 : !bir.sbuf<128x32xf32>
  bir.memset %q[#bir.ap<0, [[32, 8], [1, 32]]>], 1.0 : !bir.sbuf<8x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<32, [[32, 8], [1, 32]]>], %q[#bir.ap<0, [[32, 8], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<128x32xf32>, !bir.sbuf<8x32xf32>
}

// -----

// The stationary rows move with the loop, the moving ones stay.
bir.func @main {
  %w = bir.memloc "w" internal : !bir.sbuf<64x32xf32>
  %m = bir.memloc "m" internal : !bir.sbuf<64x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 64], [1, 32]]>], 1.0 : !bir.sbuf<64x32xf32>
  bir.memset %m[#bir.ap<0, [[32, 64], [1, 32]]>], 1.0 : !bir.sbuf<64x32xf32>
  bir.loop 0 to 2 step 1 {
    // expected-error @+1 {{sb-alloc: matmult reads 'stationary' and 'moving' rows that move apart across iterations: no placement keeps both on the same tensor-engine rows}}
    bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.sap<(d0) -> (d0 * 1024), [[32, 32], [1, 32]]>], %m[#bir.ap<0, [[32, 32], [1, 32]]>] : !bir.psum<32x32xf32>, !bir.sbuf<64x32xf32>, !bir.sbuf<64x32xf32>
  }
}

// -----

// A placed tensor decides where its partners go.
bir.func @main {
  %w = bir.memloc "w" internal address 0 base_partition 32 : !bir.sbuf<32x32xf32>
  // expected-error @+1 {{sb-alloc: 'v' must start at partition 64 (placed there), but the matmults reading it need it at partition 32}}
  %v = bir.memloc "v" internal address 0 base_partition 64 : !bir.sbuf<32x32xf32>
  %acc = bir.memloc "acc" internal : !bir.psum<32x32xf32>
  bir.memset %w[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.memset %v[#bir.ap<0, [[32, 32], [1, 32]]>], 1.0 : !bir.sbuf<32x32xf32>
  bir.matmult %acc[#bir.ap<0, [[32, 32], [1, 32]]>], %w[#bir.ap<0, [[32, 32], [1, 32]]>], %v[#bir.ap<0, [[32, 32], [1, 32]]>] start stop : !bir.psum<32x32xf32>, !bir.sbuf<32x32xf32>, !bir.sbuf<32x32xf32>
}
